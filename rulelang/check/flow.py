"""Pass 3: the turn flow. Phases reached, an end in sight, no endless call cycles."""

from __future__ import annotations

from rulelang.check.context import Checker
from rulelang.check.scope import PAUSING
from rulelang.check.symbols import ProcSym
from rulelang.diagnostics import Span
from rulelang.syntax import ast as A


def run(c: Checker) -> None:
    _recursion(c)
    _pausing_procs(c)
    if c.library:
        return
    _phases(c)
    if not c.ends:
        c.error(
            "E302",
            "the game never ends: there is no 'end when' rule",
            Span(c.main_file, 1, 1),
            "add for example: end when <condition> { win [current] }",
        )


def _recursion(c: Checker) -> None:
    state: dict[str, int] = {}

    def visit(name: str, path: list[str]) -> None:
        state[name] = 1
        for callee in sorted(c.calls.get(name, ())):
            if state.get(callee) == 1:
                cycle = " -> ".join([*path[path.index(callee) :], callee])
                sym = c.names[callee]
                c.error(
                    "E304",
                    f"'{callee}' calls itself ({cycle}); rules may not recurse, "
                    "use 'while' or 'repeat' instead",
                    sym.span,
                )
            elif state.get(callee) is None:
                visit(callee, [*path, callee])
        state[name] = 2

    for name in sorted(c.calls):
        if state.get(name) is None:
            visit(name, [name])


def _walk(stmts: tuple[A.Stmt, ...]) -> list[A.Stmt]:
    out: list[A.Stmt] = []
    for s in stmts:
        out.append(s)
        if isinstance(s, A.If):
            for _cond, body in s.branches:
                out.extend(_walk(body))
            out.extend(_walk(s.otherwise))
        elif isinstance(s, A.While | A.For | A.Repeat):
            out.extend(_walk(s.body))
    return out


def _pausing_procs(c: Checker) -> None:
    procs = [s for s in c.names.values() if isinstance(s, ProcSym)]
    for p in procs:
        p.pauses = any(isinstance(s, PAUSING) for s in _walk(p.decl.body))
    changed = True
    while changed:
        changed = False
        for p in procs:
            if not p.pauses and any(
                getattr(c.names.get(n), "pauses", False) for n in c.calls.get(p.name, ())
            ):
                p.pauses = changed = True
    for end in c.ends:
        for s in _walk(end.body):
            if not isinstance(s, A.Do):
                continue
            target = c.names.get(s.proc)
            if isinstance(target, ProcSym) and target.pauses:
                c.error(
                    "E305",
                    f"'{s.proc}' asks a player or the dice, which an end rule cannot do",
                    s.span,
                )


def _phases(c: Checker) -> None:
    if not c.phases:
        c.error(
            "E302",
            "the game has no turns: add 'turn { ... }' or a 'phase'",
            Span(c.main_file, 1, 1),
        )
        return
    by_name = {p.name: p for p in c.phases}
    for p in c.phases:
        d = p.decl
        if d.next and d.next not in by_name:
            c.unknown("phase", d.next, d.next_span or d.span, list(by_name))
        if d.end_when is not None and not d.next:
            c.error(
                "E302",
                f"phase '{p.name}' can end but does not say which phase comes next",
                d.span,
                "add 'next <phase>'",
            )
        if d.next and d.end_when is None:
            c.error(
                "E302",
                f"phase '{p.name}' names a next phase but never ends",
                d.next_span or d.span,
                "add 'end when <condition>'",
            )
        if not d.turn:
            c.error("E302", f"phase '{p.name}' has no turn", d.span)
    reached = {c.phases[0].name}
    todo = [c.phases[0]]
    while todo:
        d = todo.pop().decl
        if d.next in by_name and d.next not in reached:
            reached.add(d.next)
            todo.append(by_name[d.next])
    for p in c.phases:
        if p.name not in reached:
            c.error(
                "E301",
                f"phase '{p.name}' is never reached",
                p.span,
                f"the game starts in '{c.phases[0].name}'; no 'next' leads here",
            )
