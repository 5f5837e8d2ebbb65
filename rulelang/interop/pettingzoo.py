"""Any ruleset as a PettingZoo AEC environment (docs/interop.md).

Agents are "player_0" .. "player_{N-1}", the seats in turn order. Whoever the game
waits for (`Game.current_player()`, a reaction included) is `agent_selection`. Chance
is decided inside the environment from the game's one seeded generator. Observations
are dicts {"observation": the encoding of the agent's own view (common.encode),
"action_mask": 1 for each legal action}; action i is the i-th option of the pending
decision. At the end each agent gets its result as a reward: win 1, draw 0, loss -1
(no reward before). A game that reaches `max_decisions` is truncated for every agent.
"""

from __future__ import annotations

from collections.abc import Callable, ItemsView, Iterator, KeysView, Mapping, ValuesView
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from rulelang.diagnostics import UsageError
from rulelang.interop.common import (
    MAX_ACTIONS,
    OBS_SIZE,
    count_options,
    encode,
    load,
    rewards,
    seats,
    take_option,
    text_options,
)
from rulelang.runtime.engine import PUBLIC, Game
from rulelang.runtime.ruleset import Ruleset

RENDER_MODES = ("ansi", "human")


class Observation(dict[str, npt.NDArray[Any]]):
    """An agent's observation, {"observation": ..., "action_mask": ...}, a dict as
    PettingZoo's are. The mask is made at once; the encoding of the view when it is
    first read (an agent that picks by the mask alone, a random or rule-based one,
    never pays for it), from a copy of the position the observation was made at, so
    that it reads the same whenever it is read. Every way of reading a dict (a key,
    `in`, iteration, keys/items/values, copying, comparing) sees both keys."""

    __slots__ = ("_later",)

    def __init__(self, mask: npt.NDArray[Any], later: Callable[[], npt.NDArray[Any]]) -> None:
        super().__init__(action_mask=mask)
        self._later: Callable[[], npt.NDArray[Any]] | None = later

    def _fill(self) -> None:
        later = self._later
        if later is not None:
            self._later = None
            mask = dict.pop(self, "action_mask")  # the documented order: observation first
            dict.__setitem__(self, "observation", later())
            dict.__setitem__(self, "action_mask", mask)

    def __missing__(self, key: str) -> npt.NDArray[Any]:
        if key == "observation" and self._later is not None:
            self._fill()
            return dict.__getitem__(self, key)
        raise KeyError(key)

    def __contains__(self, key: object) -> bool:
        return (key == "observation" and self._later is not None) or dict.__contains__(self, key)

    def __len__(self) -> int:
        return dict.__len__(self) + (self._later is not None)

    def __iter__(self) -> Iterator[str]:
        self._fill()
        return dict.__iter__(self)

    def keys(self) -> KeysView[str]:  # type: ignore[override]
        self._fill()
        return dict.keys(self)

    def items(self) -> ItemsView[str, npt.NDArray[Any]]:  # type: ignore[override]
        self._fill()
        return dict.items(self)

    def values(self) -> ValuesView[npt.NDArray[Any]]:  # type: ignore[override]
        self._fill()
        return dict.values(self)

    def get(self, key: str, default: Any = None) -> Any:
        if key in self:
            return self[key]
        return default

    def copy(self) -> dict[str, npt.NDArray[Any]]:
        self._fill()
        return dict(dict.items(self))

    def __eq__(self, other: object) -> bool:
        self._fill()
        return dict.__eq__(self, other)

    __hash__ = None

    def __repr__(self) -> str:
        self._fill()
        return dict.__repr__(self)

    def __reduce__(self) -> tuple[Any, ...]:
        return (dict, (self.copy(),))


def env(
    rules: str | Path | Ruleset,
    players: int,
    seed: int = 0,
    options: Mapping[str, object] | None = None,
    **settings: Any,
) -> AECEnv[str, Observation, int]:
    """The environment, wrapped as PettingZoo's own games are (calls out of order are
    refused with a clear message). `settings` are those of RulesetEnv."""
    raw = RulesetEnv(rules, players, seed, options, **settings)
    return _Ordered(raw)


