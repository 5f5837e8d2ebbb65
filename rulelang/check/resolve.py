"""Pass 2: resolve every name and check every declaration and statement (expressions:
typing.py)."""

from __future__ import annotations

from typing import assert_never, cast

from rulelang import errors
from rulelang.check.context import Checker
from rulelang.check.declare import resolve_type
from rulelang.check.measures import check_measures
from rulelang.check.scope import PAUSING, Ctx, describe, open_grid  # noqa: E402
from rulelang.check.symbols import (
    AttrSym,
    BoardAttrSym,
    DefSym,
    LocalSym,
    ProcSym,
    Sym,
    ValueSym,
    ZoneSym,
)
from rulelang.check.types import (
    ANY,
    BOOL,
    INT,
    NONE,
    PLAYER,
    T,
    compatible,
    join,
    list_of,
)
from rulelang.check.typing import ExprChecker
from rulelang.diagnostics import Span
from rulelang.syntax import ast as A


class Resolver(ExprChecker):
    # ------------------------------------------------------------ declarations
    def run(self) -> None:
        c = self.c
        for sym in list(c.names.values()):
            if isinstance(sym, DefSym | ProcSym):
                sym.params = [
                    c.new_local(p.name, p.span, resolve_type(c, p.type)) for p in sym.decl.params
                ]
                seen: dict[str, Span] = {}
                for p in sym.decl.params:
                    if p.name in seen:
                        c.duplicate(p.name, p.span, seen[p.name])
                    seen.setdefault(p.name, p.span)
        for sym in list(c.names.values()):
            if isinstance(sym, ValueSym):
                self.value_decl(sym)
        for attrs in [c.player_attrs, c.global_attrs, *[k.attrs for k in c.kinds]]:
            for a in attrs.values():
                self.attr(a)
        for k in c.kinds:
            if k.decl.data:
                if k.decl.count is not None:
                    c.report(
                        errors.count_and_data(
                            k.decl.category, k.name, k.decl.data, k.decl.count.span
                        )
                    )
            elif k.decl.count is None:
                c.report(errors.kind_without_count(k.decl.category, k.name, k.span))
            else:
                self.expect(k.decl.count, INT, Ctx(static=True, context="a count"))
        for zone in c.zones:
            if zone.kind not in c.kinds_by_name:
                c.unknown("piece or card kind", zone.kind, zone.span, list(c.kinds_by_name))
            elem = T("entity", zone.kind)
            zone.type = T("zone", zone.kind, elem) if zone.per_player else list_of(elem)
        for sym in list(c.names.values()):
            if isinstance(sym, DefSym):
                self.def_body(sym)
        for sym in list(c.names.values()):
            if isinstance(sym, ProcSym):
                scopes = [{p.name: p for p in sym.params}]
                if sym.decl.imagine:  # chance, but no decisions: see runtime/imagine.py
                    where = "an imagine block"
                    ctx = Ctx(owner=sym.name, scopes=scopes, decide_ok=False, context=where)
                else:
                    ctx = Ctx(owner=sym.name, scopes=scopes)
                self.block(sym.decl.body, ctx)
        self.block(c.setup, Ctx(context="setup"))
        for ph in c.phases:
            d = ph.decl
            self.block(d.begin, Ctx(context=f"phase {ph.name}"))
            self.block(d.turn, Ctx(context=f"phase {ph.name}"))
            if d.order_from is not None:
                self.expect(d.order_from, PLAYER, Ctx())
            if d.order == "random":  # the drawn order, kept for the rest of the game
                c.hidden[id(d)] = c.new_hidden()
            if d.end_when is not None:
                self.expect(d.end_when, BOOL, Ctx())
            if d.skip_when is not None:  # read with `current` the player it would be
                self.expect(d.skip_when, BOOL, Ctx())
        for end in c.ends:
            self.expect(end.cond, BOOL, Ctx())
            self.block(end.body, Ctx(pause_ok=False, context="an end rule", owner="<end>"))
        if c.bots:
            self.bots()
        if c.estimate is not None:
            est = c.estimate
            est.me = c.new_local("me", est.span, PLAYER)
            ctx = Ctx(pause_ok=False, context="the estimate", scopes=[{"me": est.me}])
            self.expect(est.decl.expr, INT, ctx)
            if est.decl.by_bots and not c.bots:
                c.report(errors.no_bots_to_play(est.span))
        check_measures(self)

    def bots(self) -> None:
        """A bot's `for` condition and rules: `me` is its player; in the rules of
        `when choosing VAR`, VAR is the option considered, typed like the options of
        every `choose VAR` of the file (joined). What they may read: hidden.py."""
        c = self.c
        chosen: dict[str, T] = {}
        for s in choices(c):
            t = c.locals_of[id(s)].type
            chosen[s.var] = join(chosen[s.var], t) if s.var in chosen else t
        for bot in c.bots.values():
            d = bot.decl
            me = bot.me = c.new_local("me", d.span, PLAYER)
            where = f"bot {bot.name}"
            if d.cond is not None:
                self.expect(d.cond, BOOL, Ctx(pause_ok=False, context=where, scopes=[{"me": me}]))
            for ch in d.choices:
                if ch.name not in chosen:
                    c.unknown("choice", ch.name, ch.name_span, sorted(chosen))
                    continue
                if ch.name in bot.options:
                    c.duplicate(ch.name, ch.name_span, ch.name_span)
                    continue
                option = bot.options[ch.name] = c.new_local(ch.name, ch.name_span, chosen[ch.name])
                ctx = Ctx(pause_ok=False, context=where, scopes=[{"me": me, ch.name: option}])
                for rule in ch.rules:
                    for e in rule.exprs:
                        self.expect(e, BOOL if rule.kind == "prefer" else INT, ctx)

    def value_decl(self, sym: ValueSym) -> None:
        d = sym.decl
        ctx = Ctx(static=True, value=sym, context=f"{sym.what} {sym.name}")
        match d:
            case A.ParamDecl():
                sym.type = self.expr(d.default, Ctx(static=True, context="a param"))
                if not isinstance(d.default, A.IntLit | A.BoolLit | A.TextLit):
                    self.c.report(errors.param_default_not_plain(d.name, d.default.span))
            case A.ConstDecl():
                sym.type = self.expr(d.value, ctx)
            case A.TableDecl():
                vt: T = NONE
                for _lo, _hi, e in d.entries:
                    vt = join(vt, self.expr(e, ctx))
                sym.type = T("table", elem=vt)
            case A.DieDecl():
                t = self.expr(d.faces, ctx)
                if t.name != "list":
                    self.c.report(errors.die_faces_not_list(d.name, t, d.faces.span))
                    t = list_of(ANY)
                sym.type = t
            case A.BoardDecl():
                self.board_decl(sym, d, ctx)
            case _:
                assert_never(d)

    def board_decl(self, sym: ValueSym, d: A.BoardDecl, ctx: Ctx) -> None:
        for a in d.args:
            self.expr(a, ctx)
        for _n, e in d.attrs:
            t = self.expr(e, ctx)
            if t.name != "list":
                self.c.report(errors.board_attribute_not_list(t, e.span))
        sym.type = T("board", d.name)
        if d.shape not in ("ring", "line", "grid"):
            self.c.unknown("board shape", d.shape, d.span, ["ring", "line", "grid"])
        if d.tiles:
            self.tile_kind(d)
        for state in self.c.board_attrs.get(d.name, {}).values():
            decl = next(x for x in (*d.state, *d.edges) if x.span == state.span)
            state.type = resolve_type(self.c, decl.type)
            if state.default is not None:
                self.expect(state.default, state.type, Ctx(static=True, context="a default"))
            if state.visibility in ("owner", "others"):
                self.c.report(errors.owner_visibility(decl.span, state.visibility))

    def tile_kind(self, d: A.BoardDecl) -> None:
        """Tiles are pieces or cards with `edges: list(bool)` (N, E, S, W), and
        optionally `joined: bool` (false: the open edges do not meet in the middle)."""
        kind = self.c.kinds_by_name.get(d.tiles)
        if kind is None:
            self.c.unknown("piece or card kind", d.tiles, d.span, list(self.c.kinds_by_name))
            return
        edges = next((a for a in kind.decl.attrs if a.name == "edges"), None)
        if (
            edges is None
            or edges.type.name != "list"
            or edges.type.elem is None
            or edges.type.elem.name != "bool"
        ):
            self.c.report(errors.not_a_tile_kind(kind.name, d.span))
        joined = next((a for a in kind.decl.attrs if a.name == "joined"), None)
        if joined is not None and joined.type.name != "bool":
            self.c.report(errors.joined_not_bool(kind.name, joined.span))

    def attr(self, a: AttrSym) -> None:
        decl = self._attr_decl(a)
        a.type = resolve_type(self.c, decl.type)
        kind = self.c.kinds_by_name.get(a.owner)
        if a.default is not None:
            ctx = Ctx(static=True, kind=kind, context="a default")
            self.expect(a.default, a.type, ctx)
        if a.visibility in ("owner", "others") and a.owner != "player":
            self.c.report(errors.owner_visibility(decl.span, a.visibility))

    def _attr_decl(self, a: AttrSym) -> A.AttrDecl:
        for d in self.c.decls:
            attrs: tuple[A.AttrDecl, ...] = ()
            if isinstance(d, A.PlayerDecl | A.GlobalDecl | A.KindDecl):
                attrs = d.attrs
            for x in attrs:
                if x.span == a.span:
                    return x
        raise AssertionError(a.name)

    def def_body(self, sym: DefSym) -> None:
        """Check a def's body once; a call to a def not yet checked checks it first."""
        if sym.name in self.defs_started:
            return
        self.defs_started.add(sym.name)
        ctx = Ctx(
            owner=sym.name,
            pause_ok=False,
            context=f"def {sym.name}",
            scopes=[{p.name: p for p in sym.params}],
        )
        body = sym.decl.body
        if not isinstance(body, tuple):
            sym.type = self.expr(body, ctx)
            return
        ctx.block_def = sym
        self.block(body, ctx)
        sym.type = ctx.returns or ANY
        if not always_returns(body):
            self.c.report(errors.def_may_not_return(sym.name, body[-1].span if body else sym.span))

    # ------------------------------------------------------------ statements
    def block(self, stmts: tuple[A.Stmt, ...], ctx: Ctx) -> None:
        ctx.scopes.append({})
        for s in stmts:
            self.stmt(s, ctx)
        ctx.scopes.pop()

    def bind(self, node: object, name: str, span: Span, t: T, ctx: Ctx) -> LocalSym:
        local = self.c.new_local(name, span, t)
        ctx.scopes[-1][name] = local
        self.c.locals_of[id(node)] = local
        return local

    def stmt(self, s: A.Stmt, ctx: Ctx) -> None:
        c = self.c
        if ctx.block_def is not None and not isinstance(s, DEF_STATEMENTS):
            c.report(errors.def_acts(keyword(s), ctx.block_def.name, s.span))
            if isinstance(s, A.Choose | A.Roll | A.Pick | A.ShuffleLet):
                self.bind(s, s.var, s.span, ANY, ctx)  # known below: no second error
            return
        if isinstance(s, PAUSING) and not ctx.pause_ok:
            c.report(errors.nobody_can_act(type(s).__name__.lower(), ctx.context, s.span))
        elif isinstance(s, A.Choose | A.React) and not ctx.decide_ok:
            c.report(errors.nobody_can_act(keyword(s), ctx.context, s.span))
        self.statement(cast(A.AnyStmt, s), ctx)  # every Stmt is one of A.AnyStmt

    def statement(self, s: A.AnyStmt, ctx: Ctx) -> None:
        """Check one statement: one method per kind; a kind missing here is a type error
        (assert_never), and an error at run time should one slip through."""
        match s:
            case A.Let():
                self.let(s, ctx)
            case A.Set():
                self.set_stmt(s, ctx)
            case A.If():
                self.if_stmt(s, ctx)
            case A.While():
                self.expect(s.cond, BOOL, ctx)
                self.loop_body(s.body, ctx)
            case A.For():
                self.for_stmt(s, ctx)
            case A.Repeat():
                self.expect(s.count, INT, ctx)
                self.c.hidden[id(s)] = self.c.new_hidden()
                self.loop_body(s.body, ctx)
            case A.React():
                self.react(s, ctx)
            case A.Pass():
                self.pass_stmt(s, ctx)
            case A.Break() | A.Continue():
                if not ctx.loops:
                    in_proc = ctx.owner if ctx.owner in self.c.names else ""
                    word = "break" if isinstance(s, A.Break) else "continue"
                    self.c.report(errors.jump_outside_loop(word, s.span, in_proc, ctx.reacting))
            case A.Choose():
                self.choose(s, ctx)
            case A.Roll():
                self.roll(s, ctx)
            case A.ShuffleLet():
                t = self.iterable(s.source, ctx)
                self.bind(s, s.var, s.span, list_of(t), ctx)
                self.log_texts(s, ctx)
            case A.Pick():
                t = self.iterable(s.source, ctx)
                self.bind(s, s.var, s.span, t, ctx)
                self.log_texts(s, ctx)
            case A.Generate():
                self.generate(s, ctx)
            case A.ShuffleZone():
                self.zone_named(s.zone, s.span, per_player=False)
                self.log_texts(s, ctx)
            case A.Deal():
                self.deal(s, ctx)
            case A.MoveItem():
                self.move(s, ctx)
            case A.AddItems():
                self.add_items(s, ctx)
            case A.Place() | A.Clear() | A.Reveal():
                self.tile_stmt(s, ctx)
            case A.Do():
                self.do(s, ctx)
            case A.RevealTo():
                self.reveal_to(s, ctx)
            case A.Say():
                self.say(s, ctx)
            case A.Outcome():
                self.outcome(s, ctx)
            case A.Return():
                self.return_stmt(s, ctx)
            case _:
                assert_never(s)

    def let(self, s: A.Let, ctx: Ctx) -> None:
        if s.type is not None:
            want = resolve_type(self.c, s.type)
            self.expect(s.value, want, ctx)
            self.bind(s, s.name, s.span, want, ctx)
        else:
            self.bind(s, s.name, s.span, self.expr(s.value, ctx), ctx)

    def if_stmt(self, s: A.If, ctx: Ctx) -> None:
        for cond, body in s.branches:
            self.expect(cond, BOOL, ctx)
            self.block(body, ctx)
        self.block(s.otherwise, ctx)

    def for_stmt(self, s: A.For, ctx: Ctx) -> None:
        c = self.c
        t = self.iterable(s.source, ctx)
        ctx.scopes.append({})
        self.bind(s, s.var, s.span, t, ctx)
        c.hidden[id(s)] = c.new_hidden()
        c.new_hidden()  # the index lives in the slot after the sequence
        if s.where is not None:
            self.expect(s.where, BOOL, ctx)
        ctx.loops += 1
        for b in s.body:
            self.stmt(b, ctx)
        ctx.loops -= 1
        ctx.scopes.pop()

    def loop_body(self, body: tuple[A.Stmt, ...], ctx: Ctx) -> None:
        """The body of a `while` or `repeat`: `break` and `continue` are allowed."""
        ctx.loops += 1
        self.block(body, ctx)
        ctx.loops -= 1

    def react(self, s: A.React, ctx: Ctx) -> None:
        c = self.c
        self.expect(s.first, PLAYER, ctx)
        # the seat asked, the passes in a row, the reacting player of an outer round
        c.hidden[id(s)] = c.new_hidden()
        c.new_hidden()
        c.new_hidden()
        ctx.scopes.append({})
        self.bind(s, s.var, s.span, PLAYER, ctx)
        # a `break` in the body cannot leave a loop around the round: the round would
        # be left half asked
        ctx.reacting += 1
        loops, ctx.loops = ctx.loops, 0
        self.block(s.body, ctx)
        ctx.reacting -= 1
        ctx.loops = loops
        ctx.scopes.pop()

    def pass_stmt(self, s: A.Pass, ctx: Ctx) -> None:
        if not ctx.reacting:
            in_proc = ctx.owner if ctx.owner in self.c.names else ""
            self.c.report(errors.pass_outside_reaction(s.span, in_proc))

    def roll(self, s: A.Roll, ctx: Ctx) -> None:
        c = self.c
        die = c.names.get(s.die)
        if not (isinstance(die, ValueSym) and die.what == "die"):
            dice = [n for n, v in c.names.items() if isinstance(v, ValueSym) and v.what == "die"]
            c.unknown("die", s.die, s.span, dice)
            self.bind(s, s.var, s.span, ANY, ctx)
            return
        c.refs[id(s)] = die
        self.need(die, ctx)
        self.bind(s, s.var, s.span, die.type.elem or ANY, ctx)
        self.log_texts(s, ctx)

    def deal(self, s: A.Deal, ctx: Ctx) -> None:
        self.expect(s.count, INT, ctx)
        src = self.zone_named(s.source, s.span, per_player=False)
        dst = self.zone_named(s.dest, s.span, per_player=True)
        if src and dst and src.kind != dst.kind:
            self.c.report(errors.deal_between_kinds(src.kind, dst.kind, s.span))

    def say(self, s: A.Say, ctx: Ctx) -> None:
        self.expr(s.message, ctx)
        if s.to is not None:
            t = self.expr(s.to, ctx)
            if not (compatible(PLAYER, t) or compatible(list_of(PLAYER), t)):
                self.c.report(errors.needs_players("'say ... to'", t, s.to.span))

    def outcome(self, s: A.Outcome, ctx: Ctx) -> None:
        t = self.expr(s.players, ctx)
        if not (compatible(PLAYER, t) or compatible(list_of(PLAYER), t)):
            self.c.report(errors.needs_players(f"'{s.kind}'", t, s.players.span))
        if ctx.owner != "<end>":
            self.c.report(errors.outcome_outside_end_rule(s.kind, s.span))

    def return_stmt(self, s: A.Return, ctx: Ctx) -> None:
        t = self.expr(s.value, ctx)
        if ctx.block_def is None:
            self.c.report(errors.return_outside_def(s.span))
            return
        if ctx.returns is None:
            ctx.returns = t
            return
        joined = join(ctx.returns, t)
        if joined == ANY and ANY not in (ctx.returns, t):
            self.c.report(errors.returns_differ(ctx.block_def.name, ctx.returns, t, s.value.span))
            return
        ctx.returns = joined

    def set_stmt(self, s: A.Set, ctx: Ctx) -> None:
        c = self.c
        want = self.set_target(s, ctx)
        if want is None:  # the target is wrong; that error says it all
            self.expr(s.value, ctx)
            return
        value = self.typed(s.value, want, ctx)
        root = s.target
        while isinstance(root, A.Index):
            root = root.obj
        if ctx.block_def is not None and not isinstance(c.refs.get(id(root)), LocalSym):
            c.report(errors.def_changes_game(root_text(root), ctx.block_def.name, s.target.span))
            return
        if s.op != "=" and not compatible(INT, want):
            c.report(errors.arithmetic_assign(s.op, want, s.span))
        elif not compatible(want, value):
            hint = self.enum_hint(want, value, s.value)
            c.report(errors.cannot_assign(value, want, s.value.span, hint))
        elif s.op == "=":
            self.node_in_board(s.value, want)

    def set_target(self, s: A.Set, ctx: Ctx) -> T | None:
        """The type of what `set` changes; None (reported) when it cannot change."""
        c = self.c
        target = s.target
        if isinstance(target, A.Index):
            return self.item_target(target, ctx)
        if isinstance(target, A.Name):
            local = ctx.lookup(target.id)
            sym: Sym | None = local or c.names.get(target.id)
            if local is not None:
                c.refs[id(target)] = local
                return local.type
            if isinstance(sym, AttrSym) and sym.owner == "global":
                c.refs[id(target)] = sym
                return sym.type
            if sym is None:
                c.unknown("variable", target.id, target.span, self._visible(ctx))
            else:
                c.report(errors.cannot_change(target.id, describe(sym), target.span))
            return None
        before = len(c.errors)
        want = self.expr(target, ctx)
        if len(c.errors) > before:
            return None
        if not isinstance(c.refs.get(id(target)), AttrSym):
            c.report(errors.only_attributes_change(target.span))
            return None
        return want

    def item_target(self, target: A.Index, ctx: Ctx) -> T | None:
        """The type of an item of a list that `set xs[i] = v` changes: xs[i][j], p.xs[i].
        The list must be a local, a global or an attribute (None after an error)."""
        c = self.c
        before = len(c.errors)
        want = self.expr(target, ctx)  # the names, the indexes, lists all the way down
        if len(c.errors) > before:
            return None
        levels: list[A.Index] = []
        root: A.Expr = target
        while isinstance(root, A.Index):
            levels.append(root)
            root = root.obj
        sym = c.refs.get(id(root))
        if isinstance(root, A.Name) and isinstance(sym, ValueSym) and sym.what == "table":
            c.report(errors.fixed_value_changed(f"table '{root.id}'", target.span))
            return None
        if (
            isinstance(root, A.Attr)
            and c.types.get(id(root.obj), ANY).name == "board"
            and not isinstance(sym, BoardAttrSym)
        ):
            board = c.types[id(root.obj)].arg
            what = f"board attribute '{root.name}' of '{board}'"
            c.report(errors.fixed_value_changed(what, target.span))
            return None
        if isinstance(root, A.Name) and not (
            isinstance(sym, LocalSym) or isinstance(sym, AttrSym) and sym.owner == "global"
        ):
            c.report(errors.cannot_change(root.id, describe(sym) if sym else "name", root.span))
            return None
        if isinstance(root, A.Attr) and not isinstance(sym, AttrSym):
            c.report(errors.only_attributes_change(root.span))
            return None
        if not isinstance(root, A.Name | A.Attr):
            c.report(errors.only_attributes_change(root.span))
            return None
        for level in levels:
            t = c.types.get(id(level.obj), ANY)
            if t.name == "table":  # a local holding a table
                what = f"table '{root_text(level.obj)}'"
                c.report(errors.fixed_value_changed(what, target.span))
                return None
        return want

    def log_texts(
        self, s: A.Choose | A.Roll | A.Pick | A.ShuffleLet | A.ShuffleZone, ctx: Ctx
    ) -> None:
        """The `log` texts of a choice or chance event, read where the value is known,
        and who sees a secret one (`secret to`: a player or a list of players)."""
        for text in (s.log, s.log_hidden):
            if text is not None:
                self.expr(text, ctx)
        to = getattr(s, "secret_to", None)
        if to is not None:
            t = self.expr(to, ctx)
            if not (compatible(PLAYER, t) or compatible(list_of(PLAYER), t)):
                self.c.report(errors.needs_players("'secret to'", t, to.span))

    def generate(self, s: A.Generate, ctx: Ctx) -> None:
        """`generate ...`: its board must be a grid; COND reads the side or cell drawn;
        the `log` text is shown before the results exist, so it cannot read them."""
        c = self.c
        sym = c.names.get(s.board)
        board = (
            sym.decl if isinstance(sym, ValueSym) and isinstance(sym.decl, A.BoardDecl) else None
        )
        if board is None:
            boards = [
                n for n, v in c.names.items() if isinstance(v, ValueSym) and v.what == "board"
            ]
            c.unknown("board", s.board, s.span, boards)
        elif board.shape != "grid":
            c.report(errors.generate_needs_grid(s.board, f"a {board.shape}", s.span))
        elif open_grid(board):
            c.report(errors.open_grid_listed("generate", s.board, s.span))
        self.expect(s.count, INT, ctx)
        if s.bends is not None:
            self.expect(s.bends, INT, ctx)
        node = T("node", s.board) if board is not None else ANY
        if s.where is not None:
            ctx.scopes.append({})
            item = node if s.what == "cells" else T("side", s.board) if board else ANY
            local = c.new_local(s.var, s.span, item)
            ctx.scopes[-1][s.var] = local
            c.locals_of[id(s.span)] = local  # (a path has no COND: see below)
            self.expect(s.where, BOOL, ctx)
            ctx.scopes.pop()
        if s.log is not None:
            self.expr(s.log, ctx)
        c.hidden[id(s)] = c.new_hidden()  # the seed drawn by its chance event
        if s.what == "path":
            self.bind(s, s.names[0], s.span, list_of(node), ctx)
            local = c.new_local(s.names[1], s.span, list_of(INT))
            ctx.scopes[-1][s.names[1]] = local
            c.locals_of[id(s.span)] = local
        else:
            item = node if s.what == "cells" else T("side", s.board) if board else ANY
            self.bind(s, s.names[0], s.span, list_of(item), ctx)

    def choose(self, s: A.Choose, ctx: Ctx) -> None:
        c = self.c
        t = self.iterable(s.domain, ctx)
        if s.by is not None:
            self.expect(s.by, PLAYER, ctx)
        if s.prompt is not None:
            self.expr(s.prompt, ctx)
        ctx.scopes.append({})
        local = self.bind(s, s.var, s.span, t, ctx)
        for r in s.requires:
            self.expect(r.cond, BOOL, ctx)
            self.expr(r.reason, ctx)
        if s.unfinished is not None:
            self.expr(s.unfinished, ctx)
        self.log_texts(s, ctx)
        ctx.scopes.pop()
        ctx.scopes[-1][s.var] = local
        if isinstance(s.domain, A.ListLit) and not s.domain.items and not s.allow_pass:
            c.report(errors.choice_without_options(s.var, "", s.domain.span))
        if (
            isinstance(s.domain, A.Binary)
            and s.domain.op == ".."
            and isinstance(s.domain.left, A.IntLit)
            and isinstance(s.domain.right, A.IntLit)
            and s.domain.left.value > s.domain.right.value
            and not s.allow_pass
        ):
            empty = f"{s.domain.left.value}..{s.domain.right.value} is empty"
            c.report(errors.choice_without_options(s.var, empty, s.domain.span))
        for r in s.requires:
            if isinstance(r.cond, A.BoolLit) and not r.cond.value and not s.allow_pass:
                why = "this requirement is always false"
                c.report(errors.choice_without_options(s.var, why, r.span))

    def move(self, s: A.MoveItem, ctx: Ctx) -> None:
        item = self.expr(s.item, ctx)
        for ref in (s.source, s.dest):
            zone = self.zone_ref(ref, ctx)
            if zone is None:
                continue
            if not compatible(T("entity", zone.kind), item):
                self.c.report(errors.zone_holds_other(zone.name, zone.kind, item, s.item.span))

    def reveal_to(self, s: A.RevealTo, ctx: Ctx) -> None:
        c = self.c
        t = self.expr(s.item, ctx)
        item = t.elem if t.name == "list" and t.elem is not None else t
        places = {z.kind for z in c.zones} | {
            v.decl.tiles
            for v in c.names.values()
            if isinstance(v, ValueSym) and isinstance(v.decl, A.BoardDecl) and v.decl.tiles
        }
        if item.name != "any" and not (item.name == "entity" and item.arg in places):
            c.report(errors.reveal_needs_item(t, sorted(places), s.item.span))
        audience = self.expr(s.to, ctx)
        if not (compatible(PLAYER, audience) or compatible(list_of(PLAYER), audience)):
            c.report(errors.needs_players("'reveal ... to'", audience, s.to.span))

    def tiled_board(self, name: str, span: Span) -> A.BoardDecl | None:
        sym = self.c.names.get(name)
        if not (isinstance(sym, ValueSym) and isinstance(sym.decl, A.BoardDecl)):
            boards = [
                n for n, v in self.c.names.items() if isinstance(v, ValueSym) and v.what == "board"
            ]
            self.c.unknown("board", name, span, boards)
            return None
        if not sym.decl.tiles:
            self.c.report(errors.board_without_tiles(name, span, declare=True))
            return None
        return sym.decl

    def tile_stmt(self, s: A.Place | A.Clear | A.Reveal, ctx: Ctx) -> None:
        board = self.tiled_board(s.board, s.span)
        node = T("node", s.board)
        self.expect(s.at, node, ctx)
        if isinstance(s, A.Place | A.Reveal) and s.turn is not None:
            self.expect(s.turn, INT, ctx)
        if isinstance(s, A.Place):
            want = T("entity", board.tiles) if board else ANY
            self.expect(s.tile, want, ctx)

    def add_items(self, s: A.AddItems, ctx: Ctx) -> None:
        t = self.expr(s.items, ctx)
        zone = self.zone_ref(s.dest, ctx)
        if zone is None:
            return
        item = t.elem if t.name == "list" and t.elem is not None else t
        if not compatible(T("entity", zone.kind), item):
            self.c.report(errors.zone_holds_other(zone.name, zone.kind, item, s.items.span))

    def zone_ref(self, ref: A.ZoneRef, ctx: Ctx) -> ZoneSym | None:
        zone = self.zone_named(ref.zone, ref.span, per_player=None)
        if zone is None:
            return None
        if zone.per_player and ref.owner is None:
            self.c.report(errors.zone_needs_owner(zone.name, ref.span))
        if ref.owner is not None:
            self.expect(ref.owner, PLAYER, ctx)
            if not zone.per_player:
                self.c.report(errors.zone_not_per_player(zone.name, ref.span))
        return zone

    def zone_named(self, name: str, span: Span, per_player: bool | None) -> ZoneSym | None:
        sym = self.c.names.get(name)
        if not isinstance(sym, ZoneSym):
            self.c.unknown("zone", name, span, [z.name for z in self.c.zones])
            return None
        if per_player is not None and sym.per_player != per_player:
            self.c.report(errors.zone_of_wrong_sort(name, per_player, span))
        return sym

    def do(self, s: A.Do, ctx: Ctx) -> None:
        c = self.c
        if s.proc == "base":  # the loader links `do base` in an override to its base
            named_base = isinstance(c.names.get("base"), ProcSym)
            where = ctx.context
            owner = c.names.get(ctx.owner)
            if isinstance(owner, ProcSym):
                base_of = owner.decl.base_of  # a base's block, kept for an override
                where = f"proc {base_of or owner.name}" if base_of != "setup" else "setup"
            elif where == "phase main":
                where = "the turn"
            c.report(errors.base_outside_override(where, named_base, s.span))
            for a in s.args:
                self.expr(a, ctx)
            return
        sym = c.names.get(s.proc)
        if not isinstance(sym, ProcSym):
            procs = [n for n, v in c.names.items() if isinstance(v, ProcSym)]
            c.unknown("proc", s.proc, s.span, procs)
            for a in s.args:
                self.expr(a, ctx)
            return
        c.refs[id(s)] = sym
        c.calls.setdefault(ctx.owner, set()).add(sym.name)
        self.args(s.proc, sym.params, s.args, s.span, ctx)


