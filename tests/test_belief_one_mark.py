"""A belief whose only hidden event is the first shuffle has one mark to start again
from: it tried that mark once (384 worlds) and gave up, far within RETRY_WORK. It now
goes round its marks again, with other draws, until the budget is spent."""

from __future__ import annotations

import random
from pathlib import Path

import rulelang

COURIER = Path(__file__).resolve().parent.parent / "rulesets" / "examples" / "courier.rules"


def test_a_belief_with_one_mark_starts_again_until_its_budget_is_spent() -> None:
    # seed 1, two players: at turn 6 a duel has shown P2 the herald in P1's hand (the
    # second herald of two), and P2's worlds of the one deal seldom hold it there
    game = rulelang.compile_file(COURIER).new_game(2, seed=1)
    while game.turn_number < 6 or len(game.legal_values()) < 2:
        game.apply(game.bot_choice())
    assert game.current_player() == 1
    assert game.view(1)["zones"]["hand[P1]"] == {"size": 1, "known": ["herald 5"]}
    world = game.determinize(1, random.Random(1))  # NoBelief before
    assert world.view(1) == game.view(1)
    assert world.view(None)["zones"]["hand[P1]"] == ["herald 5"]
