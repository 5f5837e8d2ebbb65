"""Constant tuples in generated source: the code generator writes a list literal of
whole numbers, a constant range (`0..3`) or an enum's values as a tuple literal, and
several optimisations read them back (exprgen's loop bounds and `unrolled`, codegen's
`unrolled_options`, fitting.py's turns). One reader for all of them."""

from __future__ import annotations

import re

from rulelang.runtime.lines import literal

_NUMBERS = re.compile(r"\(\s*-?[0-9]+(\s*,\s*-?[0-9]+)*\s*,?\s*\)$")
# whole numbers or plain words (an enum's values), as literals.literal writes them
# (`_` as an escape)
_VALUE = r"(-?[0-9]+|'(?:[A-Za-z0-9]|\\x5f)*')"
_VALUES = re.compile(rf"\(\s*({_VALUE}\s*,\s*)*({_VALUE}\s*)?\)$")


def constant_items(source: str) -> list[int] | None:
    """The numbers of a source that is a constant tuple of whole numbers, or None."""
    if not _NUMBERS.match(source):
        return None
    return [int(v) for v in source.strip("()").split(",") if v.strip()]


def constant_length(source: str) -> int | None:
    """The length of a source that is a constant tuple of whole numbers, or None."""
    items = constant_items(source)
    return None if items is None else len(items)


def constant_values(source: str) -> list[int | str] | None:
    """The values of a source that is a non-empty tuple of whole numbers or plain
    words, or None."""
    if not _VALUES.match(source):
        return None
    values = literal(source)
    return list(values) if isinstance(values, tuple) and values else None
