"""Statements and the turn flow to Python source: a flat list of generated ops.

Code that cannot pause (no choice, no chance, no call of a proc that pauses) compiles
to structured Python: `if`, `while` and `for` in one function, and a proc that never
pauses becomes a Python function. Only around pause points is the code cut into ops
(`op(state) -> next pc`), so that a paused game is plain data: the pc, the proc
return stack and the locals. Jumps between ops are written as labels, resolved once
every op is known; then small ops are copied into the ops that jump to them, so that
a decision usually costs one op.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from rulelang import errors
from rulelang.check.layout import Layout
from rulelang.check.symbols import ProcSym, Program, ValueSym, imagine_proc
from rulelang.check.types import PLAYER
from rulelang.diagnostics import NO_SPAN, Span
from rulelang.limits import Limits
from rulelang.runtime import (
    chaining,
    endchecks,
    exprgen,
    late,
    statelocals,
    sunk,
    tell,
    unordered,
)
from rulelang.runtime.code import (
    CHANCE,
    DONE,
    OVER,
    PAUSE,
    ChanceKind,
    ChanceSpec,
    ChoiceSpec,
    Code,
    Fn,
    LateFn,
    Op,
    Require,
)
from rulelang.runtime.complete import Completer
from rulelang.runtime.constants import constant_values
from rulelang.runtime.exprgen import ExprGen, Namespace, prelude, proc_function
from rulelang.runtime.fitting import fitting_call
from rulelang.runtime.generate import SEEDS, GenerateOp
from rulelang.runtime.literals import literal
from rulelang.runtime.reads import Reads, end_reads
from rulelang.runtime.state import State
from rulelang.runtime.straight import StraightGen, indent
from rulelang.syntax import ast as A

PAUSING = (A.Choose, A.Roll, A.Pick, A.ShuffleLet, A.ShuffleZone, A.React, A.Generate)
INLINE_LINES = 40  # ops up to this size are copied into the ops that jump to them
INLINE_DEPTH = 3
JUMP = re.compile(r"^(\s*)return (\d+)$")
MARKED = re.compile(r"  # @\d+$")  # a line that ends with its statement's mark
UNROLLED_CHOICES = True  # off: a choice among constants filtered by a comprehension
# the options of such a choice as one tuple per outcome of its tests (`branched`), where
# at most BRANCHED_MAX values are tested; off: tuples of one value added together
BRANCHED_OPTIONS = True
BRANCHED_MAX = 2
PYTHON_PROCS = True  # off: a proc that never pauses takes its arguments in st.loc
RANGE = "range(low, high + 1)"  # the candidates of a choice over a range `a..b`
LAZY = True  # ops and resumes compiled when first called (Namespace.lazy)
HOT = 16  # calls of an op before its chained version is compiled (with LAZY)
# calls of a resume before its version running on is compiled (Codegen.run_on): long
# (5-10 ms to compile, against some 0.3 µs saved a call), it pays only in long runs
RUN_ON_HOT = 1000
PAUSED_PLAIN = True  # off: Game.apply runs an op's chained version too (Code.paused_ops)
BARE_JUMP = re.compile(r"^\s*return (\d+|@L\d+@)$")  # a jump, to a pc or a label


class Label:
    """A jump target known only later."""

    __slots__ = ("id", "pc")

    def __init__(self, ident: int) -> None:
        self.id = ident
        self.pc = -1

    def __str__(self) -> str:
        return f"@L{self.id}@"


@dataclass
class Ops:
    bodies: list[list[str]] = field(default_factory=list)
    spans: list[Span] = field(default_factory=list)
    labels: list[Label] = field(default_factory=list)


class Codegen(StraightGen):
    def __init__(self, program: Program, layout: Layout, limits: Limits):
        self.p = program
        self.layout = layout
        self.limits = limits
        self.ns = Namespace()
        self.ex = ExprGen(program, layout, self.ns, limits)
        self.reads: Reads = end_reads(program)
        self.code = Code()
        self.ops = Ops()
        self.cur: list[str] = []  # straight-line code waiting for its op
        self.cur_span: Span = NO_SPAN
        self.entries = {name: self.label() for name, s in program.procs.items() if s.pauses}
        self.py_procs = python_procs(program) if exprgen.OPTIMISED and PYTHON_PROCS else frozenset()
        alone = tuple((seat,) for seat in range(program.max_players))  # see StraightGen.say
        self.ns.env.update({"_new": tuple.__new__, "_alone": alone, "_others": _others(program)})
        self.passes: list[Label] = []  # where `pass` jumps, for each reaction round around
        # for each pausing loop around: where `continue` and `break` jump, and how many
        # blocks with a complete choice were open when it started
        self.loops: list[tuple[Label, Label, int]] = []
        self.reacting = _has_reactions(program)  # choices may be asked of a reacting player
        self.names_fixed = late.names_fixed(program)  # log lines may be formatted late
        # the blocks being compiled that hold a `complete` choice (the end of such a
        # block ends its effect), and how many of them each reaction round found open
        self.effects: list[int] = []
        self.told: dict[int, str] = {}  # per pc of a choice, what it logs (Python)
        # per pc of a choice told when read (tell.py): its record, as Python
        self.tells: dict[int, str] = {}
        self.shared = tell.SHARED  # (read when compiled: a resume is compiled again later)
        self.effects_at: list[int] = []
        self.returns: dict[int, Counter[int]] = {}  # per op, what its first calls returned
        self.copyable: set[int] | None = None  # the ops chaining may copy (see chained)
        self.blocks = 0

    # ------------------------------------------------------------ emitting
    def label(self) -> Label:
        lab = Label(len(self.ops.labels))
        self.ops.labels.append(lab)
        return lab

    def marked(self, lines: list[str], span: Span) -> list[str]:
        """lines, the first one marked as the statement at span's (line table: see
        lines.py) unless it is marked already, a jump (kept bare, to be inlined) or
        continued on the next line."""
        first = lines[0] if lines else ""
        if (
            not first
            or span == NO_SPAN
            or MARKED.search(first)
            or BARE_JUMP.match(first)
            or first.endswith("\\")
        ):
            return lines
        return [first + self.ns.mark(span), *lines[1:]]

    def add(self, lines: list[str], span: Span) -> None:
        if not self.cur:
            self.cur_span = span
        self.cur.extend(self.marked(lines, span))

    def emit(self, lines: list[str], span: Span) -> int:
        """Close an op: the waiting straight-line code, then lines (which must return)."""
        lines = self.marked(lines, span)
        if self.cur:
            span = self.cur_span
        self.ops.bodies.append([*self.cur, *lines])
        self.ops.spans.append(span)
        self.cur = []
        return len(self.ops.bodies) - 1

    def here(self, lab: Label | None = None) -> Label:
        """A label on the next op; the waiting code falls through to it."""
        if self.cur:
            self.emit([f"return {len(self.ops.bodies) + 1}"], self.cur_span)
        lab = lab or self.label()
        lab.pc = len(self.ops.bodies)
        return lab

    # ------------------------------------------------------------ the program
    def build(self) -> Code:
        self.ex.compile_defs(self.simple_block)
        with self.ex.unguarded():  # the statements: never run inside `known`
            start = self.statements()
        self.finish()
        if start is not None:
            self.code.imagine = start.pc
        return self.code

    def statements(self) -> Label | None:
        """Every statement of the rules as ops and proc functions; the label where the
        `imagine` block starts, if the rules have one."""
        p = self.p
        for name, sym in p.procs.items():
            if not sym.pauses:
                self.simple_proc(name, sym)
        self.check_end()
        self.block(p.setup)
        first = self.label()
        self.emit([f"return {first}"], NO_SPAN)
        entries = {ph.name: self.label() for ph in p.phases}
        for i, ph in enumerate(p.phases):
            self.here(entries[ph.name])
            if i == 0:
                first.pc = entries[ph.name].pc
            self.phase(i, ph.decl, entries)
        for name, sym in p.procs.items():
            if sym.pauses:
                self.here(self.entries[name])
                self.block(sym.decl.body)
                self.emit(["return st.stack.pop()"], sym.span)
        imagine = imagine_proc(p.procs)
        start = None
        if imagine is not None:  # run on its own: see imagine.py
            start = self.here()
            if imagine.pauses:
                self.emit([f"return {self.entries[A.IMAGINE]}"], imagine.span)
            else:
                call = f"{proc_function(A.IMAGINE)}(st)"
                self.emit([call, "return st.stack.pop()"], imagine.span)
        return start

    def finish(self) -> None:
        """Resolve labels, copy small ops into their jumps, and compile every op."""
        pcs = {str(lab): str(lab.pc) for lab in self.ops.labels}
        bodies = [
            [re.sub(r"@L\d+@", lambda m: pcs[m.group(0)], line) for line in body]
            for body in self.ops.bodies
        ]
        if exprgen.OPTIMISED and not self.blocks:
            bodies = _tail_calls(bodies)
        final = []
        follow = self.follow(bodies)
        for i, body in enumerate(bodies):
            lines = self.looped(i, _inline(bodies, i, body, INLINE_DEPTH))
            final.append(lines)
            # chained (chaining.py): at once, or once the op is called often (LAZY)
            chain = functools.partial(self.chained, bodies, i, follow) if follow else None
            found = chain() if chain is not None and not LAZY else None
            lines, chain = (found, None) if found is not None else (prelude(lines), chain)
            self.code.source.append("\n".join(lines))
            self.code.ops.append(self.op_function(i, lines, chain))
            self.code.paused_ops.append(self.code.ops[-1])
            self.code.spans.append(self.ops.spans[i])
        self.resumes(final, bodies, follow)

    def chained(
        self,
        bodies: list[list[str]],
        pc: int,
        follow: frozenset[int],
        seen: Counter[int] | None = None,
    ) -> list[str] | None:
        """Op pc's chained version (chaining.py). Given `seen` (what the op returned in
        its first calls): None unless it would run on, from its first calls' most
        frequent jump to the next op's (as each op returned in its own first calls),
        through ops copied into it, back to itself or to a pause: copying costs
        compiling, and saves little where play goes back to the run loop anyway."""
        if seen is not None:  # first the ops that may be copied, before any copying
            if self.copyable is None:
                small = {i for i, body in enumerate(bodies) if len(body) <= INLINE_LINES}
                self.copyable = small | follow
            if not self.runs_on(pc, self.copyable):
                return None
        copied: set[int] = set()
        found = chaining.chained(bodies, pc, follow, INLINE_LINES, INLINE_DEPTH, copied)
        if seen is not None and not self.runs_on(pc, copied):
            return None
        lines = prelude(self.looped(pc, found))
        if endchecks.ONCE and exprgen.OPTIMISED:  # end tests a test before makes idle
            lines = endchecks.once(lines)
        # run on for many turns in one call: more of the state read once (statelocals.py)
        lines = statelocals.hoisted(lines) if statelocals.STATE_LOCALS else lines
        return sunk.sunk(lines)  # pushes carried to where the op leaves (sunk.py)

    def runs_on(self, pc: int, copied: set[int]) -> bool:
        """Does play run on from op pc, as its first calls and those of the ops they
        went to went, through `copied` ops, back to it or to a pause (not at once)?"""
        at = pc
        for _step in range(len(self.returns) + 1):
            counts = self.returns.get(at)
            if not counts:
                return False  # not seen: a guess would cost a compile
            to = counts.most_common(1)[0][0]
            if to < 0 or to == pc:  # (a pause of the op itself: nothing to run on to)
                return at != pc
            if to not in copied:
                return False
            at = to
        return False

    def looped(self, pc: int, lines: list[str]) -> list[str]:
        return _looping(pc, lines) if exprgen.OPTIMISED else lines

    def op_function(
        self, pc: int, lines: list[str], chain: Callable[[Counter[int]], list[str] | None] | None
    ) -> Op:
        """Op pc's function. With LAZY, compiled when first called (but the first op,
        which every game runs, and whose globals tests read); given `chain`, what
        gives the lines of its chained version (chaining.py): after its first HOT
        calls, which count where it goes, compiled in its place if play runs on
        through it (`chained`), as they cost compiling."""
        name, ops, paused = f"_op{pc}", self.code.ops, self.code.paused_ops
        cells = exprgen.OPTIMISED  # comprehensions given the op's locals (cells.py)
        if not (LAZY and pc > 0):
            return self.ns.function(name, "st", lines, cells)

        def put(op: Op) -> None:
            ops[pc] = paused[pc] = op

        def plain(op: Op) -> None:  # its chained version took its place in `ops`
            paused[pc] = op

        seen = self.returns.setdefault(pc, Counter())  # what its first calls return
        keep = plain if PAUSED_PLAIN else None
        return self.ns.lazy(name, "st", lines, put, cells, chain, HOT, seen, keep)

    def follow(self, bodies: list[list[str]]) -> frozenset[int]:
        """The ops copied into the jumps to them whatever their size (chaining.py): the
        op after each choice, and each op a pausing proc returns to. None (empty) when
        unoptimised or chaining is off."""
        if not (exprgen.OPTIMISED and chaining.CHAIN):
            return frozenset()
        pushed = {int(m.group(2)) for body in bodies for ln in body if (m := PUSH.match(ln))}
        return frozenset({pc + 1 for pc in self.code.choices} | pushed)

    def resumes(
        self, bodies: list[list[str]], raw: list[list[str]], follow: frozenset[int]
    ) -> None:
        """For each choice, a function that records the chosen value as the engine's
        `_resume` does and runs on with the op after the choice in the same call: a
        game played through the API resumes with one call, not two, and the op's
        prelude is shared. Not for a choice whose record holds a line for the others
        or who saw it (`log ... else`, `secret to`): helpers.choice_record makes those.
        With LAZY and chaining.RUN_ON, a resume whose first calls ran on past the op
        (returned an op to run next) is compiled again running on to the next pause
        (`run_on`). `raw`: the ops before copying, `follow` as chaining copies them."""
        self.code.resumes = [None] * len(bodies)
        if not exprgen.OPTIMISED:
            return
        api: list[list[str]] = []  # the ops as the API runs them (no playout branches)
        if LAZY and chaining.RUN_ON and chaining.CHAIN:
            api = [_unbudgeted(body) for body in raw]
        for pc, spec in self.code.choices.items():
            if spec.audience is not None or spec.narrate_hidden is not None:
                continue
            head = self.resume_head(pc, spec)
            lines = prelude(tell.shared([*head, *_unbudgeted(bodies[pc + 1])], self.shared))
            on = functools.partial(self.run_on, api, pc, head, follow) if api else None
            self.code.resumes[pc] = self.resume_function(pc, lines, on)

    def resume_head(self, pc: int, spec: ChoiceSpec) -> list[str]:
        """A resume's first lines: the value in its local's slot, recorded as
        `Game._resume` records it, the pending decision cleared."""
        record = ["st.log = (spec, st.who, value, st.log)"]
        told = self.told.get(pc)
        tells = self.tells.get(pc)
        if tells is not None:  # told when read (tell.py): what to log is known here
            record = [f"st.log = {tells}" + self.ns.mark(spec.span)]
            if spec.allow_pass:  # a pass says nothing
                record = ["if value is None:", "    st.log = (spec, st.who, value, st.log)"]
                record += ["else:", f"    st.log = {tells}" + self.ns.mark(spec.span)]
        elif told is not None:  # spec.narrate's line or values, written inline
            passed = "value is None or " if spec.allow_pass else ""  # a pass says nothing
            record = [
                f"if {passed}spec.narrate is None:",
                "    " + record[0],
                "else:",
                f"    st.log = (spec, st.who, value, st.log, {told}, None)"
                + self.ns.mark(spec.span),
            ]
        quiet = ["if not st.quiet:  # a quiet game keeps no record (Game.quiet)"]
        record = [*quiet, *("    " + line for line in record)]
        return [f"st.loc[{spec.slot}] = value", *record, "st.pending = None"]

    def run_on(
        self,
        api: list[list[str]],
        pc: int,
        head: list[str],
        follow: frozenset[int],
        seen: Counter[int],
    ) -> list[str] | None:
        """The resume of choice pc running on to the next pause (chaining.resumed), or
        None to keep the first: only where its first calls ran on (returned an op to
        run next, not a pause or the end), into the ops they ran on into."""
        to = _onward(seen)
        if not to:
            return None
        # small ops copied deeper than into an op: a playout's choices, where the chained
        # op starts copying again from the op after them, are not taken in a resume
        depth = chaining.RESUME_DEPTH
        body = chaining.resumed(api, pc + 1, to, follow, INLINE_LINES, depth, self.went)
        return prelude(tell.shared([*head, *self.looped(pc + 1, body)], self.shared))

    def went(self, pc: int) -> list[int]:
        """The ops op pc was seen to go on to in its first calls, the most frequent first."""
        return _onward(self.returns.get(pc, Counter()))

    def resume_function(
        self,
        pc: int,
        lines: list[str],
        on: Callable[[Counter[int]], list[str] | None] | None = None,
    ) -> Callable[..., int]:
        name, params, code = f"_resume{pc}", "st, spec, value", self.code
        self.ns.kept[name] = lines  # its last version's code, for runtime/inlined.py
        if not LAZY:
            code.settled.append(pc)
            return self.ns.function(name, params, lines, True)

        def put(fn: Callable[..., int]) -> None:  # its last version (Namespace.lazy)
            code.resumes[pc] = fn
            code.settled.append(pc)
            if code.on_settled is not None:
                code.on_settled()

        return self.ns.lazy(name, params, lines, put, True, on, RUN_ON_HOT)  # (no `on`: once)

    def phase(self, index: int, d: A.PhaseDecl, entries: dict[str, Label]) -> None:
        if d.order_from is not None:
            err = self.error(
                errors.no_player("the player 'order ... from' gives", d.order_from.span)
            )
            self.add(
                [
                    f"first = {self.ex.src(d.order_from)}",
                    "if first is None:",
                    f"    raise {err}",
                    "st.current = first",
                ],
                d.order_from.span,
            )
            if self.reads.current:
                self.add(["st.dirty = True"], d.span)
        self.add([f"st.phase = {index}"], d.span)
        if d.order == "random":
            self.random_order(d)
        self.block(d.begin)
        if d.order == "random":
            slot = self.p.hidden[id(d)]
            step = [f"o = st.loc[{slot}]", "st.current = o[(o.index(st.current) + 1) % len(o)]"]
        else:
            delta = 1 if d.order == "clockwise" else -1
            step = [f"st.current = (st.current + {delta}) % st.cfg.n"]
        top = self.here()
        if d.skip_when is not None:
            self.skip(d.skip_when, step)
        self.add(["st.turn += 1"], d.span)
        if self.reads.turn:
            self.add(["st.dirty = True"], d.span)
        self.block(d.turn)
        lines = ["if st.dirty and _check_end(st):", f"    return {OVER}", *step]
        if self.reads.current:
            lines.append("st.dirty = True")
        if d.end_when is not None and d.next:
            # the next phase starts with the player after the one who played last
            when = f"if {self.ex.src(d.end_when)}:" + self.ns.mark(d.end_when.span)
            lines += [when, f"    return {entries[d.next]}"]
        lines += self.budget(d.span, "turns")
        self.emit([*lines, f"return {top}"], d.span)

    def skip(self, cond: A.Expr, step: list[str]) -> None:
        """`skip when COND`: before a turn, pass over each player for whom COND holds
        (read with `current` that player), in the phase's order; no turn is counted for
        them. Tried once per seat: if it holds for all, R027."""
        err = self.error(errors.everyone_skipped(cond.span))
        when = f"if not ({self.ex.src(cond)}):" + self.ns.mark(cond.span)
        dirty = ["    st.dirty = True"] if self.reads.current else []
        self.add(
            [
                "for _ in range(st.cfg.n):",
                "    " + when,
                "        break",
                *["    " + line for line in step],
                *dirty,
                "else:",
                f"    raise {err}",
            ],
            cond.span,
        )

    def random_order(self, d: A.PhaseDecl) -> None:
        """`order random`: on first entering the phase, the players are shuffled (a
        chance event, logged as "Turn order: ..."); every entry starts with the first
        of that order."""
        slot = self.p.hidden[id(d)]
        drawn = self.label()
        self.add([f"if st.loc[{slot}] is not None:", f"    return {drawn}"], d.span)
        name = "turn order" if d.name == "main" else f"turn order of {d.name}"
        players: Fn = lambda st: st.cfg.players  # noqa: E731
        self.chance("shuffle", d, name, players, "", slot=slot, narrate=_order_line(slot))
        self.here(drawn)
        self.add([f"st.current = st.loc[{slot}][0]"], d.span)
        if self.reads.current:
            self.add(["st.dirty = True"], d.span)

    def simple_proc(self, name: str, sym: ProcSym) -> None:
        if name not in self.py_procs:
            body = [line for s in sym.decl.body for line in self.simple(s)]
            body = prelude(body) if exprgen.OPTIMISED else body
            self.ns.function(proc_function(name), "st", body or ["pass"], exprgen.OPTIMISED)
            return
        # its parameters and locals are Python variables of its function, as a def's:
        # it never pauses, so nothing else reads them (no op, no choice, no generator)
        slots = [p.slot for p in sym.params] + self.ex.own_locals(sym.decl.body)
        for slot in slots:
            self.ex.bound[slot] = f"_a{slot}"
        try:
            body = [line for s in sym.decl.body for line in self.simple(s)]
        finally:
            for slot in slots:
                del self.ex.bound[slot]
        params = ", ".join(["st", *(f"_a{p.slot}" for p in sym.params)])
        self.ns.function(proc_function(name), params, prelude(body) or ["pass"], exprgen.OPTIMISED)

    def check_end(self) -> None:
        """`_check_end(st)`: run the first end rule whose condition holds; True if the
        game is now over. Generated code calls it before asking anyone to act."""
        lines = ["st.dirty = False"]
        for i, end in enumerate(self.p.ends):
            body = [line for s in end.body for line in self.simple(s)]
            test = self.test(end.cond)
            test[0] += self.ns.mark(end.cond.span)
            lines += [
                *test,
                "    st.outcome = ['loss'] * st.cfg.n",
                f"    st.ended = {i}",  # the game's end reason (Game.end_reason)
                *("    " + line for line in body),
                "    st.over = True",
                "    st.pending = None",
                "    st.options = ()",
                "    return True",
            ]
        lines.append("return False")
        lines = prelude(lines) if exprgen.OPTIMISED else lines
        self.code.check_end = self.ns.function("_check_end", "st", lines, exprgen.OPTIMISED)

    # ------------------------------------------------------------ pausing code
    def block(self, stmts: tuple[A.Stmt, ...]) -> None:
        effect = any(isinstance(s, A.Choose) and s.complete for s in stmts)
        if effect:
            self.blocks += 1
            self.effects.append(self.blocks)
        try:
            for s in stmts:
                if self.pauses(s):
                    self.pausing(s)
                else:
                    self.add(self.simple(s), s.span)
        finally:
            if effect:
                key = self.effects.pop()
        if effect:
            self.add(effect_end([key]), stmts[-1].span)

    def pauses(self, s: A.Stmt) -> bool:
        """Must the statement be compiled as ops? In the body of a pausing loop, a
        `break` or `continue` of that loop jumps between ops too."""
        return self._pauses(s, bool(self.loops))

    def _pauses(self, s: A.Stmt, jumps: bool) -> bool:
        match s:
            case A.Choose() | A.Roll() | A.Pick() | A.ShuffleLet() | A.ShuffleZone():
                return True
            case A.Generate():
                return True
            case A.React() | A.Pass():  # a round of opportunities; a jump out of the body
                return True
            case A.Break() | A.Continue():
                return jumps
            case A.Do():
                sym = self.p.procs.get(s.proc)
                return sym is not None and sym.pauses
            case A.If():
                return any(self._pauses(x, jumps) for body in A.blocks_in(s) for x in body)
            case A.While() | A.For() | A.Repeat():  # a jump in the body is its own
                return any(self._pauses(x, False) for x in s.body)
            case _:
                return False

    def pausing(self, s: A.Stmt) -> None:
        match s:
            case A.If():
                self.pausing_if(s)
            case A.While():
                top, out = self.here(), self.label()
                self.add([f"if not {self.ex.src(s.cond)}:", f"    return {out}"], s.span)
                self.loop_body(s, top, out)
                self.here(out)
            case A.For():
                self.pausing_for(s)
            case A.Repeat():
                slot = self.p.hidden[id(s)]
                self.add([f"st.loc[{slot}] = {self.ex.src(s.count)}"], s.span)
                top, out = self.here(), self.label()
                self.add(
                    [f"if st.loc[{slot}] <= 0:", f"    return {out}", f"st.loc[{slot}] -= 1"],
                    s.span,
                )
                self.loop_body(s, top, out)
                self.here(out)
            case A.React():
                self.react(s)
            case A.Pass():  # leaves the blocks opened in the round's body
                left = self.effects[self.effects_at[-1] :]
                ends = effect_end(left) if left else []
                self.emit([*ends, f"return {self.passes[-1]}"], s.span)
            case A.Break() | A.Continue():  # leaves the blocks opened in the loop's body
                again, out, depth = self.loops[-1]
                left = self.effects[depth:]
                ends = effect_end(left) if left else []
                target = f"return {out}" if isinstance(s, A.Break) else f"return {again}"
                self.emit([*ends, target], s.span)
            case A.Choose():
                self.choose(s)
            case A.Roll():
                die = self.p.refs[id(s)]
                assert isinstance(die, ValueSym)
                slot = die.slot
                self.chance(
                    "roll", s, s.var, lambda st: st.cfg.consts[slot], f"st.cfg.consts[{slot}]"
                )
            case A.Pick():
                self.chance("pick", s, s.var, self.ex.lambda_of(s.source), self.ex.src(s.source))
            case A.ShuffleLet():
                self.chance("shuffle", s, s.var, self.ex.lambda_of(s.source), "")
            case A.ShuffleZone():
                base = self.layout.zone_base[s.zone]
                self.chance("shuffle_zone", s, s.zone, lambda st: st.zones[base], "", zone=base)
            case A.Generate():
                self.generate(s)
            case A.Do():
                self.add(self.proc_args(s), s.span)
                ret = len(self.ops.bodies) + 1
                self.emit([f"st.stack.append({ret})", f"return {self.entries[s.proc]}"], s.span)
            case _:
                raise AssertionError(f"{type(s).__name__} does not pause")

    def pausing_if(self, s: A.If) -> None:
        end = self.label()
        bodies = [(self.label(), body) for _c, body in s.branches]
        otherwise = self.label()
        lines: list[str] = []
        loud = self.quiet_from(s)  # the branches that only say: not tested when quiet
        for i, ((cond, _body), (lab, _b)) in enumerate(zip(s.branches, bodies, strict=True)):
            test = [*self.test(cond), f"    return {lab}"]
            if i >= loud:
                test = ["if not st.quiet:", *indent(test)]
            test[0] += self.ns.mark(cond.span) if i else ""
            lines += test
        self.emit([*lines, f"return {otherwise}"], s.span)
        for lab, body in bodies:
            self.here(lab)
            self.block(body)
            self.emit([f"return {end}"], s.span)
        self.here(otherwise)
        self.block(s.otherwise)
        self.here(end)

    def test(self, cond: A.Expr) -> list[str]:
        """The lines of `if COND:`. `any`/`all` over a comprehension is a Python loop
        before the `if` (a generator and a call of `any` cost more than the rounds of
        a short list): the same rounds, stopping where they would stop."""
        if not (exprgen.OPTIMISED and isinstance(cond, A.Comp) and cond.by is None):
            return [f"if {self.ex.src(cond)}:"]
        if cond.func not in ("any", "all"):
            return [f"if {self.ex.src(cond)}:"]
        var, source, elem, where, _key = self.ex.comp_parts(cond)
        found = cond.func == "any"  # what a round that decides makes it
        decides = f"({elem})" if found else f"not ({elem})"
        if where:
            decides = f"({where}) and {decides}"
        cells = unordered.first_pass(source, decides)
        if cells is not None:  # over `reached`: its kept set first (unordered.py)
            return unordered.unordered_test(var, cells, decides, found)
        return [
            f"_found = {not found}",
            f"for {var} in {source}:",
            f"    if {decides}:",
            f"        _found = {found}",
            "        break",
            "if _found:",
        ]

    def pausing_for(self, s: A.For) -> None:
        seq = self.p.hidden[id(s)]
        var = self.local(s).slot
        self.add(
            [f"st.loc[{seq}] = tuple({self.ex.src(s.source)})", f"st.loc[{seq + 1}] = 0"], s.span
        )
        top, out = self.here(), self.label()
        self.add(
            [
                f"i = st.loc[{seq + 1}]",
                f"if i >= len(st.loc[{seq}]):",
                f"    return {out}",
                f"st.loc[{var}] = st.loc[{seq}][i]",
                f"st.loc[{seq + 1}] = i + 1",
            ],
            s.span,
        )
        if s.where is not None:  # the rounds the condition holds for
            self.add([f"if not ({self.ex.src(s.where)}):", f"    return {top}"], s.where.span)
        self.loop_body(s, top, out)
        self.here(out)

    def loop_body(self, s: A.While | A.For | A.Repeat, top: Label, out: Label) -> None:
        """A pausing loop's body, then back to its top; `continue` counts the round as
        the body's end does and goes back too, `break` goes to `out`."""
        again = self.label()
        self.loops.append((again, out, len(self.effects)))
        try:
            self.block(s.body)
        finally:
            self.loops.pop()
        self.here(again)
        self.emit([*self.round_budget(s), f"return {top}"], s.span)

    def react(self, s: A.React) -> None:
        """A reaction round: the body runs once per opportunity, for one player at a time
        in the order of play from the first; finishing the body gives the same player
        another opportunity, `pass` gives the next player one; it ends when every player
        has passed in a row. Hidden slots: the seat asked, the passes in a row, and the
        reacting player of a round around this one."""
        seat = self.p.hidden[id(s)]
        passes, outer = seat + 1, seat + 2
        var = self.local(s).slot
        err = self.error(errors.no_player("the first player of this reaction round", s.first.span))
        self.add(
            [
                f"first = {self.ex.src(s.first)}",
                "if first is None:",
                f"    raise {err}",
                f"st.loc[{seat}] = first",
                f"st.loc[{passes}] = 0",
                f"st.loc[{outer}] = st.reactor",
                "st.log = ('reaction', first, 'begin', st.log)",
            ],
            s.span,
        )
        top, passed, out = self.here(), self.label(), self.label()
        self.add(
            [*self.budget(s.span, "reaction"), f"st.loc[{var}] = st.reactor = st.loc[{seat}]"],
            s.span,
        )
        self.passes.append(passed)
        self.effects_at.append(len(self.effects))
        outer_loops, self.loops = self.loops, []  # a jump never leaves a reaction round
        try:
            self.block(s.body)
        finally:
            self.passes.pop()
            self.effects_at.pop()
            self.loops = outer_loops
        self.emit([f"st.loc[{passes}] = 0", f"return {top}"], s.span)  # acted: again
        self.here(passed)
        self.add(
            [
                f"st.log = ('reaction', st.loc[{seat}], 'pass', st.log)",
                f"st.loc[{passes}] += 1",
                f"if st.loc[{passes}] >= st.cfg.n:",
                f"    st.reactor = st.loc[{outer}]",
                "    st.log = ('reaction', None, 'end', st.log)",
                f"    return {out}",
                f"st.loc[{seat}] = {self.after(f'st.loc[{seat}]', s.span)}",
            ],
            s.span,
        )
        self.emit([f"return {top}"], s.span)
        self.here(out)

    def after(self, seat: str, span: Span) -> str:
        """The player after seat in the order of the phase being played: its drawn
        order under `order random`, else the next seat in its direction."""
        if self.ex.orders is not None:
            orders, at = self.ex.orders, self.ns.name_for(span, "_s")
            return f"_h.next_in_order(st, {seat}, {self.direction()}, {orders}, {at}, 'react')"
        return f"({seat} + {self.direction()}) % st.cfg.n"

    def direction(self) -> str:
        """The step from a seat to the next in the order of the phase being played
        (clockwise +1, counterclockwise -1, forward in a drawn order +1; in setup, the
        first phase's)."""
        steps = tuple(-1 if ph.decl.order == "counterclockwise" else 1 for ph in self.p.phases)
        steps = steps or (1,)
        if len(set(steps)) == 1:
            return str(steps[0])
        return f"{self.ns.name_for(steps, '_dirs')}[st.phase]"

    def narration(
        self, s: A.Stmt | A.PhaseDecl
    ) -> tuple[Fn | None, LateFn | None, Fn | None, LateFn | None]:
        """The `log` texts of a choice or chance event, reading its value from its slot:
        the functions that log the line and the hidden line, and those that format
        them when read (None: logged as lines; see runtime/late.py)."""
        told, told_late = late.narration(self.ex, getattr(s, "log", None), self.names_fixed)
        hidden, hidden_late = late.narration(
            self.ex, getattr(s, "log_hidden", None), self.names_fixed
        )
        return told, told_late, hidden, hidden_late

    def audience(self, s: A.Choose | A.Roll | A.Pick) -> Fn:
        """Who sees a secret value, as a function (state) -> tuple of seats, read once
        the value is known: the players `secret to EXPR` gives (a player or a list), or
        for a bare secret roll or pick the acting player (the reacting one in a
        reaction round)."""
        to = s.secret_to
        if to is None:
            body = ["return (st.reactor if st.reactor >= 0 else st.current,)"]
        elif self.ex.type_of(to).name == "list":
            body = [f"return tuple(p for p in {self.ex.src(to)} if p is not None)"]
        else:
            err = self.error(errors.no_player("the player 'secret to' gives", to.span))
            body = [f"p = {self.ex.src(to)}", "if p is None:", f"    raise {err}", "return (p,)"]
        self.ns.counter += 1
        return self.ns.function(f"_aud{self.ns.counter}", "st", body)

    def choose(self, s: A.Choose) -> None:
        ex = self.ex
        local = self.local(s)
        domain, pre = self._domain(s.domain)
        requires = tuple(
            Require(ex.lambda_of(r.cond), ex.lambda_of(r.reason), r.span) for r in s.requires
        )
        prompt: Fn = (
            ex.lambda_of(s.prompt) if s.prompt is not None else (_constant(f"choose {s.var}"))
        )
        pc = len(self.ops.bodies)
        spec = ChoiceSpec(
            pc,
            s.var,
            prompt,
            local.slot,
            ex.lambda_of(s.domain),
            requires,
            ex.fmt(local.type),
            s.allow_pass,
            s.secret,
            s.span,
        )
        told, told_late, hidden, hidden_late = self.narration(s)
        if s.log is not None:
            self.told[pc] = late.logged(self.ex, s.log, self.names_fixed)
        audience = self.audience(s) if s.secret_to is not None else None
        kind = local.type.arg if local.type.name == "entity" else None
        spec = dataclasses.replace(
            spec,
            narrate=told,
            late=told_late,
            narrate_hidden=hidden,
            late_hidden=hidden_late,
            audience=audience,
            kind=kind,
        )
        self.code.choices[pc] = spec
        opts = domain
        fit = self.fitting_choice(s, local.slot)
        few = self.unrolled_options(s, local.slot, domain) if fit is None else None
        if fit is not None or few is not None:
            opts = fit or few or ""
        elif s.requires:
            var = f"_v{local.slot}"
            ex.bound[local.slot] = var
            # a choice among the seats tests seats, never `none` (exprgen.SEATED)
            seated = exprgen.SEATED and exprgen.OPTIMISED and domain == exprgen.PLAYERS
            if seated:
                ex.seats.add(local.slot)
            try:
                conds = " and ".join(f"({ex.src(r.cond)})" for r in s.requires)
            finally:
                del ex.bound[local.slot]
                if seated:
                    ex.seats.discard(local.slot)
            opts = f"tuple([{var} for {var} in {domain} if {conds}])"
        complete = None
        if s.complete:
            complete = Completer(self.code, self.effects[-1], s.var, self.limits.completion, s.span)
            unfinished = ex.lambda_of(s.unfinished) if s.unfinished is not None else None
            spec = dataclasses.replace(spec, complete=complete, unfinished=unfinished)
            self.code.choices[pc] = spec
        twin = dataclasses.replace(spec, reaction=True) if self.reacting else None
        if twin is None:  # (a reaction round's choice records the spec it was asked by)
            told_when_read = tell.twin(self.ex, spec, s.log, self.names_fixed, s.by is None)
            if told_when_read is not None:  # its record, told when read
                self.tells[pc] = tell.record(self.ns, told_when_read, "st.who", "value")
        err = self.error(errors.no_option_left(s.var, s.span))
        name = self.ns.name_for(spec, "_spec")
        who, asking = "st.current", []
        if s.by is not None:
            who = "chooser"
            nobody = self.error(errors.no_player("the player who chooses", s.by.span))
            asking = [f"chooser = {ex.src(s.by)}", "if chooser is None:", f"    raise {nobody}"]
        elif twin is not None:  # in a reaction round, the reacting player is asked
            who = "chooser"
            asking = ["chooser = st.reactor if st.reactor >= 0 else st.current"]
        if twin is not None:  # the twin marks a choice of the reacting player
            asking.append(
                f"spec = {self.ns.name_for(twin, '_spec')} if chooser == st.reactor else {name}"
            )
            name = "spec"
        if complete is not None:
            fn = self.ns.name_for(complete, "_complete")
            opts = f"{fn}(st, tuple({opts}), {name}, {who})"
        if s.allow_pass:
            opts = f"(*{opts}, None)"
        record = (
            f"({name}, {who}, value, st.log)"
            if audience is None
            else f"_h.choice_record(st, {name}, {who}, value)"  # with its audience
        )
        # in a playout (st.bot set), the decision is taken here and play goes on
        made = [f"opts = {opts}", "if not opts:", f"    raise {err}"]
        pick, kept = "opts[int(st.bot() * len(opts))]", "opts"
        if exprgen.OPTIMISED and opts == RANGE:  # a bare range: no range made to take from
            made = ["if high < low:", f"    raise {err}"]
            pick, kept = "low + int(st.bot() * (high + 1 - low))", RANGE
        self.emit(
            [
                "if st.dirty and _check_end(st):",
                f"    return {OVER}",
                *pre,
                *asking,
                *made,
                "if st.budget:",
                "    st.budget -= 1",
                "    st.steps = 0",
                f"    value = {pick}",
                f"    st.loc[{local.slot}] = value",
                "    if not st.quiet:  # a quiet playout keeps no record (Game.playout)",
                f"        st.log = {record}",
                f"    return {pc + 1}",
                f"st.pending = {name}",
                f"st.who = {who}",
                f"st.options = {kept}",
                "st.steps = 0",
                f"return {PAUSE}",
            ],
            s.span,
        )

    def fitting_choice(self, s: A.Choose, slot: int) -> str | None:
        """`choose s in spots(b, start) require any(joins(b, s, c, t, start) for t in
        [..])`: the spots that fit, asked at once and kept per layout (fitting.py)."""
        if not exprgen.OPTIMISED or len(s.requires) != 1 or s.complete:
            return None
        return fitting_call(self.ex, s.domain, slot, s.requires[0].cond)

    def unrolled_options(self, s: A.Choose, slot: int, domain: str) -> str | None:
        """The options of a choice among a few constants (an enum's values, `[0, 180]`)
        that its requires filter, one test per value in the list's order: no
        comprehension made and called at every decision (as `any` over a few numbers,
        exprgen's `unrolled`). The tests are the requires with the value written in."""
        on = exprgen.OPTIMISED and UNROLLED_CHOICES and s.requires
        values = constant_values(domain) if on else None
        if values is None or len(values) > exprgen.UNROLL_MAX:
            return None
        ex, parts, tested = self.ex, [], []
        for v in values:
            with ex.constant_bound(slot, v):
                tests = [ex.src(r.cond) for r in s.requires]
            # exprgen folds a test that the value decides (`FOLD`): one that holds is
            # left out; the value is left out where one fails before any test that
            # runs (after one, it stays: that one may raise first, as it did)
            runs = [t for t in tests if t != "True"]
            if runs and runs[0] == "False":
                continue
            conds = " and ".join(f"({t})" for t in runs)
            parts.append(f"(({literal(v)},) if {conds} else ())" if conds else f"({literal(v)},)")
            tested.append((literal(v), conds))
        if not parts:
            return "()"
        if BRANCHED_OPTIONS and sum(1 for _v, c in tested if c) <= BRANCHED_MAX:
            return branched(tested)
        return "(" + " + ".join(parts) + ")"

    def _domain(self, e: A.Expr) -> tuple[str, list[str]]:
        """The candidates of a choice, and lines to run first. A range `a..b` stays a
        Python range, checked inline against the limit of items, a constant of the
        generated code (choices are the hot path)."""
        if isinstance(e, A.Binary) and e.op == "..":
            ex = self.ex
            pre = [
                f"low = {ex.src(e.left)}",
                f"high = {ex.src(e.right)}",
                f"if high - low >= {self.limits.items}:",
                f"    _h.upto(low, high, {self.limits.items}, {ex.span(e)})",
            ]
            return RANGE, pre
        return self.ex.src(e), []

    def generate(self, s: A.Generate) -> None:
        """A chance event that draws a seed, then the drawing (runtime/generate.py)."""
        ex, p = self.ex, self.p
        seed = p.hidden[id(s)]
        self.chance("generate", s, s.names[0], lambda st: SEEDS, "", slot=seed)
        outs = [p.locals_of[id(s)].slot]
        if len(s.names) > 1:
            outs.append(p.locals_of[id(s.span)].slot)  # a path's directions
        var = p.locals_of[id(s.span)].slot if s.where is not None else -1
        op = GenerateOp(
            s.what,
            s.board,
            seed,
            tuple(outs),
            ex.lambda_of(s.count),
            ex.lambda_of(s.bends) if s.bends is not None else None,
            s.from_rim,
            s.to_rim,
            ex.lambda_of(s.where) if s.where is not None else None,
            var,
            s.keep,
            s.span,
        )
        self.add([f"{self.ns.name_for(op, '_gen')}.run(st)"], s.span)

    def chance(
        self,
        kind: ChanceKind,
        s: A.Stmt | A.PhaseDecl,
        var: str,
        source: Fn,
        source_src: str,
        zone: int = -1,
        slot: int | None = None,
        narrate: Fn | None = None,
    ) -> None:
        local = self.p.locals_of.get(id(s)) if slot is None else None
        if slot is None:
            slot = local.slot if local is not None else -1
        if kind == "shuffle" and local is None:  # a turn order: shows a player
            show = self.ex.fmt(PLAYER)
        elif kind == "shuffle" and local is not None and local.type.elem is not None:
            show = self.ex.fmt(local.type.elem)  # shows one item of the list
        elif kind == "shuffle_zone":
            elem = next(z.type.elem for z in self.p.zones if z.name == var)
            show = self.ex.fmt(elem) if elem is not None else _plain
        else:
            show = self.ex.fmt(local.type) if local is not None else _plain
        pc = len(self.ops.bodies)
        told, told_late, hidden, hidden_late = self.narration(s)
        if narrate is not None:  # a line of its own (a drawn turn order)
            told, told_late = narrate, None
        if kind == "generate" and told is None:  # no line: the game master's business
            told = _no_line
        audience = self.audience(s) if isinstance(s, A.Roll | A.Pick) and s.secret else None
        span = s.order_span or s.span if isinstance(s, A.PhaseDecl) else s.span
        telling = (told, hidden, audience, told_late, hidden_late)
        spec = ChanceSpec(pc, kind, var, slot, source, show, span, zone, *telling)
        self.code.chances[pc] = spec
        name = self.ns.name_for(spec, "_spec")
        lines = [
            "if not st.auto_chance:",
            f"    st.pending = {name}",
            f"    st.who = {CHANCE}",
            "    st.options = ()",
            "    st.steps = 0",
            f"    return {PAUSE}",
        ]
        if kind in ("roll", "pick"):  # the hot path of dice games: no helper call
            err = self.error(errors.nothing_to_draw(kind, s.span))
            # outside a playout, the record with its line: `_h.chance_record`, written
            # out where the rule file's line is all there is to log
            logged = (
                f"({name}, i, values[i], st.log, {self.ns.name_for(told, '_told')}(st), None)"
                if told is not None and hidden is None
                else f"_h.chance_record(st, {name}, i, values[i])"
            )
            if narrate is None:  # (a line made otherwise needs no twin nor its function)
                sure = isinstance(s, A.Roll) and tell.literal_faces(self.p.refs[id(s)])
                told_when_read = tell.twin(
                    self.ex, spec, getattr(s, "log", None), self.names_fixed, False, sure
                )
                if told_when_read is not None:  # its record, told when read
                    logged = tell.record(self.ns, told_when_read, "i", "values[i]")
            lines += [
                f"values = {source_src}",
                "if not values:",
                f"    raise {err}",
                "rng = st.rng if not st.rng_shared else st.draw()",
                "i = int(rng.random() * len(values))",
                f"st.loc[{slot}] = values[i]",
                "if not st.quiet:",
                f"    st.log = ({name}, i, values[i], st.log) if st.budget else {logged}"
                if audience is None
                else f"    st.log = _h.chance_record(st, {name}, i, values[i])",
            ]
        else:
            lines.append(
                f"_h.chance(st, {name})"  # the candidates worked out once
                if exprgen.OPTIMISED
                else f"_h.settle(st, {name}, _h.sample(st, {name}))"
            )
            if kind == "shuffle_zone" and self.reads.zone(self.p.zones, var):
                lines.append("st.dirty = True")
        self.emit([*lines, f"return {pc + 1}"], span)


