"""Decisions and rolls told when read (runtime/tell.py, switch `tell.TELL`): outside a
playout, a decision or roll whose `log` text is a literal records what a playout
records (its spec's twin, who, the value, the record before) and after that only the
values of its line's holes that the record does not hold, flat; the line is made when
the log is read. Every reader must see what the eager record showed: the same events,
lines for every viewer, record and views, after later moves, clones, edits,
determinizations and playouts; a hole that fails must fail when recorded, as before."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from conftest import sample
from test_api_resume import RULESETS
from test_late_lines import play

import rulelang
from rulelang import Game, Ruleset
from rulelang.diagnostics import GameRuntimeError
from rulelang.runtime import codegen, tell
from rulelang.runtime.code import Chose, Drew, Said

ROOT = Path(__file__).resolve().parent.parent


def compiled(
    path: Path | str, on: bool, source: str | None = None, shared: bool | None = None
) -> Ruleset:
    """The rules compiled with TELL `on` (and SHARED `shared`, by default as `on`)."""
    was = tell.TELL, tell.SHARED
    tell.TELL, tell.SHARED = on, on if shared is None else shared
    try:
        if source is not None:
            return rulelang.compile_source(source, str(path))
        return rulelang.compile_file(ROOT / "rulesets" / path)
    finally:
        tell.TELL, tell.SHARED = was


def records(game: Game) -> list[tuple[Any, ...]]:
    """The game's log records, oldest first."""
    out, link = [], game.state.log
    while link is not None:
        out.append(link)
        link = link[3]
    return out[::-1]


def shown(game: Game) -> object:
    """Everything a reader sees of the log, as plain data: each event (its spec by
    pc and name), the history and view of every viewer, the record."""
    events: list[object] = []
    for e in game.events():
        if isinstance(e, Chose):
            events.append(("chose", e.decision.pc, e.who, e.value, e.text, e.hidden, e.audience))
        elif isinstance(e, Drew):
            d = e.decision
            events.append(("drew", d.pc, e.outcome, e.value, e.text, e.hidden, e.audience))
        else:
            events.append(tuple(e) if not isinstance(e, Said) else ("said", *e))
    viewers = (None, *range(game.players))
    return (
        events,
        [game.history(v) for v in viewers],
        [game.view(v) for v in viewers],
        game.record(),
    )


def alike(on: Game, off: Game, step: Any, seed: int) -> tuple[Any, Any]:
    """The same step in both games, then the same log read from each."""
    out = step(on, random.Random(seed)), step(off, random.Random(seed))
    games = [o if isinstance(o, Game) else g for o, g in zip(out, (on, off), strict=True)]
    assert shown(games[0]) == shown(games[1])
    return out


@pytest.mark.parametrize("name", RULESETS)
def test_every_game_reads_as_with_the_lines_logged_when_made(name: str, full: bool) -> None:
    on_rules, off_rules = compiled(name, True), compiled(name, False)
    n = on_rules.min_players
    for seed in range(sample(full, 3, 1)):
        on, off = on_rules.new_game(n, seed=seed), off_rules.new_game(n, seed=seed)
        alike(on, off, lambda g, r: play(g, r, 60), seed)
        clones = alike(on, off, lambda g, r: g.clone(), seed)
        alike(*clones, lambda g, r: play(g, r, 40), seed + 1)
        played = alike(on, off, lambda g, r: g.clone(), seed)
        alike(*played, lambda g, r: g.playout(r), seed + 2)
        worlds = alike(on, off, lambda g, r: g.determinize(None, r), seed + 3)
        alike(*worlds, lambda g, r: play(g, r, 40), seed + 4)
        alike(on, off, lambda g, r: play(g, r, sample(full, 10_000, 200)), seed + 5)


