"""`(x == a and A) or (x == b and B) or ...` as one read of x and a choice (issue 21).

A rule that asks what to do by kind (`(c.kind == path and ...) or (c.kind == broken
and ...) or ...`) reads the kind, and compares it, once for each alternative up to the
one that holds, and on through all the others where that one's own test fails. Written

    ((A) if (t := x) == a else ((B) if t == b else (... else False)))

x is read once and compared with the constants up to its own. The same answer: x is
one value, equal to at most one of constants that differ from each other, so once its
alternative's test (A) fails no later alternative can hold, and the chain gave False
(each alternative's value is a truth value, the rules' types say). x is read first, as
the first comparison read it, so an error raised reading it is the same; reading it
once instead of again is the same for a read that calls nothing of the rules (a def
may count steps, so x may call none).

Only a chain of at least MIN alternatives, each `x == constant` first (the constant a
number or a text: an enum's value), the constants all different, x the same source in
each and holding no call of a def, proc or loop of the generated code and no `:=`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rulelang.runtime.lines import literal
from rulelang.syntax import ast as A

if TYPE_CHECKING:
    from rulelang.runtime.exprgen import ExprGen

DISPATCH = True  # off: the chain evaluated as written
MIN = 3  # the fewest alternatives worth a name (two save one read at most)
CALLS = re.compile(r"\b(_d_|_p_|_loop)|:=")


def dispatched(gen: ExprGen, e: A.Binary) -> str | None:
    """The source of the `or` chain e as a choice by its subject, or None."""
    alternatives = chain(e, "or")
    if not DISPATCH or len(alternatives) < MIN or gen.in_comp_source:
        return None
    subject, seen = None, set()
    cases: list[tuple[str, list[A.Expr]]] = []
    for alt in alternatives:
        tests = chain(alt, "and")
        found = _compared(gen, tests[0])
        if found is None:
            return None
        x, constant, value = found
        if (subject is not None and x != subject) or (type(value), value) in seen:
            return None
        if any(gen.type_of(t).name != "bool" for t in tests[1:]):
            return None
        subject = x
        seen.add((type(value), value))
        cases.append((constant, tests[1:]))
    if subject is None or CALLS.search(subject):
        return None
    name = gen.temp()
    out = "False"
    for i, (constant, rest) in reversed(list(enumerate(cases))):
        then = " and ".join(f"({gen.src(t)})" for t in rest) if rest else "True"
        read = f"({name} := {subject})" if i == 0 else name
        out = f"(({then}) if {read} == {constant} else {out})"
    return out


def chain(e: A.Expr, op: str) -> list[A.Expr]:
    """The operands of a chain of one operator (`a or b or c`), left to right."""
    if isinstance(e, A.Binary) and e.op == op:
        return [*chain(e.left, op), *chain(e.right, op)]
    return [e]


def _compared(gen: ExprGen, test: A.Expr) -> tuple[str, str, object] | None:
    """(the subject's source, the constant's source, its value) of `x == constant`
    (either way round), None for any other test."""
    if not (isinstance(test, A.Binary) and test.op == "=="):
        return None
    left, right = gen.src(test.left), gen.src(test.right)
    for x, constant in ((left, right), (right, left)):
        value = _constant(constant)
        if value is not None and _constant(x) is None:
            return x, constant, value
    return None


def _constant(source: str) -> object:
    """The value of a source that is a number or a text written out, else None."""
    try:
        value = literal(source)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    return value if type(value) in (int, str) else None
