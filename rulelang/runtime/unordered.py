"""`if any(E for s in reached(b, x))` tested over the network's kept set as it is, the
sorted list only when it matters (issue 21, item 1).

`reached` lists the network's cells in order: the kept set sorted into a tuple at each
evaluation. An `any` (or `all`) whose test of an item changes nothing gives the same
answer over the items in any order when no item decides it (no item passes `any`'s
test, none fails `all`'s) and none raises: the common case of a test asked after each
tile laid (is the gold reached?). So the items are first tested in the set's own order;
only when one decides, or raises, is the test run again over the sorted items, which
then decides (or raises) at the item and with the error the plain code would. The
second run costs what the first did, on the seldom path.

Only where the test calls no def, proc or loop of the generated code (a block def's
loop counts steps, which a second run would count twice): reads, comparisons, helpers
that raise or answer. The set is worked out once, before either run, as the sorted
tuple was."""

from __future__ import annotations

import re

UNORDERED = True  # off: `any`/`all` over `reached` run over the sorted cells only
SORTED = re.compile(r"^tuple\(sorted\((.*\[0\])\)\)$")  # exprgen's `reached`
CALLS = re.compile(r"\b(_d_|_p_|_loop|steps\b)")


def first_pass(source: str, decides: str) -> str | None:
    """The kept set that `source` (the sorted cells of `reached`) sorts, if the test
    `decides` may run over it unsorted first; None otherwise."""
    m = SORTED.match(source)
    if not UNORDERED or m is None or CALLS.search(decides):
        return None
    return m.group(1)


def unordered_test(var: str, cells: str, decides: str, found: bool) -> list[str]:
    """The lines of `if any/all(...)` over the sorted `cells`: `_found` becomes `found`
    where an item decides (`decides` true), over the set as it is first, again in order
    if an item decided or raised. The set is read once, as the sorted tuple was."""
    kept = f"_cells{var}"
    loop = [f"if {decides}:", f"    _found = {found}", "    break"]
    return [
        f"{kept} = {cells}",
        f"_found = {not found}",
        "try:",
        f"    for {var} in {kept}:",
        *("        " + line for line in loop),
        "except Exception:  # raised again below, at the first item in order that raises",
        f"    _found = {found}",
        f"if {'' if found else 'not '}_found:  # an item decided: the first in order decides",
        f"    _found = {not found}",
        f"    for {var} in tuple(sorted({kept})):",
        *("        " + line for line in loop),
        "if _found:",
    ]