# The statements a def's block may use: they compute, and change only its own locals.
DEF_STATEMENTS = (
    A.Let,
    A.Set,
    A.If,
    A.While,
    A.For,
    A.Repeat,
    A.Return,
    A.Break,
    A.Continue,
)
KEYWORDS = {
    A.Choose: "choose",
    A.Roll: "roll",
    A.ShuffleLet: "shuffle",
    A.ShuffleZone: "shuffle",
    A.Pick: "pick",
    A.Generate: "generate",
    A.Deal: "deal",
    A.MoveItem: "move",
    A.AddItems: "add",
    A.Place: "place",
    A.Clear: "clear",
    A.Reveal: "reveal",
    A.RevealTo: "reveal",
    A.Do: "do",
    A.Say: "say",
}


def keyword(s: A.Stmt) -> str:
    """The word a statement starts with, for messages."""
    if isinstance(s, A.Outcome):
        return s.kind
    return KEYWORDS.get(type(s), type(s).__name__.lower())


def root_text(e: A.Expr) -> str:
    """A short text for the attribute or name a `set` target starts from: `p.score`."""
    if isinstance(e, A.Attr):
        return f"{root_text(e.obj)}.{e.name}"
    if isinstance(e, A.Name):
        return e.id
    if isinstance(e, A.Call):
        return f"{e.func}(...)"
    if isinstance(e, A.Index):
        return f"{root_text(e.obj)}[...]"
    return "..."


def always_returns(stmts: tuple[A.Stmt, ...]) -> bool:
    """Does every way through these statements end in `return`? A loop may run no
    round, so only `return` itself and an `if` whose every branch returns count."""
    for s in stmts:
        if isinstance(s, A.Return):
            return True
        if (
            isinstance(s, A.If)
            and s.otherwise
            and all(always_returns(body) for _c, body in s.branches)
            and always_returns(s.otherwise)
        ):
            return True
    return False


def choices(c: Checker) -> list[A.Choose]:
    """Every `choose` statement of the file (setup, phases, procs, base blocks)."""
    found: dict[int, A.Choose] = {}
    stack: list[object] = [*c.decls, *(s.decl for s in c.names.values() if isinstance(s, ProcSym))]
    while stack:
        node = stack.pop()
        if isinstance(node, tuple | list):
            stack.extend(node)
        elif isinstance(node, A.Choose):
            found[id(node)] = node
            stack.extend(node.requires)
        elif hasattr(node, "__dataclass_fields__") and not isinstance(node, A.Expr):
            stack.extend(getattr(node, f) for f in node.__dataclass_fields__)
    return [s for s in found.values() if id(s) in c.locals_of]


def run(c: Checker) -> None:
    Resolver(c).run()
