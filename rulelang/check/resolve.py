"""Pass 2: resolve every name and check the type of every expression and statement."""

from __future__ import annotations

from dataclasses import dataclass, field

from rulelang.check.builtins import BUILTINS, check_call
from rulelang.check.context import Checker
from rulelang.check.declare import resolve_type
from rulelang.check.symbols import (
    AttrSym,
    BuiltinSym,
    DefSym,
    KindSym,
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
    TEXT,
    T,
    compatible,
    join,
    list_of,
)
from rulelang.diagnostics import NO_SPAN, Span
from rulelang.syntax import ast as A

TILE_FUNCS = {"tile", "turn_of", "open_side", "fits", "joins", "reached", "touching", "spots",
              "placed", "secret_at"}
BOARD_FUNCS = TILE_FUNCS | {"cell", "neighbour"}
BUILTIN_VALUES = {
    "players": BuiltinSym("players", NO_SPAN, list_of(PLAYER)),
    "player_count": BuiltinSym("player_count", NO_SPAN, INT),
    "current": BuiltinSym("current", NO_SPAN, PLAYER),
    "index": BuiltinSym("index", NO_SPAN, INT),
    "turn_number": BuiltinSym("turn_number", NO_SPAN, INT),
    "round_number": BuiltinSym("round_number", NO_SPAN, INT),
}
STATE_BUILTINS = {"current", "turn_number", "round_number"}
PAUSING = (A.Choose, A.Roll, A.ShuffleLet, A.ShuffleZone, A.Pick)


@dataclass
class Ctx:
    static: bool = False  # a value fixed for the whole game: no state may be read
    value: ValueSym | None = None  # the value being defined, to record what it needs
    owner: str = ""  # the proc or def being checked, for the call graph
    kind: KindSym | None = None  # inside a kind's attribute defaults: `index` is known
    pause_ok: bool = True  # choices and chance are allowed here
    context: str = "rule"  # what to call this place in messages
    scopes: list[dict[str, LocalSym]] = field(default_factory=list)
    indexing: bool = False  # the name being checked is indexed: hand[p]

    def lookup(self, name: str) -> LocalSym | None:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return None


