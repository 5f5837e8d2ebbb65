"""Compile checked expressions into Python closures `f(state) -> value`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rulelang.check.scope import TILE_FUNCS
from rulelang.check.symbols import (
    AttrSym,
    DefSym,
    Program,
    Sym,
    ZoneSym,
)
from rulelang.check.types import ANY, T
from rulelang.diagnostics import GameRuntimeError, Span
from rulelang.runtime.values import Formatter, formatter
from rulelang.syntax import ast as A

Fn = Callable[[Any], Any]

def fail(code: str, message: str, span: Span) -> GameRuntimeError:
    return GameRuntimeError(code, message, span)


class ExprCompiler:
    def __init__(self, program: Program):
        self.p = program
        self.name_cols: dict[str, int] = {
            k.name: k.attrs["name"].slot for k in program.kinds
            if "name" in k.attrs and k.attrs["name"].type.name == "text"}
        self.zone_base: dict[str, int] = {}
        self.defs: dict[str, Fn] = {}
        self.tiles: dict[str, Any] = {}  # board name -> TileOps
        self.tile_kinds: dict[str, str] = {}  # board name -> the kind of its tiles
        from rulelang.runtime.pysrc import SourceGen

        self.gen = SourceGen(self)

    def type_of(self, e: A.Expr) -> T:
        return self.p.types.get(id(e), ANY)

    def fmt(self, t: T) -> Formatter:
        return formatter(t, self.name_cols)

    def ref(self, node: object) -> Sym | None:
        return self.p.refs.get(id(node))

    # ------------------------------------------------------------------
    def compile(self, e: A.Expr) -> Fn:
        """One Python lambda for the whole expression (see pysrc.py)."""
        return self.gen.lambda_of(e)

    def closure(self, e: A.Expr) -> Fn:
        """A closure for the nodes pysrc.py leaves to us: those that need a runtime check
        with a source position, formatted texts, defs and the rarer built-ins. Their
        children are compiled with `compile` again."""
        method = getattr(self, "c_" + type(e).__name__, None)
        if method is None:
            raise AssertionError(f"pysrc.py compiles {type(e).__name__} itself")
        fn: Fn = method(e)
        return fn

    def c_TextLit(self, e: A.TextLit) -> Fn:
        if all(isinstance(p, str) for p in e.parts):
            text = "".join(str(p) for p in e.parts)
            return lambda st: text
        pieces: list[Callable[[Any], str]] = []
        for part in e.parts:
            if isinstance(part, str):
                pieces.append(_constant_text(part))
            else:
                pieces.append(_shown(self.compile(part), self.fmt(self.type_of(part))))
        return lambda st: "".join(p(st) for p in pieces)

    def c_Binary(self, e: A.Binary) -> Fn:
        """Division and remainder (checked for zero), and texts joined with `+`."""
        lf, rf = self.compile(e.left), self.compile(e.right)
        op, span = e.op, e.span
        if op in ("/", "%"):
            def divide(st: Any) -> Any:
                right = rf(st)
                if right == 0:
                    raise fail("R005", "division by zero", span)
                return lf(st) // right if op == "/" else lf(st) % right
            return divide
        assert op == "+", op
        ls, rs = self.fmt(self.type_of(e.left)), self.fmt(self.type_of(e.right))
        return lambda st: ls(st, lf(st)) + rs(st, rf(st))

    def c_Index(self, e: A.Index) -> Fn:
        """A player's zone, or a table entry (lists are indexed by pysrc.py)."""
        obj, idx, span = self.compile(e.obj), self.compile(e.index), e.span
        if self.type_of(e.obj).name == "zone":
            return lambda st: tuple(st.zones[obj(st) + idx(st)])

        def lookup(st: Any) -> Any:
            key = idx(st)
            table = obj(st)
            if key not in table:
                raise fail("R003", f"the table has no entry for {key}", span)
            return table[key]
        return lookup

    def c_Comp(self, e: A.Comp) -> Fn:
        local = self.p.locals_of[id(e)]
        slot = local.slot
        src = self.compile(e.source)
        elem = self.compile(e.elem)
        where = self.compile(e.where) if e.where is not None else None
        func, span = e.func, e.span

        def items(st: Any) -> list[Any]:
            loc = st.loc
            out = []
            for v in src(st):
                loc[slot] = v
                if where is None or where(st):
                    out.append(elem(st))
            return out

        if func == "" and e.by is not None:
            key = self.compile(e.by)

            def ordered(st: Any) -> tuple[Any, ...]:
                loc = st.loc
                rows = []
                for i, v in enumerate(src(st)):
                    loc[slot] = v
                    if where is None or where(st):
                        rows.append((key(st), i, elem(st)))
                return tuple(x[2] for x in sorted(rows))
            return ordered
        if func == "":
            return lambda st: tuple(items(st))
        if func == "any":
            def any_(st: Any) -> bool:
                loc = st.loc
                for v in src(st):
                    loc[slot] = v
                    if (where is None or where(st)) and elem(st):
                        return True
                return False
            return any_
        if func == "all":
            def all_(st: Any) -> bool:
                loc = st.loc
                for v in src(st):
                    loc[slot] = v
                    if (where is None or where(st)) and not elem(st):
                        return False
                return True
            return all_
        if func == "count":
            if self.type_of(e.elem).name == "bool":
                return lambda st: sum(1 for x in items(st) if x)
            return lambda st: len(items(st))
        if func == "sum":
            return lambda st: sum(items(st))
        agg = max if func == "max" else min

        def extreme(st: Any) -> Any:
            values = items(st)
            if not values:
                raise fail("R004", f"{func} of an empty list", span)
            return agg(values)
        return extreme

    def c_Call(self, e: A.Call) -> Fn:
        from rulelang.runtime.builtins import compile_builtin

        sym = self.ref(e)
        if isinstance(sym, DefSym):
            return self.call_def(sym, e)
        return compile_builtin(self, e)

    def call_def(self, sym: DefSym, e: A.Call) -> Fn:
        slots = [p.slot for p in sym.params]
        args = [self.compile(a) for a in e.args]
        name = sym.name
        defs = self.defs
        if len(args) == 1:
            s0, a0 = slots[0], args[0]

            def call1(st: Any) -> Any:
                st.loc[s0] = a0(st)
                return defs[name](st)
            return call1

        def call(st: Any) -> Any:
            values = [a(st) for a in args]
            loc = st.loc
            for s, v in zip(slots, values, strict=True):
                loc[s] = v
            return defs[name](st)
        return call

    def compile_defs(self) -> None:
        for name, sym in self.p.defs.items():
            self.defs[name] = self.compile(sym.decl.body)


