"""The whole numbers an expression can be, where plain to see, so that a read of a list
of known length at it, or a direction on a grid, needs no check (exprgen `proven`,
`within`): `let d = dir_of(way)` where every branch of dir_of is 0 to 3, and a proc
called only with such a d (`do note_step(p, d)`).

Known: a number; `x % k` for a number k > 0 (Python's: 0 to k - 1); the variable of a
loop over constant bounds (the code generator's own, passed in); a `let` local that
no `set` changes, of a value known so; a proc's parameter when every `do` of that proc
passes a value known so; `if ... then a else b` of two known; a def whose value
(its expression) is known so without its parameters. Anything else (a parameter of a
def, a value read from the state) is not known, and keeps its checks.
"""

from __future__ import annotations

from collections.abc import Iterator

from rulelang.check.symbols import DefSym, LocalSym, Program
from rulelang.check.types import T
from rulelang.runtime.reads import expressions
from rulelang.syntax import ast as A

Range = tuple[int, int]
INT = T("int")


def range_of(
    program: Program,
    e: A.Expr,
    loops: dict[int, Range],
    facts: dict[int, Range],
    extended: bool = True,
    depth: int = 0,
) -> Range | None:
    """The least and greatest value of e (see the module's docstring), or None. Not
    `extended`: a number, and the variable of a loop over constant bounds, alone."""
    if isinstance(e, A.IntLit):
        return e.value, e.value
    if isinstance(e, A.Name):
        sym = program.refs.get(id(e))
        if isinstance(sym, LocalSym):
            return loops.get(sym.slot) or facts.get(sym.slot)
        return None
    if not extended:
        return None
    if isinstance(e, A.Binary) and e.op == "%" and isinstance(e.right, A.IntLit):
        typed = program.types.get(id(e.left)) == INT
        return (0, e.right.value - 1) if typed and e.right.value > 0 else None
    if isinstance(e, A.Cond):
        a = range_of(program, e.then, loops, facts, extended, depth)
        b = range_of(program, e.otherwise, loops, facts, extended, depth)
        return (min(a[0], b[0]), max(a[1], b[1])) if a and b else None
    if isinstance(e, A.Call) and depth < 8:
        sym = program.refs.get(id(e))
        if isinstance(sym, DefSym) and isinstance(sym.decl.body, A.Expr):
            return range_of(program, sym.decl.body, {}, {}, extended, depth + 1)
    return None


def known_ranges(program: Program) -> dict[int, Range]:
    """The values of `let` locals and procs' parameters known so, by slot."""
    lets: list[A.Let] = []
    dos: list[A.Do] = []
    changed: set[int] = set()
    for s in statements(program):
        if isinstance(s, A.Let):
            lets.append(s)
        elif isinstance(s, A.Do):
            dos.append(s)
        elif isinstance(s, A.Set) and (slot := set_local(program, s)) is not None:
            changed.add(slot)
    facts: dict[int, Range] = {}
    for _ in range(3):  # a fact may rest on another: a few rounds reach them
        for s in lets:
            slot = program.locals_of[id(s)].slot
            known = range_of(program, s.value, {}, facts)
            if slot not in changed and known is not None:
                facts[slot] = known
        for name, proc in program.procs.items():
            for i, p in enumerate(proc.params):
                calls = [d.args[i] for d in dos if d.proc == name]
                known = _union([range_of(program, a, {}, facts) for a in calls])
                if p.slot not in changed and calls and known is not None:
                    facts[p.slot] = known
    return facts


def set_local(program: Program, s: A.Set) -> int | None:
    """The slot of the local a `set` changes (`set xs[i] = ...` changes xs), or None
    where it changes no local (an attribute, a global)."""
    root = s.target
    while isinstance(root, A.Index):
        root = root.obj
    sym = program.refs.get(id(root))
    return sym.slot if isinstance(sym, LocalSym) else None


def counters(program: Program) -> set[int]:
    """The slots of `let` locals never below 0: a value known to be 0 or more (a
    number, a loop's... see `range_of`), and every `set` of them adds a number of 0 or
    more, or gives one (`let i = 0` ... `set i += 1`). A read of a list at such a local
    needs no check that it is 0 or more, only that it is below the length."""
    lets: dict[int, A.Let] = {}
    sets: dict[int, list[A.Set]] = {}
    for s in statements(program):
        if isinstance(s, A.Let):
            lets[program.locals_of[id(s)].slot] = s
        elif isinstance(s, A.Set) and (slot := set_local(program, s)) is not None:
            sets.setdefault(slot, []).append(s)
    return {
        slot
        for slot, let in lets.items()
        if _natural(let.value) and all(_grows(s) for s in sets.get(slot, ()))
    }


def _natural(e: A.Expr) -> bool:
    return isinstance(e, A.IntLit) and e.value >= 0


def _grows(s: A.Set) -> bool:
    """Does this `set` of a counter leave it 0 or more (given it was)?"""
    if not isinstance(s.target, A.Name):
        return False
    return s.op in ("+=", "=") and _natural(s.value)


def _union(ranges: list[Range | None]) -> Range | None:
    if not ranges or any(r is None for r in ranges):
        return None
    return min(r[0] for r in ranges if r), max(r[1] for r in ranges if r)


def statements(program: Program) -> Iterator[A.Stmt]:
    """Every statement of the rules (procs, phases, setup, ends, defs' blocks...)."""
    seen: set[int] = set()
    stack: list[object] = [
        program.decls,
        program.setup,
        [p.decl for p in program.procs.values()],
        [p.decl for p in program.phases],
        [d.decl for d in program.defs.values()],
        program.ends,
    ]
    while stack:
        node = stack.pop()
        if isinstance(node, tuple | list):
            stack.extend(node)
        elif isinstance(node, A.Stmt | A.Decl) and id(node) not in seen:
            seen.add(id(node))  # (expressions hold no statements)
            if isinstance(node, A.Stmt):
                yield node
            stack.extend(getattr(node, f) for f in node.__dataclass_fields__)


def def_specs(program: Program, facts: dict[int, Range]) -> dict[str, dict[int, Range]]:
    """Per def whose value is an expression, the ranges its whole-number parameters
    are known to take at some of its calls (by the parameter's place; the union over
    the calls where the argument's range is known): the def is compiled a second time
    with these (exprgen `call_def`), for the calls whose arguments fall within them.
    A call elsewhere (its argument not known so) calls the def as it is."""
    found: dict[str, dict[int, list[Range]]] = {}
    for node in expressions(program, list(statements(program))):
        sym = program.refs.get(id(node))
        if not (isinstance(node, A.Call) and isinstance(sym, DefSym)):
            continue
        if not isinstance(sym.decl.body, A.Expr):
            continue
        for i, (p, a) in enumerate(zip(sym.params, node.args, strict=True)):
            known = range_of(program, a, {}, facts) if p.type == INT else None
            if known is not None:
                found.setdefault(sym.name, {}).setdefault(i, []).append(known)
    return {
        name: {i: (min(r[0] for r in rs), max(r[1] for r in rs)) for i, rs in each.items()}
        for name, each in found.items()
    }
