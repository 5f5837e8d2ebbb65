"""The belief's fresh starts are bounded by work counted in worlds tried, not by time
(docs/bots.md, "What a search bot does not see"): when every world is rejected, the
belief starts again from a copy of itself kept before one of the last hidden events,
and it refuses (NoBelief) once RETRY_WORK worlds are tried, whatever the machine."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang.runtime import belief
from rulelang.runtime.engine import Game
from rulelang.runtime.views import view

ROOT = Path(__file__).resolve().parent.parent


def _to_turn(turn: int) -> Game:
    """Base Saboteur, one round, seed 100, the declared bots on every seat, played to
    `turn` with seat 1's belief brought up to date at each of its decisions (as a
    search seat's is)."""
    rules = rulelang.compile_file(ROOT / "rulesets" / "saboteur.rules")
    game = rules.new_game(4, 100, {"rounds": "1"})
    while game.turn_number < turn:
        if game.current_player() == 0:
            belief.current(game, 0)
        game.apply(game.bot_choice(None))
    return game


def _reject_once_at(monkeypatch: pytest.MonkeyPatch, number: int, always: bool) -> dict[str, int]:
    """Every world is rejected at the event `number` (on the belief's first pass there
    only, unless `always`); returns a record of the worlds the fresh starts tried."""
    take, again = belief._take, belief._start_again
    spent = {"tried": 0, "starts": 0}

    def rejecting(b: belief.Belief, event: Any, game: Game, stop: int | None = None) -> bool:
        at = len(b.events)
        ok = take(b, event, game, stop)
        return ok and not (at == number and (always or b.attempt == 0))

    def counted(b: belief.Belief, game: Game) -> None:
        before = b.tried
        spent["starts"] += 1
        try:
            again(b, game)
        finally:
            spent["tried"] += b.tried - before

    monkeypatch.setattr(belief, "_take", rejecting)
    monkeypatch.setattr(belief, "_start_again", counted)
    return spent


def test_a_fresh_start_begins_at_the_last_hidden_event_within_its_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Late in the round every world is rejected once (as when the card then seen
    played is in none of the branches of a secret choice). The belief starts again
    from its mark before the last hidden event, not from the first event (which
    replayed some 150 events with 32 and then 64 worlds: up to 1.5 s of CPU), and
    tries fewer worlds than its budget; the seat's worlds then fit what it sees."""
    game = _to_turn(30)
    b = belief.current(game, 0)
    target = len(b.events) + 3
    spent = _reject_once_at(monkeypatch, target, always=False)
    while len(belief.current(game, 0).events) <= target + 2:
        game.apply(game.bot_choice(None))
    assert spent["starts"] == 1
    assert 0 < spent["tried"] < belief.RETRY_WORK
    b = belief.current(game, 0)  # and every world shows the seat what it sees
    assert b.particles and all(view(p, 0) == view(game, 0) for p in b.particles)


def test_the_fresh_starts_stop_at_their_budget_and_the_search_refuses(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where no fresh start fits (every world rejected at that event, each time), the
    belief stops once RETRY_WORK worlds are tried (a world for each event it follows,
    a branch of a secret, a copy dealt for a fresh start) and refuses in one line: the
    same count on every machine, so the same game ends the same way."""
    monkeypatch.setattr(belief, "RETRY_WORK", 400)
    game = _to_turn(30)
    b = belief.current(game, 0)
    target = len(b.events) + 3
    spent = _reject_once_at(monkeypatch, target, always=True)
    with pytest.raises(belief.NoBelief, match="no world that fits what P1 has seen"):
        while not game.is_over():
            belief.current(game, 0)
            game.apply(game.bot_choice(None))
    # the budget, passed by at most the branches of the one world then being followed
    assert 400 <= spent["tried"] <= 400 + belief.CARD_BRANCHES + 1
