"""Pass 2, expressions: the type of every expression, and what each name means."""

from __future__ import annotations

from typing import assert_never, cast

from rulelang import errors
from rulelang.check.builtins import BUILTINS, check_call
from rulelang.check.context import Checker
from rulelang.check.scope import (
    BOARD_FUNCS,
    BUILTIN_VALUES,
    NODE_ARGS,
    STATE_BUILTINS,
    TILE_FUNCS,
    Ctx,
    describe,
    open_grid,
)
from rulelang.check.symbols import (
    AttrSym,
    BoardAttrSym,
    BuiltinSym,
    DefSym,
    EnumSym,
    KindSym,
    LocalSym,
    ValueSym,
    ZoneSym,
)
from rulelang.check.types import (
    ANY,
    BOOL,
    INT,
    NONE,
    PLAYER,
    TEXT,
    T,
    compatible,
    join,
    list_of,
)
from rulelang.diagnostics import Span
from rulelang.syntax import ast as A


class ExprChecker:
    """Types of expressions. Resolver (resolve.py) adds declarations and statements."""

    def __init__(self, c: Checker):
        self.c = c
        self.defs_started: set[str] = set()

    def def_body(self, sym: DefSym) -> None:  # pragma: no cover - defined by Resolver
        raise NotImplementedError

    def expect(self, e: A.Expr, want: T, ctx: Ctx) -> T:
        got = self.typed(e, want, ctx)
        if not compatible(want, got):
            self.c.report(errors.type_mismatch(want, got, e.span, self.enum_hint(want, got, e)))
        else:
            self.node_in_board(e, want)
        return got

    # ------------------------------------------------------------ enums
    def typed(self, e: A.Expr, want: T, ctx: Ctx) -> T:
        """The type of e where a value of type `want` is expected. There, a bare name
        that is a value of the enum expected means that value (`c.kind == path`),
        unless a local, global, param or const is called so."""
        if want.name == "enum" and isinstance(e, A.Name):
            found = self.bare_value(e, want, ctx)
            if found is not None:
                self.c.types[id(e)] = found
                return found
        elif (
            isinstance(e, A.ListLit)
            and want.name == "list"
            and want.elem is not None
            and want.elem.name == "enum"
        ):
            t = self.list_lit(e, ctx, want.elem)
            self.c.types[id(e)] = t
            return t
        return self.expr(e, ctx)

    def holder(self, e: A.Name, ctx: Ctx) -> object:
        """What a name means as a value, before enums are thought of: a local, a
        global, a fixed value, a zone, a built-in value, a def, a kind..., or None."""
        local = ctx.lookup(e.id)
        if local is not None:
            return local
        return self.c.names.get(e.id) or BUILTIN_VALUES.get(e.id) or self.c.kinds_by_name.get(e.id)

    def may_be_bare(self, e: A.Expr, ctx: Ctx) -> bool:
        """Could e be a bare enum value: a name that does not hold an enum value already
        (a local, global or fixed value of an enum type, or an enum's name)?"""
        if not isinstance(e, A.Name):
            return False
        sym = self.holder(e, ctx)
        if isinstance(sym, EnumSym):
            return False
        if isinstance(sym, LocalSym | ValueSym | AttrSym | BuiltinSym):
            return sym.type.name not in ("enum", "any")  # any: a value not typed yet
        return True  # nothing, or a def, proc, kind or zone: no enum value

    def bare_value(self, e: A.Name, want: T, ctx: Ctx) -> T | None:
        """The enum type of a bare name that is a value of the enum `want`; None when
        the name means something else. A name holding a value of that enum (a local, a
        global...) keeps its meaning; any other name (a zone called `discard`, a def
        called `start`) gives way to the enum's value, the only one that fits."""
        enum = self.c.enums.get(want.arg)
        if enum is None or not self.may_be_bare(e, ctx):
            return None
        if e.id in enum.values:
            self.c.refs[id(e)] = enum.member(e.id)
            return want
        if self.holder(e, ctx) is not None:
            return None  # an ordinary name, checked as such
        self.c.unknown(f"value of {enum.name}", e.id, e.span, list(enum.values))
        return ANY

    def enum_hint(self, a: T, b: T, e: A.Expr | None = None) -> str:
        """How to write a value of an enum that was written as a text (e: the text)."""
        if a.name == "list" and b.name == "list" and a.elem is not None and b.elem is not None:
            a, b = a.elem, b.elem
        if b.name == "enum" and a == TEXT:
            a, b = b, a
        enum = self.c.enums.get(a.arg) if a.name == "enum" else None
        if enum is None:
            return ""
        if isinstance(e, A.Name) and e.id in enum.values:
            what = describe(self.c.refs[id(e)]) if id(e) in self.c.refs else "another name"
            return f"'{e.id}' here is a {what}; the value of {enum.name} is {enum.name}.{e.id}"
        if b != TEXT:
            return ""
        texts = [e] if isinstance(e, A.TextLit) else []
        if isinstance(e, A.ListLit):
            texts = [x for x in e.items if isinstance(x, A.TextLit)]
        words = [x.parts[0] for x in texts if len(x.parts) == 1 and isinstance(x.parts[0], str)]
        if words and all(w in enum.values for w in words):
            shown = ", ".join(f"{enum.name}.{w}" for w in words)
            return f"values of the enum {enum.name} are written without quotes: {shown}"
        return f"{enum.name} is an enum; its values are {', '.join(enum.values)}"

    def enum_value(self, e: A.Attr, ctx: Ctx) -> T | None:
        """`E.value` of an enum E; None when e is not one."""
        if not isinstance(e.obj, A.Name) or ctx.lookup(e.obj.id) is not None:
            return None
        enum = self.c.names.get(e.obj.id)
        if not isinstance(enum, EnumSym):
            return None
        self.c.refs[id(e.obj)] = enum
        self.c.types[id(e.obj)] = list_of(enum.type)
        if e.name not in enum.values:
            self.c.unknown(f"value of {enum.name}", e.name, e.span, list(enum.values))
            return ANY
        self.c.refs[id(e)] = enum.member(e.name)
        return enum.type

    # ------------------------------------------------------------ values known statically
    def fixed(self, e: A.Expr) -> A.Expr:
        """The expression a const stands for (followed through consts), else e."""
        for _ in range(100):  # a const defined in terms of itself is E106
            sym = self.c.refs.get(id(e)) if isinstance(e, A.Name) else None
            if not (isinstance(sym, ValueSym) and isinstance(sym.decl, A.ConstDecl)):
                break
            e = sym.decl.value
        return e

    def constant(self, e: A.Expr) -> int | None:
        """The number e always is, if the rule file says it: a literal or a const."""
        e = self.fixed(e)
        if isinstance(e, A.IntLit):
            return e.value
        if isinstance(e, A.Unary) and e.op == "-":
            inner = self.constant(e.operand)
            return None if inner is None else -inner
        return None

    def board_size(self, name: str) -> int | None:
        """How many nodes board `name` has, if its declaration fixes it (not a param)."""
        sym = self.c.names.get(name)
        if not (isinstance(sym, ValueSym) and isinstance(sym.decl, A.BoardDecl)):
            return None
        d = sym.decl
        if d.shape == "grid":
            bounds = [self.constant(a) for a in d.args]
            if len(bounds) != 4 or any(b is None for b in bounds):
                return None
            x0, x1, y0, y1 = cast(list[int], bounds)
            return (x1 - x0 + 1) * (y1 - y0 + 1) if x1 >= x0 and y1 >= y0 else None
        if len(d.args) != 1:
            return None
        arg = self.fixed(d.args[0])
        if isinstance(arg, A.ListLit):
            return len(arg.items) or None
        size = self.constant(arg)
        return size if size is not None and size > 0 else None

    def node_in_board(self, e: A.Expr, want: T) -> None:
        """E242: a number the rule file fixes, used as a node of a board (or in a list of
        them), that is not one of the board's nodes."""
        if want.name == "list" and want.elem is not None and isinstance(e, A.ListLit):
            for item in e.items:
                self.node_in_board(item, want.elem)
            return
        if isinstance(e, A.Cond):
            self.node_in_board(e.then, want)
            self.node_in_board(e.otherwise, want)
            return
        if want.name != "node":
            return
        n = self.constant(e)
        size = self.board_size(want.arg) if n is not None else None
        if n is not None and size is not None and not 0 <= n < size:
            self.c.report(errors.node_outside_board(n, want.arg, size, e.span))

    def iterable(self, e: A.Expr, ctx: Ctx) -> T:
        t = self.expr(e, ctx)
        if t.name == "zone":
            return t.elem or ANY
        if t.name != "list" and t != ANY:
            self.c.report(errors.not_a_list(t, e.span))
            return ANY
        return t.elem or ANY

    def expr(self, e: A.Expr, ctx: Ctx) -> T:
        t = self._expr(e, ctx)
        self.c.types[id(e)] = t
        return t

    def _expr(self, e: A.Expr, ctx: Ctx) -> T:
        return self.expression(cast(A.AnyExpr, e), ctx)  # every Expr is one of A.AnyExpr

    def expression(self, e: A.AnyExpr, ctx: Ctx) -> T:
        """The type of one expression: one method per kind; a kind missing here is a
        type error (assert_never)."""
        match e:
            case A.IntLit():
                return INT
            case A.BoolLit():
                return BOOL
            case A.NoneLit():
                return NONE
            case A.TextLit():
                return self.text(e, ctx)
            case A.Name():
                return self.name(e, ctx)
            case A.ListLit():
                return self.list_lit(e, ctx, None)
            case A.Unary():
                return self.expect(e.operand, BOOL if e.op == "not" else INT, ctx)
            case A.Binary():
                return self.binary(e, ctx)
            case A.Attr():
                return self.attr_expr(e, ctx)
            case A.Index():
                return self.index(e, ctx)
            case A.Call():
                return self.call(e, ctx)
            case A.Comp():
                return self.comp(e, ctx)
            case A.Cond():
                return self.cond(e, ctx)
            case _:
                assert_never(e)

    def text(self, e: A.TextLit, ctx: Ctx) -> T:
        """A text: the expressions written inside it are checked (any type shows)."""
        for part in e.parts:
            if not isinstance(part, str):
                self.expr(part, ctx)
        return TEXT

    def cond(self, e: A.Cond, ctx: Ctx) -> T:
        """`if c then a else b`: c is a condition; the value has the type of both."""
        self.expect(e.cond, BOOL, ctx)
        then = self.expr(e.then, ctx)
        otherwise = self.expr(e.otherwise, ctx)
        t = join(then, otherwise)
        if t == ANY and ANY not in (then, otherwise):
            self.c.report(errors.branches_differ(then, otherwise, e.span))
        return t

    def list_lit(self, e: A.ListLit, ctx: Ctx, elem: T | None) -> T:
        """A list written out; elem: the type of item expected, if known."""
        seen: T | None = None  # the items' type so far (E243 when they do not mix)
        for item in e.items:
            t = self.expr(item, ctx) if elem is None else self.typed(item, elem, ctx)
            if seen is not None and join(seen, t) == ANY and ANY not in (seen, t):
                self.c.report(errors.mixed_list(seen, t, item.span))
                return list_of(ANY)
            seen = t if seen is None else join(seen, t)
        return list_of(NONE if seen is None else seen)

    def name(self, e: A.Name, ctx: Ctx) -> T:
        c = self.c
        local = ctx.lookup(e.id)
        if local is not None:
            c.refs[id(e)] = local
            return local.type
        sym = c.names.get(e.id) or BUILTIN_VALUES.get(e.id)
        if sym is None and e.id in c.kinds_by_name:
            c.refs[id(e)] = c.kinds_by_name[e.id]
            return T("kind", e.id)
        if sym is None:
            c.unknown("name", e.id, e.span, self._visible(ctx))
            return ANY
        c.refs[id(e)] = sym
        if isinstance(sym, ValueSym):
            self.need(sym, ctx)
            return sym.type
        if isinstance(sym, BuiltinSym):
            if sym.name == "index" and ctx.kind is None:
                c.report(errors.index_outside_defaults(e.span))
            if ctx.static and sym.name in STATE_BUILTINS:
                c.report(errors.fixed_depends_on_game(ctx.context, e.id, False, e.span))
            return sym.type
        if isinstance(sym, ZoneSym) and sym.per_player and not ctx.indexing:
            c.report(errors.zone_needs_owner(e.id, e.span))
            return ANY
        if isinstance(sym, AttrSym | ZoneSym):
            if ctx.static:
                c.report(errors.fixed_depends_on_game(ctx.context, e.id, True, e.span))
            return sym.type
        if isinstance(sym, EnumSym):  # every value of the enum, in order
            return list_of(sym.type)
        enums = [en.name for en in c.enums.values() if e.id in en.values]
        c.report(errors.not_a_value(e.id, describe(sym), e.span, enums))
        return ANY

    def need(self, sym: ValueSym, ctx: Ctx) -> None:
        if ctx.value is not None:
            ctx.value.deps.add(sym)

    def _visible(self, ctx: Ctx) -> list[str]:
        names = set(self.c.names) | set(BUILTIN_VALUES) | set(self.c.kinds_by_name)
        for scope in ctx.scopes:
            names |= set(scope)
        return sorted(names)

    def binary(self, e: A.Binary, ctx: Ctx) -> T:
        c = self.c
        op = e.op
        if op in ("and", "or"):
            self.expect(e.left, BOOL, ctx)
            self.expect(e.right, BOOL, ctx)
            return BOOL
        if op in ("+", "-", "*", "/", "%", ".."):
            left = self.expr(e.left, ctx)
            right = self.expr(e.right, ctx)
        elif op in ("in", "notin"):
            if self.may_be_bare(e.left, ctx):  # `gold in found`: a bare enum value
                right = self.expr(e.right, ctx)
                item = right.elem if right.name in ("list", "zone") and right.elem else ANY
                left = self.typed(e.left, item, ctx)
            else:
                left = self.expr(e.left, ctx)
                right = self.typed(e.right, list_of(left), ctx)
        elif self.may_be_bare(e.left, ctx) and not self.may_be_bare(e.right, ctx):
            right = self.expr(e.right, ctx)  # `path == c.kind`
            left = self.typed(e.left, right, ctx)
        else:
            left = self.expr(e.left, ctx)
            right = self.typed(e.right, left, ctx)
        if op in ("+", "-", "*", "/", "%"):
            if op == "+" and left.name == "list" and right.name == "list":
                return list_of(join(left.elem or ANY, right.elem or ANY))
            if op == "+" and TEXT in (left, right):
                return TEXT
            for side, t in ((e.left, left), (e.right, right)):
                if not compatible(INT, t):
                    c.report(errors.needs_numbers(op, t, side.span))
            return INT
        if op == "..":
            for side, t in ((e.left, left), (e.right, right)):
                if not compatible(INT, t):
                    c.report(errors.range_needs_numbers(t, side.span))
            return list_of(INT)
        if op in ("in", "notin"):
            elem = right.elem if right.name in ("list", "zone") else None
            if elem is None and right != ANY:
                c.report(errors.in_needs_list(right, e.right.span))
            elif elem is not None and not (compatible(elem, left) or compatible(left, elem)):
                hint = self.enum_hint(left, elem, e.right if left.name == "enum" else e.left)
                c.report(errors.never_in(left, elem, e.span, hint))
            return BOOL
        if not (compatible(left, right) or compatible(right, left)):
            text = e.right if left.name == "enum" else e.left
            c.report(errors.cannot_compare(left, right, e.span, self.enum_hint(left, right, text)))
        elif op in ("<", "<=", ">", ">=") and not compatible(INT, left):
            c.report(errors.order_needs_numbers(op, left, e.span))
        return BOOL

    def attr_expr(self, e: A.Attr, ctx: Ctx) -> T:
        c = self.c
        value = self.enum_value(e, ctx)
        if value is not None:
            return value
        obj = self.expr(e.obj, ctx)
        attrs: dict[str, AttrSym] = {}
        if obj == PLAYER:
            attrs = c.player_attrs
            if e.name in ("name", "seat"):
                return TEXT if e.name == "name" else INT
        elif obj.name == "entity":
            kind = c.kinds_by_name.get(obj.arg)
            attrs = kind.attrs if kind else {}
            if e.name == "index":
                return INT
        elif obj.name == "board":
            board = c.names[obj.arg]
            assert isinstance(board, ValueSym) and isinstance(board.decl, A.BoardDecl)
            state = c.board_attrs.get(obj.arg, {}).get(e.name)
            if isinstance(state, BoardAttrSym):
                return self.board_state(e, state, ctx)
            for n, v in board.decl.attrs:
                if n == e.name:
                    return c.types.get(id(v), ANY)
            if board.decl.shape == "grid" and e.name in ("x", "y"):
                return list_of(INT)
            names = [n for n, _ in board.decl.attrs] + list(c.board_attrs.get(obj.arg, {}))
            c.unknown(f"attribute of board {obj.arg}", e.name, e.span, names)
            return ANY
        elif obj == ANY:
            return ANY
        elif obj == NONE:
            c.report(errors.attribute_of_unknown_type(e.name, e.span))
            return ANY
        else:
            c.report(errors.no_attributes(obj, e.span))
            return ANY
        sym = attrs.get(e.name)
        if sym is None:
            c.unknown(f"attribute of {obj}", e.name, e.span, list(attrs))
            return ANY
        if ctx.static:
            c.report(errors.fixed_depends_on_game(ctx.context, e.name, True, e.span))
        c.refs[id(e)] = sym
        return sym.type

    def board_state(self, e: A.Attr, sym: BoardAttrSym, ctx: Ctx) -> T:
        """`b.NAME` of a state (a list by node) or edge attribute (a value per side):
        only ever indexed (E251), never fixed (E107)."""
        c = self.c
        if ctx.static:
            c.report(errors.fixed_depends_on_game(ctx.context, e.name, True, e.span))
        if id(e) not in c.indexed:
            c.report(errors.board_state_whole(sym.name, sym.board, sym.edge, e.span))
        c.refs[id(e)] = sym
        return T("sides", sym.board, sym.type) if sym.edge else list_of(sym.type)

    def index(self, e: A.Index, ctx: Ctx) -> T:
        c = self.c
        c.indexed.add(id(e.obj))
        ctx.indexing = True
        try:
            obj = self.expr(e.obj, ctx)
        finally:
            ctx.indexing = False
        if e.pair and obj.name != "sides":
            for a in e.index.args if isinstance(e.index, A.Call) else ():
                self.expr(a, ctx)
            if obj != ANY:
                c.report(errors.two_indexes(str(obj), e.span))
            return ANY
        idx = self.expr(e.index, ctx)
        if obj.name == "sides":
            assert obj.elem is not None
            if idx != T("side", obj.arg) and idx != ANY:
                sym = c.refs.get(id(e.obj))
                name = sym.name if sym is not None else "?"
                c.report(errors.not_a_side(name, obj.arg, idx, e.index.span))
            return obj.elem
        if obj.name == "list":
            if not compatible(INT, idx):
                c.report(errors.list_index_not_number(idx, e.index.span))
            return obj.elem or ANY
        if obj.name == "table":
            target = c.refs.get(id(e.obj))
            if isinstance(e.index, A.Name) and e.index.id == "player_count" and target:
                c.by_players.append((target, e.span))
            if not compatible(INT, idx):
                c.report(errors.table_key_not_number(idx, e.index.span))
            return obj.elem or ANY
        if obj.name == "zone":
            if idx != PLAYER and idx != ANY:
                c.report(errors.zone_index_not_player(idx, e.index.span))
            return list_of(obj.elem or ANY)
        if obj != ANY:
            c.report(errors.cannot_index(obj, e.span))
        return ANY

    def call(self, e: A.Call, ctx: Ctx) -> T:
        c = self.c
        sym = c.names.get(e.func)
        if isinstance(sym, DefSym):
            c.refs[id(e)] = sym
            c.calls.setdefault(ctx.owner, set()).add(sym.name)
            self.def_body(sym)
            self.args(e.func, sym.params, e.args, e.span, ctx)
            return sym.type if sym.type.name != "any" or sym.params else sym.type
        if e.func not in BUILTINS:
            defs = [n for n, v in c.names.items() if isinstance(v, DefSym)]
            c.unknown("function", e.func, e.span, defs + list(BUILTINS))
            for a in e.args:
                self.expr(a, ctx)
            return ANY
        types = [self.expr(a, ctx) for a in e.args]
        if e.func in NODE_ARGS and e.args and isinstance(e.args[0], A.Name):
            board = c.refs.get(id(e.args[0]))
            if isinstance(board, ValueSym) and board.what == "board":
                for i in NODE_ARGS[e.func]:
                    if i < len(e.args) and compatible(INT, types[i]):
                        self.node_in_board(e.args[i], T("node", board.name))
                if e.func == "path_length" and len(e.args) == 4:  # goals, walls: lists
                    node = T("node", board.name)
                    goal = list_of(node) if types[2].name == "list" else node
                    self.node_in_board(e.args[2], goal)
                    self.node_in_board(e.args[3], list_of(node))
        if e.func in ("nodes", "side") and e.args and isinstance(e.args[0], A.Name):
            board = c.refs.get(id(e.args[0]))
            decl = board.decl if isinstance(board, ValueSym) else None
            if isinstance(decl, A.BoardDecl) and open_grid(decl):
                c.report(errors.open_grid_listed(f"{e.func}()", decl.name, e.span))
        if e.func in BOARD_FUNCS and e.args and isinstance(e.args[0], A.Name):
            target = c.refs.get(id(e.args[0]))
            if isinstance(target, ValueSym) and isinstance(target.decl, A.BoardDecl):
                if e.func in TILE_FUNCS and not target.decl.tiles:
                    c.report(errors.board_without_tiles(target.name, e.args[0].span))
                result = check_call(c, e, types)
                node = T("node", target.name)
                if e.func in ("cell", "neighbour", "side_cell", "across"):
                    return node
                if e.func == "side":
                    return T("side", target.name)
                if e.func in ("reached", "touching", "spots", "placed", "line_from"):
                    return list_of(node)
                if e.func == "lines_through":
                    return list_of(list_of(node))
                if e.func in ("tile", "face_up"):
                    return T("entity", target.decl.tiles) if target.decl.tiles else ANY
                return result
        if e.func in ("pieces", "nodes") and e.args and isinstance(e.args[0], A.Name):
            target = c.refs.get(id(e.args[0]))
            if isinstance(target, KindSym):
                return list_of(T("entity", target.name))
            if isinstance(target, ValueSym) and target.what == "board":
                return list_of(T("node", target.name))
        return check_call(c, e, types)

    def comp(self, e: A.Comp, ctx: Ctx) -> T:
        c = self.c
        t = self.iterable(e.source, ctx)
        ctx.scopes.append({})
        local = c.new_local(e.var, e.span, t)
        ctx.scopes[-1][e.var] = local
        c.locals_of[id(e)] = local
        if e.where is not None:
            self.expect(e.where, BOOL, ctx)
        if e.by is not None:
            self.expect(e.by, INT, ctx)
        elem = self.expr(e.elem, ctx)
        ctx.scopes.pop()
        f = e.func
        if f == "":
            return list_of(elem)
        if f in ("any", "all"):
            if not compatible(BOOL, elem):
                c.report(errors.needs_condition(f, elem, e.elem.span))
            return BOOL
        if f == "count":
            return INT
        if f in ("sum", "max", "min"):
            if not compatible(INT, elem):
                c.report(errors.needs_numbers(f, elem, e.elem.span))
            return INT
        c.report(errors.unknown_comprehension(f, e.span))
        return ANY

    def args(
        self, name: str, params: list[LocalSym], args: tuple[A.Expr, ...], span: Span, ctx: Ctx
    ) -> None:
        if len(args) != len(params):
            n = len(params)
            self.c.report(errors.wrong_arity(name, str(n), n != 1, "", len(args), span))
        for p, a in zip(params, args, strict=False):
            self.expect(a, p.type, ctx)
        for a in args[len(params) :]:
            self.expr(a, ctx)
