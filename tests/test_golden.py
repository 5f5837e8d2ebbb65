"""Golden playthroughs: a seeded game played by seeded random bots, move by move.

Any change to what a game does shows up here as a diff. After an intended change,
regenerate with:  RULELANG_UPDATE_GOLDEN=1 python -m pytest tests/test_golden.py
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

import rulelang

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "golden"
CASES = [
    ("heimlich.rules", 4, 1),
    ("heimlich-topsecret.rules", 4, 1),
    ("saboteur.rules", 5, 1),
    ("saboteur-official.rules", 4, 2),
    ("labyrinth.rules", 4, 34),
]


def transcript(rules_file: str, players: int, seed: int) -> str:
    game = rulelang.compile_file(ROOT / "rulesets" / rules_file).new_game(players, seed)
    bots = random.Random(seed)
    lines = []
    while not game.is_over():
        actions = game.legal_actions()
        who = game.player_names[game.current_player()]
        choice = actions[int(bots.random() * len(actions))]
        lines.append(f"{who} | {game.prompt()} | {len(actions)} options | {choice.text}")
        game.apply(choice)
    everything = game.view(None)
    lines.append("log:")
    lines.extend(f"  {line}" for line in game.history(None))
    lines.append("results: " + ", ".join(f"{k} {v}" for k, v in everything["results"].items()))
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("rules_file, players, seed", CASES)
def test_playthrough_matches_the_golden_transcript(
    rules_file: str, players: int, seed: int
) -> None:
    path = GOLDEN / f"{rules_file.removesuffix('.rules')}-{players}p-seed{seed}.txt"
    text = transcript(rules_file, players, seed)
    if os.environ.get("RULELANG_UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no golden file {path.name}; run with RULELANG_UPDATE_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8")
