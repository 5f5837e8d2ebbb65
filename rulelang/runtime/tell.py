"""Log lines told from the record when read: a decision or roll whose `log` text is
logged, outside a playout, as the playout logs it (the spec, who, the value, the
record before) and after that only the values of its holes that the record does not
hold already, each flat in the record; its line is made when the log is read.

A playout's record of the same decision (the 4-tuple, no line) reads as "Ann chooses
3"; a record told when read names a twin of the statement's spec (`ChoiceSpec.plain`
is the spec itself, `tell` makes the line from the record), so `state.typed` gives
the event the eager record gave: the same spec, value, line and no hidden line.

A hole is left to the reader (not captured) when its value is in the record: the
chosen or drawn value itself, or `current` for a choice asked of the turn player
(the record's `who`); or when it is worked out from the value alone and cannot fail
(literals, `==`, `!=`, `and`, `or`, `not`, `if ... then ... else`, and defs made of
those), and, for a text, is one of the rule file's own texts in every case, never
none. Every other hole is captured when the value is recorded, as late.py captures
it (a value shown later, or a text shown now), so the line is the one the eager
sentence made, and an error that a hole raises is raised where it was.
"""

from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING

from rulelang.check.symbols import BuiltinSym, DefSym, LocalSym, ValueSym
from rulelang.runtime.late import deferred
from rulelang.runtime.literals import literal
from rulelang.syntax import ast as A

if TYPE_CHECKING:
    from rulelang.runtime.code import Spec
    from rulelang.runtime.exprgen import ExprGen, Namespace

# False: a line is logged, or its holes' values captured in a tuple of their own, when
# the value is recorded, as before (tests/test_told_when_read.py compares the two)
TELL = True
# a captured value that the statement right after the choice assigns is worked out once
# (see `shared`); False: twice, for the record and for the statement, as before
SHARED = True
_QUIET = "if not st.quiet:  # a quiet game keeps no record (Game.quiet)"
_CALL = re.compile(r"[\w\]\)]\s*\(")  # a call: what it computes might differ a second time
_BASE = re.compile(r"^st\.(?:cols|vars|loc|zones)\[\d+\]")  # a column, global, local, zone
_VALUE, _WHO = "_r[2]", "_r[1]"  # where the record holds the value and who chose it
_DEPTH = 8  # defs calling defs, followed this deep


def twin(
    ex: ExprGen,
    spec: Spec,
    e: A.Expr | None,
    names_fixed: bool,
    who_is_current: bool,
    sure: bool = False,
) -> tuple[Spec, list[str]] | None:
    """The twin of spec that a record told when read names, and the Python sources of
    the values captured after the record before; None where the line is logged as
    before (no `log` text, a line for the others or an audience, a text that is not
    a literal, TELL off). `who_is_current`: the record's `who` is the turn player;
    `sure`: the value is never none (a text value is then its own line's text)."""
    if not (TELL and isinstance(e, A.TextLit)) or spec.narrate_hidden is not None:
        return None
    if spec.audience is not None:
        return None
    captured: list[str] = []
    held: list[tuple[str, A.Expr]] = []  # each hole's value (a text: shown), as late.py's
    for p in e.parts:
        if isinstance(p, str):
            continue
        told = _told(ex, p, spec.slot, names_fixed, who_is_current, sure)
        if told is None:  # captured when recorded, as late.py captures it
            shown = not deferred(ex.type_of(p), names_fixed)
            text = ex.type_of(p).name == "text"
            captured.append(f"({ex.show(p)}) + ''" if text else ex.show(p) if shown else ex.src(p))
            told = f"_r[{3 + len(captured)}]"
        held.append((told, p))
    if spec.late is not None:  # the values in late.py's order, formatted by its function
        values = "".join(f"{v}, " for v, _p in held)
        body = [f"return {ex.ns.name_for(spec, '_spec')}.late(st, ({values}))"]
    elif any(deferred(ex.type_of(p), names_fixed) for _v, p in held):
        return None  # (late.LATE off: the line is made when logged)
    else:  # no hole shown later: each a text already (or none at all)
        each = iter([v for v, _p in held])
        parts = [literal(p) if isinstance(p, str) else next(each) for p in e.parts if p != ""]
        body = [f"return {' + '.join(parts) or repr('')}"]
    ex.ns.counter += 1
    tell = ex.ns.function(f"_tell{ex.ns.counter}", "st, _r", body)
    made: Spec = dataclasses.replace(spec, tell=tell, plain=spec)  # type: ignore[arg-type]
    return made, captured


def record(ns: Namespace, told: tuple[Spec, list[str]], who: str, value: str) -> str:
    """The Python of a record told when read: the twin, who (or the outcome's index),
    the value, the record before, and the values captured."""
    spec, captured = told
    return f"({', '.join([ns.name_for(spec, '_spec'), who, value, 'st.log', *captured])})"


