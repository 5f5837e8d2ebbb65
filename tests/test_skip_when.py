"""`skip when COND`: a player for whom COND holds (read with `current` that player)
takes no turn; play passes to the next in the phase's order, and no turn is counted.
For games where players drop out (a last-one-standing game) or sit a round out."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulelang
from rulelang import PUBLIC, GameRuntimeError, RuleError
from rulelang.fmt import format_source, strip_spans
from rulelang.rulebook import build, markdown
from rulelang.syntax.parser import parse

# Last one standing: a hit takes a life; a player with none is out of the turns.
STAND = """
game "Stand"
players 2..5
player { life: int = 2  took: int = 0 }
global { turns: list(int) = [] }
skip when current.life == 0
turn {
  set current.took += 1
  set turns = turns + [turn_number]
  choose foe in [p for p in players where p != current and p.life > 0]
  set foe.life -= 1
}
end when len([p for p in players where p.life > 0]) == 1 {
  win [p for p in players where p.life > 0]
}
"""


def play(rules: rulelang.Ruleset, players: int, seed: int) -> rulelang.Game:
    g = rules.new_game(players, seed=seed)
    rng = random.Random(seed)
    while not g.is_over():
        g.apply(rng.choice(g.legal_actions()))
    return g


def choosers(g: rulelang.Game, name: str) -> list[int]:
    return [e.who for e in g.events() if type(e).__name__ == "Chose" and e.decision.name == name]


def lives(g: rulelang.Game) -> list[int]:
    return [p["life"] for p in g.view(PUBLIC)["players"]]


def test_a_player_who_is_out_never_takes_a_turn_again() -> None:
    rules = rulelang.compile_source(STAND)
    for seed in range(20):
        g = rules.new_game(4, seed=seed)
        rng = random.Random(seed)
        while not g.is_over():
            assert lives(g)[g.current_player()] > 0  # never asked once out
            g.apply(rng.choice(g.legal_actions()))
        assert sorted(lives(g))[:-1] == [0, 0, 0] and max(lives(g)) > 0
        # turns count only the turns taken: 1, 2, 3, ... one per choice
        view = g.view(PUBLIC)
        took = sum(p["took"] for p in view["players"])
        assert view["globals"]["turns"] == list(range(1, took + 1))
        assert took == len(choosers(g, "foe"))


def test_without_the_rule_players_who_are_out_are_asked_still() -> None:
    """The same game without `skip when`: an out player is asked to choose among the
    others, so the rule is what keeps them out (not the end rule, not luck)."""
    rules = rulelang.compile_source(STAND.replace("skip when current.life == 0\n", ""))
    asked_out = 0
    for seed in range(20):
        g = rules.new_game(4, seed=seed)
        rng = random.Random(seed)
        while not g.is_over():
            if lives(g)[g.current_player()] == 0:
                asked_out += 1
            g.apply(rng.choice(g.legal_actions()))
    assert asked_out > 0


def test_the_order_passes_over_skipped_players_in_its_direction() -> None:
    rules = rulelang.compile_source(
        "players 4..4\nglobal { t: int = 0 }\norder counterclockwise\n"
        "skip when seat(current) == 2\n"
        "turn { choose x in [1]  set t += 1 }\nend when t >= 6 { win [current] }"
    )
    assert choosers(play(rules, 4, 0), "x") == [0, 3, 1, 0, 3, 1]


def test_a_phase_skips_from_its_first_player_and_in_a_drawn_order() -> None:
    rules = rulelang.compile_source(
        """
