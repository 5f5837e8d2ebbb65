"""The observation encoding of rulelang.interop (common.encode) is the one documented:
hashed features of the seat's view, counted per slot and squashed. It is computed with
kept hashes and one summation; these tests hold it to the plain definition."""

from __future__ import annotations

import random
import zlib

import numpy as np
import pytest

import rulelang
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
