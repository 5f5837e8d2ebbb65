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

# Off: every shuffle by the generator's own method (to measure this alone). On only
# where `Random._randbelow` is the bit-drawing one this loop copies
INLINE = random.Random._randbelow is random.Random._randbelow_with_getrandbits  # type: ignore[attr-defined]


def shuffled_range(rng: random.Random, n: int) -> tuple[int, ...]:
    """`list(range(n))` shuffled by `rng.shuffle`, as a tuple: the same order, the
    generator left in the same state."""
    perm = list(range(n))
    if not INLINE or type(rng) is not random.Random:
        rng.shuffle(perm)
        return tuple(perm)
    bits = rng.getrandbits
    for i in range(n - 1, 0, -1):  # as `shuffle`: reversed(range(1, n))
        bound = i + 1
        k = bound.bit_length()
        j = bits(k)
        while j >= bound:
            j = bits(k)
        perm[i], perm[j] = perm[j], perm[i]
    return tuple(perm)
