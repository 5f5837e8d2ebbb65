"""Rules compiled with the code generator's optimisations on and off
(`exprgen.OPTIMISED`), for the tests that show an optimisation firing on the generated
source and the optimised code playing the very games the plain code plays."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import rulelang
from rulelang import Ruleset
from rulelang.runtime import exprgen


def with_optimised(optimised: bool, make: Callable[[], Ruleset]) -> Ruleset:
    """`make()` with the optimisations on or off, put back as they were after."""
    was = exprgen.OPTIMISED
    exprgen.OPTIMISED = optimised
    try:
        return make()
    finally:
        exprgen.OPTIMISED = was


def compiled(src: str, optimised: bool = True, players: str = "2..2") -> Ruleset:
    """A small game of `src` (its declarations after a header of `players`)."""
    text = f'game "t"\nplayers {players}\n{src}'
    return with_optimised(optimised, lambda: rulelang.compile_source(text, "t.rules"))


def both_of_source(text: str) -> tuple[Ruleset, Ruleset]:
    """A whole rule file's text compiled optimised, and plain."""
    return tuple(  # type: ignore[return-value]
        with_optimised(o, lambda: rulelang.compile_source(text, "t.rules")) for o in (True, False)
    )


def both_of_file(path: Path) -> tuple[Ruleset, Ruleset]:
    """A rule file compiled optimised, and plain."""
    return with_optimised(True, lambda: rulelang.compile_file(path)), with_optimised(
        False, lambda: rulelang.compile_file(path)
    )


def with_loops(fn: object) -> str:
    """The generated Python of a function, followed by that of each function of
    runtime/loops.py (an `any`/`all` written as a loop) it calls."""
    import inspect
    import re

    text = inspect.getsource(fn)  # type: ignore[arg-type]
    env = fn.__globals__  # type: ignore[attr-defined]
    for name in dict.fromkeys(re.findall(r"\b_loop\d+\b", text)):
        text += inspect.getsource(env[name])
    return text