players 4..4
global { t: int = 0 }
phase deal {
  order random
  skip when seat(current) % 2 == 1
  turn { choose x in [1]  set t += 1 }
}
end when t >= 4 { win [current] }
"""
    )
    for seed in range(6):
        g = play(rules, 4, seed)
        line = g.history(PUBLIC)[0]
        order = [g.player_names.index(n) for n in line.split(": ")[1].split(", ")]
        evens = [p for p in order if p % 2 == 0]
        assert choosers(g, "x") == evens * 2


def test_when_everyone_is_skipped_the_game_stops_with_R027_at_the_rule() -> None:
    rules = rulelang.compile_source(
        "players 2..2\nglobal { t: int = 0 }\nskip when t >= 2\n"
        "turn { choose x in [1]  set t += 1 }\nend when t >= 9 { win [current] }",
        "all.rules",
    )
    with pytest.raises(GameRuntimeError) as info:
        play(rules, 2, 0)
    assert info.value.code == "R027"
    assert (info.value.span.file, info.value.span.line) == ("all.rules", 3)
    assert "holds for every player" in info.value.message


@pytest.mark.parametrize(
    "source, message",
    [
        ("skip when true\nskip when false\nturn { choose x in [1] }", "E273"),
        ("phase p { skip when true skip when false turn { choose x in [1] } }", "E273"),
        ("skip when true\nphase p { turn { choose x in [1] } }", "E274"),
        ("skip when 3\nturn { choose x in [1] }", "E201"),
    ],
)
def test_misplaced_skip_rules_are_refused(source: str, message: str) -> None:
    with pytest.raises(RuleError) as err:
        rulelang.compile_source("players 2..3\n" + source + "\nend when false { }")
    assert message in str(err.value)


def test_games_without_the_rule_are_unchanged_by_it() -> None:
    """A skip rule that never holds plays the very games of no rule at all."""
    plain = rulelang.compile_source(STAND.replace("skip when current.life == 0\n", ""))
    never = rulelang.compile_source(STAND.replace("current.life == 0", "current.life < -99"))
    for seed in range(5):
        g, h = plain.new_game(3, seed=seed), never.new_game(3, seed=seed)
        rng = random.Random(seed)
        for _ in range(3):
            action = rng.choice(g.legal_actions())
            g.apply(action)
            h.apply(action)
        assert g.view(PUBLIC) == h.view(PUBLIC) and g.history(PUBLIC) == h.history(PUBLIC)


def test_the_rule_is_formatted_on_its_line_and_told_in_the_rulebook(tmp_path: Path) -> None:
    """`rulelang fmt` puts it on a line of its own in a phase, as it does `order`, and
    keeps the program; the rulebook says whose turn is passed over, citing the rule."""
    source = (
        "players 4..4\nglobal { t: int = 0 }\nphase deal {\n    order random\n"
        "  skip   when seat(current) % 2 == 1\n turn { choose x in [1]  set t += 1 }\n}\n"
        "end when t >= 4 { win [current] }\n"
    )
    formatted = format_source(source)
    assert "\n  order random\n  skip when seat(current) % 2 == 1\n  turn {" in formatted
    assert strip_spans(parse(formatted)) == strip_spans(parse(source))
    path = tmp_path / "stand.rules"
    path.write_text(STAND, encoding="utf-8")
    book = markdown.render(build.build(rulelang.compile_file(path), str(path)))
    said = "takes none when the current player's life is 0: the turn passes to the next"
    assert said in book.replace("`", "") and "(rules line 6)" in book


def test_the_fast_path_plays_the_games_the_api_plays() -> None:
    """`playout` (simulate's path) and `apply` (play's) run the same skips: the same
    seeds and picks give the same results, turn numbers and decisions."""
    rules = rulelang.compile_source(STAND)
    for seed in range(8):
        fast = rules.new_game(5, seed=seed)
        decisions = fast.playout(random.Random(seed))
        api = rules.new_game(5, seed=seed)
        rng, made = random.Random(seed), 0
        while not api.is_over():
            actions = api.legal_actions()
            api.apply(actions[int(rng.random() * len(actions))])
            made += 1
        assert (made, api.turn_number) == (decisions, fast.turn_number)
        assert api.results() == fast.results() and api.view(PUBLIC) == fast.view(PUBLIC)


def test_skip_stays_usable_as_a_name() -> None:
    """`skip` is a keyword only where a `skip when` rule may start (docs/language.md,
    "Reserved words"): an attribute and a local may be named so, beside the rule."""
    rules = rulelang.compile_source(
        "players 2..2\nplayer { skip: bool = false  n: int = 0 }\n"
        "skip when current.skip\n"
        "turn { let skip = 1  choose x in [skip]  set current.n += x\n"
        "  set next_player(current).skip = true }\n"
        "end when turn_number > 3 { win [current] }"
    )
    assert choosers(play(rules, 2, 0), "x") == [0, 0, 0]  # P2 skipped from the first
