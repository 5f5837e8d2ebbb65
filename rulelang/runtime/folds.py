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

- `emptiness`: `len(xs) == 0` as `(not xs)`, `len(xs) > 0` and `len(xs) != 0` as
  `(not not xs)`: a list, a text, a zone or a map is empty exactly when Python finds it
  false, and no call of `len` is made (in CPython 3.11 a builtin's call, a constant and
  a comparison against one truth test; in an `if`, Python writes `not not xs` as one
  jump). Rules test a zone's emptiness at nearly every turn.

Off with `exprgen.OPTIMISED`, or one by one with `exprgen.FOLD`, `exprgen.HOIST` and
`exprgen.EMPTINESS`.
"""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING

from rulelang.check.symbols import LocalSym
from rulelang.runtime.lines import literal, parse_expr
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


def emptiness(e: A.Binary, left: str, right: str) -> str | None:
    """`len(xs)` compared with 0 as xs's truth, or None. Only the built-in `len` of one
    argument (generated as `len(...)`: a def of the rules is `_d_...`), written on the
    left or the right."""
    flipped = {"==": "==", "!=": "!=", "<": ">"}
    if _is_len(e.left) and _is_zero(e.right) and e.op in ("==", "!=", ">"):
        op, src = e.op, left
    elif _is_len(e.right) and _is_zero(e.left) and e.op in flipped:
        op, src = flipped[e.op], right
    else:
        return None
    inner = _call_arg(src, "len")
    if inner is None:
        return None
    return f"(not {inner})" if op == "==" else f"(not not {inner})"


def _is_len(e: A.Expr) -> bool:
    return isinstance(e, A.Call) and e.func == "len" and len(e.args) == 1


def _is_zero(e: A.Expr) -> bool:
    return isinstance(e, A.IntLit) and e.value == 0


def _call_arg(src: str, func: str) -> str | None:
    """X where src is exactly `func(X)` (the parenthesis opened after func closes at
    the end), else None."""
    if not (src.startswith(func + "(") and src.endswith(")")):
        return None
    try:
        tree = parse_expr(src)
    except SyntaxError:
        return None
    if not (isinstance(tree, ast.Call) and isinstance(tree.func, ast.Name)):
        return None
    if tree.func.id != func or len(tree.args) != 1 or tree.keywords:
        return None
    return f"({src[len(func) + 1 : -1]})"


def _literal(src: str) -> tuple[bool, object]:
    """(True, the value) where generated source is a literal: a number, a text or a
    truth value (a constant of the rules, or a variable written as its constant)."""
    if src in ("True", "False") or _INT.match(src) or _STRING.fullmatch(src):
        return True, literal(src)
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