def _no_line(st: object) -> str:
    return ""


def _others(p: Program) -> dict[int, dict[int | None, tuple[int, ...]]]:
    """Per number of players, the players but one (none: all of them), for
    `[p for p in players where p != q]` (see ExprGen.all_but)."""
    out: dict[int, dict[int | None, tuple[int, ...]]] = {}
    for n in range(1, p.max_players + 1):
        seats = tuple(range(n))
        table: dict[int | None, tuple[int, ...]] = {None: seats}
        table.update({q: tuple(s for s in seats if s != q) for q in seats})
        out[n] = table
    return out


def _has_reactions(p: Program) -> bool:
    """Does any rule of the program hold a reaction round?"""
    bodies = [p.setup, *(ph.decl.begin for ph in p.phases), *(ph.decl.turn for ph in p.phases)]
    bodies += [sym.decl.body for sym in p.procs.values()]
    todo = [s for body in bodies for s in body]
    while todo:
        s = todo.pop()
        if isinstance(s, A.React):
            return True
        todo.extend(x for body in A.blocks_in(s) for x in body)
    return False


def effect_end(keys: list[int]) -> list[str]:
    """Where the blocks of these effects end: a clone looking for a way to complete
    one of them (at the same depth of procs) has found one."""
    test = f"_eff[0] == {keys[0]}" if len(keys) == 1 else f"_eff[0] in {tuple(keys)}"
    return [
        "_eff = st.effect",
        f"if _eff is not None and {test} and _eff[1] == len(st.stack):",
        f"    return {DONE}",
    ]


