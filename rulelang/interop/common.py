"""What both adapters share: loading a ruleset, the numbering of actions, the numeric
encoding of a player's view, and the rewards.

Actions are positions: action i is the i-th option of the pending decision, in the
order `Game.legal_actions()` lists them. The action space has a fixed size,
`max_actions` (a rule file's choices can be any list, so no bound holds for every
file); a decision with more options stops with a `UsageError` that says which
decision and how to raise the bound."""

from __future__ import annotations

import zlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from rulelang.api import compile_file
from rulelang.diagnostics import UsageError
from rulelang.interop import direct, features
from rulelang.runtime.code import ChoiceSpec
from rulelang.runtime.engine import Action, Game
from rulelang.runtime.ruleset import Ruleset

# Far more options than the shipped rule files' decisions offer (18 at most in random
# play); a rule file with wider choices passes max_actions.
MAX_ACTIONS = 64
# Observation layout: HEADER fixed slots, then hashed features up to OBS_SIZE.
OBS_SIZE = 512
# An information state: the observation, then HISTORY_SIZE hashed lines of the history.
HISTORY_SIZE = 512
MAX_SEATS = 16
HEADER = 4 + MAX_SEATS
# The view's parts an observation encodes. "log" is left out: it is the last 20
# lines of the history, a window that says little about the position.
PARTS = (
    "globals",
    "players",
    "pieces",
    "zones",
    "zone_tiles",
    "boards",
    "board_state",
    "private",
    "decision",
    "results",
)
ORDERED = features.ORDERED  # lists whose positions matter (see encode)
REWARD = {"win": 1.0, "draw": 0.0, "loss": -1.0}


def seats(players: int) -> int:
    """The player count, if the observation can tell every seat apart (one-hot, at most
    MAX_SEATS); past it two seats would share a bit and read alike."""
    if players > MAX_SEATS:
        raise UsageError(
            f"the adapters seat at most {MAX_SEATS} players (the observation says the seat "
            f"one-hot in {MAX_SEATS} places), not {players}"
        )
    return players


def load(rules: str | Path | Ruleset) -> Ruleset:
    """A compiled ruleset, from itself or from the path of its rule file."""
    return rules if isinstance(rules, Ruleset) else compile_file(rules)


def text_options(options: Mapping[str, object] | None) -> dict[str, str] | None:
    """Game options as the engine takes them: texts, as `--option name=value`."""
    if options is None:
        return None
    return {name: _text(value) for name, value in options.items()}


def _text(value: object) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def options_of(game: Game, max_actions: int) -> list[Action]:
    """The options of the pending decision; too many for the action space is an error."""
    actions = game.legal_actions()
    if len(actions) > max_actions:
        decision = game.pending()
        name = decision.name if decision is not None else "?"
        raise UsageError(
            f"the decision '{name}' has {len(actions)} options, more than the "
            f"{max_actions} actions of the action space (pass max_actions={len(actions)} "
            "or more)"
        )
    return actions


def count_options(game: Game, max_actions: int) -> int:
    """How many options the pending decision has (no texts built); too many for the
    action space is the error of `options_of`."""
    count = len(game.legal_values())
    if count > max_actions:
        options_of(game, max_actions)  # raises, naming the decision
    return count


def take_option(game: Game, index: int) -> None:
    """Take the option at `index` of the pending decision: by its value where a player
    decides (no texts built), as `Game.apply` of the same action otherwise."""
    st = game.state
    if type(st.pending) is ChoiceSpec and not st.over:
        game.choose(st.options[index])
    else:
        game.apply(game.legal_actions()[index])


def rewards(game: Game) -> list[float]:
    """Per seat at the end: win 1, draw 0, loss -1; all 0 before the end."""
    return [REWARD[result] for result in game.results()] or [0.0] * game.players


def encode(game: Game, seat: int, max_actions: int, size: int = OBS_SIZE) -> npt.NDArray[Any]:
    """The view of `seat` as a vector of `size` numbers in [-1, 1] (float32):

    - 0: always 1 (so that no observation is all zeros);
    - 1: 1 when `seat` must decide now; 2: its number of options / max_actions;
    - 3: 1 when the game is over;
    - 4 .. 4 + MAX_SEATS - 1: the seat, one-hot;
    - HEADER .. size - 1: hashed features of `view(seat)`. Each plain value at a path of
      the view (dict keys, and list positions for lists of dicts and for the options)
      counts 1 at crc32("path=value"); each number also adds its value at
      crc32("path#"); every slot is then squashed by x / (1 + |x|).

    Only what `view(seat)` shows is read, so the vector holds what the rule file lets
    the seat see (the features are summed from the state as the view would show it:
    interop/direct.py).
    """
    vector = np.zeros(size, dtype=np.float32)
    vector[0] = 1.0
    if game.current_player() == seat:
        vector[1] = 1.0
        vector[2] = min(1.0, len(game.legal_values()) / max_actions)
    vector[3] = 1.0 if game.is_over() else 0.0
    vector[4 + seat % MAX_SEATS] = 1.0
    counts = direct.counts(game, seat, size - HEADER)
    vector[HEADER:] = counts / (1.0 + np.abs(counts))
    return vector


def encode_history(lines: list[str], size: int = HISTORY_SIZE) -> npt.NDArray[Any]:
    """A player's history as `size` numbers in [0, 1): each line counts 1 at
    crc32("=line") (which lines) and 1 at crc32("i=line") (in which order), every slot
    squashed by x / (1 + x). Only the lines given are read: `Game.history(seat)`."""
    counts = np.zeros(size, dtype=np.float64)
    for index, line in enumerate(lines):
        counts[zlib.crc32(f"={line}".encode()) % size] += 1.0
        counts[zlib.crc32(f"{index}={line}".encode()) % size] += 1.0
    return (counts / (1.0 + counts)).astype(np.float32)
