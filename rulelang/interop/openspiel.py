"""Any ruleset as an OpenSpiel game (docs/interop.md).

Importing this module registers the game "rulelang" with `pyspiel`:

    pyspiel.load_game("rulelang", {"rules": "game.rules", "players": 4})

Parameters: `rules` (the rule file's path), `players`, `seed` (the first game's; each
`new_initial_state()` starts the next game: seeds seed, seed + 1, ... as `rulelang
simulate` plays them), `options`
(`"name=value,name=value"`, as `--option`), `max_actions` (the number of distinct
actions: action i is the i-th option of the pending decision) and `max_decisions`
(the longest game: a game that reaches it ends as a cut-off, every return 0; 0 means
the ruleset's `limits.decisions`). `load(...)` takes a compiled `Ruleset` as well.

The game is sequential and has sampled stochastic chance: every shuffle, roll, pick
and generated map is drawn inside the state from the game's one seeded generator
(a shuffle has too many outcomes to enumerate). It is declared imperfect information
and general sum; returns are win 1, draw 0, loss -1. The observation of a player is
their view (`Game.view(seat)`) as JSON, its tensor the encoding of
`rulelang.interop.common.encode`; the information state adds the history as they saw
it (`Game.history(seat)`), as lines to its string and hashed
(`rulelang.interop.common.encode_history`) to its tensor.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel

from rulelang.diagnostics import UsageError
from rulelang.interop.common import (
    HISTORY_SIZE,
    MAX_ACTIONS,
    MAX_SEATS,
    OBS_SIZE,
    PARTS,
    count_options,
    encode,
    encode_history,
    rewards,
    seats,
    take_option,
)
from rulelang.interop.common import (
    load as load_ruleset,
)
from rulelang.runtime.code import PAUSE, ChoiceSpec, Code, run
from rulelang.runtime.engine import Game
from rulelang.runtime.lines import placed
from rulelang.runtime.ruleset import Ruleset
from rulelang.runtime.state import State

_PARAMETERS: dict[str, Any] = {
    "rules": "",
    "players": 2,
    "seed": 0,
    "options": "",
    "max_actions": MAX_ACTIONS,
    "max_decisions": 0,
}
GAME_TYPE = pyspiel.GameType(
    short_name="rulelang",
    long_name="A rulelang rule file",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_SEATS,
    min_num_players=1,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_PARAMETERS,
)


def load(
    rules: str | Path | Ruleset,
    players: int,
    seed: int = 0,
    options: Mapping[str, object] | None = None,
    max_actions: int = MAX_ACTIONS,
    max_decisions: int = 0,
) -> RulesetGame:
    """The game of a rule file (or a compiled ruleset), for any pyspiel function."""
    text = ",".join(f"{name}={_text(value)}" for name, value in (options or {}).items())
    params = {
        "rules": str(rules) if not isinstance(rules, Ruleset) else "",
        "players": players,
        "seed": seed,
        "options": text,
        "max_actions": max_actions,
        "max_decisions": max_decisions,
    }
    return RulesetGame(params, rules if isinstance(rules, Ruleset) else None)


def _text(value: object) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


@functools.lru_cache(maxsize=32)
def _compiled(path: str) -> Ruleset:
    """pyspiel.load_game makes a game per call: compile each rule file once."""
    return load_ruleset(path)


def _parse_options(text: str) -> dict[str, str]:
    options: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, equals, value = part.partition("=")
        if not equals:
            raise UsageError(f"option '{part}' needs the form name=value")
        options[name.strip()] = value.strip()
    return options


# pyspiel (a C++ extension) ships no types: its classes are Any to mypy, which refuses
# them as bases
class RulesetGame(pyspiel.Game):  # type: ignore[misc]
    """A ruleset at a player count with its options."""

    def __init__(
        self, params: Mapping[str, Any] | None = None, ruleset: Ruleset | None = None
    ) -> None:
        params = {**_PARAMETERS, **(params or {})}
        if ruleset is None:
            if not params["rules"]:
                raise UsageError("the game 'rulelang' needs the parameter rules=PATH")
            ruleset = _compiled(str(params["rules"]))
        self.ruleset = ruleset
        self.players = seats(int(params["players"]))
        self.game_options = _parse_options(str(params["options"]))
        self.max_actions = int(params["max_actions"])
        self.max_decisions = int(params["max_decisions"]) or ruleset.limits.decisions
        self._next_seed = int(params["seed"])
        # a first game checks the player count and the options before OpenSpiel sees them
        self._first: Game | None = self._start()
        info = pyspiel.GameInfo(
            num_distinct_actions=self.max_actions,
            max_chance_outcomes=0,
            num_players=self.players,
            min_utility=-1.0,
            max_utility=1.0,
            max_game_length=self.max_decisions,
        )
        super().__init__(GAME_TYPE, info, dict(params))

    def _start(self) -> Game:
        game = self.ruleset.new_game(self.players, seed=self._next_seed, options=self.game_options)
        self._next_seed += 1
        return game

    def new_initial_state(self) -> RulesetState:
        return RulesetState(self, _Unstarted(self))

    def next_game(self) -> Game:
        """The next game of the seed sequence (the first was started to check the table)."""
        game, self._first = self._first or self._start(), None
        return game

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> ViewObserver:
        if params:
            raise UsageError(f"the observer of 'rulelang' takes no parameters, not {params}")
        recall = iig_obs_type is not None and bool(iig_obs_type.perfect_recall)
        return ViewObserver(self.max_actions, recall)


TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_PAUSE = int(PAUSE)  # compared as a plain int, as the engine does
# the legal actions of a decision with n options, copied for each caller
_NUMBERS = [list(range(count)) for count in range(MAX_ACTIONS + 1)]


class RulesetState(pyspiel.State):  # type: ignore[misc]  # pyspiel: as above
    """A game in progress; the engine decides chance events as they come."""

    # `_live` is read at every call of a step: as a slot it costs 6 ns a read, where an
    # attribute in the __dict__ of a pybind11 object costs about 30 (the interpreter
    # does not specialise those reads). OpenSpiel copies a Python state by setting each
    # entry of its __dict__ on a new initial state (`Clone`): the same `_Live` is kept
    # there as `_dict_live`, whose setter fills the slot as well.
    __slots__ = ("_live", "__dict__")

    def __init__(self, spiel_game: RulesetGame, live: _Live) -> None:
        super().__init__(spiel_game)
        self._dict_live = live
        self.max_actions = spiel_game.max_actions
        self.max_decisions = spiel_game.max_decisions

    @property
    def _dict_live(self) -> _Live:
        return self._live

    @_dict_live.setter
    def _dict_live(self, live: _Live) -> None:
        self._live = live
        self.__dict__["_dict_live"] = live

    @property
    def game(self) -> Game:
        """The rulelang game this state plays."""
        return self._live.game

    @property
    def decisions(self) -> int:
        """The decisions taken so far (the game is cut off at `max_decisions`)."""
        return self.max_decisions - self._live.left

    # OpenSpiel asks these several times a step (C++ calls current_player back at every
    # apply_action): they read the game's state directly, with as few lookups as can be
    # (the decisions left are counted in `_Live`, not on the state: see `_live` above)
    def current_player(self) -> int:
        live = self._live
        st = live.state
        if st.over or live.left <= 0:
            return TERMINAL
        return st.who

    def is_terminal(self) -> bool:
        live = self._live
        return live.state.over or live.left <= 0

    def legal_actions(self, player: int | None = None) -> list[int]:
        """What OpenSpiel's own `legal_actions` answers (the player deciding now by
        default; none at the end or for another player), answered here for a caller in
        Python without the round trip through C++ and back (C++ callers still reach
        `_legal_actions` through OpenSpiel)."""
        live = self._live
        st = live.state
        # (a game over waits for nothing: its `pending` is None)
        if st.pending is None or live.left <= 0 or (player is not None and player != st.who):
            return []
        try:  # (`copy`: a list of its own for the caller, as OpenSpiel's own answer is)
            return live.numbers[len(st.options)].copy()
        except IndexError:  # more options than MAX_ACTIONS, or than max_actions
            return list(range(count_options(live.game, live.max_actions)))  # or raises

    def _legal_actions(self, player: int) -> list[int]:
        # asked from C++ only: a C++ algorithm may read the history next
        if self._live.owed:
            self._settle()
        return self.legal_actions(player)

    def apply_action(self, action: int) -> None:
        """OpenSpiel's `apply_action`, answered here for a caller in Python: OpenSpiel's
        own is a C++ call that calls back `current_player` and `_apply_action`, which
        costs about 0.5 µs a step (a third of a native step). The step is noted in
        `_Live.owed` and added to OpenSpiel's C++ history when the history is read or a step
        is taken from C++ (see `_settle`)."""
        live = self._live
        st = live.state
        spec = st.pending
        who = st.who
        # the commonest step, a player's choice (a game over waits for nothing: its
        # `pending` is None), taken here as `Game.apply` takes it: the choice's generated
        # resume called directly, `Game._resume` written out (a call less)
        if type(spec) is ChoiceSpec and live.left > 0 and 0 <= action < len(st.options):
            resume = live.resumes[spec.pc]
            if resume is None:  # a secret choice: the engine's own resume (as _step)
                live.game._resume(st, spec, st.options[action])
            else:
                try:
                    pc = resume(st, spec, st.options[action])
                except Exception as exc:  # placed on its rule line, as by Game._resume
                    err = _placed(exc, live.code, st, spec)
                    if err is exc:
                        raise
                    raise err from None
                if pc != _PAUSE:
                    run(live.code, st, pc)
            live.left -= 1
        else:
            terminal = st.over or live.left <= 0
            self._step(action)
            who = TERMINAL if terminal else who
        live.owed.append((who, action))

    def _apply_action(self, action: int) -> None:
        # a step from C++ (OpenSpiel's ApplyAction): the steps owed go first
        if self._live.owed:
            self._settle()
        self._step(action)

    def _settle(self) -> None:
        """Give OpenSpiel's C++ history the steps taken from Python, in order: each goes
        through OpenSpiel's own ApplyAction, which reads back the player (the one noted)
        and calls `_apply_action` (which does nothing: the game took the step)."""
        owed = list(self._live.owed)
        self._live.owed.clear()
        player = [0]
        # what C++ calls back for these steps: instance attributes, found before the
        # methods (the state's attributes are not being copied now: no dict changes
        # under a clone's feet)
        self.current_player = lambda: player[0]  # type: ignore[method-assign]
        self._apply_action = _taken  # type: ignore[method-assign]
        try:
            for player[0], action in owed:
                pyspiel.State.apply_action(self, action)
        finally:
            del self.current_player, self._apply_action

    def _step(self, action: int) -> None:
        # the option's value, without the texts of the options (a step at native speed)
        live = self._live
        st = live.state
        spec = st.pending
        if type(spec) is ChoiceSpec and not st.over and 0 <= action < len(st.options):
            live.game._resume(st, spec, st.options[action])
        else:
            # OpenSpiel does not check an action: a negative one would take an option
            # from the end, one past the last a Python error
            count = 0 if live.game.is_over() else len(live.game.legal_actions())
            if not 0 <= action < count:
                raise UsageError(
                    f"action {action} is not legal here: the legal actions are 0 to {count - 1}"
                )
            take_option(live.game, action)
        live.left -= 1

    def _action_to_string(self, player: int, action: int) -> str:
        """The option's text; OpenSpiel wants the texts of a decision distinct, so an
        option whose text an earlier option has (two alike cards in a hand) gets " (2)"."""
        options = self.game.legal_actions() if player == self.game.current_player() else []
        if not 0 <= action < len(options):
            return f"option {action}"
        text = options[action].text
        same = sum(1 for option in options[:action] if option.text == text)
        return f"{text} ({same + 1})" if same else text

    def returns(self) -> list[float]:
        return rewards(self.game)

    def __str__(self) -> str:
        return json.dumps(self.game.view(None, only=PARTS), sort_keys=True)


def _placed(exc: Exception, code: Code, st: State, spec: ChoiceSpec) -> Exception:
    """What `Game._resume` raises for an error that escaped a choice's resume: placed
    on the line after the choice, or on the choice itself if it did not get past it."""
    return placed(exc, code.spans[spec.pc + 1] if st.pending is None else spec.span)


def _taken(action: int) -> None:
    """`_apply_action` while `_settle` replays steps the game has already taken."""


def _settled(name: str) -> Any:
    """OpenSpiel's method `name`, which reads the C++ history: the steps owed first."""
    cpp = getattr(pyspiel.State, name)

    def method(self: RulesetState, *args: Any, **kwargs: Any) -> Any:
        if self._live.owed:
            self._settle()
        return cpp(self, *args, **kwargs)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = cpp.__doc__
    return method


