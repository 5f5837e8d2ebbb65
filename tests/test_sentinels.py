"""The numbers that stand for something other than a seat or a pc: each stop of the run
loop has its own, apart from the public CHANCE, TERMINAL and PUBLIC (whose numbers
docs/api.md gives)."""

from __future__ import annotations

import rulelang
from rulelang.runtime import code


def test_each_stop_of_the_run_loop_has_its_own_number() -> None:
    stops = [code.PAUSE, code.OVER, code.IMAGINED, code.DONE]
    assert len({int(s) for s in stops}) == len(stops)
    assert all(s < 0 for s in stops)  # the run loop goes on while pc >= 0
    assert not {int(s) for s in stops} & {rulelang.CHANCE, rulelang.TERMINAL, rulelang.PUBLIC}