def _order_line(slot: int) -> Fn:
    """The log line of a drawn turn order: "Turn order: P3, P1, P2"."""

    def line(st: State) -> str:
        names = st.cfg.player_names
        return "Turn order: " + ", ".join(names[p] for p in st.loc[slot])

    return line


def _constant(text: str) -> Fn:
    return lambda st: text


def _plain(st: object, v: object) -> str:
    return str(v)


PUSH = re.compile(r"^(\s*)st\.stack\.append\((\d+)\)(  # @\d+)?$")
RETURN = re.compile(r"^return st\.stack\.pop\(\)(  # @\d+)?$")  # an op that only returns
BUDGETED = re.compile(r"^if st\.budget:(  # @\d+)?$")  # a playout takes the decision here
# a chance's record, kept short in a playout (Codegen.chance): `A if st.budget else B`
PLAYOUT_RECORD = re.compile(r"(?<=st\.log = )\(\w+, i, values\[i\], st\.log\) if st\.budget else ")


def _tail_calls(bodies: list[list[str]]) -> list[list[str]]:
    """A call of a pausing proc whose return lands on an op that only returns in turn
    (the call was the last thing its caller did) pushes nothing: the callee's return
    goes straight where the caller's would have, one op and a push and pop fewer; a
    jump to such an op returns at once. Not
    where a `complete` choice is compiled (its effect is placed by the stack's depth)."""
    returns = {i for i, body in enumerate(bodies) if len(body) == 1 and RETURN.match(body[0])}
    out = []
    for body in bodies:
        kept: list[str] = []
        for i, line in enumerate(body):
            push = PUSH.match(line)
            after = JUMP.match(body[i + 1]) if push and i + 1 < len(body) else None
            same = push and after and after.group(1) == push.group(1)
            if same and push and int(push.group(2)) in returns:
                continue
            jump = JUMP.match(line)
            if jump and int(jump.group(2)) in returns:  # a jump to a return is one
                line = jump.group(1) + "return st.stack.pop()"
            kept.append(line)
        out.append(kept)
    return out


