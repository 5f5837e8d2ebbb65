"""Quiet games (issue 21): `new_game(..., quiet=True)` or `Game.quiet()` is for a caller
of the API that never reads the log (a reinforcement-learning loop, a script playing
many games): no `say` statement runs and no decision or roll is logged, as in a quiet
playout, for the whole game. It is the same game, decision for decision, with the same
options offered; a read of the log refuses rather than show one with holes."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import compile_support
import pytest

import rulelang
from rulelang import Game, Ruleset
from rulelang.diagnostics import UsageError
from rulelang.runtime.code import ChoiceSpec

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted(
    str(p.relative_to(ROOT / "rulesets"))
    for p in [*(ROOT / "rulesets").glob("*.rules"), *(ROOT / "rulesets/examples").glob("*.rules")]
)
LIMIT = 250  # decisions a game: enough to pass every kind of decision of the files


def through_api(game: Game, rng: random.Random) -> list[Any]:
    """Play by the API, uniformly at random; what was offered at each decision."""
    offered: list[Any] = []
    while not game.is_over() and len(offered) < LIMIT:
        if game.current_player() == rulelang.CHANCE:
            game.resolve_chance()
            continue
        actions = game.legal_actions()
        offered.append(actions)
        game.apply(actions[int(rng.random() * len(actions))])
    return offered


def position(game: Game) -> tuple[Any, ...]:
    st = game.state
    return (
        game.results(),
        game.measures(),
        game.turn_number,
        game.current_player(),
        st.vars,
        st.cols,
        st.zones,
        st.layers,
        st.shown,
        st.pending,
        st.options,
        st.rng.getstate(),
        game.view(rulelang.PUBLIC, only={"players"}),
    )


def chosen(game: Game) -> int:
    """How many records of players' decisions the game's log holds."""
    count, record = 0, game.state.log
    while record is not None:
        count += isinstance(record[0], ChoiceSpec)
        record = record[3]
    return count


@pytest.mark.parametrize("file", FILES)
def test_a_quiet_game_plays_the_same_game_through_the_api(file: str, full: bool) -> None:
    rules = rulelang.compile_file(ROOT / "rulesets" / file)
    for seed in range(1, (6 if full else 2) + 1):
        players = rules.min_players if seed % 2 else min(rules.max_players, rules.min_players + 1)
        loud, quiet = rules.new_game(players, seed), rules.new_game(players, seed, quiet=True)
        assert through_api(quiet, random.Random(seed)) == through_api(loud, random.Random(seed))
        assert position(quiet) == position(loud), (players, seed)
        assert chosen(quiet) == 0 and quiet.state.private is None
        assert chosen(loud) > 0


MESSAGES = """
import dice
player {
  pts: int = 0
}
turn {
  roll d = d6
  choose k in 1..(d % 3 + 1)
    log "{current} takes {k}"
  set current.pts += k
  say "{current.name} takes {k}"
  say "you have {current.pts}" to current
}
end when max(p.pts for p in players) >= 10 {
  let best = max(p.pts for p in players)
  win [p for p in players where p.pts == best]
}
"""


def messages() -> Ruleset:
    return compile_support.compiled(MESSAGES, True, players="2..3")


def test_a_quiet_game_logs_nothing_and_refuses_to_read_its_log() -> None:
    game = messages().new_game(2, 4).quiet()
    assert game.is_quiet
    mark = game.mark()
    through_api(game, random.Random(4))
    assert game.is_over() and game.mark() is mark and game.state.private is None
    reads = (game.events, game.history, game.record, lambda: game.view(0, only={"log"}))
    for read in reads:
        with pytest.raises(UsageError, match="lacks the events of a quiet"):
            read()


def test_a_quiet_game_from_its_start_says_nothing_in_its_setup() -> None:
    rules = compile_support.compiled(
        'global {\n  n: int = 0\n}\nsetup {\n  say "hello"\n}\n'
        "turn {\n  choose k in 1..2\n  set n += k\n}\nend when n >= 5 {\n  draw players\n}\n"
    )
    assert rules.new_game(2, 1).state.log is not None  # the loud game says hello
    game = rules.new_game(2, 1, quiet=True)
    assert game.state.log is None and game.is_quiet


def test_the_clones_and_playouts_of_a_quiet_game_stay_quiet() -> None:
    game = messages().new_game(2, 5).quiet()
    twin = game.clone()
    assert twin.is_quiet
    mark = twin.mark()
    twin.apply(twin.legal_actions()[0])
    assert twin.mark() is mark
    game.playout(random.Random(5), max_decisions=3)  # not asked to be quiet: still is
    assert game.state.quiet and game.is_quiet
    mark = game.mark()
    game.apply(game.legal_actions()[0])
    assert game.mark() is mark


def test_a_loud_game_stays_loud_after_a_quiet_playout_of_its_clone() -> None:
    game = messages().new_game(2, 6)
    assert not game.is_quiet
    game.clone().playout(random.Random(6), quiet=True)
    mark = game.mark()
    game.apply(game.legal_actions()[0])
    assert game.mark() is not mark and not game.state.hushed