# every method of OpenSpiel's State that reads the history, or steps from C++ and
# would add its step before the owed ones
for _name in (
    "history",
    "full_history",
    "history_str",
    "move_number",
    "is_initial_state",
    "clone",
    "child",
    "serialize",
    "undo_action",
    "apply_action_with_legality_check",
    "apply_actions",
    "apply_actions_with_legality_checks",
    "resample_from_infostate",
    "to_json",
    "to_dict",
    "to_struct",
):
    if hasattr(pyspiel.State, _name):  # not every version of OpenSpiel has them all
        setattr(RulesetState, _name, _settled(_name))


class _Live:
    """Holds a state's game and the game's state, and what a step reads, in slots: the
    class has no `__getattr__`, so that the interpreter specialises reads of them
    (about 10 ns a read faster; a step reads a dozen). A state's is made an
    `_Unstarted`, which becomes a `_Live` when its game starts."""

    __slots__ = (
        "_spiel_game",
        "max_actions",
        "numbers",
        "left",
        "owed",
        "game",
        "state",
        "resumes",
        "code",
    )
    game: Game
    state: State
    resumes: list[Callable[..., int] | None]
    code: Code

    def __init__(self, spiel_game: RulesetGame) -> None:
        self._spiel_game: RulesetGame | None = spiel_game
        self.max_actions = spiel_game.max_actions
        # the legal actions by number of options, up to max_actions (see legal_actions)
        self.numbers = _NUMBERS[: self.max_actions + 1]
        # the decisions left before the game is cut off (RulesetGame.max_decisions)
        self.left = spiel_game.max_decisions
        # (player, action) of the steps taken from Python that OpenSpiel's C++ history
        # has not got yet (RulesetState.apply_action); a clone copies them (pairs of
        # ints: a shallow copy)
        self.owed: list[tuple[int, int]] = []

    def _start(self, game: Game) -> None:
        # `resumes` (by the choice's pc, None where the engine resumes) and `code`: what
        # `Game._resume` reads, read once (a step takes them)
        self.game, self.state = game, game.state
        self.resumes, self.code = game._resumes, game.rules.code

    def __deepcopy__(self, memo: dict[int, Any]) -> _Live:
        game = self.game  # (started if it was not)
        copy = _Live.__new__(_Live)
        copy._spiel_game, copy.max_actions, copy.numbers = None, self.max_actions, self.numbers
        copy.left, copy.owed = self.left, list(self.owed)
        copy._start(game.clone())
        return copy


