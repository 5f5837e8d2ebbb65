"""The observation encoding of rulelang.interop (common.encode) is the one documented:
hashed features of the seat's view, counted per slot and squashed. It is computed with
kept hashes and one summation; these tests hold it to the plain definition."""

from __future__ import annotations

import random
import zlib

import numpy as np
import pytest

import rulelang
from rulelang.interop import features
from rulelang.interop.common import HEADER, OBS_SIZE, ORDERED, PARTS, encode
from tests.interop_support import ROOT


def reference_counts(value: object, path: str, counts: np.ndarray) -> None:
    """The definition in encode's docstring, written plainly (the encoding before it
    was made faster)."""
    width = len(counts)
    if isinstance(value, dict):
        for key, item in value.items():
            if key != "viewer":
                reference_counts(item, f"{path}/{key}", counts)
    elif isinstance(value, list):
        ordered = path.rsplit("/", 1)[-1] in ORDERED
        for index, item in enumerate(value):
            keep = ordered or isinstance(item, dict | list)
            reference_counts(item, f"{path}[{index}]" if keep else f"{path}[]", counts)
    else:
        counts[zlib.crc32(f"{path}={value}".encode()) % width] += 1.0
        if isinstance(value, int | float) and not isinstance(value, bool):
            counts[zlib.crc32(f"{path}#".encode()) % width] += value


@pytest.mark.parametrize(
    ("rules", "players"),
    [
        ("rulesets/examples/tictactoe.rules", 2),
        ("rulesets/heimlich.rules", 3),
        ("rulesets/saboteur.rules", 4),
    ],
)
def test_the_encoding_is_the_documented_one_at_every_position(rules: str, players: int) -> None:
    ruleset = rulelang.compile_file(ROOT / rules)
    game = ruleset.new_game(players, seed=3)
    rng = random.Random(3)
    for _ in range(30):
        if game.is_over():
            break
        for seat in range(players):
            counts = np.zeros(OBS_SIZE - HEADER)
            reference_counts(game.view(seat, only=PARTS), "", counts)
            got = encode(game, seat, 64)[HEADER:]
            assert np.array_equal(got, (counts / (1.0 + np.abs(counts))).astype(np.float32))
        actions = game.legal_actions()
        game.apply(actions[int(rng.random() * len(actions))])


# values whose texts differ although they are equal, or that share a path with a
# different shape: the kept slots must tell them apart as the definition does
AWKWARD = [
    {"a": 1, "b": [True, 1, "1"], "viewer": 3},
    {"a": True, "b": [1.0, -0.0, 0.0, 0], "c": {"viewer": 2, "d": [[1], {"e": 2}]}},
    {"a": 1.0, "b": {"size": 3, "known": ["x"]}, "options": ["p", "q", "p"]},
    {"a": None, "b": ["x", "x"], "c": {True: "bool key"}},
    {"a": 2, "b": [], "c": {"d": [{"e": True}, {"e": 1}]}, "options": ["q", "p"]},
    {"a": float("nan"), "b": {"size": 0}, "c": {"1": "text key", 1: "int key"}},
    {"viewer": 0, "e": {}, "f": []},
]


def test_kept_slots_give_the_definition_for_awkward_views() -> None:
    """Equal values with different texts (1, True, 1.0; 0.0 and -0.0), a path that is a
    list in one view and a dict in the next, keys that are not texts: each view, read
    after all the others were, counts as the definition says."""
    width = OBS_SIZE - HEADER
    for _ in range(2):  # the second time every path and value is already kept
        for view in AWKWARD:
            expected = np.zeros(width)
            reference_counts(view, "", expected)
            got = features.counts(view, width)
            assert np.array_equal(got, expected, equal_nan=True), view


def test_a_secret_changed_leaves_the_other_seats_vectors_as_they_were() -> None:
    """Heimlich: "each player is secretly given one agent" (`agent visible to owner`).
    At each position of a game, another agent given to seat 1 changes seat 1's vector
    only, although the kept slots were just filled from the omniscient view too."""
    ruleset = rulelang.compile_file(ROOT / "rulesets/heimlich.rules")
    game = ruleset.new_game(4, seed=5)
    rng = random.Random(5)
    for _ in range(12):
        features.counts(game.view(None, only=PARTS), OBS_SIZE - HEADER)  # every secret
        before = [encode(game, seat, 64) for seat in range(4)]
        changed = game.clone()
        other = changed.attribute("agent", of=2)  # seat 1 is given seat 2's agent
        assert other != changed.attribute("agent", of=1)
        changed.edit().set("agent", other, of=1)
        after = [encode(changed, seat, 64) for seat in range(4)]
        for seat in (0, 2, 3):
            assert np.array_equal(before[seat], after[seat]), seat
        assert not np.array_equal(before[1], after[1])
        actions = game.legal_actions()
        game.apply(actions[int(rng.random() * len(actions))])


def test_the_kept_tree_is_dropped_past_its_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Views with ever new texts do not grow the kept paths and slots without end, and
    each still counts as the definition says."""
    monkeypatch.setattr(features, "_LIMIT", 10)
    kept = features.Features(OBS_SIZE - HEADER)
    for i in range(30):
        view = {"n": i, "t": f"text {i}", "l": [f"x{i}", {f"k{i}": i}]}
        expected = np.zeros(OBS_SIZE - HEADER)
        reference_counts(view, "", expected)
        assert np.array_equal(kept.counts(view), expected)
        assert kept.kept <= 10 + 10  # the limit, and what one view added past it
