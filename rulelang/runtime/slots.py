"""The rules' locals of an op (or of a proc that never pauses) read from Python variables.

A local of the rules that a pausing block may hold across a pause lives in a slot of
`st.loc`, and the generated code reads it there (`loc[38]`, a list subscript) every time
the rules name it: an op that handles an arrival names its player some twenty times.
Within one call of the generated function the slot's value changes only where that
function stores into it (a proc's own locals are its own: rules may not recurse, so no
call it makes writes them), so the function may keep a copy in a Python variable:

    loc[38] = st.current          ->  loc[38] = _L38 = st.current
    ... cols[0][loc[38]] ...      ->  ... cols[0][_L38] ...

Every store still writes the slot (a pause, a clone or a later op reads it there), and
a variable read before any store is first loaded from the slot. Left as they are: slots
changed in place (`+=`: kept simple), and whole functions that call a helper which
writes slots (a chance event settled, a `generate`, a choice's options) or that define a
`lambda` (which would keep the copy past the call).
"""

from __future__ import annotations

import re
from types import CodeType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rulelang.runtime.exprgen import Namespace

KEEP = True  # off: every read of a local goes to its slot (the plain code)

_SLOT = re.compile(r"\bloc\[(\d+)\]")
_STORE = re.compile(r"\bloc\[(\d+)\](?=\s*=(?!=))")
_CHANGED = re.compile(r"\bloc\[(\d+)\]\s*(?:[-+*/%@&|^]|//|\*\*|<<|>>)=")
_UNPACKED = re.compile(r"^\s*(?:for\s+)?\(?\s*loc\[\d+\]\s*,|\bfor\s+loc\[")
_WRITERS = ("settle(", ".run(st", ".options(", "lambda")
_PRELUDE = re.compile(r"^(loc|cols|zones|cfg) = st\.\w+$")
_KEPT = re.compile(r"_L\d")  # a kept variable's name, were it found in a text constant


def kept_slots(lines: list[str]) -> list[str]:
    """The body with the slots it reads kept in Python variables, where that is safe
    (see the module's docstring); else the body unchanged."""
    text = "\n".join(lines)
    if not KEEP or any(w in text for w in _WRITERS) or "loc = st.loc" not in lines[:4]:
        return lines
    if any(_UNPACKED.search(line) for line in lines):
        return lines
    changed = {int(n) for n in _CHANGED.findall(text)}
    stored = {int(n) for n in _STORE.findall(text)} - changed
    uses: dict[int, int] = {}
    for n in _SLOT.findall(text):
        uses[int(n)] = uses.get(int(n), 0) + 1
    first = {n for n in stored if _stored_first(lines, n)}
    # kept: read after a store that runs first, or read twice (worth loading it first)
    kept = {
        n
        for n, k in uses.items()
        if n not in changed and k - _stores(text, n) >= (1 if n in first else 2)
    }
    if not kept:
        return lines
    loads = [f"_L{n} = loc[{n}]" for n in sorted(kept - first)]
    body = [_rewritten(line, kept) for line in lines]
    top = next(i for i, line in enumerate(lines) if not _PRELUDE.match(line))
    return [*body[:top], *loads, *body[top:]]


def _stores(text: str, n: int) -> int:
    return len(re.findall(rf"\bloc\[{n}\](?=\s*=(?!=))", text))


def _stored_first(lines: list[str], n: int) -> bool:
    """Is the slot's first use a statement that stores it (named once on its line: not
    read on the right), in a block that holds every later use? Then that store runs
    before every read, and the variable needs no load from the slot first."""
    name = re.compile(rf"\bloc\[{n}\]")
    at = [i for i, line in enumerate(lines) if name.search(line)]
    first = lines[at[0]]
    depth = len(first) - len(first.lstrip())
    if not first.lstrip().startswith(f"loc[{n}] = ") or len(name.findall(first)) != 1:
        return False
    return all(len(line) - len(line.lstrip()) >= depth for line in lines[at[0] : at[-1] + 1])


def _rewritten(line: str, kept: set[int]) -> str:
    def one(m: re.Match[str]) -> str:
        n = int(m.group(1))
        if n not in kept:
            return m.group(0)
        store = _STORE.match(line, m.start())
        return f"loc[{n}] = _L{n}" if store is not None else f"_L{n}"

    return _SLOT.sub(one, line)


def quoted_kept(code: CodeType) -> bool:
    """Does a text constant of the compiled code (or of a function within) hold what
    looks like a kept variable's name? Then the rewrite may have reached into a text
    of the rules that reads `loc[...]`, and the caller compiles the plain body."""
    for c in code.co_consts:
        if isinstance(c, str) and _KEPT.search(c):
            return True
        if isinstance(c, CodeType) and quoted_kept(c):
            return True
    return False


def function(ns: Namespace, name: str, params: str, lines: list[str]) -> tuple[list[str], Any]:
    """`ns.function` of the body with its slots kept (the plain body if a text of the
    rules was reached); the body compiled, and the function."""
    kept = kept_slots(lines)
    if kept is not lines:
        fn = ns.function(name, params, kept)
        if not quoted_kept(fn.__code__):
            return kept, fn
    return lines, ns.function(name, params, lines)
