"""Statements that cannot pause, as lines of Python: assignments, structured `if`,
`while` and `for`, calls of procs that never pause, messages, outcomes, and moving
things between zones and board cells. Mixed into `Codegen` (codegen.py), which cuts
the code into ops only around choices and chance.
"""

from __future__ import annotations

import re
from typing import assert_never, cast

from rulelang import errors
from rulelang.check.layout import Layout
from rulelang.check.symbols import AttrSym, BoardAttrSym, LocalSym, Program
from rulelang.check.types import T
from rulelang.diagnostics import GameRuntimeError, Span
from rulelang.limits import Limits
from rulelang.runtime import exprgen
from rulelang.runtime.constants import constant_length
from rulelang.runtime.exprgen import ExprGen, Namespace, proc_function
from rulelang.runtime.gathered import gathered
from rulelang.runtime.growing import appended
from rulelang.runtime.helpers import Places
from rulelang.runtime.literals import literal
from rulelang.runtime.reads import Reads, expressions
from rulelang.syntax import ast as A

# a zone read as generated code writes it, its slot a number or a sum (no check call)
_NAME = re.compile(r"[A-Za-z_]\w*$|-?[0-9]+$")  # a name or a whole number: cannot fail
ZONE_READ = re.compile(r"(?:st\.)?zones\[([0-9a-z_ +.]+)\]")
QUIET_TESTS = True  # off: a quiet playout tests the conditions of what only says