class _Ordered(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]  # Any to mypy (below)
    """PettingZoo's order-enforcing wrapper, whose `last()` asks the environment at once:
    the wrapper's own reads each of the five things it returns through `__getattr__`
    (about 3 µs a step, a tenth of a tic-tac-toe step)."""

    def last(self, observe: bool = True) -> tuple[Any, ...]:
        if not self._has_reset:  # what the wrapper's __getattr__ says before reset()
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)  # type: ignore[no-any-return]

    def __str__(self) -> str:
        return str(self.env)


# pettingzoo ships no types here: its AECEnv is Any to mypy, which refuses it as a base
class RulesetEnv(AECEnv[str, Observation, int]):  # type: ignore[misc]
    """One ruleset, one player count. `reset(seed=S)` starts the game of seed S
    (`Ruleset.new_game(players, seed=S)`); a reset without a seed starts the game of the
    next seed: the first reset `seed`, then seed + 1, ... as `rulelang simulate` does.
    `render_mode` "ansi" returns the view of `render_viewer` (default: a spectator,
    who sees only what every player sees) as text; "human" prints it."""

    metadata = {
        "render_modes": list(RENDER_MODES),
        "name": "rulelang_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: str | Path | Ruleset,
        players: int,
        seed: int = 0,
        options: Mapping[str, object] | None = None,
        max_actions: int = MAX_ACTIONS,
        obs_size: int = OBS_SIZE,
        max_decisions: int | None = None,
        render_mode: str | None = None,
        render_viewer: int | None = PUBLIC,
    ) -> None:
        super().__init__()
        self.ruleset = load(rules)
        self.players = seats(players)
        self.game_options = text_options(options)
        self.max_actions = max_actions
        self.obs_size = obs_size
        self.max_decisions = max_decisions or self.ruleset.limits.decisions
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise UsageError(f"render_mode {render_mode!r} is not one of: ansi, human")
        self.render_mode = render_mode
        self.render_viewer = render_viewer
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        box = spaces.Box(low=-1.0, high=1.0, shape=(obs_size,), dtype=np.float32)
        mask = spaces.Box(low=0, high=1, shape=(max_actions,), dtype=np.int8)
        self.observation_spaces = {
            agent: spaces.Dict({"observation": box, "action_mask": mask})
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(max_actions) for agent in self.possible_agents}
        self._next_seed = seed
        # a first game checks the player count and the options now; reset() restarts it
        self.game: Game = self.ruleset.new_game(players, seed=seed, options=self.game_options)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _start(self) -> Game:
        game = self.ruleset.new_game(self.players, seed=self._next_seed, options=self.game_options)
        self._next_seed += 1
        return game

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Starts a new game. `options` is accepted as PettingZoo asks, and ignored: the
        game's options are fixed when the environment is made."""
        if seed is not None:
            self._next_seed = seed
        self.game = self._start()
        self.decisions = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        if self.game.is_over():  # ended in its setup: every agent is done at once
            self._ended()
            self._accumulate_rewards()
        self._select()

    def _ended(self) -> None:
        for other, reward in zip(self.agents, rewards(self.game), strict=True):
            self.rewards[other] = reward
            self.terminations[other] = True

    def _select(self) -> None:
        seat = self.game.current_player()
        self.agent_selection = self.agents[0] if seat < 0 else f"player_{seat}"

    def observe(self, agent: str) -> Observation:
        """The agent's observation of the position now (not kept between calls: a
        `game.edit()` changes the position without a trace to key it on)."""
        seat = self.possible_agents.index(agent)
        game = self.game
        mask = np.zeros(self.max_actions, dtype=np.int8)
        if game.current_player() == seat:
            mask[: count_options(game, self.max_actions)] = 1
        still = Game(game.rules, game.state.clone())  # the position, as it is now
        size, most = self.obs_size, self.max_actions
        return Observation(mask, lambda: encode(still, seat, most, size))

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        count = count_options(self.game, self.max_actions)
        if action is None or not 0 <= int(action) < count:
            raise UsageError(
                f"action {action} is not legal for {agent}: the action mask allows 0 to {count - 1}"
            )
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        take_option(self.game, int(action))
        self.decisions += 1
        if self.game.is_over():
            self._ended()
        elif self.decisions >= self.max_decisions:
            self.truncations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        self._select()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        from rulelang.render.text import render_view

        text = render_view(self.game, self.game.view(self.render_viewer))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: the game lives in memory."""
