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
from rulelang.diagnostics import UsageError

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted(
    str(p.relative_to(ROOT / "rulesets"))
    for p in [*(ROOT / "rulesets").glob("*.rules"), *(ROOT / "rulesets/examples").glob("*.rules")]
)


def unsaid(game: Game) -> list[tuple[Any, ...]]:
    """The log's records but its messages, each as (what, a, b), newest first."""
    out, record = [], game.state.log
    while record is not None:
        if record[0] != "said":
            out.append(record[:3])
        record = record[3]
    return out


def outcome(game: Game, taken: int) -> tuple[Any, ...]:
    """Everything a quiet playout must leave as a loud one does."""
    st = game.state
    return (
        taken,
        game.results(),
        game.measures(),
        game.record(),
        unsaid(game),
        game.turn_number,
        game.is_over(),
        st.vars,
        st.cols,
        st.zones,
        st.layers,
        st.shown,
        game.view(rulelang.PUBLIC, only={"players"}),
    )


def played(rules: Ruleset, players: int, seed: int, quiet: bool, bots: bool) -> tuple[Any, ...]:
    game = rules.new_game(players, seed)
    taken = game.playout(random.Random(seed), bots=bots, quiet=quiet)
    return outcome(game, taken)


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
player {
  pts: int = 0
}
turn {
  choose k in 1..3
  set current.pts += k
  say "{current.name} takes {k}"
  say "you have {current.pts}" to current
}
end when max(p.pts for p in players) >= 10 {
  let best = max(p.pts for p in players)
  win [p for p in players where p.pts == best]
}
"""


def test_a_quiet_playout_keeps_no_message_and_says_its_log_lacks_them() -> None:
    rules = compile_support.compiled(MESSAGES, True, players="2..3")
    loud, quiet = rules.new_game(2, 7), rules.new_game(2, 7)
    loud.playout(random.Random(7))
    quiet.playout(random.Random(7), quiet=True)
    assert any(type(e).__name__ == "Said" for e in loud.events())
    assert not any(r[0] == "said" for r in iter_log(quiet))
    assert quiet.state.private is None
    assert quiet.record() == loud.record()  # the record holds no message: still whole
    for read in (quiet.events, quiet.history, lambda: quiet.view(0, only={"log"})):
        with pytest.raises(UsageError, match="lacks the messages of a quiet playout"):
            read()
    with pytest.raises(UsageError, match="quiet playout"):
        quiet.clone().view(None, only={"private"})
    # a replay of the record is the whole game, messages and all
    again = rulelang.replay(rules, 2, 7, quiet.record())
    assert again.history() == loud.history()


def test_a_quiet_playout_cut_short_leaves_the_game_playing_aloud() -> None:
    rules = compile_support.compiled(MESSAGES, True, players="2..3")
    game = rules.new_game(2, 3)
    game.playout(random.Random(3), max_decisions=2, quiet=True)
    assert not game.is_over() and not game.state.quiet
    game.apply(game.legal_actions()[0])
    assert any(r[0] == "said" for r in iter_log(game))


def iter_log(game: Game) -> list[tuple[Any, ...]]:
    out, record = [], game.state.log
    while record is not None:
        out.append(record)
        record = record[3]
    return out
