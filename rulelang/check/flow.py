"""Pass 3: the turn flow. Phases reached, an end in sight, no endless call cycles."""

from __future__ import annotations

from rulelang import errors
from rulelang.check.context import Checker
from rulelang.check.scope import PAUSING
from rulelang.check.symbols import ProcSym, imagine_proc
from rulelang.diagnostics import Span
from rulelang.syntax import ast as A


def run(c: Checker) -> None:
    _recursion(c)
    _pausing_procs(c)
    _complete_choices(c)
    if c.library:
        return
    _phases(c)
    if not c.ends:
        c.report(errors.no_end_rule(Span(c.main_file, 1, 1)))


def _recursion(c: Checker) -> None:
    """Report each call cycle once, at the def or proc that closes it. The search is
    iterative: a chain of thousands of calls must not exhaust Python's stack."""
    state: dict[str, int] = {}
    for root in sorted(c.calls):
        if state.get(root) is not None:
            continue
        state[root] = 1
        path = [root]
        stack = [iter(sorted(c.calls.get(root, ())))]
        while stack:
            callee = next(stack[-1], None)
            if callee is None:
                stack.pop()
                state[path.pop()] = 2
            elif state.get(callee) == 1:
                cycle = " -> ".join([*path[path.index(callee) :], callee])
                c.report(errors.recursion(callee, cycle, c.names[callee].span))
            elif state.get(callee) is None:
                state[callee] = 1
                path.append(callee)
                stack.append(iter(sorted(c.calls.get(callee, ()))))


def _walk(stmts: tuple[A.Stmt, ...]) -> list[A.Stmt]:
    """Every statement of a block and of the blocks nested in it."""
    return [s for block in _blocks(stmts) for s in block]


def _procs_with(c: Checker, procs: list[ProcSym], kinds: tuple[type, ...]) -> set[str]:
    """The procs that run a statement of these kinds, in their body or through the
    procs they call."""
    found = {p.name for p in procs if any(isinstance(s, kinds) for s in _walk(p.decl.body))}
    changed = True
    while changed:
        changed = False
        for p in procs:
            if p.name not in found and any(n in found for n in c.calls.get(p.name, ())):
                found.add(p.name)
                changed = True
    return found


def _pausing_procs(c: Checker) -> None:
    procs = [s for s in c.names.values() if isinstance(s, ProcSym)]
    pausing = _procs_with(c, procs, PAUSING)
    for p in procs:
        p.pauses = p.name in pausing
    for end in c.ends:
        for s in _walk(end.body):
            if not isinstance(s, A.Do):
                continue
            target = c.names.get(s.proc)
            if isinstance(target, ProcSym) and target.pauses:
                c.report(errors.end_rule_calls_asking_proc(s.proc, s.span))
    imagine = imagine_proc(c.names)
    if imagine is not None:
        _imagine_asks_nobody(c, imagine, procs)


def _imagine_asks_nobody(c: Checker, imagine: ProcSym, procs: list[ProcSym]) -> None:
    """The `imagine` block may draw chance but ask no one: E311 at each call of a proc
    that asks a player (directly or through other procs)."""
    asks = _procs_with(c, procs, (A.Choose, A.React))
    for s in _walk(imagine.decl.body):
        if isinstance(s, A.Do) and s.proc in asks and s.proc != A.IMAGINE:
            c.report(errors.end_rule_calls_asking_proc(s.proc, s.span, imagine=True))


def _phases(c: Checker) -> None:
    if not c.phases:
        c.report(errors.no_turns(Span(c.main_file, 1, 1)))
        return
    by_name = {p.name: p for p in c.phases}
    for p in c.phases:
        d = p.decl
        if d.next and d.next not in by_name:
            c.unknown("phase", d.next, d.next_span or d.span, list(by_name))
        if d.end_when is not None and not d.next:
            c.report(errors.phase_without_next(p.name, d.span))
        if d.next and d.end_when is None:
            c.report(errors.phase_never_ends(p.name, d.next_span or d.span))
        if not d.turn:
            c.report(errors.phase_without_turn(p.name, d.span))
    reached = {c.phases[0].name}
    todo = [c.phases[0]]
    while todo:
        d = todo.pop().decl
        if d.next in by_name and d.next not in reached:
            reached.add(d.next)
            todo.append(by_name[d.next])
    for p in c.phases:
        if p.name not in reached:
            c.report(errors.phase_never_reached(p.name, c.phases[0].name, p.span))


def _complete_choices(c: Checker) -> None:
    """A `complete` choice needs something after it in its effect (the rest of its
    block, and the procs that calls) that may fail to complete: a choice, roll or pick
    (E323); and no shuffle there (E324)."""
    bodies = [c.setup, *(p.decl.begin for p in c.phases), *(p.decl.turn for p in c.phases)]
    bodies += [s.decl.body for s in c.names.values() if isinstance(s, ProcSym)]
    for body in bodies:
        for block in _blocks(body):
            for i, s in enumerate(block):
                if not (isinstance(s, A.Choose) and s.complete):
                    continue
                asks, shuffle = _effect(c, block[i + 1 :])
                if shuffle is not None:
                    name = shuffle.zone if isinstance(shuffle, A.ShuffleZone) else shuffle.var
                    c.report(errors.shuffle_in_effect(s.var, name, s.span, shuffle.span))
                elif not asks:
                    c.report(errors.nothing_to_complete(s.var, s.span))


def _blocks(stmts: tuple[A.Stmt, ...]) -> list[tuple[A.Stmt, ...]]:
    """A block and every block nested in it."""
    out = [stmts]
    for s in stmts:
        for body in A.blocks_in(s):
            out.extend(_blocks(body))
    return out


def _effect(
    c: Checker, stmts: tuple[A.Stmt, ...]
) -> tuple[bool, A.ShuffleLet | A.ShuffleZone | None]:
    """Does running these statements (and the procs they call) ask a choice or draw
    a roll or pick; and the first shuffle among them, if any."""
    asks = False
    seen: set[str] = set()
    todo = list(stmts)
    while todo:
        stmt = todo.pop(0)
        for s in _walk((stmt,)):
            if isinstance(s, A.ShuffleLet | A.ShuffleZone):
                return asks, s
            if isinstance(s, A.Choose | A.Roll | A.Pick | A.React):
                asks = True
            if isinstance(s, A.Do) and s.proc not in seen:
                seen.add(s.proc)
                target = c.names.get(s.proc)
                if isinstance(target, ProcSym):
                    todo.extend(target.decl.body)
    return asks, None
