"""Rules compiled with the code generator's optimisations on and off
(`exprgen.OPTIMISED`), for the tests that show an optimisation firing on the generated
source and the optimised code playing the very games the plain code plays."""

from __future__ import annotations

import sys
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


def switches() -> tuple[tuple[str, str, object], ...]:
    """Every switch and bound of rulelang as it is now: the upper-case bools, ints,
    floats and strings of its loaded modules (`codegen.LAZY`, `dispatch.DISPATCH`...)."""
    found = []
    for name, module in sorted(sys.modules.copy().items()):
        if name.startswith("rulelang.") and module is not None:
            for attr, value in vars(module).items():
                if attr.isupper() and type(value) in (bool, int, float, str):
                    found.append((name, attr, value))
    return tuple(found)


_KEPT: dict[tuple[object, ...], Ruleset] = {}


def compiled_once(path: Path) -> Ruleset:
    """`rulelang.compile_file(path)`, kept for the session under the switches as they
    are now. Several test files compile the shipped games with every op at once
    (`codegen.LAZY` off: a second or so each) under the same switches, then only read
    the generated code or play it, which a Ruleset is made for (any number of games
    share one); the key holds the file's text and every switch, so a test that sets
    any of them otherwise gets a compilation of its own."""
    file = (str(path.resolve()), path.read_bytes())
    key = (*file, switches())
    if key not in _KEPT:
        # kept under the switches after too: the first compilation imports modules
        # of rulelang that were not loaded yet, whose switches the next key holds
        _KEPT[key] = _KEPT[(*file, switches())] = rulelang.compile_file(path)
    return _KEPT[key]


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
