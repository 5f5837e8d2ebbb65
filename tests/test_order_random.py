"""`order random`: a turn order drawn from the game's generator when a phase is first
entered, kept for the rest of the game, told to everyone, followed by next_player and
reaction rounds, replayed from records and scripted with auto_chance=False."""

from __future__ import annotations

import json
import random

import pytest

import rulelang
from rulelang import CHANCE, PUBLIC, RuleError, replay

SHORT = """
players 2..5
global { turns: int = 0 }
order random
turn {
  choose x in [1, 2]
  say "{current} plays; next is {next_player(current)}, before is {prev_player(current)}"
  set turns += 1
}
end when turns >= 3 * player_count { win [current] }
"""

PHASES = """
players 2..5
global { turns: int = 0  rounds: int = 0 }
phase draft {
  order random
  turn {
    choose x in [1, 2]
    react from next_player(current) as r {
      choose y in [1, 2] allow pass
      pass
    }
    set turns += 1
  }
  end when turns % player_count == 0
  next play
}
phase play {
  begin { set rounds += 1 }
  turn { choose z in [1] }
  end when true
  next draft
}
end when rounds >= 3 { win [current] }
"""


def play(rules: rulelang.Ruleset, players: int, seed: int, **kw: object) -> rulelang.Game:
    g = rules.new_game(players, seed=seed, **kw)  # type: ignore[arg-type]
    rng = random.Random(seed)
    while not g.is_over():
        g.apply(rng.choice(g.legal_actions()))
    return g


def drawn(g: rulelang.Game) -> list[int]:
    line = g.history(PUBLIC)[0]
    assert line.startswith("Turn order: ")
    return [g.player_names.index(n) for n in line[len("Turn order: ") :].split(", ")]


def choosers(g: rulelang.Game, name: str) -> list[int]:
    return [e.who for e in g.events() if type(e).__name__ == "Chose" and e.decision.name == name]


def test_turns_go_round_the_drawn_order_and_everyone_reads_it() -> None:
    rules = rulelang.compile_source(SHORT)
    orders = set()
    for seed in range(12):
        g = play(rules, 4, seed)
        order = drawn(g)
        orders.add(tuple(order))
        assert sorted(order) == [0, 1, 2, 3]
        assert choosers(g, "x") == order * 3
        for viewer in (None, PUBLIC, 0, 3):  # public: the same first line for all
            assert g.history(viewer)[0] == g.history(PUBLIC)[0]
        names = g.player_names
        first, second, last = (names[order[i]] for i in (0, 1, -1))
        assert f"{first} plays; next is {second}, before is {last}" in g.history(PUBLIC)
    assert len(orders) > 3  # really drawn


def test_same_seed_same_order_and_the_order_replays() -> None:
    rules = rulelang.compile_source(SHORT)
    a, b = play(rules, 5, 7), play(rules, 5, 7)
    assert a.history(None) == b.history(None)
    record = a.record()
    assert record[0]["chance"] == "turn order"
    again = replay(rules, 5, 7, record)
    assert again.history(None) == a.history(None) and again.is_over()
    # as a saved game holds it: through JSON, cut short, then played on
    half = json.loads(json.dumps(record[: len(record) // 2]))
    resumed = replay(rules, 5, 7, half)
    assert resumed.history(PUBLIC)[0] == a.history(PUBLIC)[0]
    moves = [e for e in a.events() if type(e).__name__ in ("Chose", "Drew")]
    assert resumed.current_player() == moves[len(half)].who


def test_scripted_chance_waits_for_the_order() -> None:
    rules = rulelang.compile_source(SHORT)
    g = rules.new_game(3, seed=1, auto_chance=False)
    assert g.current_player() == CHANCE
    decision = g.pending()
    assert decision is not None and decision.kind == "shuffle"
    g.chance_index([2, 0, 1])
    assert g.current_player() == 2
    assert g.history(PUBLIC) == ["Turn order: P3, P1, P2"]


def test_reentering_a_phase_keeps_its_order_and_reactions_follow_it() -> None:
    rules = rulelang.compile_source(PHASES)
    for seed in range(6):
        g = play(rules, 4, seed)
        order = drawn(g)
        assert sum(line.startswith("Turn order") for line in g.history(None)) == 1
        assert choosers(g, "x") == order * 3  # each entry starts with the first
        # the reaction round after the first turn starts with the next in the order
        # and goes on in the order
        reactors = []
        for e in g.events()[2:]:
            if type(e).__name__ == "Reaction" and e.step == "end":
                break
            if type(e).__name__ == "Chose" and e.decision.name == "y":
                reactors.append(e.who)
        assert reactors[0] == order[1]
        at = {p: i for i, p in enumerate(order)}
        pairs = zip(reactors, reactors[1:], strict=False)
        assert all(at[b] in (at[a], (at[a] + 1) % 4) for a, b in pairs)


@pytest.mark.parametrize(
    "source, message",
    [
        ("order random from players[0]\nturn { choose x in [1] }", "takes no 'from'"),
        ("phase p { order random from players[0] turn { choose x in [1] } }", "no 'from'"),
        ("order random\nphase p { turn { choose x in [1] } }", "has none"),
        ("order random\norder clockwise\nturn { choose x in [1] }", "already given at 2:1"),
    ],
)
def test_bad_orders_are_refused(source: str, message: str) -> None:
    with pytest.raises(RuleError) as err:
        rulelang.compile_source("players 2..3\n" + source + "\nend when false { }")
    assert message in str(err.value)


def test_top_level_clockwise_and_counterclockwise_work_too() -> None:
    rules = rulelang.compile_source(
        "players 3..3\nglobal { t: int = 0 }\norder counterclockwise\n"
        "turn { choose x in [1]  set t += 1 }\nend when t >= 3 { win [current] }"
    )
    assert choosers(play(rules, 3, 0), "x") == [0, 2, 1]


def test_the_draw_is_placed_at_its_order_line() -> None:
    rules = rulelang.compile_source(PHASES, "phases.rules")
    decision = rules.new_game(2, seed=0, auto_chance=False).pending()
    assert decision is not None and decision.name == "turn order of draft"
    assert (decision.span.line, decision.span.col) == (5, 3)
    top = rulelang.compile_source(SHORT).new_game(2, seed=0, auto_chance=False).pending()
    assert top is not None and top.span.line == 4
