"""Quiet playouts (issue 21): `Game.playout(rng, quiet=True)` skips the `say`
statements, for callers that read results, measures and attributes but never the
messages (`simulate`'s random games, the search's playouts). The game played is the
same one, event for event; only its messages are missing, and the game says so
rather than show a history that lacks them."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import compile_support
import pytest

import rulelang
from rulelang import Game, Ruleset
from rulelang.diagnostics import GameRuntimeError, UsageError
from rulelang.runtime import determinize

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted(
    str(p.relative_to(ROOT / "rulesets"))
    for p in [*(ROOT / "rulesets").glob("*.rules"), *(ROOT / "rulesets/examples").glob("*.rules")]
)


def outcome(game: Game, taken: int, rng: random.Random) -> tuple[Any, ...]:
    """Everything a quiet playout must leave as a loud one does: the position, and
    both generators drawn as often (the same decisions and dice)."""
    st = game.state
    return (
        taken,
        game.results(),
        game.measures(),
        game.turn_number,
        game.is_over(),
        st.vars,
        st.cols,
        st.zones,
        st.layers,
        st.shown,
        st.pending,
        st.options,
        st.rng.getstate(),
        rng.getstate(),
        game.view(rulelang.PUBLIC, only={"players"}),
    )


def played(rules: Ruleset, players: int, seed: int, quiet: bool, bots: bool) -> tuple[Any, ...]:
    game, rng = rules.new_game(players, seed), random.Random(seed)
    return outcome(game, game.playout(rng, bots=bots, quiet=quiet), rng)


@pytest.mark.parametrize("file", FILES)
def test_a_quiet_playout_plays_the_same_game(file: str, full: bool) -> None:
    rules = rulelang.compile_file(ROOT / "rulesets" / file)
    counts = {rules.min_players, min(rules.max_players, rules.min_players + 2)}
    for players in sorted(counts):
        for seed in range(1, (20 if full else 3) + 1):
            for bots in (False, True) if rules.bots else (False,):
                loud = played(rules, players, seed, False, bots)
                assert played(rules, players, seed, True, bots) == loud, (players, seed, bots)


MESSAGES = """
import dice
player {
  pts: int = 0
}
turn {
  roll d = d6
  choose k in 1..(d % 3 + 1)
  set current.pts += k
  say "{current.name} takes {k}"
  say "you have {current.pts}" to current
}
end when max(p.pts for p in players) >= 10 {
  let best = max(p.pts for p in players)
  win [p for p in players where p.pts == best]
}
"""


def test_a_quiet_playout_logs_nothing_and_says_its_log_has_holes() -> None:
    rules = compile_support.compiled(MESSAGES, True, players="2..3")
    loud, quiet = rules.new_game(2, 7), rules.new_game(2, 7)
    mark = quiet.mark()
    assert loud.playout(random.Random(7)) == quiet.playout(random.Random(7), quiet=True)
    assert quiet.results() == loud.results() and quiet.is_over()
    assert quiet.mark() is mark and quiet.state.private is None  # nothing logged
    assert {type(e).__name__ for e in loud.events()} >= {"Said", "Chose", "Drew"}
    reads = (quiet.events, quiet.history, quiet.record, lambda: quiet.view(0, only={"log"}))
    for read in reads:
        with pytest.raises(UsageError, match="lacks the events of a quiet playout"):
            read()
    with pytest.raises(UsageError, match="quiet playout"):
        quiet.clone().view(None, only={"private"})


def test_a_quiet_playout_cut_short_leaves_the_game_playing_aloud() -> None:
    rules = compile_support.compiled(MESSAGES, True, players="2..3")
    game = rules.new_game(2, 3)
    game.playout(random.Random(3), max_decisions=2, quiet=True)
    assert not game.is_over() and not game.state.quiet
    mark = game.mark()
    game.apply(game.legal_actions()[0])
    assert game.mark() is not mark  # logged again


def test_a_search_world_of_a_game_played_quietly_is_dealt_from_what_the_seat_sees(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without a record, the seat's world is dealt anew (as for a position set by
    hand), not replayed from a log with holes (the belief is not even tried)."""
    rules = rulelang.compile_file(ROOT / "rulesets" / "heimlich.rules")
    game = rules.new_game(4, 5)
    game.playout(random.Random(5), max_decisions=30, quiet=True)

    def replayed(*_args: object) -> bool:
        raise AssertionError("a log with holes replayed")

    monkeypatch.setattr(determinize, "follows_record", replayed)
    for seed in range(3):
        world = game.determinize(1, random.Random(seed))
        assert world.view(1, only={"players", "zones"}) == game.view(1, only={"players", "zones"})


def test_a_quiet_playout_stopped_by_a_rule_error_leaves_the_game_loud() -> None:
    rules = compile_support.compiled(
        'turn {\n  choose k in 0..5\n  say "{[1, 2][k]}"\n  let x = [1, 2][k - 3]\n}\n'
        "end when false {\n  draw players\n}\n"
    )
    game = rules.new_game(2, 1)
    with pytest.raises(GameRuntimeError):
        game.playout(random.Random(1), quiet=True)
    assert not game.state.quiet and game.state.hushed