class _Unstarted(_Live):
    """A `_Live` whose game is started when first read. OpenSpiel clones a Python state
    by making a new initial state and deep-copying the attributes into it: the new
    state's own game is never started (no seed is spent on it), and the copy is
    Game.clone, cheap and exact (the generator shared until one of the two draws)."""

    __slots__ = ()

    def __getattr__(self, name: str) -> Any:
        # reached only while the game is not started (attributes found are not asked)
        if name not in ("game", "state", "resumes", "code") or self._spiel_game is None:
            raise AttributeError(name)
        self._start(self._spiel_game.next_game())
        # the same object (the state's), a plain `_Live` from now on
        self.__class__ = _Live  # type: ignore[assignment]
        return getattr(self, name)


class ViewObserver:
    """Observations from a player's own view (the PyObserver interface of OpenSpiel)."""

    def __init__(self, max_actions: int, perfect_recall: bool) -> None:
        self.max_actions = max_actions
        self.perfect_recall = perfect_recall
        # an information state (perfect recall) adds the history as the player saw it
        size = OBS_SIZE + (HISTORY_SIZE if perfect_recall else 0)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor[:OBS_SIZE]}
        if perfect_recall:
            self.dict["history"] = self.tensor[OBS_SIZE:]

    def set_from(self, state: RulesetState, player: int) -> None:
        self.tensor[:OBS_SIZE] = encode(state.game, player, self.max_actions)
        if self.perfect_recall:
            self.tensor[OBS_SIZE:] = encode_history(state.game.history(player))

    def string_from(self, state: RulesetState, player: int) -> str:
        seen = json.dumps(state.game.view(player, only=PARTS), sort_keys=True)
        if not self.perfect_recall:
            return seen
        return "\n".join([*state.game.history(player), seen])


pyspiel.register_game(GAME_TYPE, RulesetGame)