def _constant_text(text: str) -> Callable[[Any], str]:
    return lambda st: text


def _shown(f: Fn, show: Formatter) -> Callable[[Any], str]:
    return lambda st: show(st, f(st))


def reads(program: Program, e: A.Expr | A.Stmt | tuple[Any, ...] | None,
          seen: set[str] | None = None) -> set[int]:
    """The ids of the attributes and zones an expression may read (through defs too)."""
    out: set[int] = set()
    seen = seen if seen is not None else set()
    stack: list[Any] = [e]
    while stack:
        node = stack.pop()
        if node is None or isinstance(node, str | int | bool | Span):
            continue
        if isinstance(node, tuple | list):
            stack.extend(node)
            continue
        sym = program.refs.get(id(node))
        if isinstance(sym, AttrSym | ZoneSym):
            out.add(id(sym))
        elif isinstance(sym, DefSym) and sym.name not in seen:
            seen.add(sym.name)
            stack.append(sym.decl.body)
        if isinstance(node, A.Name) and node.id == "current":
            out.add(0)  # the turn player
        if isinstance(node, A.Call) and node.func in TILE_FUNCS:
            out.add(1)  # tiles on a board
        if hasattr(node, "__dataclass_fields__"):
            stack.extend(getattr(node, f) for f in node.__dataclass_fields__)
    return out