class Resolver:
    def __init__(self, c: Checker):
        self.c = c
        self.defs_started: set[str] = set()

    # ------------------------------------------------------------ declarations
    def run(self) -> None:
        c = self.c
        for sym in list(c.names.values()):
            if isinstance(sym, DefSym | ProcSym):
                sym.params = [c.new_local(p.name, p.span, resolve_type(c, p.type))
                              for p in sym.decl.params]
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
                    c.error("E201", f"{k.decl.category} '{k.name}' takes its count from "
                            f"{k.decl.data}; remove 'count'", k.decl.count.span)
            elif k.decl.count is None:
                c.error("E201", f"{k.decl.category} '{k.name}' needs a count: "
                        f"'{k.decl.category} {k.name} count N {{ ... }}', or a data file: "
                        f"'{k.decl.category} {k.name} from \"cards.yaml\" {{ ... }}'", k.span)
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
                self.block(sym.decl.body, Ctx(owner=sym.name, scopes=[
                    {p.name: p for p in sym.params}]))
        self.block(c.setup, Ctx(context="setup"))
        for ph in c.phases:
            d = ph.decl
            self.block(d.begin, Ctx(context=f"phase {ph.name}"))
            self.block(d.turn, Ctx(context=f"phase {ph.name}"))
            if d.order_from is not None:
                self.expect(d.order_from, PLAYER, Ctx())
            if d.end_when is not None:
                self.expect(d.end_when, BOOL, Ctx())
        for end in c.ends:
            self.expect(end.cond, BOOL, Ctx())
            self.block(end.body, Ctx(pause_ok=False, context="an end rule",
                                     owner="<end>"))

    def value_decl(self, sym: ValueSym) -> None:
        d = sym.decl
        ctx = Ctx(static=True, value=sym, context=f"{sym.what} {sym.name}")
        if isinstance(d, A.ParamDecl):
            sym.type = self.expr(d.default, Ctx(static=True, context="a param"))
            if not isinstance(d.default, A.IntLit | A.BoolLit | A.TextLit):
                self.c.error("E201", f"param '{d.name}' needs a plain number, text, true or "
                             "false as its default", d.default.span)
        elif isinstance(d, A.ConstDecl):
            sym.type = self.expr(d.value, ctx)
        elif isinstance(d, A.TableDecl):
            vt: T = NONE
            for _lo, _hi, e in d.entries:
                vt = join(vt, self.expr(e, ctx))
            sym.type = T("table", elem=vt)
        elif isinstance(d, A.DieDecl):
            t = self.expr(d.faces, ctx)
            if t.name != "list":
                self.c.error("E201", f"the faces of die '{d.name}' must be a list, not {t}",
                             d.faces.span)
                t = list_of(ANY)
            sym.type = t
        elif isinstance(d, A.BoardDecl):
            for a in d.args:
                self.expr(a, ctx)
            for _n, e in d.attrs:
                t = self.expr(e, ctx)
                if t.name != "list":
                    self.c.error("E201", f"a board attribute must be a list, one value per "
                                 f"node, not {t}", e.span)
            sym.type = T("board", d.name)
            if d.shape not in ("ring", "line", "grid"):
                self.c.unknown("board shape", d.shape, d.span, ["ring", "line", "grid"])
            if d.tiles:
                self.tile_kind(d)

    def tile_kind(self, d: A.BoardDecl) -> None:
        """Tiles are pieces or cards with `edges: list(bool)` (N, E, S, W), and
        optionally `joined: bool` (false: the open edges do not meet in the middle)."""
        kind = self.c.kinds_by_name.get(d.tiles)
        if kind is None:
            self.c.unknown("piece or card kind", d.tiles, d.span, list(self.c.kinds_by_name))
            return
        edges = next((a for a in kind.decl.attrs if a.name == "edges"), None)
        if edges is None or edges.type.name != "list" or edges.type.elem is None \
                or edges.type.elem.name != "bool":
            self.c.error("E201", f"{kind.name} cannot be a tile: it needs an attribute "
                         "'edges: list(bool)' giving its open sides N, E, S, W", d.span)
        joined = next((a for a in kind.decl.attrs if a.name == "joined"), None)
        if joined is not None and joined.type.name != "bool":
            self.c.error("E201", f"the 'joined' attribute of tile {kind.name} must be bool",
                         joined.span)

    def attr(self, a: AttrSym) -> None:
        decl = self._attr_decl(a)
        a.type = resolve_type(self.c, decl.type)
        kind = self.c.kinds_by_name.get(a.owner)
        if a.default is not None:
            ctx = Ctx(static=True, kind=kind, context="a default")
            self.expect(a.default, a.type, ctx)
        if a.visibility == "owner" and a.owner != "player":
            self.c.error("E201", "only player attributes have an owner; use 'visible to all' "
                         "or 'visible to none'", decl.span)

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
        ctx = Ctx(owner=sym.name, pause_ok=False, context=f"def {sym.name}",
                  scopes=[{p.name: p for p in sym.params}])
        sym.type = self.expr(sym.decl.body, ctx)

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
        if isinstance(s, PAUSING) and not ctx.pause_ok:
            c.error("E305", f"{type(s).__name__.lower()} cannot be used in {ctx.context}: "
                    "nobody can be asked to act there", s.span)
        if isinstance(s, A.Let):
            if s.type is not None:
                want = resolve_type(c, s.type)
                self.expect(s.value, want, ctx)
                self.bind(s, s.name, s.span, want, ctx)
            else:
                self.bind(s, s.name, s.span, self.expr(s.value, ctx), ctx)
        elif isinstance(s, A.Set):
            self.set_stmt(s, ctx)
        elif isinstance(s, A.If):
            for cond, body in s.branches:
                self.expect(cond, BOOL, ctx)
                self.block(body, ctx)
            self.block(s.otherwise, ctx)
        elif isinstance(s, A.While):
            self.expect(s.cond, BOOL, ctx)
            self.block(s.body, ctx)
        elif isinstance(s, A.For):
            t = self.iterable(s.source, ctx)
            ctx.scopes.append({})
            self.bind(s, s.var, s.span, t, ctx)
            c.hidden[id(s)] = c.new_hidden()
            c.new_hidden()  # the index lives in the slot after the sequence
            for b in s.body:
                self.stmt(b, ctx)
            ctx.scopes.pop()
        elif isinstance(s, A.Repeat):
            self.expect(s.count, INT, ctx)
            c.hidden[id(s)] = c.new_hidden()
            self.block(s.body, ctx)
        elif isinstance(s, A.Choose):
            self.choose(s, ctx)
        elif isinstance(s, A.Roll):
            die = c.names.get(s.die)
            if not (isinstance(die, ValueSym) and die.what == "die"):
                dice = [n for n, v in c.names.items() if isinstance(v, ValueSym)
                        and v.what == "die"]
                c.unknown("die", s.die, s.span, dice)
                self.bind(s, s.var, s.span, ANY, ctx)
                return
            c.refs[id(s)] = die
            self.need(die, ctx)
            self.bind(s, s.var, s.span, die.type.elem or ANY, ctx)
        elif isinstance(s, A.ShuffleLet):
            t = self.iterable(s.source, ctx)
            self.bind(s, s.var, s.span, list_of(t), ctx)
        elif isinstance(s, A.Pick):
            t = self.iterable(s.source, ctx)
            self.bind(s, s.var, s.span, t, ctx)
        elif isinstance(s, A.ShuffleZone):
            self.zone_named(s.zone, s.span, s, per_player=False)
        elif isinstance(s, A.Deal):
            self.expect(s.count, INT, ctx)
            src = self.zone_named(s.source, s.span, ("src", id(s)), per_player=False)
            dst = self.zone_named(s.dest, s.span, ("dst", id(s)), per_player=True)
            if src and dst and src.kind != dst.kind:
                c.error("E201", f"cannot deal {src.kind} into a zone of {dst.kind}", s.span)
        elif isinstance(s, A.MoveItem):
            self.move(s, ctx)
        elif isinstance(s, A.AddItems):
            self.add_items(s, ctx)
        elif isinstance(s, A.Place | A.Clear | A.Reveal):
            self.tile_stmt(s, ctx)
        elif isinstance(s, A.Do):
            self.do(s, ctx)
        elif isinstance(s, A.Say):
            self.expr(s.message, ctx)
            if s.to is not None:
                t = self.expr(s.to, ctx)
                if not (compatible(PLAYER, t) or compatible(list_of(PLAYER), t)):
                    c.error("E201", f"'say ... to' needs a player or a list of players, "
                            f"not {t}", s.to.span)
        elif isinstance(s, A.Outcome):
            t = self.expr(s.players, ctx)
            if not (compatible(PLAYER, t) or compatible(list_of(PLAYER), t)):
                c.error("E201", f"'{s.kind}' needs a player or a list of players, not {t}",
                        s.players.span)
            if ctx.owner != "<end>":
                c.error("E305", f"'{s.kind}' may only be used inside an 'end when' rule",
                        s.span)

    def set_stmt(self, s: A.Set, ctx: Ctx) -> None:
        c = self.c
        value = self.expr(s.value, ctx)
        target = s.target
        want: T = ANY
        if isinstance(target, A.Name):
            local = ctx.lookup(target.id)
            sym: Sym | None = local or c.names.get(target.id)
            if local is not None:
                want = local.type
                c.refs[id(target)] = local
            elif isinstance(sym, AttrSym) and sym.owner == "global":
                want = sym.type
                c.refs[id(target)] = sym
            elif sym is None:
                c.unknown("variable", target.id, target.span, self._visible(ctx))
                return
            else:
                c.error("E108", f"'{target.id}' cannot be changed: it is a "
                        f"{_describe(sym)}", target.span,
                        "declare it in 'global { ... }' to make it part of the game state")
                return
        else:
            errors = len(c.errors)
            want = self.expr(target, ctx)
            if len(c.errors) > errors:
                return  # the target itself is wrong; that error says it all
            if not isinstance(c.refs.get(id(target)), AttrSym):
                c.error("E108", "only attributes of players and pieces can be changed",
                        target.span)
                return
        if s.op != "=" and not compatible(INT, want):
            c.error("E201", f"'{s.op}' needs a number, but the target is {want}", s.span)
        elif not compatible(want, value):
            c.error("E201", f"cannot assign {value} to something of type {want}",
                    s.value.span)

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
        ctx.scopes.pop()
        ctx.scopes[-1][s.var] = local
        if isinstance(s.domain, A.ListLit) and not s.domain.items and not s.allow_pass:
            c.error("E303", f"the choice of '{s.var}' can never have an option", s.domain.span)
        if (isinstance(s.domain, A.Binary) and s.domain.op == ".."
                and isinstance(s.domain.left, A.IntLit) and isinstance(s.domain.right, A.IntLit)
                and s.domain.left.value > s.domain.right.value and not s.allow_pass):
            c.error("E303", f"the choice of '{s.var}' can never have an option: "
                    f"{s.domain.left.value}..{s.domain.right.value} is empty", s.domain.span)
        for r in s.requires:
            if isinstance(r.cond, A.BoolLit) and not r.cond.value and not s.allow_pass:
                c.error("E303", f"the choice of '{s.var}' can never have an option: "
                        "this requirement is always false", r.span)

    def move(self, s: A.MoveItem, ctx: Ctx) -> None:
        item = self.expr(s.item, ctx)
        for ref in (s.source, s.dest):
            zone = self.zone_ref(ref, ctx)
            if zone is None:
                continue
            if not compatible(T("entity", zone.kind), item):
                self.c.error("E201", f"zone '{zone.name}' holds {zone.kind}, not {item}",
                             s.item.span)

    def tiled_board(self, name: str, span: Span) -> A.BoardDecl | None:
        sym = self.c.names.get(name)
        if not (isinstance(sym, ValueSym) and isinstance(sym.decl, A.BoardDecl)):
            boards = [n for n, v in self.c.names.items()
                      if isinstance(v, ValueSym) and v.what == "board"]
            self.c.unknown("board", name, span, boards)
            return None
        if not sym.decl.tiles:
            self.c.error("E201", f"board '{name}' holds no tiles; declare it as "
                         f"'board {name} = ... tiles <kind>'", span)
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
            self.c.error("E201", f"zone '{zone.name}' holds {zone.kind}, not {item}",
                         s.items.span)

    def zone_ref(self, ref: A.ZoneRef, ctx: Ctx) -> ZoneSym | None:
        zone = self.zone_named(ref.zone, ref.span, None, per_player=None)
        if zone is None:
            return None
        if zone.per_player and ref.owner is None:
            self.c.error("E201", f"zone '{zone.name}' is per player: say whose, "
                         f"as in '{zone.name}[current]'", ref.span)
        if ref.owner is not None:
            self.expect(ref.owner, PLAYER, ctx)
            if not zone.per_player:
                self.c.error("E201", f"zone '{zone.name}' is not per player", ref.span)
        return zone

    def zone_named(self, name: str, span: Span, key: object, per_player: bool | None
                   ) -> ZoneSym | None:
        sym = self.c.names.get(name)
        if not isinstance(sym, ZoneSym):
            self.c.unknown("zone", name, span, [z.name for z in self.c.zones])
            return None
        if per_player is not None and sym.per_player != per_player:
            need = "per player" if per_player else "a single zone (not per player)"
            self.c.error("E201", f"zone '{name}' must be {need} here", span)
        return sym

    def do(self, s: A.Do, ctx: Ctx) -> None:
        c = self.c
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

    def args(self, name: str, params: list[LocalSym], args: tuple[A.Expr, ...], span: Span,
             ctx: Ctx) -> None:
        if len(args) != len(params):
            self.c.error("E202", f"'{name}' takes {len(params)} argument"
                         f"{'s' if len(params) != 1 else ''}, but {len(args)} "
                         f"{'were' if len(args) != 1 else 'was'} given", span)
        for p, a in zip(params, args, strict=False):
            self.expect(a, p.type, ctx)
        for a in args[len(params):]:
            self.expr(a, ctx)

    # ------------------------------------------------------------ expressions
    def expect(self, e: A.Expr, want: T, ctx: Ctx) -> T:
        got = self.expr(e, ctx)
        if not compatible(want, got):
            self.c.error("E201", f"expected {want}, found {got}", e.span)
        return got

    def iterable(self, e: A.Expr, ctx: Ctx) -> T:
        t = self.expr(e, ctx)
        if t.name == "zone":
            return t.elem or ANY
        if t.name != "list" and t != ANY:
            self.c.error("E201", f"expected a list to choose from or loop over, found {t}",
                         e.span)
            return ANY
        return t.elem or ANY

    def expr(self, e: A.Expr, ctx: Ctx) -> T:
        t = self._expr(e, ctx)
        self.c.types[id(e)] = t
        return t

    def _expr(self, e: A.Expr, ctx: Ctx) -> T:
        if isinstance(e, A.IntLit):
            return INT
        if isinstance(e, A.BoolLit):
            return BOOL
        if isinstance(e, A.NoneLit):
            return NONE
        if isinstance(e, A.TextLit):
            for part in e.parts:
                if not isinstance(part, str):
                    self.expr(part, ctx)
            return TEXT
        if isinstance(e, A.Name):
            return self.name(e, ctx)
        if isinstance(e, A.ListLit):
            elem: T = NONE
            for item in e.items:
                elem = join(elem, self.expr(item, ctx))
            return list_of(elem)
        if isinstance(e, A.Unary):
            return self.expect(e.operand, BOOL if e.op == "not" else INT, ctx)
        if isinstance(e, A.Binary):
            return self.binary(e, ctx)
        if isinstance(e, A.Attr):
            return self.attr_expr(e, ctx)
        if isinstance(e, A.Index):
            return self.index(e, ctx)
        if isinstance(e, A.Call):
            return self.call(e, ctx)
        if isinstance(e, A.Comp):
            return self.comp(e, ctx)
        raise AssertionError(type(e))

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
                c.error("E101", "'index' is only known in the attribute defaults of a piece "
                        "or card", e.span)
            if ctx.static and sym.name in STATE_BUILTINS:
                c.error("E107", f"{ctx.context} is fixed for the whole game and cannot "
                        f"depend on '{e.id}'", e.span)
            return sym.type
        if isinstance(sym, ZoneSym) and sym.per_player and not ctx.indexing:
            c.error("E201", f"zone '{e.id}' is per player: say whose, as in "
                    f"'{e.id}[current]'", e.span)
            return ANY
        if isinstance(sym, AttrSym | ZoneSym):
            if ctx.static:
                c.error("E107", f"{ctx.context} is fixed for the whole game and cannot "
                        f"depend on '{e.id}', which changes during play", e.span)
            return sym.type
        c.error("E201", f"'{e.id}' is a {_describe(sym)}, not a value", e.span)
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
        left = self.expr(e.left, ctx)
        right = self.expr(e.right, ctx)
        if op in ("+", "-", "*", "/", "%"):
            if op == "+" and left.name == "list" and right.name == "list":
                return list_of(join(left.elem or ANY, right.elem or ANY))
            if op == "+" and TEXT in (left, right):
                return TEXT
            for side, t in ((e.left, left), (e.right, right)):
                if not compatible(INT, t):
                    c.error("E201", f"'{op}' needs numbers, found {t}", side.span)
            return INT
        if op == "..":
            for side, t in ((e.left, left), (e.right, right)):
                if not compatible(INT, t):
                    c.error("E201", f"a range needs numbers, found {t}", side.span)
            return list_of(INT)
        if op in ("in", "notin"):
            elem = right.elem if right.name in ("list", "zone") else None
            if elem is None and right != ANY:
                c.error("E201", f"'in' needs a list on its right, found {right}", e.right.span)
            elif elem is not None and not (compatible(elem, left) or compatible(left, elem)):
                c.error("E201", f"{left} can never be in a list of {elem}", e.span)
            return BOOL
        if not (compatible(left, right) or compatible(right, left)):
            c.error("E201", f"cannot compare {left} with {right}", e.span)
        elif op in ("<", "<=", ">", ">=") and not compatible(INT, left):
            c.error("E201", f"'{op}' compares numbers, found {left}", e.span)
        return BOOL

    def attr_expr(self, e: A.Attr, ctx: Ctx) -> T:
        c = self.c
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
            for n, v in board.decl.attrs:
                if n == e.name:
                    return c.types.get(id(v), ANY)
            if board.decl.shape == "grid" and e.name in ("x", "y"):
                return list_of(INT)
            c.unknown(f"attribute of board {obj.arg}", e.name, e.span,
                      [n for n, _ in board.decl.attrs])
            return ANY
        elif obj == ANY:
            return ANY
        elif obj == NONE:
            c.error("E201", f"cannot tell what '.{e.name}' belongs to: the value comes from "
                    "an empty list whose type is not known", e.span,
                    "give the list a type, as in: let xs: list(piece_kind) = []")
            return ANY
        else:
            c.error("E103", f"{obj} has no attributes", e.span)
            return ANY
        sym = attrs.get(e.name)
        if sym is None:
            c.unknown(f"attribute of {obj}", e.name, e.span, list(attrs))
            return ANY
        if ctx.static:
            c.error("E107", f"{ctx.context} is fixed for the whole game and cannot "
                    f"depend on '{e.name}', which changes during play", e.span)
        c.refs[id(e)] = sym
        return sym.type

    def index(self, e: A.Index, ctx: Ctx) -> T:
        c = self.c
        ctx.indexing = True
        try:
            obj = self.expr(e.obj, ctx)
        finally:
            ctx.indexing = False
        idx = self.expr(e.index, ctx)
        if obj.name == "list":
            if not compatible(INT, idx):
                c.error("E201", f"a list index must be a number, found {idx}", e.index.span)
            return obj.elem or ANY
        if obj.name == "table":
            target = c.refs.get(id(e.obj))
            if isinstance(e.index, A.Name) and e.index.id == "player_count" and target:
                c.by_players.append((target, e.span))
            if not compatible(INT, idx):
                c.error("E201", f"a table key must be a number, found {idx}", e.index.span)
            return obj.elem or ANY
        if obj.name == "zone":
            if idx != PLAYER and idx != ANY:
                c.error("E201", f"a zone per player is indexed by a player, found {idx}",
                        e.index.span)
            return list_of(obj.elem or ANY)
        if obj != ANY:
            c.error("E201", f"{obj} cannot be indexed", e.span)
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
        if e.func in BOARD_FUNCS and e.args and isinstance(e.args[0], A.Name):
            target = c.refs.get(id(e.args[0]))
            if isinstance(target, ValueSym) and isinstance(target.decl, A.BoardDecl):
                if e.func in TILE_FUNCS and not target.decl.tiles:
                    c.error("E201", f"board '{target.name}' holds no tiles", e.args[0].span)
                result = check_call(c, e, types)
                node = T("node", target.name)
                if e.func in ("cell", "neighbour"):
                    return node
                if e.func in ("reached", "touching", "spots", "placed"):
                    return list_of(node)
                if e.func == "tile":
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
                c.error("E201", f"'{f}' needs a condition, found {elem}", e.elem.span)
            return BOOL
        if f == "count":
            return INT
        if f in ("sum", "max", "min"):
            if not compatible(INT, elem):
                c.error("E201", f"'{f}' needs numbers, found {elem}", e.elem.span)
            return INT
        c.error("E201", f"'{f}(... for ...)' is not known; use any, all, count, sum, max, "
                "min or a list [... for ...]", e.span)
        return ANY


def _describe(sym: Sym) -> str:
    if isinstance(sym, ValueSym):
        return sym.what
    if isinstance(sym, ProcSym):
        return "proc"
    if isinstance(sym, DefSym):
        return "def"
    if isinstance(sym, ZoneSym):
        return "zone"
    if isinstance(sym, BuiltinSym):
        return "built-in value"
    if isinstance(sym, LocalSym):
        return "local name"
    return "name"


def run(c: Checker) -> None:
    Resolver(c).run()