def _looping(me: int, body: list[str]) -> list[str]:
    """An op that jumps to itself (a loop whose every round asks, taken in a playout)
    loops in Python instead: `return ME` becomes `continue` inside `while True`, so a
    round costs neither a trip through the run loop nor the op's prelude again. Only
    when no such jump lies inside a Python loop of the op, where `continue` would
    mean that loop."""
    jumps = [i for i, line in enumerate(body) if (m := JUMP.match(line)) and int(m[2]) == me]
    if not jumps or any(_in_loop(body, i) for i in jumps):
        return body
    out = ["while True:"]
    for i, line in enumerate(body):
        out.append("    " + (line[: line.index("return")] + "continue" if i in jumps else line))
    return out


def _onward(returned: Counter[int]) -> list[int]:
    """The ops that first calls went on to (what they returned that is an op, not a
    pause or the end), the most frequent first."""
    return [n for n, _count in returned.most_common() if n >= 0]


def _unbudgeted(body: list[str]) -> list[str]:
    """An op's body without its `if st.budget:` blocks (a playout taking the next
    decision where it is asked): a resume runs only for a game played through the API,
    where `st.budget` is 0 (Game.playout sets it, and back to 0, around its own runs,
    which never call a resume), so the block is dead there; dropped, each decision's
    pause skips reading and testing it."""
    out: list[str] = []
    dropped = -1  # the indentation of the block being dropped, -1: none
    for line in body:
        depth = len(line) - len(line.lstrip())
        if dropped >= 0 and (depth > dropped or not line.strip()):
            continue
        dropped = depth if BUDGETED.match(line.strip()) else -1
        if dropped < 0:
            out.append(PLAYOUT_RECORD.sub("", line))  # a chance's record: as logged
    return out