def test_heimlichs_records_are_as_short_as_a_playouts() -> None:
    """Through the API, each decision of Heimlich records a twin of its spec and only
    what its line needs beyond the record: the agent (`log ""`), the move points and
    the safe's building nothing more (4 items, as a playout's); the distance the agent
    and the building reached (its `current`, steps and plural are worked out when
    read); a roll the turn player; no tuple inside a record. Off: the line's values in a
    tuple of their own."""
    for on in (True, False):
        rules = compiled("heimlich.rules", on)
        game = rules.new_game(4, seed=3)
        play(game, random.Random(3), 10_000)
        assert game.is_over()
        chosen = [r for r in records(game) if type(r[0]).__name__ == "ChoiceSpec"]
        assert len(chosen) > 100
        if not on:
            assert all(r[0].plain is None and len(r) == 6 for r in chosen)
            assert any(type(r[4]) is tuple for r in chosen)
            continue
        assert all(r[0].plain is not None for r in chosen)
        assert not any(type(x) is tuple for r in chosen for x in r[4:])
        sizes = {r[0].name: len(r) for r in chosen}
        assert sizes == {"mover": 4, "steps": 6, "points": 4, "target": 4}
        rolls = [r for r in records(game) if type(r[0]).__name__ == "ChanceSpec"]
        # a roll of a die whose faces are written texts: the face is the record's value,
        # `current` the one value after it
        dice = [r for r in rolls if r[0].kind == "roll"]
        assert dice and all(r[0].plain is not None and len(r) == 5 for r in dice)


def test_a_playout_and_lines_for_others_keep_their_records() -> None:
    """Stays off: a loud playout's records name the statement's spec (4 items, no
    line); so do a reaction round's choices, and a choice whose record has a line for
    the others (`log ... else`) or an audience (`secret to`) keeps its full record."""
    rules = compiled("heimlich.rules", True)
    game = rules.new_game(4, seed=4)
    game.playout(random.Random(4))
    decided = [r for r in records(game) if type(r[0]).__name__ == "ChoiceSpec"]
    assert decided and all(r[0].plain is None and len(r) == 4 for r in decided)
    saboteur = compiled("saboteur.rules", True)
    secret = [s for s in saboteur.code.choices.values() if s.audience or s.narrate_hidden]
    assert secret and all(saboteur.code.resumes[s.pc] is None for s in secret)
    game = saboteur.new_game(3, seed=1)
    play(game, random.Random(1), 400)
    told = [r for r in records(game) if getattr(r[0], "plain", None) is not None]
    assert told and not any(r[0].audience or r[0].narrate_hidden for r in told)
    assert not any(getattr(r[0], "reaction", False) for r in told)


PLURAL = """
game "t"
players 2..2
global {
  word: text = "!"
}
turn {
  choose n in 1..3 prompt "How many?" log "{current} takes {n} point{plural(n)}{word}"
  if n == 3 {
    set word = none
  }
}
def plural(n: int) = if n == 1 then "" else "s"
end when turn_number > 8 { draw players }
"""


def test_a_hole_worked_out_from_the_value_is_not_captured() -> None:
    """`plural(n)` is worked out from the value when read; the global text `word` is
    captured (shown when recorded, as the eager line showed it)."""
    rules = compiled("t.rules", True, PLURAL)
    game = rules.new_game(2, seed=1)
    game.apply(game.find("2"))
    record = game.state.log
    assert record[0].plain is not None and record[4:] == ("!",)
    assert game.history() == ["P1 takes 2 points!"]


def test_a_hole_that_fails_fails_when_recorded() -> None:
    """`word` none in the line (R030) fails at the decision that logs it, with the
    same error and the same log before it, on and off."""
    seen = []
    for on in (True, False):
        game = compiled("t.rules", on, PLURAL).new_game(2, seed=1)
        game.apply(game.find("1"))
        game.apply(game.find("3"))  # sets `word` to none after its line is logged
        with pytest.raises(GameRuntimeError) as err:
            game.apply(game.find("2"))
        seen.append((str(err.value), game.history()))
    assert seen[0] == seen[1]
    assert seen[0][1] == ["P1 takes 1 point!", "P2 takes 3 points!"]


SECRET = """
game "t"
players 2..2
turn {
  choose n in 1..3 secret prompt "How many?" log "{current} takes {n} point{plural(n)}"
}
def plural(n: int) = if n == 1 then "" else "s"
end when turn_number > 4 { draw players }
"""


