"""A shuffle's order drawn in one loop (runtime/shuffling.py): the order and the
generator's state after are those of `random.Random.shuffle`, so games are the same;
another generator class shuffles with its own method."""

from __future__ import annotations

import random

import pytest

from rulelang.runtime import shuffling
from rulelang.runtime.shuffling import shuffled_range


def test_the_order_and_the_generator_after_are_random_shuffles() -> None:
    assert shuffling.INLINE  # CPython's Random draws bits: the loop is in use
    for seed in range(40):
        for n in (0, 1, 2, 3, 7, 28, 64, 65, 71, 200):
            mine, theirs = random.Random(seed), random.Random(seed)
            perm = list(range(n))
            theirs.shuffle(perm)
            assert shuffled_range(mine, n) == tuple(perm)
            assert mine.getstate() == theirs.getstate()


class Counted(random.Random):
    """A generator of another class: its own shuffle is asked for."""

    shuffles = 0

    def shuffle(self, x: list[object]) -> None:  # type: ignore[override]
        Counted.shuffles += 1
        x.reverse()


def test_another_generator_class_shuffles_with_its_own_method() -> None:
    assert shuffled_range(Counted(1), 4) == (3, 2, 1, 0)
    assert Counted.shuffles == 1


def test_off_it_is_the_generators_shuffle(monkeypatch: pytest.MonkeyPatch) -> None:
    on = shuffled_range(random.Random(5), 50)
    monkeypatch.setattr(shuffling, "INLINE", False)
    assert shuffled_range(random.Random(5), 50) == on


def test_the_steps_are_read_from_a_table_kept_per_length(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(shuffling, "_STEPS", {})
    shuffled_range(random.Random(3), 67)
    assert list(shuffling._STEPS) == [67]  # fired: kept for the next list this long
    assert shuffling._STEPS[67][0] == (66, 7) and shuffling._STEPS[67][-1] == (1, 2)
    shuffled_range(random.Random(3), shuffling.KEEP + 1)  # longer: made as it goes
    assert list(shuffling._STEPS) == [67]


@pytest.mark.parametrize("n", [0, 1, 2, 5, 67, 300])
def test_off_the_steps_worked_out_give_the_same_order_and_state(
    monkeypatch: pytest.MonkeyPatch, n: int
) -> None:
    monkeypatch.setattr(shuffling, "KEEP", 64)  # 67 and 300 take the path made as it goes
    for seed in range(20):
        on = random.Random(seed)
        first = shuffled_range(on, n)
        monkeypatch.setattr(shuffling, "TABLE", False)
        off = random.Random(seed)
        assert shuffled_range(off, n) == first
        assert off.getstate() == on.getstate()
        monkeypatch.setattr(shuffling, "TABLE", True)