def _in_loop(body: list[str], at: int) -> bool:
    """Is line `at` of an op's body inside a `for` or `while` of the op?"""
    indent = len(body[at]) - len(body[at].lstrip())
    for line in reversed(body[:at]):
        stripped = line.lstrip()
        depth = len(line) - len(stripped)
        if stripped and depth < indent:
            if stripped.startswith(("for ", "while ")):
                return True
            indent = depth
    return False


def _inline(bodies: list[list[str]], me: int, body: list[str], depth: int) -> list[str]:
    """Replace `return N` at the end of a path by op N's code, when op N is small."""
    if depth == 0:
        return body
    out: list[str] = []
    for line in body:
        m = JUMP.match(line)
        target = int(m.group(2)) if m else -1
        if m is None or target == me or len(bodies[target]) > INLINE_LINES:
            out.append(line)
            continue
        pad = m.group(1)
        out.extend(pad + x for x in _inline(bodies, target, bodies[target], depth - 1))
    return out


__all__ = ["Codegen", "Op"]


def python_procs(program: Program) -> frozenset[str]:
    """The procs that take their arguments as a Python function's (see simple_proc):
    those that never pause, but the `imagine` block (imagine.py sets its `me` in the
    state's locals)."""
    imagine = imagine_proc(program.procs)
    return frozenset(
        name for name, sym in program.procs.items() if not sym.pauses and sym is not imagine
    )


def branched(tested: list[tuple[str, str]], at: int = 0, kept: tuple[str, ...] = ()) -> str:
    """The options of `unrolled_options` from (value, its tests or "") in order, as
    nested conditionals giving one tuple literal each: `(('a', 'b') if T else ('b',))`
    for `(('a',) if T else ()) + ('b',)`. The tests run in the same order, each once on
    every path, and the tuple holds the same values in the same order: no tuples of one
    value made and added together at every decision."""
    if at == len(tested):
        return f"({', '.join(kept)},)" if kept else "()"
    value, tests = tested[at]
    taken = branched(tested, at + 1, (*kept, value))
    if not tests:
        return taken
    return f"({taken} if {tests} else {branched(tested, at + 1, kept)})"