def shared(lines: list[str], on: bool) -> list[str]:
    """A resume's lines (its head, then the op after the choice) with a value that the
    record captures and the first statement after the choice assigns (`set mover.at =
    step(town, mover.at, steps)` after a line's `{step(town, mover.at, steps)}`) worked
    out once: the statement first, then the record reading what it
    stored. Only where nothing else the record holds reads what the statement changes
    (its column, global, local or zone), where the statement reads its target in the
    value (so a bad place fails there, before the record, as the capture did), and
    nothing in the record calls anything. `on`: SHARED as the rules were compiled."""
    at = next((i for i, line in enumerate(lines) if line == _QUIET), -1)
    if not on or at < 0 or lines[at + 2 : at + 3] != ["st.pending = None"]:
        return lines
    record, statement = lines[at + 1], lines[at + 3] if at + 3 < len(lines) else ""
    target, _eq, value = statement.partition(" = ")
    value = value.partition("  # @")[0]
    base = _BASE.match(target)
    if not (record.startswith("    st.log = (") and base and value and target in value):
        return lines
    held = next((f", {value}{end}" for end in (",", ")") if f", {value}{end}" in record), "")
    rest = record.replace(held, "", 1) if held else record
    if not held or _CALL.search(value) or _CALL.search(rest) or base.group() in rest:
        return lines  # (a call in the record might read what the statement changes)
    record = record.replace(held, f", {target}{held[-1]}", 1)
    return [*lines[:at], statement, lines[at], record, "st.pending = None", *lines[at + 4 :]]


def _told(
    ex: ExprGen, p: A.Expr, slot: int, names_fixed: bool, who: bool, sure: bool
) -> str | None:
    """The source of hole p's value from the record alone (a text's: shown), as
    late.py holds it, or None to capture it."""
    t = ex.type_of(p)
    sym = ex.ref(p) if isinstance(p, A.Name) else None
    value = isinstance(sym, LocalSym) and sym.slot == slot
    if value and (deferred(t, names_fixed) or (sure and t.name == "text")):
        return _VALUE
    if isinstance(sym, BuiltinSym) and sym.name == "current" and who:
        return _WHO
    if slot < 0 or not _total(ex, p, {slot}, 0):
        return None
    if t.name == "text":  # the rule file's own text in every case: shown as it is
        return _worked_out(ex, p, slot) if _own_text(ex, p, 0) else None
    return _worked_out(ex, p, slot) if deferred(t, names_fixed) else None


def _worked_out(ex: ExprGen, p: A.Expr, slot: int) -> str:
    """The value of hole p worked out from the recorded value, by its own code."""
    before = ex.bound.get(slot)
    ex.bound[slot] = _VALUE
    try:
        return f"({ex.src(p)})"
    finally:
        if before is None:
            del ex.bound[slot]
        else:
            ex.bound[slot] = before


def literal_faces(die: object) -> bool:
    """Is `die` (what a roll refers to) a die whose faces are written as texts and
    numbers, never none?"""
    if not (isinstance(die, ValueSym) and isinstance(die.decl, A.DieDecl)):
        return False
    faces = die.decl.faces
    return isinstance(faces, A.ListLit) and all(
        isinstance(f, A.IntLit) or (isinstance(f, A.TextLit) and not _holes(f)) for f in faces.items
    )


def _holes(e: A.TextLit) -> bool:
    return not all(isinstance(p, str) for p in e.parts)


def _total(ex: ExprGen, e: A.Expr, slots: set[int], depth: int) -> bool:
    """Is e worked out from the locals at `slots` and literals alone, never failing?"""
    if depth > _DEPTH:
        return False
    match e:
        case A.IntLit() | A.BoolLit():
            return True
        case A.TextLit():
            return not _holes(e)
        case A.Name():
            sym = ex.ref(e)
            return isinstance(sym, LocalSym) and sym.slot in slots
        case A.Binary(op="==" | "!=" | "and" | "or"):
            return _total(ex, e.left, slots, depth) and _total(ex, e.right, slots, depth)
        case A.Unary(op="not"):
            return _total(ex, e.operand, slots, depth)
        case A.Cond():
            return all(_total(ex, x, slots, depth) for x in (e.cond, e.then, e.otherwise))
        case A.Call():
            sym = ex.ref(e)
            if not isinstance(sym, DefSym) or not isinstance(sym.decl.body, A.Expr):
                return False
            own = {p.slot for p in sym.params}
            return all(_total(ex, a, slots, depth) for a in e.args) and _total(
                ex, sym.decl.body, own, depth + 1
            )
    return False


def _own_text(ex: ExprGen, e: A.Expr, depth: int) -> bool:
    """Is e, in every case, one of the rule file's texts without holes (never none)?"""
    if depth > _DEPTH:
        return False
    match e:
        case A.TextLit():
            return not _holes(e)
        case A.Cond():
            return _own_text(ex, e.then, depth) and _own_text(ex, e.otherwise, depth)
        case A.Call():
            sym = ex.ref(e)
            body = sym.decl.body if isinstance(sym, DefSym) else None
            return isinstance(body, A.Expr) and _own_text(ex, body, depth + 1)
    return False
