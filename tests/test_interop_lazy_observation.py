"""rulelang.interop.pettingzoo: an observation's vector is encoded when it is first read,
from the position the observation was made at; until then only the mask is made. It
reads as the dict PettingZoo's environments return, whichever way it is read."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

from rulelang.interop import pettingzoo as zoo
from rulelang.interop.common import encode
from tests.interop_support import ROOT

TICTACTOE = ROOT / "rulesets" / "examples" / "tictactoe.rules"


def _env() -> zoo.RulesetEnv:
    raw = zoo.RulesetEnv(TICTACTOE, players=2, seed=1)
    raw.reset(seed=1)
    return raw


def test_a_mask_alone_encodes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    monkeypatch.setattr(zoo, "encode", lambda *a: calls.append(a) or encode(*a))
    raw = _env()
    observation = raw.observe("player_0")
    assert observation["action_mask"][:9].all() and not observation["action_mask"][9:].any()
    assert calls == []
    vector = observation["observation"]
    assert len(calls) == 1
    assert observation["observation"] is vector  # encoded once


def test_the_vector_is_of_the_position_it_was_made_at() -> None:
    raw = _env()
    observation = raw.observe("player_1")
    expected = encode(raw.game.clone(), 1, zoo.MAX_ACTIONS, zoo.OBS_SIZE)
    raw.step(4)  # the game moves on before the vector is read
    assert np.array_equal(observation["observation"], expected)
    assert not np.array_equal(raw.observe("player_1")["observation"], expected)


@pytest.mark.parametrize(
    "read",
    [
        lambda o: "observation" in o,
        lambda o: len(o) == 2,
        lambda o: list(o) == ["observation", "action_mask"],
        lambda o: list(o.keys()) == ["observation", "action_mask"],
        lambda o: [k for k, _ in o.items()] == ["observation", "action_mask"],
        lambda o: len(list(o.values())) == 2,
        lambda o: o.get("observation") is not None,
        lambda o: set(o.copy()) == {"observation", "action_mask"},
        lambda o: set(dict(o)) == {"observation", "action_mask"},
        lambda o: set({**o}) == {"observation", "action_mask"},
        lambda o: set(copy.deepcopy(o)) == {"observation", "action_mask"},
        lambda o: set(pickle.loads(pickle.dumps(o))) == {"observation", "action_mask"},
        lambda o: "observation" in repr(o),
    ],
)
def test_it_reads_as_a_dict_of_both(read: object) -> None:
    observation = _env().observe("player_0")
    assert read(observation)  # type: ignore[operator]


def test_a_missing_key_is_a_key_error() -> None:
    observation = _env().observe("player_0")
    with pytest.raises(KeyError):
        observation["rewards"]
    assert observation.get("rewards", 7) == 7
    assert observation.keys() == {"observation", "action_mask"}