class StraightGen:
    p: Program
    layout: Layout
    ns: Namespace
    ex: ExprGen
    reads: Reads
    limits: Limits
    py_procs: frozenset[str] = frozenset()  # procs called with Python arguments

    def error(self, err: GameRuntimeError) -> str:
        """The name under which generated code raises `err` (made in advance)."""
        return self.ns.name_for(err, "_e")

    def budget(self, span: Span, kind: errors.BudgetKind) -> list[str]:
        steps = self.limits.steps  # a constant of the generated code
        err = self.error(errors.step_budget(kind, steps, span))
        return ["st.steps += 1", f"if st.steps > {steps}:", f"    raise {err}"]

    def round_budget(self, s: A.While | A.For | A.Repeat) -> list[str]:
        """A loop whose every round asks a player to decide cannot run away unnoticed
        (each decision is counted by whoever plays); any other loop counts its rounds."""
        return [] if self.asks(s.body) else self.loop_budget(s.span)

    def asks(self, stmts: tuple[A.Stmt, ...]) -> bool:
        """Does every way through these statements ask a player to choose? (Not a
        loop's body that may `continue` or `break` on the way: that round may not ask.)"""
        for s in stmts:
            if jumps(s):
                return False
            if isinstance(s, A.Choose):
                return True
            if (
                isinstance(s, A.If)
                and s.otherwise
                and all(self.asks(body) for _c, body in s.branches)
                and self.asks(s.otherwise)
            ):
                return True
            if (
                isinstance(s, A.Do)
                and s.proc in self.p.procs
                and self.asks(self.p.procs[s.proc].decl.body)
            ):
                return True
        return False

    def rounds_budget(self, rounds: str, span: Span) -> list[str]:
        """Count a loop's rounds against the budget before it starts (a loop that
        cannot pause runs all its rounds at once)."""
        steps = self.limits.steps
        err = self.error(errors.step_budget("rounds", steps, span))
        return [
            f"if {rounds} > 0:",
            f"    st.steps += {rounds}",
            f"    if st.steps > {steps}:",
            f"        raise {err}",
        ]

    def loop_budget(self, span: Span) -> list[str]:
        return self.budget(span, "loop")

    def local(self, node: object) -> LocalSym:
        return self.p.locals_of[id(node)]

    def proc_args(self, s: A.Do) -> list[str]:
        sym = self.p.procs[s.proc]
        return [
            f"st.loc[{p.slot}] = {self.ex.as_type(a, p.type)}"
            for p, a in zip(sym.params, s.args, strict=True)
        ]

    # ------------------------------------------------------------ straight-line code
    def simple(self, stmt: A.Stmt) -> list[str]:
        """Python lines for a statement that cannot pause, the first one marked with the
        statement's span (the line table: see lines.py)."""
        lines = self._simple(stmt)
        if lines and not lines[0].rstrip().endswith("\\"):
            lines[0] += self.ns.mark(stmt.span)
        return lines

    def _simple(self, stmt: A.Stmt) -> list[str]:
        ex = self.ex
        s = cast(A.AnyStmt, stmt)  # every Stmt is one of A.AnyStmt
        match s:
            case A.Let():
                local = self.local(s)
                if local.slot in ex.grown.lists or local.slot in ex.grown.sets:
                    return self.grown_anew(local.slot, s.value)
                where = ex.bound.get(local.slot, f"st.loc[{local.slot}]")  # a def's: Python
                looped = ex.comp_lines(s.value, where) if isinstance(s.value, A.Comp) else None
                return looped or [f"{where} = {ex.as_type(s.value, local.type)}"]
            case A.Set():
                return self.set(s)
            case A.If():
                lines: list[str] = []
                loud = self.quiet_from(s)
                for i, (cond, block) in enumerate(s.branches):
                    # an `elif` is placed on its own line (the `if` line: by simple())
                    mark = self.ns.mark(cond.span) if i else ""
                    test = ex.src(cond) if i < loud else f"not st.quiet and ({ex.src(cond)})"
                    lines.append(f"{'if' if i == 0 else 'elif'} {test}:{mark}")
                    lines += indent(self.simple_block(block))
                if s.otherwise:
                    lines += ["else:", *indent(self.simple_block(s.otherwise))]
                return lines
            case A.While():  # the round is counted first: a `continue` skips the rest
                return [
                    f"while {ex.src(s.cond)}:",
                    *indent([*self.loop_budget(s.span), *self.simple_block(s.body)]),
                ]
            case A.For():
                slot = self.local(s).slot
                # a list grown in place is iterated as it is, unless the loop changes it
                changes = self.sets_any(s.body, s.source)
                source = ex.src(s.source) if changes else ex.seq(s.source)
                ex.bound[slot] = var = f"_v{slot}"
                if not self.sets_local(s.body, slot):  # its values are the source's
                    ex.bind_loop(slot, s.source, source, not changes)
                try:
                    inner = self.simple_block(s.body)
                    if s.where is not None:  # the rounds the condition holds for
                        inner = [f"if not ({ex.src(s.where)}):", "    continue", *inner]
                finally:
                    del ex.bound[slot]
                    ex.unbind_loop(slot)
                # a list is never changed in place (zones are tuples too), so it needs no
                # copy; its rounds are counted against the budget all at once
                seq = f"_seq{slot}"
                every = gathered(ex, s, slot, seq, inner) if exprgen.OPTIMISED else None
                if every is not None:  # every tile of a board given back: gathered.py
                    return [f"{seq} = {source}", *self.rounds_budget(f"len({seq})", s.span), *every]
                rounds = constant_length(source)
                if rounds is not None and exprgen.OPTIMISED:  # `for d in 0..3`: 4 rounds
                    budget = self.rounds_budget(str(rounds), s.span)[1:] if rounds else []
                    return [*dedent(budget), f"for {var} in {source}:", *indent(inner)]
                return [
                    f"{seq} = {source}",
                    *self.rounds_budget(f"len({seq})", s.span),
                    f"for {var} in {seq}:",
                    *indent(inner),
                ]
            case A.Repeat():
                count = f"_n{self.p.hidden[id(s)]}"
                return [
                    f"{count} = {ex.src(s.count)}",
                    *self.rounds_budget(count, s.span),
                    f"for _ in range({count}):",
                    *indent(self.simple_block(s.body)),
                ]
            case A.Do():
                if s.proc in self.py_procs:  # its arguments passed as Python's
                    params = self.p.procs[s.proc].params
                    args = [ex.as_type(a, p.type) for p, a in zip(params, s.args, strict=True)]
                    return [f"{proc_function(s.proc)}({', '.join(['st', *args])})"]
                return [*self.proc_args(s), f"{proc_function(s.proc)}(st)"]
            case A.Say():
                # a quiet playout (Game.playout) keeps no message: no rule reads one
                # back, so neither the text nor its audience is worked out
                return ["if not st.quiet:", *indent(self.say(s))]
            case A.RevealTo():
                return [self.reveal_to(s)]
            case A.Outcome():
                many = ex.type_of(s.players).name == "list"
                who = ex.src(s.players) if many else f"({ex.src(s.players)},)"
                return [f"_h.outcome(st, {literal(s.kind)}, {who})"]
            case A.Return():  # only in the block of a def, a Python function
                return [f"return {ex.src(s.value)}"]
            case A.Deal() | A.MoveItem() | A.AddItems() | A.Place() | A.Clear() | A.Reveal():
                return self.places(s)
            case (
                A.Choose()
                | A.Roll()
                | A.Pick()
                | A.ShuffleLet()
                | A.ShuffleZone()
                | A.Generate()
                | A.React()
            ):
                raise AssertionError("a pause point is not straight-line code")
            case A.Pass():
                raise AssertionError("'pass' jumps: it is not straight-line code")
            case A.Break():  # of a loop that is straight-line code too (codegen.pauses)
                return ["break"]
            case A.Continue():
                return ["continue"]
            case _:
                assert_never(s)

    def quiet_from(self, s: A.If) -> int:
        """The first of an `if`'s branches from which on every branch, and the `else`,
        only says something (len(branches): none). A quiet playout (Game.playout) says
        nothing, so it need not test their conditions either."""
        if not (exprgen.OPTIMISED and QUIET_TESTS and says_only(s.otherwise)):
            return len(s.branches)
        first = len(s.branches)
        while first > 0 and says_only(s.branches[first - 1][1]):
            first -= 1
        return first

    def sets_local(self, stmts: tuple[A.Stmt, ...], slot: int) -> bool:
        """Does any of these statements (at any depth) set the local of this slot?"""
        todo = list(stmts)
        while todo:
            s = todo.pop()
            if isinstance(s, A.Set):
                root = s.target
                while isinstance(root, A.Index):
                    root = root.obj
                sym = self.p.refs.get(id(root))
                if isinstance(sym, LocalSym) and sym.slot == slot:
                    return True
            todo.extend(x for body in A.blocks_in(s) for x in body)
        return False

    def sets_any(self, stmts: tuple[A.Stmt, ...], source: A.Expr) -> bool:
        """Might these statements change a local that `source` reads? (A loop over
        `0..len(xs) - 1` indexes xs without checks only while xs stays as it was.)"""
        read = {
            sym.slot
            for node in expressions(self.p, [source])
            if isinstance(sym := self.p.refs.get(id(node)), LocalSym)
        }
        return any(self.sets_local(stmts, slot) for slot in read)

    def simple_block(self, stmts: tuple[A.Stmt, ...]) -> list[str]:
        lines = [line for s in stmts for line in self.simple(s)]
        return lines or ["pass"]

    def set(self, s: A.Set) -> list[str]:
        if isinstance(s.target, A.Index):
            return self.set_item(s, s.target)
        ex = self.ex
        sym = self.p.refs.get(id(s.target))
        if isinstance(sym, LocalSym) and (sym.slot in ex.grown.lists or sym.slot in ex.grown.sets):
            return self.set_grown(s, sym.slot)
        where = self.place_of(s.target, sym)
        assert sym is not None
        want = sym.type
        if want.name == "node" and s.op != "=":  # a step along the numbers, checked
            span = ex.span(s)
            value = f"({where} {s.op[0]} {ex.src(s.value)})"
            lines = [f"{where} = _h.node(st.cfg.boards[{literal(want.arg)}], {value}, {span})"]
        else:
            lines = [f"{where} {s.op} {ex.as_type(s.value, want)}"]
        layout = self.p.layout
        if isinstance(sym, AttrSym) and layout is not None and layout.holds_edges(sym):
            lines.append(f"_h.tile_edges({literal(sym.owner)}, {where}, {ex.span(s)})")
        if isinstance(sym, AttrSym) and sym in self.reads.attrs:
            lines.append("st.dirty = True")
        return lines

    def grown_anew(self, slot: int, value: A.Expr) -> list[str]:
        """A local grown in place (growing.py) given a new value: a new Python list,
        or set for one only tested with `in`."""
        ex = self.ex
        where, kind = ex.bound[slot], "set" if slot in ex.grown.sets else "list"
        if isinstance(value, A.ListLit) and value.items:
            items = ", ".join(ex.src(x) for x in value.items)
            return [f"{where} = {{{items}}}" if kind == "set" else f"{where} = [{items}]"]
        if isinstance(value, A.ListLit):
            return [f"{where} = {'set()' if kind == 'set' else '[]'}"]
        return [f"{where} = {kind}({ex.src(value)})"]

    def set_grown(self, s: A.Set, slot: int) -> list[str]:
        """`set xs = xs + MORE` on a local grown in place: MORE appended to it (added
        to the set)."""
        ex = self.ex
        more = appended(self.p, s)
        if more is None:
            return self.grown_anew(slot, s.value)
        where, one, many = ex.bound[slot], "append", "extend"
        if slot in ex.grown.sets:
            one, many = "add", "update"
        if isinstance(more, A.ListLit) and len(more.items) == 1:
            return [f"{where}.{one}({ex.src(more.items[0])})"]
        if isinstance(more, A.ListLit):
            return [f"{where}.{many}(({''.join(ex.src(x) + ', ' for x in more.items)}))"]
        return [f"{where}.{many}({ex.src(more)})"]

    def place_of(self, target: A.Expr, sym: object) -> str:
        """Where a `set` target (a local, a global or an attribute) lives in the state."""
        ex = self.ex
        if isinstance(target, A.Name) and isinstance(sym, LocalSym):
            return ex.bound.get(sym.slot, f"st.loc[{sym.slot}]")
        if isinstance(target, A.Name) and isinstance(sym, AttrSym):
            return f"st.vars[{sym.slot}]"
        if isinstance(target, A.Attr) and isinstance(sym, AttrSym):
            return f"st.cols[{sym.slot}][{ex.src(target.obj)}]"
        raise AssertionError(target)

    def set_place(self, s: A.Set, where: str, want: T) -> list[str]:
        """`set` of one item of a board's state, changed in place (its column is copied
        by clones: see Config.changing)."""
        ex = self.ex
        if want.name == "node" and s.op != "=":  # a step along the numbers, checked
            value = f"({where} {s.op[0]} {ex.src(s.value)})"
            return [f"{where} = _h.node(st.cfg.boards[{literal(want.arg)}], {value}, {ex.span(s)})"]
        return [f"{where} {s.op} {ex.as_type(s.value, want)}"]

    def set_item(self, s: A.Set, target: A.Index) -> list[str]:
        """`set xs[i][j] op v`. Lists are tuples, never changed in place (a clone and
        another variable may hold the same one): each level is rebuilt with its item
        replaced, from the innermost out, and the new list is stored where xs lives."""
        ex = self.ex
        levels: list[A.Index] = []
        root: A.Expr = target
        while isinstance(root, A.Index):
            levels.append(root)
            root = root.obj
        levels.reverse()  # from the list stored in the state inwards
        sym = self.p.refs.get(id(root))
        lines: list[str] = []
        if isinstance(sym, BoardAttrSym):  # a column of the state, changed in place
            first = levels.pop(0)
            lines.append(f"_b = {ex.src(first.index)}")
            lines.append(f"_h.item_to_set(st.cols[{sym.slot}], _b, {ex.span(first)})")
            where = f"st.cols[{sym.slot}][_b]"
            if not levels:
                lines += self.set_place(s, where, ex.type_of(target))
                return lines + (["st.dirty = True"] if sym in self.reads.attrs else [])
        elif isinstance(root, A.Attr):  # the owner is worked out once
            lines.append(f"_owner = {ex.src(root.obj)}")
            assert isinstance(sym, AttrSym)
            where = f"st.cols[{sym.slot}][_owner]"
        else:
            where = self.place_of(root, sym)
        if isinstance(sym, LocalSym) and sym.slot in ex.grown.lists:  # (growing.py)
            return self.item_in_place(s, target, where)
        last = len(levels) - 1
        if last == 0 and s.op == "=":  # the common case: one level, read once
            value = ex.as_type(s.value, ex.type_of(target))
            index = ex.src(target.index)
            lines.append(f"{where} = _h.replaced({where}, {index}, {value}, {ex.span(target)})")
            if isinstance(sym, AttrSym) and sym in self.reads.attrs:
                lines.append("st.dirty = True")
            return lines
        lines.append(f"_l0 = {where}")
        for k, level in enumerate(levels):
            lines.append(f"_i{k} = {ex.src(level.index)}")
            if k < last:
                lines.append(f"_l{k + 1} = _h.item_to_set(_l{k}, _i{k}, {ex.span(level)})")
        want = ex.type_of(target)
        if s.op == "=":
            value = ex.as_type(s.value, want)
        else:
            old = f"_h.item_to_set(_l{last}, _i{last}, {ex.span(target)})"
            value = f"({old} {s.op[0]} {ex.src(s.value)})"
            if want.name == "node":  # a step along the numbers, checked
                value = f"_h.node(st.cfg.boards[{literal(want.arg)}], {value}, {ex.span(s)})"
        for k in range(last, -1, -1):
            value = f"_h.replaced(_l{k}, _i{k}, {value}, {ex.span(levels[k])})"
        lines.append(f"{where} = {value}")
        if isinstance(sym, AttrSym) and sym in self.reads.attrs:
            lines.append("st.dirty = True")
        return lines

    def item_in_place(self, s: A.Set, target: A.Index, where: str) -> list[str]:
        """`set xs[i] = v` on a def's local held as a Python list (growing.py): the item
        changed in place. The index is worked out before the value, and one outside the
        list fails as `_h.replaced` fails (R024, `none` too), which it is given then."""
        ex = self.ex
        index, value = ex.src(target.index), ex.as_type(s.value, ex.type_of(target))
        head = []
        if not (_NAME.match(index) and (ex.cheap(value) or value in ("True", "False"))):
            head = [f"_b = {index}", f"_v = {value}"]  # (else: neither can fail)
            index, value = "_b", "_v"
        known = re.fullmatch(r"-?[0-9]+", index)  # a number: never none (and `2 is not
        # None` is a SyntaxWarning that compiling the rules would print)
        test = f"0 <= {index}" if known else f"{index} is not None and 0 <= {index}"
        return [
            *head,
            f"if {test} < len({where}):",
            f"    {where}[{index}] = {value}",
            "else:",
            f"    _h.replaced({where}, {index}, {value}, {ex.span(target)})",
        ]

    def say(self, s: A.Say) -> list[str]:
        ex = self.ex
        if s.to is None:
            parts = ex.format_parts(s.message) if exprgen.OPTIMISED else None
            if parts is not None:  # formatted when read (state.typed): its values now
                return [f"st.log = ('said', None, ({parts[0]}, {parts[1]}), st.log)"]
            return [f"st.log = ('said', None, {ex.show(s.message)}, st.log)"]
        if ex.type_of(s.to).name == "list":
            audience = f"tuple({ex.src(s.to)})"
        elif exprgen.OPTIMISED and ex.cheap(who := ex.src(s.to)):
            # one audience of one player kept per seat, not one per message (a game
            # keeps every message: fewer objects made and kept)
            audience = f"(_alone[{who}] if {who} is not None else ({who},))"
        else:
            audience = f"({ex.src(s.to)},)"
        # private messages are also linked apart, so that a view finds them quickly:
        # one record in both lists (the log's link, then the private one)
        return [
            f"st.log = st.private = ('said', {audience}, {ex.show(s.message)}, st.log, st.private)"
        ]

    def reveal_to(self, s: A.RevealTo) -> str:
        ex = self.ex
        t = ex.type_of(s.item)
        items = ex.src(s.item) if t.name == "list" else f"({ex.src(s.item)},)"
        kind = (t.elem if t.name == "list" and t.elem is not None else t).arg
        many = ex.type_of(s.to).name == "list"
        audience = ex.src(s.to) if many else f"({ex.src(s.to)},)"
        return f"_h.reveal_to(st, {items}, {audience}, {self.detach_args(kind)})"

    def zone_slot(self, ref: A.ZoneRef) -> str:
        base = self.layout.zone_base[ref.zone]
        if ref.owner is None:
            return str(base)
        return self.ex.zone_slot(str(base), ref.owner, self.ex.src(ref.owner))

    def detach_args(self, kind: str) -> str:
        """The name of the places an item of `kind` may be (shared zones, players'
        zones, boards): one `Places` per kind, whose hints every statement that moves
        such items keeps up to date."""
        known = self.ex.places.get(kind)
        if known is None:
            shared: list[int] = []
            per_player: list[int] = []
            for z in self.p.zones:
                if z.kind == kind:
                    base = self.layout.zone_base[z.name]
                    (per_player if z.per_player else shared).append(base)
            boards = tuple(ops for ops in self.ex.tiles.values() if ops.kind == kind)
            known = self.ex.places[kind] = Places(shared, per_player, boards)
        return self.ns.name_for(known, "_z")

    def move_top(self, s: A.MoveItem, places: str) -> str | None:
        """`move last(z) from z to ...` (a card drawn) as one call that takes the top
        item (`_h.move_top`): no `last` called first, nor the item compared with the
        top again. None for any other move."""
        item, ex = s.item, self.ex
        if not (exprgen.OPTIMISED and isinstance(item, A.Call) and item.func == "last"):
            return None
        slot = self.zone_slot(s.source)
        if len(item.args) != 1 or ex.src(item.args[0]) not in (
            f"zones[{slot}]",
            f"st.zones[{slot}]",
        ):
            return None  # another zone, or a read guarded for `known`
        dest = self.zone_slot(s.dest)
        if "_h." in dest:
            return None  # a check that may raise: after `last`'s, as written
        return f"_h.move_top(st, {slot}, {dest}, {ex.span(item)}, {places})"

    def add_from(self, e: A.Expr, items: str, dest: str, places: str) -> str | None:
        """`add [x for x in z where ...] to ...` (a round's cards gathered back) as
        `_h.add_from`, which takes the items out of `z` alone: they were just listed
        from it, each once. None for other items, or where `z`'s slot is not a plain
        number or sum (its check, `_h.zone_slot`, raised when `z` was read)."""
        if not (exprgen.OPTIMISED and isinstance(e, A.Comp) and e.func == "" and e.by is None):
            return None
        ex = self.ex
        if not ex.is_var(e.elem, self.p.locals_of[id(e)].slot):
            return None
        zone = ZONE_READ.fullmatch(ex.comp_source(e))
        if zone is None:
            return None
        return f"_h.add_from(st, {items}, {zone[1]}, {dest}, {places})"

    def places(
        self, s: A.Deal | A.MoveItem | A.AddItems | A.Place | A.Clear | A.Reveal
    ) -> list[str]:
        ex, reads, zones = self.ex, self.reads, self.p.zones
        match s:
            case A.Deal():
                places = self.detach_args(self.layout.zone_kind[s.dest])
                line = (
                    f"_h.deal(st, {ex.src(s.count)}, {self.layout.zone_base[s.source]}, "
                    f"{self.layout.zone_base[s.dest]}, {places})"
                )
                dirty = reads.zone(zones, s.source, s.dest)
            case A.MoveItem():
                places = self.detach_args(self.layout.zone_kind[s.dest.zone])
                line = self.move_top(s, places) or (
                    f"_h.move(st, {ex.src(s.item)}, {self.zone_slot(s.source)}, "
                    f"{self.zone_slot(s.dest)}, {ex.span(s)}, {literal(s.source.zone)}, {places})"
                )
                dirty = reads.zone(zones, s.source.zone, s.dest.zone)
            case A.AddItems():
                kind = self.layout.zone_kind[s.dest.zone]
                items = ex.src(s.items)
                if ex.type_of(s.items).name != "list":
                    items = f"({items},)"
                dest, places = self.zone_slot(s.dest), self.detach_args(kind)
                line = self.add_from(s.items, items, dest, places) or (
                    f"_h.add(st, {items}, {dest}, {places})"
                )
                dirty = reads.kind_zone(zones, kind) or (
                    reads.tiles and any(o.kind == kind for o in ex.tiles.values())
                )
            case A.Place():
                ops = ex.tiles[s.board]
                turn = ex.src(s.turn) if s.turn is not None else "0"
                line = (
                    f"_h.place(st, {self.ns.name_for(ops, '_t')}, {ex.src(s.at)}, "
                    f"{ex.src(s.tile)}, {turn}, {s.secret}, {self.detach_args(ops.kind)}, "
                    f"{ex.span(s)})"
                )
                dirty = reads.tiles or reads.kind_zone(zones, ops.kind)
            case A.Clear():
                ops = ex.tiles[s.board]
                line = f"{self.ns.name_for(ops, '_t')}.clear(st, {ex.src(s.at)})"
                dirty = reads.tiles
            case A.Reveal():
                ops = ex.tiles[s.board]
                turn = ex.src(s.turn) if s.turn is not None else "None"
                line = f"{self.ns.name_for(ops, '_t')}.reveal(st, {ex.src(s.at)}, {turn})"
                dirty = reads.tiles
            case _:
                assert_never(s)
        return [line, "st.dirty = True"] if dirty else [line]


def jumps(s: A.Stmt) -> bool:
    """Does the statement hold a `break` or `continue` of the loop around it (not one of
    a loop inside it)?"""
    if isinstance(s, A.Break | A.Continue):
        return True
    if isinstance(s, A.While | A.For | A.Repeat | A.React):
        return False
    return any(jumps(x) for body in A.blocks_in(s) for x in body)


def says_only(stmts: tuple[A.Stmt, ...] | None) -> bool:
    """Do these statements (at any depth) only say something, or nothing at all?"""
    return all(
        isinstance(s, A.Say)
        or isinstance(s, A.If)
        and all(says_only(body) for body in A.blocks_in(s))
        for s in stmts or ()
    )


def dedent(lines: list[str]) -> list[str]:
    return [line.removeprefix("    ") for line in lines]


def indent(lines: list[str]) -> list[str]:
    return ["    " + line for line in lines]
