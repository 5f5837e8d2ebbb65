"""Log lines written when they are read: a rule file's `log "..."` sentence is split
into a capture of the values it shows, made when the decision or chance event is
logged (a tuple: cheap), and their formatting into the line, done when someone reads
the log (history, views, events). A game played through the API (bots, simulations,
adapters) logs every decision and mostly never reads the lines.

The values are those of the sentence's holes at the decision, so the line is the one
the eager sentence would have made: what a hole's value reads as (a player's,
piece's or node's name) is fixed for the game, but for the `name` attribute of
pieces and cards when some rule changes it; such a hole is shown when captured.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from rulelang.check.symbols import AttrSym, Program
from rulelang.check.types import T
from rulelang.runtime.literals import literal
from rulelang.syntax import ast as A

if TYPE_CHECKING:
    from rulelang.runtime.code import Fn, LateFn
    from rulelang.runtime.exprgen import ExprGen

# False: every line is made when it is logged, as before (tests/test_late_lines.py
# compares the two)
LATE = True


def narration(ex: ExprGen, e: A.Expr | None, names_fixed: bool) -> tuple[Fn | None, LateFn | None]:
    """For a `log` text: the function that logs it (state -> the line, or the tuple of
    values that the second function formats into the line when it is read; None
    where the line is made at once)."""
    if e is None:
        return None, None
    how = _how(ex, e, names_fixed)
    if how == "constant":
        return _constant(_words(e)), None
    if how == "late":
        return _split(ex, cast(A.TextLit, e), names_fixed)
    ex.ns.counter += 1
    return ex.ns.function(f"_line{ex.ns.counter}", "st", [f"return str({ex.src(e)})"]), None


def logged(ex: ExprGen, e: A.Expr, names_fixed: bool) -> str:
    """The Python expression of what `narration`'s first function returns for e, to be
    written inline where the value is recorded (Codegen.resumes)."""
    how = _how(ex, e, names_fixed)
    if how == "constant":
        return literal(_words(e))
    if how == "late":
        return _captured(ex, cast(A.TextLit, e), names_fixed)[0]
    return f"str({ex.src(e)})"


def _how(ex: ExprGen, e: A.Expr, names_fixed: bool) -> str:
    """How a `log` text is logged: "constant" (a text without holes), "late" (its
    holes' values captured, formatted when read) or "now" (the line made at once)."""
    if not isinstance(e, A.TextLit):
        return "now"
    holes = [p for p in e.parts if not isinstance(p, str)]
    if not holes:
        return "constant"
    if LATE and any(deferred(ex.type_of(p), names_fixed) for p in holes):
        return "late"
    return "now"


def _words(e: A.Expr) -> str:
    """The text of a text literal without holes."""
    return "".join(p for p in cast(A.TextLit, e).parts if isinstance(p, str))


def _split(ex: ExprGen, e: A.TextLit, names_fixed: bool) -> tuple[Fn, LateFn]:
    """The capture of a text's holes (a tuple, in the order written) and the function
    that joins them with the text's words, each shown as the eager text shows it."""
    capture, parts = _captured(ex, e, names_fixed)
    ex.ns.counter += 1
    n = ex.ns.counter
    late = ex.ns.function(f"_late{n}", "st, _c", [f"return {' + '.join(parts)}"])
    return ex.ns.function(f"_cap{n}", "st", [f"return {capture}"]), late


def _captured(ex: ExprGen, e: A.TextLit, names_fixed: bool) -> tuple[str, list[str]]:
    """The capture's tuple, as Python, and the late formatting's parts."""
    captured: list[str] = []
    parts: list[str] = []
    for p in e.parts:
        if p == "":
            continue
        if isinstance(p, str):
            parts.append(literal(p))
            continue
        t = ex.type_of(p)
        held = f"_c[{len(captured)}]"
        if not deferred(t, names_fixed):
            # shown now; a text joined to the others now (`none` fails here, as it did)
            captured.append(f"({ex.show(p)}) + ''" if t.name == "text" else ex.show(p))
            parts.append(held)
        elif t.name == "int":
            captured.append(ex.src(p))
            parts.append(f"str({held})")
        else:
            captured.append(ex.src(p))
            parts.append(f"{ex.ns.name_for(ex.fmt(t), '_fmt')}(st, {held})")
    return f"({', '.join(captured)},)", parts


def deferred(t: T, names_fixed: bool) -> bool:
    """May a value of type t be shown later, with the same text? Not a text (it is its
    own text), nor a piece or card whose name a rule may change."""
    if t.name == "text":
        return False
    if t.name == "list":
        return t.elem is not None and deferred(t.elem, names_fixed)
    return names_fixed or t.name != "entity"


def _constant(text: str) -> Fn:
    return lambda st: text


def assigned(program: Program) -> set[AttrSym]:
    """The attributes some `set` statement changes."""
    out: set[AttrSym] = set()
    stack: list[object] = list(program.decls)
    while stack:
        node = stack.pop()
        if isinstance(node, tuple | list):
            stack.extend(node)
        elif isinstance(node, A.Set):
            target = node.target
            while isinstance(target, A.Index):  # set p.scores[i] = v changes p.scores
                target = target.obj
            sym = program.refs.get(id(target))
            if isinstance(sym, AttrSym):
                out.add(sym)
        elif hasattr(node, "__dataclass_fields__") and not isinstance(node, A.Expr):
            stack.extend(getattr(node, f) for f in node.__dataclass_fields__)
    return out


def changed_columns(program: Program) -> tuple[int, ...]:
    """The columns (attributes of players and kinds) some rule `set`s, in their order
    (Config.changing; the others are shared by every game of a table)."""
    changed = assigned(program)
    return tuple(a.slot for a in program.columns if a in changed)


def names_fixed(program: Program) -> bool:
    """Are the texts of values fixed for a game (no rule changes a `name` attribute)?"""
    return not any(a.name == "name" for a in assigned(program))
