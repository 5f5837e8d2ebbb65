"""A rule file's log lines are formatted when read (runtime/late.py): a decision or
chance event logs the values its line shows, and the line is made from them when
someone reads the log. Every text must be the one the eager line made at the
decision (`late.LATE` off compiles the eager lines), whatever happened since: later
moves, clones, edits, determinizations and playouts from a clone; and nothing may be
formatted before it is read."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import sample

import rulelang
from rulelang import CHANCE, Chose, Drew, Game, Ruleset
from rulelang.runtime import late

ROOT = Path(__file__).resolve().parent.parent
RULESETS = sorted(p.name for p in (ROOT / "rulesets").glob("*.rules"))


def compiled(name: str, lazy: bool) -> Ruleset:
    was = late.LATE
    late.LATE = lazy
    try:
        return rulelang.compile_file(ROOT / "rulesets" / name)
    finally:
        late.LATE = was


def texts(game: Game) -> object:
    """Everything a reader sees of the log: the history of every viewer, the events'
    lines, the record and the views' logs."""
    viewers = (None, *range(game.players))
    return (
        [game.history(v) for v in viewers],
        [(e.text, e.hidden) for e in game.events() if isinstance(e, Chose | Drew)],
        game.record(),
        [game.view(v)["log"] for v in viewers[:2]],
    )


def play(game: Game, rng: random.Random, decisions: int) -> None:
    for _ in range(decisions):
        if game.is_over():
            return
        if game.current_player() == CHANCE:
            game.resolve_chance()
            continue
        actions = game.legal_actions()
        game.apply(actions[int(rng.random() * len(actions))])


def alike(
    lazy: Game, eager: Game, step: Callable[[Game, random.Random], Any], seed: int
) -> tuple[Any, Any]:
    """Take the same step in both games (with generators alike) and compare what
    they show; give back what the step gave."""
    out = step(lazy, random.Random(seed)), step(eager, random.Random(seed))
    assert texts(out[0] if isinstance(out[0], Game) else lazy) == texts(
        out[1] if isinstance(out[1], Game) else eager
    )
    return out


@pytest.mark.parametrize("name", RULESETS)
def test_late_lines_read_as_the_eager_ones(name: str, full: bool) -> None:
    lazy_rules, eager_rules = compiled(name, True), compiled(name, False)
    code = lazy_rules.code
    assert any(s.late for s in (*code.choices.values(), *code.chances.values()))
    players = sorted({lazy_rules.min_players, lazy_rules.max_players if full else 0} - {0})
    for seed in range(sample(full, 4, 1)):
        for n in players:
            lazy, eager = lazy_rules.new_game(n, seed=seed), eager_rules.new_game(n, seed=seed)
            alike(lazy, eager, lambda g, r: play(g, r, 60), seed)
            marks = lazy.mark(), eager.mark()
            # a clone plays on its own way; a playout from another clone; the game goes on
            clones = alike(lazy, eager, lambda g, r: g.clone(), seed)
            alike(*clones, lambda g, r: play(g, r, 40), seed + 1)
            played = alike(lazy, eager, lambda g, r: g.clone(), seed)
            alike(*played, lambda g, r: g.playout(r), seed + 2)
            seat = 0 if full else None  # a seat's world (slow with Saboteur), or the dice
            worlds = alike(lazy, eager, lambda g, r, s=seat: g.determinize(s, r), seed + 3)
            alike(*worlds, lambda g, r: play(g, r, 40), seed + 4)
            alike(lazy, eager, lambda g, r: play(g, r, sample(full, 10_000, 150)), seed + 5)
            for v in (None, 0):  # the news since a mark
                assert lazy.history(v, since=marks[0]) == eager.history(v, since=marks[1])


def test_an_edit_does_not_change_a_line_logged_before_it() -> None:
    """Heimlich's line says where the agent went, `step(town, mover.at, steps)`: moving
    the agent by hand afterwards leaves the line as it was logged."""
    lazy_rules, eager_rules = compiled("heimlich.rules", True), compiled("heimlich.rules", False)
    lazy, eager = lazy_rules.new_game(3, seed=5), eager_rules.new_game(3, seed=5)
    alike(lazy, eager, lambda g, r: play(g, r, 30), 5)
    before = lazy.history()
    assert any(" clockwise, to " in line for line in before)
    for agent in range(5):
        alike(lazy, eager, lambda g, r, a=agent: g.edit().set("at", 11 - a, of=a, kind="agent"), 6)
    assert lazy.history() == before
    alike(lazy, eager, lambda g, r: play(g, r, 30), 7)
    worlds = alike(lazy, eager, lambda g, r: g.determinize(1, r), 8)
    alike(*worlds, lambda g, r: play(g, r, 30), 9)


def test_nothing_is_formatted_before_it_is_read() -> None:
    rules = compiled("heimlich.rules", True)
    specs = [*rules.code.choices.values(), *rules.code.chances.values()]
    calls: list[object] = []
    kept = {id(s): s.late for s in specs}
    for spec in specs:
        if spec.late is not None:
            fmt = spec.late

            def counted(st: Any, values: tuple[Any, ...], fmt: Any = fmt) -> str:
                calls.append(values)
                return str(fmt(st, values))

            object.__setattr__(spec, "late", counted)  # frozen: for this test only
    try:
        game = rules.new_game(4, seed=2)
        play(game, random.Random(2), 10_000)
        assert game.is_over()
        assert calls == []  # a whole game through the API, not one line made
        lines = game.history()
        assert len(calls) > 100 and len(lines) > 100
        eager = compiled("heimlich.rules", False).new_game(4, seed=2)
        play(eager, random.Random(2), 10_000)
        assert lines == eager.history()
    finally:
        for spec in specs:
            object.__setattr__(spec, "late", kept[id(spec)])


RENAMED = """
game "t"
players 2..2
piece token count 2 {
  name: text = "old"
}
turn {
  choose t in pieces(token) prompt "Which?" log "{current} picks {t}"
  set t.name = "new {turn_number}"
}
end when turn_number > 3 { draw players }
"""


def test_a_name_a_rule_changes_is_shown_when_logged() -> None:
    """A piece's name that a rule changes is shown as it was at the decision."""
    games = []
    for lazy in (True, False):
        was = late.LATE
        late.LATE = lazy
        try:
            rules = rulelang.compile_source(RENAMED, "t.rules")
        finally:
            late.LATE = was
        game = rules.new_game(2, seed=1)
        while not game.is_over():
            game.apply(game.legal_actions()[0])
        games.append(game.history())
    assert games[0] == games[1] == ["P1 picks old", "P2 picks new 1", "P1 picks new 2"]