def test_a_secret_choice_told_when_read_shows_no_one_else_its_value() -> None:
    """A secret choice's line, made when read, is the chooser's (and the referee's)
    alone, as when logged: the other player reads that a choice was made in secret."""
    games = []
    for on in (True, False):
        game = compiled("t.rules", on, SECRET).new_game(2, seed=1)
        game.apply(game.find("2"))
        game.apply(game.find("3"))
        if on:
            assert all(r[0].plain is not None and len(r) == 4 for r in records(game))
        games.append(game)
    assert shown(games[0]) == shown(games[1])
    assert games[0].history(0) == ["P1 takes 2 points", "P2 chooses in secret"]
    assert games[0].history(1) == ["P1 chooses in secret", "P2 takes 3 points"]


HEAD = [
    "loc = st.loc",
    "st.loc[11] = value",
    tell._QUIET,
    "    st.log = (_spec6, st.who, value, st.log, st.loc[10], ((st.cols[2][st.loc[10]] + 1) % 9))",
    "st.pending = None",
]
SET = "st.cols[2][st.loc[10]] = ((st.cols[2][st.loc[10]] + 1) % 9)  # @26"


def test_a_value_recorded_and_then_stored_is_worked_out_once() -> None:
    """The record captures what the statement after the choice stores: the statement
    runs first and the record reads what it stored (the value worked out once)."""
    out = tell.shared([*HEAD, SET, "return 5"], True)
    assert out == [
        *HEAD[:2],
        SET,
        tell._QUIET,
        "    st.log = (_spec6, st.who, value, st.log, st.loc[10], st.cols[2][st.loc[10]])",
        "st.pending = None",
        "return 5",
    ]
    assert sum("% 9" in line for line in out) == 1


@pytest.mark.parametrize(
    "why",
    [
        "off",
        "read by another value",
        "a call",
        "a call in another value",
        "target not read",
        "not the next statement",
    ],
)
def test_a_value_is_worked_out_twice_where_it_must(why: str) -> None:
    """Stays off: SHARED off; another value of the record reads the column the
    statement changes (it would read it changed); the value calls something (which
    might give another value a second time), or another value does (which might read
    the column); the statement does not read its target first (a bad place would fail
    after the record, not before); a statement between."""
    head, statement = list(HEAD), SET
    if why == "off":
        pass
    elif why == "read by another value":
        head[3] = head[3].replace("st.loc[10], ", "st.cols[2][0], ")
    elif why == "a call":
        head[3] = head[3].replace("% 9)", "% _f(9))")
        statement = statement.replace("% 9)", "% _f(9))")
    elif why == "a call in another value":  # (a def that reads the column, say)
        head[3] = head[3].replace("st.loc[10], ", "_d_at(st, st.loc[10]), ")
    elif why == "target not read":
        head[3] = head[3].replace("st.cols[2][st.loc[10]] + 1", "st.loc[11] + 1")
        statement = statement.replace("st.cols[2][st.loc[10]] + 1", "st.loc[11] + 1")
    else:
        head.append("st.steps = 0")
    lines = [*head, statement, "return 5"]
    assert tell.shared(lines, why != "off") == lines


def test_heimlich_reads_the_same_with_the_value_worked_out_once(monkeypatch: Any) -> None:
    """Heimlich's distance stores the building its line names: worked out once (the
    resume's record reads the agent's place) or twice, the same games and logs."""
    monkeypatch.setattr(codegen, "RUN_ON_HOT", 3)  # the resumes settle (and are kept)
    on_rules, off_rules = (
        compiled("heimlich.rules", True),
        compiled("heimlich.rules", True, shared=False),
    )
    for seed in range(2):
        on, off = on_rules.new_game(4, seed=seed), off_rules.new_game(4, seed=seed)
        alike(on, off, lambda g, r: play(g, r, 10_000), seed)
        assert on.is_over()
    sources = [on_rules.ex.ns.kept.get(f"_resume{pc}") for pc in on_rules.code.choices]
    assert any(
        body and any("st.log = (" in ln and "cols[2][fw_10])" in ln for ln in body)
        for body in sources
    )
