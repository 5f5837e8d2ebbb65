"""Generate Python source for hot expressions, compiled once with `eval`.

A rule expression such as `any(m.at == safe for m in moved)` becomes one Python
lambda, `lambda st: any(st.cols[3][_v1] == st.vars[0] for _v1 in st.loc[7])`, instead
of a tree of small closures: one call per evaluation instead of one per node. What
needs a runtime check with a source position (indexing, division, max of nothing)
is delegated to a closure from exprs.py, embedded by name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulelang.check.symbols import AttrSym, BuiltinSym, KindSym, LocalSym, ValueSym, ZoneSym
from rulelang.diagnostics import GameRuntimeError, Span
from rulelang.syntax import ast as A

if TYPE_CHECKING:
    from rulelang.runtime.exprs import ExprCompiler, Fn

COMPARE = {"==", "!=", "<", "<=", ">", ">="}


def _extreme(values: Any, which: Any, span: Span, name: str) -> Any:
    items = list(values)
    if not items:
        raise GameRuntimeError("R004", f"{name} of an empty list", span)
    return which(items)


def _index(seq: Any, i: int, span: Span) -> Any:
    if 0 <= i < len(seq):
        return seq[i]
    raise GameRuntimeError("R003", f"index {i} is outside the list (it has {len(seq)} items, "
                           "counted from 0)", span)


def _step(board: Any, node: int, k: int, span: Span) -> int:
    target: int = (board.steps.get(k) or board.step_table(k))[node]
    if target < 0:
        raise GameRuntimeError("R003", f"stepping off the end of board '{board.name}'", span)
    return target


def _number(text: Any, span: Span) -> int:
    try:
        return int(text)
    except ValueError:
        raise GameRuntimeError("R006", f"'{text}' is not a number", span) from None


class SourceGen:
    def __init__(self, ec: ExprCompiler):
        self.ec = ec
        self.env: dict[str, Any] = {"_extreme": _extreme, "_index": _index, "_step": _step,
                                    "_number": _number, "__builtins__": __builtins__}
        self.counter = 0
        self.bound: dict[int, str] = {}  # local slot -> python name inside a comprehension
        self.embedded = 0  # closures embedded so far (a comprehension must not have any)

    def name_for(self, obj: Any, prefix: str = "_k") -> str:
        self.counter += 1
        name = f"{prefix}{self.counter}"
        self.env[name] = obj
        return name

    def embed(self, fn: Fn) -> str:
        self.embedded += 1
        return f"{self.name_for(fn, '_f')}(st)"

    def lambda_of(self, e: A.Expr) -> Fn:
        src = self.src(e)
        fn: Fn = eval(f"lambda st: {src}", self.env)  # noqa: S307 - our own generated code
        return fn

    def function(self, body: list[str], name: str = "_op") -> Any:
        text = f"def {name}(st):\n" + "\n".join("    " + line for line in body)
        scope: dict[str, Any] = {}
        exec(compile(text, "<rulelang>", "exec"), self.env, scope)  # noqa: S102
        return scope[name]

    # ------------------------------------------------------------------ expressions
    def src(self, e: A.Expr) -> str:
        method = getattr(self, "s_" + type(e).__name__, None)
        out = method(e) if method is not None else None
        if out is None:
            return self.embed(self.ec.closure(e))
        return str(out)

    def s_IntLit(self, e: A.IntLit) -> str:
        return repr(e.value)

    def s_BoolLit(self, e: A.BoolLit) -> str:
        return repr(e.value)

    def s_NoneLit(self, e: A.NoneLit) -> str:
        return "None"

    def s_TextLit(self, e: A.TextLit) -> str | None:
        if all(isinstance(p, str) for p in e.parts):
            return repr("".join(str(p) for p in e.parts))
        return None

    def s_Name(self, e: A.Name) -> str | None:
        sym = self.ec.ref(e)
        if isinstance(sym, LocalSym):
            return self.bound.get(sym.slot, f"st.loc[{sym.slot}]")
        if isinstance(sym, AttrSym):
            return f"st.vars[{sym.slot}]"
        if isinstance(sym, ValueSym):
            if sym.what == "board":
                return f"st.cfg.boards[{sym.name!r}]"
            return f"st.cfg.consts[{sym.slot}]"
        if isinstance(sym, KindSym):
            return repr(sym.name)
        if isinstance(sym, ZoneSym):
            base = self.ec.zone_base[sym.name]
            return str(base) if sym.per_player else f"tuple(st.zones[{base}])"
        if isinstance(sym, BuiltinSym) or sym is None:
            return {"players": "st.cfg.players", "player_count": "st.cfg.n",
                    "current": "st.current", "index": "st.index",
                    "turn_number": "st.turn",
                    "round_number": "((st.turn - 1) // st.cfg.n + 1)"}.get(e.id)
        return None

    def s_ListLit(self, e: A.ListLit) -> str:
        if not e.items:
            return "()"
        return "(" + "".join(self.src(i) + ", " for i in e.items) + ")"

    def s_Unary(self, e: A.Unary) -> str:
        inner = self.src(e.operand)
        return f"(not {inner})" if e.op == "not" else f"(-{inner})"

    def s_Binary(self, e: A.Binary) -> str | None:
        op = e.op
        if op in ("/", "%"):
            return None
        if op == "+" and self.ec.type_of(e).name == "text":
            return None
        left, right = self.src(e.left), self.src(e.right)
        if op == "..":
            return f"tuple(range({left}, {right} + 1))"
        if op == "notin":
            return f"({left} not in {right})"
        return f"({left} {op} {right})"

    def s_Attr(self, e: A.Attr) -> str | None:
        sym = self.ec.ref(e)
        obj = self.src(e.obj)
        if isinstance(sym, AttrSym):
            return f"st.cols[{sym.slot}][{obj}]"
        t = self.ec.type_of(e.obj)
        if t.name == "player" and e.name == "name":
            return f"st.cfg.player_names[{obj}]"
        if t.name in ("player", "entity"):
            return obj
        if t.name == "board":
            return f"{obj}.attrs[{e.name!r}]"
        return None

    def s_Index(self, e: A.Index) -> str | None:
        t = self.ec.type_of(e.obj)
        if t.name in ("zone", "table"):
            return None
        span = self.name_for(e.span, "_s")
        return f"_index({self.src(e.obj)}, {self.src(e.index)}, {span})"

    def s_Call(self, e: A.Call) -> str | None:
        from rulelang.check.symbols import DefSym

        if isinstance(self.ec.ref(e), DefSym):
            return None
        f = e.func
        if f == "pieces":
            sym = self.ec.ref(e.args[0])
            return f"st.cfg.entities[{sym.name!r}]" if sym else None
        if f == "nodes":
            sym = self.ec.ref(e.args[0])
            return f"st.cfg.nodes[{sym.name!r}]" if sym else None
        simple = {"len": "len", "abs": "abs", "any": "any", "all": "all", "sum": "sum"}
        if f in simple:
            return f"{simple[f]}({self.src(e.args[0])})"
        if f == "seat":
            return self.src(e.args[0])
        if f == "next_player":
            return f"(({self.src(e.args[0])} + 1) % st.cfg.n)"
        if f == "prev_player":
            return f"(({self.src(e.args[0])} - 1) % st.cfg.n)"
        if f == "step":
            b, node, k = (self.src(a) for a in e.args)
            return f"_step({b}, {node}, {k}, {self.name_for(e.span, '_s')})"
        if f == "number":
            return f"_number({self.src(e.args[0])}, {self.name_for(e.span, '_s')})"
        if f in ("max", "min") and len(e.args) == 2:
            return f"{f}({self.src(e.args[0])}, {self.src(e.args[1])})"
        return None

    def s_Comp(self, e: A.Comp) -> str | None:
        local = self.ec.p.locals_of[id(e)]
        source = self.src(e.source)
        before = self.embedded
        var = f"_v{local.slot}"
        self.bound[local.slot] = var
        try:
            elem = self.src(e.elem)
            where = f" if {self.src(e.where)}" if e.where is not None else ""
            key = self.src(e.by) if e.by is not None else ""
        finally:
            del self.bound[local.slot]
        if self.embedded != before:
            return None  # an embedded closure would read the variable from st.loc
        loop = f"for {var} in {source}{where}"
        f = e.func
        if f == "" and key:
            # sort (key, position, element) so that equal keys keep their order
            return (f"tuple(x[2] for x in sorted(({key}, _i, {elem}) for _i, {var} in "
                    f"enumerate({source}){where}))")
        if f == "":
            return f"tuple([{elem} {loop}])"
        if f in ("any", "all", "sum"):
            return f"{f}({elem} {loop})"
        if f == "count":
            if self.ec.type_of(e.elem).name == "bool":
                return f"sum(1 {loop} if {elem})" if not where else \
                    f"sum(1 {loop} and {elem})"
            return f"sum(1 {loop})"
        if f in ("max", "min"):
            span = self.name_for(e.span, "_s")
            return f"_extreme(({elem} {loop}), {f}, {span}, {f!r})"
        return None
