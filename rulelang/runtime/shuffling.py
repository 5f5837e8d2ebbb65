"""A shuffle's new order drawn in one loop: the order `random.Random.shuffle` gives,
from the same draws of the generator, so that games are the same.

`Random.shuffle` calls the method `_randbelow` once per item (in CPython 3.11 a Python
function: a frame made and freed at each of the 240-odd draws of a card game's deals);
here its loop (a number of `k` bits drawn until it is below the bound) is written in
place. Only for a generator of the class `random.Random` itself whose `_randbelow` is
the one that draws bits (`INLINE`): any other generator shuffles with its own method.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

# Off: every shuffle by the generator's own method (to measure this alone). On only
# where `Random._randbelow` is the bit-drawing one this loop copies
INLINE = random.Random._randbelow is random.Random._randbelow_with_getrandbits  # type: ignore[attr-defined]


# Each step's item and bit count read from a table kept per length (`_steps`), not
# worked out per item: `i + 1` and `bit_length()` (a method call) at each of the 240-odd
# items a card game's deals shuffle; `j > i` tests what `j >= i + 1` did. Off: worked out
# per item, as `Random._randbelow` does (to measure this alone)
TABLE = True
KEEP = 1024  # the longest list whose table is kept: longer ones make theirs as they go
_STEPS: dict[int, tuple[tuple[int, int], ...]] = {}


def _steps(n: int) -> Iterable[tuple[int, int]]:
    """(i, the bits drawn for a number up to i) for i from n - 1 down to 1: the steps
    of `shuffle`'s loop (`_randbelow(i + 1)` draws `(i + 1).bit_length()` bits)."""
    found = _STEPS.get(n)
    if found is None:
        made = zip(range(n - 1, 0, -1), map(int.bit_length, range(n, 1, -1)), strict=True)
        if n > KEEP:
            return made
        found = _STEPS[n] = tuple(made)
    return found


def shuffled_range(rng: random.Random, n: int) -> tuple[int, ...]:
    """`list(range(n))` shuffled by `rng.shuffle`, as a tuple: the same order, the
    generator left in the same state."""
    perm = list(range(n))
    if not INLINE or type(rng) is not random.Random:
        rng.shuffle(perm)
        return tuple(perm)
    bits = rng.getrandbits
    if not TABLE:
        return _worked_out(bits, perm, n)
    for i, k in _steps(n):  # as `shuffle`: j = _randbelow(i + 1), bits drawn until j <= i
        j = bits(k)
        while j > i:
            j = bits(k)
        perm[i], perm[j] = perm[j], perm[i]
    return tuple(perm)


def _worked_out(bits: Callable[[int], int], perm: list[int], n: int) -> tuple[int, ...]:
    """`shuffled_range`'s loop with each step worked out as it goes (TABLE off)."""
    for i in range(n - 1, 0, -1):  # as `shuffle`: reversed(range(1, n))
        bound = i + 1
        k = bound.bit_length()
        j = bits(k)
        while j >= bound:
            j = bits(k)
        perm[i], perm[j] = perm[j], perm[i]
    return tuple(perm)
