"""Compile statements and the turn flow into a flat list of closures.

Each op is `op(state) -> next pc`. Straight-line statements are merged into one op;
an op that needs a player's decision or a chance outcome stores what it waits for in
`state.pending` and returns PAUSE, so that the state (pc, stack, locals) is plain data
that clones cheaply.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rulelang.check.symbols import AttrSym, LocalSym, ProcSym, Program, ValueSym
from rulelang.diagnostics import NO_SPAN, Span
from rulelang.runtime.exprs import ExprCompiler, Fn, fail, reads
from rulelang.runtime.places import PlacesCodegen
from rulelang.runtime.values import Formatter
from rulelang.syntax import ast as A

STEP_BUDGET = 100_000  # loop rounds allowed between two decisions
PAUSE = -1
OVER = -2
CHANCE = -1  # who acts at a chance event
Op = Callable[[Any], int]
Simple = Callable[[Any], None]


@dataclass(eq=False)
class ChoiceSpec:
    pc: int
    var: str
    prompt: Fn
    slot: int
    domain: Fn
    requires: list[tuple[Fn, Fn, Span]]
    by: Fn | None
    show: Formatter
    allow_pass: bool
    secret: bool
    span: Span


@dataclass(eq=False)
class ChanceSpec:
    pc: int
    kind: str  # roll, pick, shuffle, shuffle_zone
    var: str
    slot: int
    source: Fn  # faces / list to pick from / list or zone index to shuffle
    show: Formatter
    span: Span
    zone: int = -1


@dataclass
class Code:
    ops: list[Op] = field(default_factory=list)
    spans: list[Span] = field(default_factory=list)
    choices: dict[int, ChoiceSpec] = field(default_factory=dict)
    chances: dict[int, ChanceSpec] = field(default_factory=dict)
    start: int = 0


class Cell:
    """A jump target that is known only later."""

    __slots__ = ("pc",)

    def __init__(self) -> None:
        self.pc = -99


class Codegen(PlacesCodegen):
    def __init__(self, program: Program, ec: ExprCompiler):
        self.p = program
        self.ec = ec
        self.code = Code()
        self.simple: list[str] = []  # python source lines of straight-line statements
        self.simple_span: Span = NO_SPAN
        self.proc_entry: dict[str, Cell] = {n: Cell() for n in program.procs}
        self.end_reads: set[int] = set()
        for end in program.ends:
            self.end_reads |= reads(program, end.cond)
        self.ends: list[tuple[Fn, Cell]] = []

    # ------------------------------------------------------------ emitting
    def flush(self) -> None:
        """Straight-line statements become one generated Python function."""
        if not self.simple:
            return
        lines = [*self.simple, f"return {len(self.code.ops) + 1}"]
        self.simple = []
        self.emit(self.ec.gen.function(lines), self.simple_span, flush=False)

    def here(self) -> int:
        self.flush()
        return len(self.code.ops)

    def emit(self, op: Op, span: Span, flush: bool = True) -> int:
        if flush:
            self.flush()
        self.code.ops.append(op)
        self.code.spans.append(span)
        return len(self.code.ops) - 1

    def emit_src(self, lines: list[str], span: Span) -> int:
        """Emit generated code, prefixed by the straight-line statements waiting before it."""
        if self.simple:
            span = self.simple_span
        body = [*self.simple, *lines]
        self.simple = []
        return self.emit(self.ec.gen.function(body), span, flush=False)

    def add_simple(self, f: Simple, span: Span) -> None:
        self.add_line(self.ec.gen.embed(f), span)

    def add_line(self, line: str, span: Span) -> None:
        if not self.simple:
            self.simple_span = span
        self.simple.append(line)

    def jump(self, cell: Cell, span: Span) -> None:
        self.emit_src([f"return {self.ec.gen.name_for(cell, '_c')}.pc"], span)

    def back_jump(self, top: int, span: Span) -> None:
        """Jump back to a loop's top, counting rounds so an endless loop stops with R001."""
        gen = self.ec.gen
        error = gen.name_for(fail("R001", f"this loop ran {STEP_BUDGET} rounds without "
                                  "anyone being asked to act: does it ever end?", span), "_e")
        self.emit_src(["st.steps += 1", f"if st.steps > {STEP_BUDGET}:", f"    raise {error}",
                       f"return {top}"], span)

    def branch(self, cond: A.Expr, otherwise: Cell, span: Span) -> None:
        nxt = len(self.code.ops) + 1
        gen = self.ec.gen
        cell = gen.name_for(otherwise, "_c")
        self.emit_src([f"return {nxt} if {gen.src(cond)} else {cell}.pc"], span)

    # ------------------------------------------------------------ the program
    def build(self) -> Code:
        p = self.p
        self.emit(lambda st: 1, NO_SPAN)
        self.block(p.setup)
        first = Cell()
        self.jump(first, NO_SPAN)
        entries = {ph.name: Cell() for ph in p.phases}
        first.pc = -99
        for i, ph in enumerate(p.phases):
            entries[ph.name].pc = self.here()
            if i == 0:
                first.pc = entries[ph.name].pc
            self.phase(i, ph.decl, entries)
        for name, sym in p.procs.items():
            self.proc(name, sym)
        for end in p.ends:
            cell = Cell()
            cell.pc = self.here()
            self.block(end.body)
            self.emit(lambda st: OVER, end.span)
            self.ends.append((self.ec.compile(end.cond), cell))
        return self.code

    def phase(self, index: int, d: A.PhaseDecl, entries: dict[str, Cell]) -> None:
        if d.order_from is not None:
            start = self.ec.compile(d.order_from)

            def order_from(st: Any) -> None:
                st.current = start(st)
            self.add_simple(order_from, d.order_from.span)

        def enter(st: Any) -> None:
            st.phase = index
        self.add_simple(enter, d.span)
        self.block(d.begin)
        top = self.here()

        self.add_line("st.turn += 1", d.span)
        self.block(d.turn)
        nxt = entries[d.next] if d.next else None
        delta = 1 if d.order == "clockwise" else -1
        span = d.span
        check_end = self.check_end
        current_matters = 0 in self.end_reads

        gen = self.ec.gen
        lines = [f"if st.dirty and {gen.name_for(check_end)}(st):", f"    return {OVER}"]
        error = gen.name_for(fail("R001", f"{STEP_BUDGET} turns passed without anyone being "
                                  "asked to act: the game cannot end", span), "_e")
        lines += [f"st.current = (st.current + {delta}) % st.cfg.n"]
        if current_matters:
            lines.append("st.dirty = True")
        if d.end_when is not None and nxt is not None:
            # the next phase starts with the player after the one who played last
            lines += [f"if {gen.src(d.end_when)}:",
                      f"    return {gen.name_for(nxt, '_c')}.pc"]
        lines += ["st.steps += 1", f"if st.steps > {STEP_BUDGET}:", f"    raise {error}",
                  f"return {top}"]
        self.emit_src(lines, span)

    def proc(self, name: str, sym: ProcSym) -> None:
        self.proc_entry[name].pc = self.here()
        self.block(sym.decl.body)
        self.emit_src(["return st.stack.pop()"], sym.span)

    def check_end(self, st: Any) -> bool:
        """Run the first end rule whose condition holds; True if the game is now over."""
        st.dirty = False
        for cond, cell in self.ends:
            if cond(st):
                st.outcome = ["loss"] * st.cfg.n
                saved_pc, saved_stack = st.pc, st.stack
                st.stack = []
                pc = cell.pc
                ops = self.code.ops
                while pc >= 0:
                    pc = ops[pc](st)
                st.stack = saved_stack
                st.pc = saved_pc
                st.over = True
                st.pending = None
                return True
        return False

    # ------------------------------------------------------------ statements
    def block(self, stmts: tuple[A.Stmt, ...]) -> None:
        for s in stmts:
            getattr(self, "s_" + type(s).__name__)(s)

    def local(self, node: object) -> LocalSym:
        return self.p.locals_of[id(node)]

    def s_Let(self, s: A.Let) -> None:
        slot = self.local(s).slot
        self.add_line(f"st.loc[{slot}] = {self.ec.gen.src(s.value)}", s.span)

    def s_Set(self, s: A.Set) -> None:
        sym = self.p.refs.get(id(s.target))
        gen = self.ec.gen
        op = s.op if s.op != "=" else "="
        if isinstance(s.target, A.Name) and isinstance(sym, LocalSym | AttrSym):
            where = f"st.loc[{sym.slot}]" if isinstance(sym, LocalSym) else f"st.vars[{sym.slot}]"
        elif isinstance(s.target, A.Attr) and isinstance(sym, AttrSym):
            where = f"st.cols[{sym.slot}][{gen.src(s.target.obj)}]"
        else:
            raise AssertionError(s.target)
        self.add_line(f"{where} {op} {gen.src(s.value)}", s.span)
        if isinstance(sym, AttrSym) and id(sym) in self.end_reads:
            self.add_line("st.dirty = True", s.span)

    def s_If(self, s: A.If) -> None:
        end = Cell()
        for cond, body in s.branches:
            otherwise = Cell()
            self.branch(cond, otherwise, cond.span)
            self.block(body)
            self.jump(end, s.span)
            otherwise.pc = self.here()
        self.block(s.otherwise)
        end.pc = self.here()

    def s_While(self, s: A.While) -> None:
        top, exit_ = self.here(), Cell()
        self.branch(s.cond, exit_, s.cond.span)
        self.block(s.body)
        self.back_jump(top, s.span)
        exit_.pc = self.here()

    def s_For(self, s: A.For) -> None:
        seq_slot = self.p.hidden[id(s)]
        var = self.local(s).slot
        gen = self.ec.gen
        self.add_line(f"st.loc[{seq_slot}] = tuple({gen.src(s.source)})", s.span)
        self.add_line(f"st.loc[{seq_slot + 1}] = 0", s.span)
        top, exit_ = self.here(), Cell()
        cell = gen.name_for(exit_, "_c")
        self.emit_src([
            "loc = st.loc",
            f"i = loc[{seq_slot + 1}]",
            f"if i >= len(loc[{seq_slot}]):",
            f"    return {cell}.pc",
            f"loc[{var}] = loc[{seq_slot}][i]",
            f"loc[{seq_slot + 1}] = i + 1",
            f"return {top + 1}",
        ], s.span)
        self.block(s.body)
        self.back_jump(top, s.span)
        exit_.pc = self.here()

    def s_Repeat(self, s: A.Repeat) -> None:
        slot = self.p.hidden[id(s)]
        count = self.ec.compile(s.count)

        def init(st: Any) -> None:
            st.loc[slot] = count(st)
        self.add_simple(init, s.span)
        top, exit_ = self.here(), Cell()

        def step(st: Any) -> int:
            if st.loc[slot] <= 0:
                return exit_.pc
            st.loc[slot] -= 1
            return top + 1
        self.emit(step, s.span)
        self.block(s.body)
        self.back_jump(top, s.span)
        exit_.pc = self.here()

    def s_Choose(self, s: A.Choose) -> None:
        local = self.local(s)
        pc = len(self.code.ops)
        domain_src = self._domain_src(s.domain)
        domain: Fn = eval(f"lambda st: {domain_src}", self.ec.gen.env)  # noqa: S307
        requires = [(self.ec.compile(r.cond), self.ec.compile(r.reason), r.span)
                    for r in s.requires]
        by = self.ec.compile(s.by) if s.by is not None else None
        default_prompt = f"choose {s.var}"
        prompt = self.ec.compile(s.prompt) if s.prompt is not None else (
            lambda st: default_prompt)
        spec = ChoiceSpec(pc, s.var, prompt, local.slot, domain, requires, by,
                          self.ec.fmt(local.type), s.allow_pass, s.secret, s.span)
        self.code.choices[pc] = spec
        check_end = self.check_end
        slot, span, var = local.slot, s.span, s.var
        allow_pass = s.allow_pass
        req_fns = [r[0] for r in requires]

        def options(st: Any) -> Any:
            values = domain(st)
            if not req_fns and not allow_pass:
                return values
            if req_fns:
                loc = st.loc
                kept = []
                for v in values:
                    loc[slot] = v
                    for r in req_fns:
                        if not r(st):
                            break
                    else:
                        kept.append(v)
                values = kept
            if allow_pass:
                values = (*values, None)
            return values

        gen = self.ec.gen
        opts_src = gen.embed(options) if req_fns or allow_pass else domain_src
        who = gen.src(s.by) if s.by is not None else "st.current"
        error = gen.name_for(fail("R002", f"nobody can choose '{var}' here: no option is "
                                  "left", span), "_e")
        lines = [
            f"if st.dirty and {gen.name_for(check_end)}(st):",
            f"    return {OVER}",
            f"opts = {opts_src}",
            "if not opts:",
            f"    raise {error}",
            f"st.pending = ({gen.name_for(spec)}, {who}, opts)",
            f"st.pc = {pc}",
            "st.steps = 0",
            f"return {PAUSE}",
        ]
        self.emit_src(lines, s.span)

    def _domain_src(self, e: A.Expr) -> str:
        gen = self.ec.gen
        if isinstance(e, A.Binary) and e.op == "..":
            return f"range({gen.src(e.left)}, {gen.src(e.right)} + 1)"
        return gen.src(e)

    def _chance(self, kind: str, s: A.Stmt, var: str, source: Fn, show: Formatter,
                zone: int = -1) -> None:
        local = self.p.locals_of.get(id(s))
        slot = local.slot if local is not None else -1
        pc = self.here()
        spec = ChanceSpec(pc, kind, var, slot, source, show, s.span, zone)
        self.code.chances[pc] = spec
        quick = kind in ("roll", "pick")

        def chance(st: Any) -> int:
            if not st.auto_chance:  # a test or a replay supplies the outcome
                st.pending = (spec, CHANCE, None)
                st.pc = pc
                st.steps = 0
                return PAUSE
            if quick:  # inlined sample + apply_chance: rolls are on the hot path
                values = source(st)
                if not values:
                    raise fail("R002", f"nothing to {kind} from", spec.span)
                i = int(st.rng.random() * len(values))
                st.loc[slot] = values[i]
                st.log.append(("chance", pc, i))
            else:
                apply_chance(st, spec, sample(st, spec))
            return pc + 1
        self.emit(chance, s.span)

    def s_Roll(self, s: A.Roll) -> None:
        die = self.p.refs[id(s)]
        assert isinstance(die, ValueSym)
        slot = die.slot
        self._chance("roll", s, s.var, lambda st: st.cfg.consts[slot],
                     self.ec.fmt(self.local(s).type))

    def s_Pick(self, s: A.Pick) -> None:
        self._chance("pick", s, s.var, self.ec.compile(s.source),
                     self.ec.fmt(self.local(s).type))

    def s_ShuffleLet(self, s: A.ShuffleLet) -> None:
        self._chance("shuffle", s, s.var, self.ec.compile(s.source),
                     self.ec.fmt(self.local(s).type))

    def s_ShuffleZone(self, s: A.ShuffleZone) -> None:
        base = self.ec.zone_base[s.zone]
        self._chance("shuffle_zone", s, s.zone, lambda st: tuple(st.zones[base]),
                     lambda st, v: str(v), zone=base)

    def s_Do(self, s: A.Do) -> None:
        sym = self.p.refs[id(s)]
        assert isinstance(sym, ProcSym)
        slots = [p.slot for p in sym.params]
        gen = self.ec.gen
        if len(slots) == 1:
            self.add_line(f"st.loc[{slots[0]}] = {gen.src(s.args[0])}", s.span)
        elif slots:
            values = ", ".join(gen.src(a) for a in s.args)
            targets = ", ".join(f"st.loc[{slot}]" for slot in slots)
            self.add_line(f"{targets} = {values}", s.span)
        entry = gen.name_for(self.proc_entry[s.proc], "_c")
        ret = len(self.code.ops) + 1
        self.emit_src([f"st.stack.append({ret})", f"return {entry}.pc"], s.span)

    def s_Say(self, s: A.Say) -> None:
        msg = self.ec.compile(s.message)
        show = self.ec.fmt(self.ec.type_of(s.message))
        to = self.ec.compile(s.to) if s.to is not None else None
        many = s.to is not None and self.ec.type_of(s.to).name == "list"

        def say(st: Any) -> None:
            audience = None
            if to is not None:
                audience = tuple(to(st)) if many else (to(st),)
            st.log.append(("say", audience, show(st, msg(st))))
        self.add_simple(say, s.span)

    def s_Outcome(self, s: A.Outcome) -> None:
        who = self.ec.compile(s.players)
        many = self.ec.type_of(s.players).name == "list"
        kind = s.kind

        def outcome(st: Any) -> None:
            players = list(who(st)) if many else [who(st)]
            result = st.outcome
            if kind == "rank":
                for i, p in enumerate(players):
                    result[p] = "win" if i == 0 else "loss"
                st.log.append(("rank", tuple(players)))
                return
            for p in players:
                result[p] = kind
        self.add_simple(outcome, s.span)


def sample(st: Any, spec: ChanceSpec) -> Any:
    """Draw a chance outcome from the game's one seeded generator."""
    source = spec.source(st)
    if spec.kind in ("roll", "pick"):
        if not source:
            raise fail("R002", f"nothing to {spec.kind} from", spec.span)
        return int(st.rng.random() * len(source))
    perm = list(range(len(source)))
    st.rng.shuffle(perm)
    return tuple(perm)


def apply_chance(st: Any, spec: ChanceSpec, outcome: Any) -> None:
    source = spec.source(st)
    if spec.kind in ("roll", "pick"):
        st.loc[spec.slot] = source[outcome]
    elif spec.kind == "shuffle":
        st.loc[spec.slot] = tuple(source[j] for j in outcome)
    else:
        st.zones[spec.zone] = [source[j] for j in outcome]
    st.log.append(("chance", spec.pc, outcome))

