"""The search bots' decisions on fixed seeds, recorded: a change to how the search is
written (its split into tree policy, expansion, evaluation and backup) must not change
one decision. After an intended change of behaviour, regenerate with:
RULELANG_UPDATE_GOLDEN=1 python -m pytest tests/test_search_golden.py
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import rulelang
from rulelang.search import bot_action

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "golden" / "search" / "decisions.json"

# (rule file, players, seed, bots by seat, search decisions recorded): perfect
# information (tic-tac-toe), hidden agents (Heimlich), an estimate (Saboteur), an
# estimate with playouts and progressive bias by the declared bot (stone seekers), a
# picture of the unseen drawn by the rules' `imagine` (labyrinth)
CASES = [
    ("examples/tictactoe.rules", 2, 0, {0: "mcts:60", 1: "ismcts:60"}, 9),
    ("examples/tictactoe.rules", 2, 1, {0: "ismcts:40", 1: "mcts:40"}, 9),
    ("heimlich.rules", 4, 3, {0: "ismcts:40", 2: "mcts:40"}, 30),
    ("saboteur.rules", 4, 5, {0: "ismcts:25", 1: "mcts:25"}, 20),
    ("saboteur-stoneseekers.rules", 4, 7, {0: "ismcts:20"}, 12),
    ("labyrinth.rules", 4, 2, {0: "ismcts:10", 1: "mcts:10"}, 8),
]


def decisions(rules: str, players: int, seed: int, bots: dict[int, str], count: int) -> list[str]:
    """The texts of the first `count` decisions the search seats take (other seats:
    the rules' declared bots, random where there are none)."""
    game = rulelang.compile_file(ROOT / "rulesets" / rules).new_game(players, seed)
    taken: list[str] = []
    while not game.is_over() and len(taken) < count:
        who = game.current_player()
        action = bot_action(game, bots.get(who))
        if who in bots:
            taken.append(f"{who}: {action.text}")
        game.apply(action)
    return taken


def key(case: tuple[str, int, int, dict[int, str], int]) -> str:
    rules, players, seed, bots, _count = case
    seats = ",".join(f"{s}:{b}" for s, b in sorted(bots.items()))
    return f"{rules} -p {players} --seed {seed} {seats}"


@pytest.mark.parametrize("case", CASES, ids=key)
def test_search_decisions_unchanged(case: tuple[str, int, int, dict[int, str], int]) -> None:
    got = decisions(*case)
    assert len(got) == case[4] or case[0].endswith("tictactoe.rules")
    if os.environ.get("RULELANG_UPDATE_GOLDEN"):
        known = json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}
        known[key(case)] = got
        GOLDEN.write_text(json.dumps(known, indent=1, sort_keys=True) + "\n")
    assert got == json.loads(GOLDEN.read_text())[key(case)]
