"""A def's tests `x in p.attr` of its parameter's attributes read once before a loop
instead of at every turn of it (issue 21).

A def changes nothing but its own locals (check/resolve.py refuses a `set` of the
game in one) and no parameter of it is set, so `p.seen` is the same list all through
a call: a search loop that asks `n in me.seen` for every neighbour of every tile it
takes reads it once, before the loop (`_q7_68 = cols[7][_a68] if _a68 is not None
else None`), and tests `n in _q7_68`. A parameter that is `none` still fails where the
test stands (`x in None` is a TypeError, R030, as `cols[7][None]` was), and a loop
that never runs reads nothing that can fail.

Only the right side of `in` and `not in` is taken: it is the one use where `None`
fails as the read would (`None == x` would not). Each line of the loop is parsed on
its own (cells.py `statement`), so that a text of the rules that happens to look like
such a read is left alone.
"""

from __future__ import annotations

import ast
import re

from rulelang.runtime.cells import continued, offsets, statement

HOISTED = True  # off: a def's loops read its parameters' attributes at every test


def hoisted(body: list[str], params: list[str]) -> list[str]:
    """The body of a def (after `prelude`) with its loops' `in p.attr` reads of the
    parameters `params` made before each outermost loop (see the module's text)."""
    if not (HOISTED and params) or not any(_is_loop(line.lstrip()) for line in body):
        return body
    joined = "\n".join(body)
    kept = {p for p in params if not re.search(rf"\b{p}\s*(:=|[-+]?=[^=])", joined)}
    out: list[str] = []
    at = 0
    while at < len(body):
        line = body[at]
        text = line.lstrip()
        if not _is_loop(text):
            out.append(line)
            at += 1
            continue
        pad = len(line) - len(text)
        end = at + 1
        while end < len(body) and _indent(body[end]) > pad:
            end += 1
        out.extend(_loop(body[at:end], kept, " " * pad))
        at = end
    return out


def _is_loop(text: str) -> bool:
    return text.startswith(("while ", "for "))


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _loop(lines: list[str], params: set[str], pad: str) -> list[str]:
    """One outermost loop (its head and body), with its reads put before it."""
    reads: dict[tuple[str, int, str], str] = {}
    written = list(lines)
    for i, line in enumerate(lines):
        if " in " not in line or "cols[" not in line or continued(lines, i):
            continue
        text = line.lstrip()
        tree = statement(text)
        if tree is None:
            continue
        edits = [e for e in (_read(n, params) for n in ast.walk(tree)) if e is not None]
        for start, end, key in sorted(edits, reverse=True):  # right to left
            name = reads.setdefault(key, f"_q{key[1]}{key[2]}")
            a, b = offsets(text, start, end)
            text = text[:a] + name + text[b:]
        written[i] = line[: len(line) - len(line.lstrip())] + text
    if not reads:
        return lines
    before = [
        f"{pad}{name} = {cols}[{slot}][{p}] if {p} is not None else None"
        for (cols, slot, p), name in reads.items()
    ]
    return [*before, *written]


def _read(node: ast.AST, params: set[str]) -> tuple[int, int, tuple[str, int, str]] | None:
    """(start, end, (cols, slot, parameter)) of `cols[slot][p]` on the right of an
    `in` test (the only comparison of its node), p one of `params`."""
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1):
        return None
    if not isinstance(node.ops[0], ast.In | ast.NotIn):
        return None
    read = node.comparators[0]
    if not (isinstance(read, ast.Subscript) and isinstance(read.slice, ast.Name)):
        return None
    column, p = read.value, read.slice.id
    if p not in params or not isinstance(column, ast.Subscript):
        return None
    slot = column.slice
    if not (isinstance(slot, ast.Constant) and type(slot.value) is int):
        return None
    cols = ast.unparse(column.value)
    if cols not in ("cols", "st.cols") or read.end_col_offset is None:
        return None
    return read.col_offset, read.end_col_offset, (cols, slot.value, p)
