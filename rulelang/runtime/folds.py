"""Two rewrites of generated expressions (issue 21): tests whose answer the source
already knows, worked out by the generator, and membership over a list tested at once.

- `fold`: `==` and `!=` of two literals, `True and X`, `False or X`. They arise where a
  choice among a few constants tests its requires with each value written in
  (`codegen.unrolled_options`: `require action == discard or ...` became `('play' ==
  'discard') or ...`, run at every decision): Python folds none of them itself.
- `membership`: `any(v in xs for v in vs)` (and `all(v not in xs for v in vs)`), where
  `xs` does not read `v`, as `not set(vs).isdisjoint(xs)`: `xs` is worked out once,
  not once per item of `vs` (a def's list, a player's broken tools, built again for
  every tool of a card), and no generator is made and resumed.

Off with `exprgen.OPTIMISED`, or one by one with `exprgen.FOLD` and `exprgen.HOIST`.
"""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING

from rulelang.check.symbols import LocalSym
from rulelang.syntax import ast as A
from rulelang.syntax.node import nodes

if TYPE_CHECKING:
    from rulelang.runtime.exprgen import ExprGen

_INT = re.compile(r"-?[0-9]+$")
_STRING = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")


def fold(op: str, left: str, right: str) -> str | None:
    """The source of `left op right` worked out, or None where the source does not
    know it. The rules' types make both sides of a comparison of one type (the check
    of the type here only keeps `1 == True` from meaning anything), and `and`/`or`
    read truth values, so `False or X` is X."""
    if op in ("==", "!="):
        known, a = _literal(left)
        known_too, b = _literal(right)
        if known and known_too and type(a) is type(b):
            return repr((a == b) == (op == "=="))
        return None
    if op in ("and", "or"):
        known, a = _literal(left)
        if known and type(a) is bool:
            return right if a == (op == "and") else left
    return None


def _literal(src: str) -> tuple[bool, object]:
    """(True, the value) where generated source is a literal: a number, a text or a
    truth value (a constant of the rules, or a variable written as its constant)."""
    if src in ("True", "False") or _INT.match(src) or _STRING.fullmatch(src):
        return True, ast.literal_eval(src)
    return False, None


def membership(ex: ExprGen, e: A.Comp, slot: int, source: str) -> str | None:
    """`any(v in xs for v in vs)` / `all(v not in xs for v in vs)` over `source` (the
    generated `vs`, the variable `v` at `slot`) as one test, or None. `xs` is worked
    out only if `vs` has an item, as the loop did, so what it may raise is raised where
    it was; the rules' values are all hashable, and equal only where Python finds them
    equal, so a set tests what `in` tested. (A def with loops called in `xs` counts its
    rounds against the step limit once, not once per item, as a def kept per table
    does after its first call.)"""
    elem = e.elem
    if e.func not in ("any", "all") or e.where is not None or ex.in_comp_source:
        return None  # (no `:=` in a comprehension's source)
    if not (isinstance(elem, A.Binary) and elem.op == ("in" if e.func == "any" else "notin")):
        return None
    if not ex.is_var(elem.left, slot) or _reads(ex, elem.right, slot):
        return None
    name = ex.temp()
    test = f"set({name}).isdisjoint({ex.members(elem.right)})"
    if e.func == "any":
        return f"(not {test} if ({name} := {source}) else False)"
    return f"({test} if ({name} := {source}) else True)"


def _reads(ex: ExprGen, e: A.Expr, slot: int) -> bool:
    """Does `e` read the local at `slot` (the comprehension's variable)?"""
    for n in nodes(e):
        if isinstance(n, A.Name):
            sym = ex.ref(n)
            if isinstance(sym, LocalSym) and sym.slot == slot:
                return True
    return False
