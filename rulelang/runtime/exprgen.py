"""Expressions to Python source: the one code generator for rule expressions.

A rule expression such as `any(m.at == safe for m in moved)` becomes the Python
expression `any(st.cols[3][_v1] == st.vars[0] for _v1 in st.loc[7])`, compiled once
with the statements around it. Runtime checks that need a source position (indexing,
division, first/last, max of nothing) are named helpers from `helpers.py`; the span
they report is bound to a name in the generated module's namespace. Each `def`
becomes a generated Python function whose parameters are Python arguments.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from typing import Any, assert_never, cast

from rulelang.check.layout import Layout
from rulelang.check.scope import GRID_FUNCS, NODE_ARGS, TILE_FUNCS, open_grid
from rulelang.check.symbols import (
    AttrSym,
    BoardAttrSym,
    BuiltinSym,
    DefSym,
    EnumSym,
    EnumValueSym,
    KindSym,
    LocalSym,
    Program,
    Sym,
    ValueSym,
    ZoneSym,
)
from rulelang.check.types import ANY, BOOL, T
from rulelang.diagnostics import Span
from rulelang.limits import Limits
from rulelang.runtime import cells, forward, helpers, invariant, loops, ranges, seen
from rulelang.runtime.code import Fn, Formatter
from rulelang.runtime.constants import constant_items
from rulelang.runtime.dispatch import dispatched
from rulelang.runtime.fitting import fitting_call
from rulelang.runtime.folds import emptiness, fold, membership
from rulelang.runtime.growing import Grown, grown_locals
from rulelang.runtime.lengths import fixed_lengths
from rulelang.runtime.lines import TABLE, Lines
from rulelang.runtime.literals import in_f_string, literal
from rulelang.runtime.reads import expressions
from rulelang.runtime.sifted import sifted
from rulelang.runtime.tiles import TileOps
from rulelang.runtime.values import formatter
from rulelang.syntax import ast as A

BUILTIN_NAMES = {
    "players": "st.cfg.players",
    "player_count": "st.cfg.n",
    "current": "st.current",
    "index": "st.index",
    "turn_number": "st.turn",
    "round_number": "((st.turn - 1) // st.cfg.n + 1)",
}
PLAYERS = BUILTIN_NAMES["players"]  # what a loop over the seats runs over
SIMPLE_CALLS = {"len": "len", "abs": "abs", "any": "any", "all": "all", "sum": "sum"}
# Generated sources that are cheap to evaluate twice and call nothing: a whole number,
# a Python name, or a chain of attributes and subscripts of names, numbers and quoted
# words (`st.cols[11][_a3]`, `st.cfg.entities['tile']`).
_INT = re.compile(r"-?[0-9]+$")
_NAME = re.compile(r"[A-Za-z_][A-Za-z_0-9]*$")
_KEY = r"(-?[0-9]+|[A-Za-z_][A-Za-z_0-9]*|'(?:[A-Za-z0-9]|\\x5f)*')"  # `_`: literals.py
_PURE = re.compile(rf"[A-Za-z_][A-Za-z_0-9]*(\.[A-Za-z_][A-Za-z_0-9]*|\[{_KEY}\])*$")
_UPTO = re.compile(r"_h\.upto\(([^,]+), ([^,]+), [0-9]+, _s[0-9]+\)$")
_OPTION = re.compile(r"\b_opt\b")  # the option in a bot's rules (bots.py)
_LOCAL = re.compile(r"\b_[avt][0-9]+\b")  # names of generated locals: arguments, loops...
_STRING = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")
# a zone's slot tested inline (ExprGen.zone_slot), measured as the call it stands for
_SLOT_TEST = re.compile(
    r"\((\d+) \+ (\S+) if \2 is not None else (_h\.zone_slot\(\1, \2, _s\d+\))\)"
)
# a constant tuple of whole numbers: a range `0..3` made a constant, or a list literal
_BRANCHES = re.compile(r"\b(for|if|and|or|lambda)\b|:=")
_WALRUS = re.compile(r"\((_t[0-9]+) :=")  # a name a generated `:=` binds
# how a character of a text is written between the quotes of an f-string ("...")
_F_ESCAPES = {"{": "{{", "}": "}}", '"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
# The optimisations of issue 21 (list reads proven in range without a check, a def's
# lists grown in place (growing.py), `/` and `%` by a number and a grid's sides
# without a helper, the state's tables read once per def and proc): off, the plain
# code is generated (tests/test_compiler_opts.py compares the two).
OPTIMISED = True
FOLD = True  # off: constant comparisons and truth values left to run (folds.py)
HOIST = True  # off: `any(v in xs for v in vs)` tests xs once per v, as written (folds.py)
EMPTINESS = True  # off: `len(xs) == 0` and a first item's check call len (folds.py)
# the longest def body (generated source) written in place of its calls: 160 until a
# generator holding a comprehension became loops too (loops.NESTED); a def written in
# place no longer leaves one a function object per evaluation (docs/performance.md)
INLINE_MAX = 1200
FRESH_TEMPS = True  # off: a def body written in place keeps its own `:=` names
# the same in a bot's rules (bots.py): there the parts of the def's body that do not
# read the option are worked out once per ranking (ruleloops.py), not once per option
RULE_INLINE_MAX = 400
UNGUARDED = True  # statements read hidden things without the guards of `known`
FIXED_LENGTHS = True  # off: a list attribute's reads are checked, whatever it holds
RANGES = True  # off: the values of lets and parameters are not worked out (ranges.py)
# off: no def compiled a second time for calls whose whole-number arguments are of known
# values (ranges.def_specs, `specialised`)
SPECIALISE = True
# the second version of a def NAME is named `0r_NAME` (its function `_d_0r_NAME`): a
# rule's name starts with a letter or `_`, never a digit, so no def of the rules can
# have it (as `_r_NAME` could: a def named `_r_blocked` took the place of blocked's)
SPEC = "0r_"
# off: a list read at a local never below 0 (`let i = 0` ... `set i += 1`, ranges.py
# `counters`) still checks that the index is 0 or more
COUNTERS = True
TWO_EXTREMES = True  # off: `min(a, b)` and `max(a, b)` call Python's builtins
SMALL_INTS = True  # off: a number shown in a text is written by `str` each time
NAMED_READS = True  # off: a state read passed to a short def that reads it twice is read twice
# off: a def whose body reads a parameter twice is called where the argument is not cheap
# (on: written in place, the argument worked out once where the body first reads it)
NAMED_ARGS = True
NONE_IS = True  # off: `x == none` is Python's `x == None` (on: `x is None`)
LITERAL_CONSTS = True  # off: a const list of plain numbers and texts is read from cfg.consts
UNROLL_MAX = 4  # `any`/`all` over at most this many constant numbers: one test each
INLINE_SLOTS = True  # a player's zone whose owner may be `none` tested inline
# off: a def written in place tests its player parameter's zones for `none`, and a
# choice among the players its variable's
SEATED = True
# a def of fixed value (no parameters, kept in `cfg.memo` once worked out) read in
# place of its call once kept: no frame made for what is a list read (`start()` of a
# tile game, asked some 300 times a match)
MEMO_INLINE = True
STATE_NAMES = ("current", "index", "turn_number", "round_number")
MEMO_UNSET = object()  # a fixed def not computed yet for this table
# the texts of the whole numbers a game shows most (a tile's "x,y"), made once: `str`
# of a number writes its digits anew each time (SMALL_INTS)
INT_TEXTS = {i: str(i) for i in range(-256, 257)}


class Namespace:
    """The globals of the generated code: helpers, spans, specs, formatters; and the
    line table of every generated function (lines.py)."""

    def __init__(self) -> None:
        self.lines = Lines()
        self.env: dict[str, object] = {
            "__builtins__": __builtins__,
            "_h": helpers,
            "_kn": seen,  # `known(P, EXPR)`: see runtime/seen.py
            "_UNSET": MEMO_UNSET,
            "_INTS": INT_TEXTS,
            "_NO_TILE": (None, 0, False),
            TABLE: self.lines,  # how an error raised in generated code finds its rule line
        }
        self.counter = 0
        self.names: dict[int, str] = {}
        self.pending: dict[str, Pending] = {}  # functions `lazy` has not compiled yet
        # the bodies `function` compiled last, for the names asked (`keep`): a resume's
        # code, copied into a generated `Game.apply` (runtime/inlined.py)
        self.kept: dict[str, list[str]] = {}

    def name_for(self, obj: object, prefix: str = "_k") -> str:
        """A name for obj in the generated code's globals (one name per object)."""
        known = self.names.get(id(obj))
        if known is not None:
            return known
        self.counter += 1
        name = f"{prefix}{self.counter}"
        self.env[name] = obj
        self.names[id(obj)] = name
        return name

    def mark(self, span: Span) -> str:
        """A mark naming a statement's span, put at the end of its first generated line:
        the line table places an error in the lines that follow at the statement."""
        return self.lines.mark(span)

    def function(
        self, name: str, params: str, body: list[str], uncell: bool = False
    ) -> Callable[..., Any]:
        """Compile `def name(params): body` into the generated code's globals. What it
        takes and gives is for the caller to say: its type is that of the Op, Fn... it
        is assigned to (the generated source is not type-checked)."""
        scope: dict[str, Callable[..., Any]] = {}
        exec(self.lines.compile(name, params, body), self.env, scope)  # noqa: S102
        if uncell and loops.LOOPED and loops.wanted("\n".join(body)):
            body = self._looped(name, params, body, scope)
        if name in self.kept:  # as written, before its comprehensions are given locals
            self.kept[name] = body
        if uncell:
            self._uncelled(name, params, body, scope)
        self.env[name] = scope[name]
        return scope[name]

    def _looped(
        self, name: str, params: str, body: list[str], scope: dict[str, Callable[..., Any]]
    ) -> list[str]:
        """The body of `name` (compiled into scope) with each `any`/`all` over a
        generator in it a loop function of its own (loops.py), compiled again if it
        changed: the body as it now stands."""
        code = scope[name].__code__
        written = loops.looped(body, {*code.co_varnames, *code.co_cellvars}, self.loop)
        if written != body:
            exec(self.lines.compile(name, params, written), self.env, scope)  # noqa: S102
        return written

    def _uncelled(
        self, name: str, params: str, body: list[str], scope: dict[str, Callable[..., Any]]
    ) -> None:
        """`name` compiled again with its comprehensions given what they read of it
        (cells.py), where they made cells of its locals."""
        code = scope[name].__code__
        if code.co_cellvars:
            written = cells.uncelled(body, {*code.co_varnames, *code.co_cellvars})
            exec(self.lines.compile(name, params, written), self.env, scope)  # noqa: S102

    def loop(self, params: list[str], body: list[str]) -> str:
        """Compile a function of loops.py (an `any`/`all` as a loop): its name."""
        self.counter += 1
        name = f"_loop{self.counter}"
        scope: dict[str, Callable[..., Any]] = {}
        joined = ", ".join(params)
        exec(self.lines.compile(name, joined, body), self.env, scope)  # noqa: S102
        if loops.NESTED and loops.wanted("\n".join(body)):  # one held inside it
            body = self._looped(name, joined, body, scope)
            self._uncelled(name, joined, body, scope)
        self.env[name] = scope[name]
        return name

    def lazy(
        self,
        name: str,
        params: str,
        body: list[str],
        put: Callable[[Any], None],
        uncell: bool = False,
        then: Callable[[Counter[Any]], list[str] | None] | None = None,
        after: int = 0,
        seen: Counter[Any] | None = None,
        plain: Callable[[Any], None] | None = None,
    ) -> Callable[..., Any]:
        """`function`, compiled when first called: a stub that compiles the function,
        hands it to `put` (to take the stub's place where it was kept) and calls it.
        Compiling Python is a large part of compiling rules, and a game may call few
        of its ops.
        With `then`: the function of `body` serves its first `after` calls (through
        the stub, which counts what they return); then `then`, given those counts,
        gives a longer version of the same code to compile in its place, or None to
        keep the first; `plain` is given the first when the longer takes its place."""
        counted = Counter() if seen is None else seen  # where the caller reads them
        self.pending[name] = Pending(
            params, body, put, uncell, then, after, seen=counted, plain=plain
        )
        return _stub(self.compiled, name)

    def compiled(self, name: str) -> Callable[..., Any]:
        """The function a stub of `lazy` stands for, compiled the first time."""
        entry = self.pending.get(name)
        if entry is None:  # compiled already (a stub kept somewhere else)
            return self.env[name]  # type: ignore[return-value]
        if entry.then is not None:
            if entry.first is None:
                entry.first = self.function(name, entry.params, entry.body, entry.uncell)
            entry.calls += 1
            if entry.calls <= entry.after:
                return entry.watching
            better = entry.then(entry.seen)
            fn = (
                entry.first
                if better is None
                else self.function(name, entry.params, better, entry.uncell)
            )
        else:
            fn = self.function(name, entry.params, entry.body, entry.uncell)
        entry.put(fn)
        if entry.plain is not None and entry.first is not None and fn is not entry.first:
            entry.plain(entry.first)
        # forgotten only now: a thread that finds it still pending compiles it too
        self.pending.pop(name, None)
        return fn


def _stub(compiled: Callable[[str], Callable[..., Any]], name: str) -> Callable[..., Any]:
    """A function that calls what `compiled(name)` gives: a Python closure, not
    generated code, so that it costs no compile."""

    def stub(*args: Any) -> Any:
        return compiled(name)(*args)

    stub.__name__ = stub.__qualname__ = f"{name}_stub"
    return stub


@dataclass
class Pending:
    """A function of Namespace.lazy not compiled yet (or not in its last version)."""

    params: str
    body: list[str]
    put: Callable[[Any], None]
    uncell: bool
    then: Callable[[Counter[Any]], list[str] | None] | None
    after: int
    seen: Counter[Any]  # what the first calls returned
    calls: int = 0
    first: Callable[..., Any] | None = None
    plain: Callable[[Any], None] | None = None  # given `first` when `then`'s version replaces it

    def watching(self, *args: Any) -> Any:
        """The first function, counting what it returns."""
        assert self.first is not None
        result = self.first(*args)
        self.seen[result] += 1
        return result


class ExprGen:
    def __init__(self, program: Program, layout: Layout, ns: Namespace, limits: Limits):
        self.p = program
        self.layout = layout
        self.ns = ns
        self.limits = limits
        self.name_cols: dict[str, int] = {
            k.name: k.attrs["name"].slot
            for k in program.kinds
            if "name" in k.attrs and k.attrs["name"].type.name == "text"
        }
        self.tiles = {
            name: TileOps(layer, i) for i, (name, layer) in enumerate(layout.tiles.items())
        }
        self.bound: dict[int, str] = {}  # local slot -> Python name (comprehensions, args)
        self.memo_calls = False  # compiling a bot's rules: memoise def calls in `_bm`
        self.inline_bodies: dict[str, tuple[list[str], str]] = {}  # short defs, see inlined
        self.inline_plain: dict[str, str] = {}  # their bodies, reads not named (named_args)
        self.in_comp_source = 0  # compiling the source of a comprehension (no `:=` there)
        self.in_comp = 0  # compiling a comprehension's element or condition
        self.memo_slots: dict[str, int] = {}  # fixed defs -> their slot in cfg.memo
        self.changing: frozenset[int] | None = None  # columns rules set (sifted.py)
        # per phase, the local slot of its drawn `order random` (-1: none); None when no
        # phase has one, so that next_player stays seat + 1 at no cost
        self.orders = random_orders(program)
        # rules that call `known`: their reads of hidden things ask, while a `known`
        # is worked out, whether its player sees them (runtime/seen.py)
        self.guarded = self.knows = seen.uses_known(program)
        # what is known of the variables bound by loops and comprehensions being
        # compiled, by local slot: the constant range of their values, or the source
        # of the list whose indices they run over (`for i in 0..len(xs) - 1`), so that
        # an index proven in range is read without a check (see `proven`)
        self.ranges: dict[int, tuple[int, int]] = {}
        self.lengths = fixed_lengths(program)  # list attributes of a fixed length
        self.facts = ranges.known_ranges(program)  # locals' and parameters' values
        self.specs = ranges.def_specs(program, self.facts)  # defs to compile twice
        self.counters = ranges.counters(program)  # locals never below 0
        self.const_names: dict[int, str | None] = {}  # consts held by globals, by slot
        self.indices_of: dict[int, str] = {}
        self.seats: set[int] = set()  # the variables of loops over `players`
        self.grown = Grown()  # the locals of the def being compiled held as Python lists
        self.places: dict[str, helpers.Places] = {}  # per kind: see StraightGen.detach_args
        # the texts whose one value is a player, by their pieces (None: the player's
        # name): their index in Config.named (see named_text)
        self.named_sites: dict[tuple[str | None, ...], int] = {}

    # ------------------------------------------------------------------ helpers
    def type_of(self, e: A.Expr) -> T:
        return self.p.types.get(id(e), ANY)

    def ref(self, node: object) -> Sym | None:
        return self.p.refs.get(id(node))

    def fmt(self, t: T) -> Formatter:
        return formatter(t, self.name_cols)

    def span(self, e: A.Expr | A.Stmt) -> str:
        return self.ns.name_for(e.span, "_s")

    def lambda_of(self, e: A.Expr, want: T = ANY) -> Fn:
        """A function (state) -> value, for code outside the ops (requires, prompts,
        defaults of type `want`)."""
        body = [f"return {self.as_type(e, want)}"]
        return self.ns.function(self.ns.name_for(e, "_x"), "st", body, OPTIMISED)

    def as_type(self, e: A.Expr, want: T) -> str:
        """Source for the value of e, kept where a value of type `want` goes: a number
        that becomes a node of a board is checked to be one of its nodes (R007). A value
        that is a node already is one, and costs nothing more."""
        src = self.src(e)
        if want.name != "node" or self.type_of(e).name in ("node", "none"):
            return src
        return f"_h.node(st.cfg.boards[{literal(want.arg)}], {src}, {self.span(e)})"

    def node_args(self, e: A.Call) -> list[str]:
        """Sources of the arguments after the board of a board function, the node
        arguments checked as nodes of that board."""
        board = self.ref(e.args[0])
        assert isinstance(board, ValueSym)
        nodes = NODE_ARGS.get(e.func, ())
        node = T("node", board.name)
        return [
            self.as_type(x, node) if i in nodes else self.src(x)
            for i, x in enumerate(e.args[1:], 1)
        ]

    def show(self, e: A.Expr) -> str:
        """Source for the value of e shown as text."""
        t = self.type_of(e)
        inner = self.src(e)
        if t.name == "text":
            return inner
        if t.name == "int":
            return f"str({inner})"
        if OPTIMISED and _PURE.match(inner) and (name := self.name_of(t, inner)) is not None:
            return f"('none' if {inner} is None else {name})"  # the formatter, inline
        return f"{self.ns.name_for(self.fmt(t), '_fmt')}(st, {inner})"

    def name_of(self, t: T, v: str) -> str | None:
        """Source for the name of a player, named item or node v (not none), as its
        formatter (values.py) gives it; None for other types."""
        if t.name == "player":
            return f"st.cfg.player_names[{v}]"
        if t.name == "entity" and t.arg in self.name_cols:
            return f"str(st.cols[{self.name_cols[t.arg]}][{v}])"
        if t.name == "node":
            return f"st.cfg.boards[{literal(t.arg)}].names[{v}]"
        return None

    # ------------------------------------------------------------------ expressions
    def src(self, e: A.Expr) -> str:
        return self.node(cast(A.AnyExpr, e))  # every Expr is one of A.AnyExpr

    def node(self, e: A.AnyExpr) -> str:
        match e:
            case A.IntLit() | A.BoolLit():
                return literal(e.value)
            case A.NoneLit():
                return "None"
            case A.TextLit():
                return self.text(e)
            case A.Name():
                return self.name(e)
            case A.ListLit():
                return "(" + "".join(self.src(i) + ", " for i in e.items) + ")"
            case A.Unary():
                inner = self.src(e.operand)
                return f"(not {inner})" if e.op == "not" else f"(-{inner})"
            case A.Binary():
                return self.binary(e)
            case A.Attr():
                return self.attr(e)
            case A.Index():
                return self.index(e)
            case A.Call():
                return self.call(e)
            case A.Comp():
                return self.comp(e)
            case A.Cond():
                cond, then = self.src(e.cond), self.src(e.then)
                return f"({then} if {cond} else {self.src(e.otherwise)})"
            case _:
                assert_never(e)

    def text(self, e: A.TextLit) -> str:
        pieces = [p for p in e.parts if p != ""]
        if OPTIMISED and len(pieces) > 1:
            made = self.named_text(pieces) or self.f_string(pieces)
            if made is None:
                made = self.formatted(e)
            if made is not None:
                return made
        parts = [literal(p) if isinstance(p, str) else self.show(p) for p in pieces]
        if not parts:
            return "''"
        return parts[0] if len(parts) == 1 else "(" + " + ".join(parts) + ")"

    def f_string(self, pieces: list[str | A.Expr]) -> str | None:
        """A text with values in it as one f-string: built at once, where adding its
        parts makes a new text at each `+`, and a number needs no call of `str`. None
        where a value's source could not be written in it (Python 3.11 allows no
        backslash, `#` or the string's own quote there)."""
        out = []
        for p in pieces:
            if isinstance(p, str):
                if not all(ch.isprintable() or ch in _F_ESCAPES for ch in p):
                    return None
                out.append("".join(_F_ESCAPES.get(ch) or in_f_string(ch) for ch in p))
                continue
            src = self.shown_inline(p)
            if '"' in src or "\\" in src or "#" in src:
                return None
            out.append("{" + src + "}")
        return 'f"' + "".join(out) + '"'

    def named_text(self, pieces: list[str | A.Expr]) -> str | None:
        """A text whose one value is a player (`"{p} walks on."`), read from the table
        of its texts per seat (Config.named, made once per players' names) instead of
        made anew at each message: a game keeps every message, and a new string for
        each cost more than the rest of the message. None for any other text."""
        values = [p for p in pieces if not isinstance(p, str)]
        if len(values) != 1 or self.type_of(values[0]).name != "player":
            return None
        who = self.src(values[0])
        if not self.cheap(who):  # read twice
            return None
        site = tuple(p if isinstance(p, str) else None for p in pieces)
        k = self.named_sites.setdefault(site, len(self.named_sites))
        none = "".join("none" if p is None else p for p in site)  # as the formatter shows it
        return f"(st.cfg.named[{k}][{who}] if {who} is not None else {literal(none)})"

    def shown_inline(self, e: A.Expr) -> str:
        """Source for the value of e shown as text, to be written in an f-string: a
        text as it is (`+ ''` keeps `none` R030, as adding it would be), a number as
        `str` shows it, a player's name read inline."""
        t = self.type_of(e)
        inner = self.src(e)
        if t.name == "text":
            return f"({inner} + '')"
        if t.name == "int" and OPTIMISED and SMALL_INTS:  # a number's text made once
            if _NAME.match(inner) or _PURE.match(inner):
                return f"_INTS.get({inner}, {inner})"
            if not self.in_comp_source:
                name = self.temp()
                return f"_INTS.get(({name} := {inner}), {name})"
        if t.name == "int":
            return f"({inner})"
        if t.name == "player" and self.cheap(inner):
            return f"('none' if {inner} is None else st.cfg.player_names[{inner}])"
        return self.show(e)

    def formatted(self, e: A.TextLit) -> str | None:
        """A text of several parts as one `%` formatting: one new string, where each `+`
        makes one, and a number written by `%s` without `str()`. Not when a part is a
        text value: `+` fails on a text that is none (R030), `%s` would write "None"."""
        parts = self.format_parts(e)
        return None if parts is None else f"({parts[0]} % {parts[1]})"

    def format_parts(self, e: A.Expr) -> tuple[str, str] | None:
        """Sources of the template and the values (a tuple) of a text that `formatted`
        writes as one `%` formatting; None for any other text or expression."""
        if not isinstance(e, A.TextLit):
            return None
        parts = [p for p in e.parts if p != ""]
        values = [p for p in parts if not isinstance(p, str)]
        if len(parts) < 2 or not values or any(self.type_of(p).name == "text" for p in values):
            return None
        template = "".join(p.replace("%", "%%") if isinstance(p, str) else "%s" for p in parts)
        shown = [self.src(p) if self.type_of(p).name == "int" else self.show(p) for p in values]
        return literal(template), f"({', '.join(shown)},)"

    def name(self, e: A.Name) -> str:
        sym = self.ref(e)
        match sym:
            case LocalSym():
                where = self.bound.get(sym.slot, f"st.loc[{sym.slot}]")
                # a list grown in place is read as a tuple made of it (see growing.py)
                assert sym.slot not in self.grown.sets, "a set is only tested with `in`"
                return f"tuple({where})" if sym.slot in self.grown.lists else where
            case AttrSym():
                if self.guarded and sym.visibility != "all":
                    return f"(st.vars[{sym.slot}] if st.viewer < 0 else _kn.unknown())"
                return f"st.vars[{sym.slot}]"
            case ValueSym():
                if sym.what == "board":
                    return f"st.cfg.boards[{literal(sym.name)}]"
                return self.const_name(sym) or f"st.cfg.consts[{sym.slot}]"
            case KindSym():
                return literal(sym.name)
            case EnumValueSym():  # an enum value is its name, a constant (interned) text
                return literal(sym.value)
            case EnumSym():
                return literal(sym.values)
            case ZoneSym():
                base = self.layout.zone_base[sym.name]
                if sym.per_player:
                    return str(base)
                if self.guarded and sym.visibility != "all":
                    return self.seen_zone(str(base), "None", sym)
                return f"st.zones[{base}]"
            case BuiltinSym() | None:
                return BUILTIN_NAMES[e.id]
        raise AssertionError(f"name {e.id} resolves to {sym}")

    def seq(self, e: A.Expr) -> str:
        """Source for a list read where a Python list reads as the tuple would (its
        length, an item, a comprehension's source): a local grown in place as it is."""
        sym = self.ref(e)
        if isinstance(e, A.Name) and isinstance(sym, LocalSym) and sym.slot in self.grown.lists:
            return self.bound[sym.slot]
        return self.src(e)

    def members(self, e: A.Expr) -> str:
        """Source for the list of an `in` test: a local held as a set as it is. (Sets
        made of the lists a def cannot change, tested inside its loops, were tried: a
        search over short lists got slower; see docs/performance.md.)"""
        sym = self.ref(e)
        if isinstance(e, A.Name) and isinstance(sym, LocalSym) and sym.slot in self.grown.sets:
            return self.bound[sym.slot]
        if OPTIMISED and isinstance(e, A.Call) and e.func == "reached" and sym is None:
            # the network's cells are kept as a set: tested there, not sorted into a list
            whole = self.src(e)
            assert whole.startswith("tuple(sorted(") and whole.endswith("[0]))"), whole
            return whole[len("tuple(sorted(") : -2]
        return self.seq(e)

    def binary(self, e: A.Binary) -> str:
        op = e.op
        if op == "+" and self.type_of(e).name == "text":
            return f"({self.show(e.left)} + {self.show(e.right)})"
        if op in ("in", "notin"):
            left, right = self.src(e.left), self.members(e.right)
            return f"({left} {'in' if op == 'in' else 'not in'} {right})"
        if OPTIMISED and op == "or":
            chosen = dispatched(self, e)  # by kind: the subject read once (dispatch.py)
            if chosen is not None:
                return chosen
        left, right = self.src(e.left), self.src(e.right)
        if OPTIMISED and FOLD:
            folded = fold(op, left, right)
            if folded is not None:
                return folded
        if OPTIMISED and EMPTINESS:
            empty = emptiness(e, left, right)
            if empty is not None:
                return empty
        if OPTIMISED and NONE_IS and op in ("==", "!=") and "None" in (left, right):
            # no value of the rules is equal to None but None: `is` asks the same, without
            # Python's `==` trying each side's comparison before falling back to identity
            return f"({left} {'is' if op == '==' else 'is not'} {right})"
        if OPTIMISED and op in ("/", "%") and _INT.match(right) and int(right) != 0:
            # by a number that is not 0: nothing to check (`/` rounds down, as _h.divide)
            return f"({left} {'//' if op == '/' else '%'} {right})"
        if op == "/":
            return f"_h.divide({left}, {right}, {self.span(e)})"
        if op == "%":
            return f"_h.modulo({left}, {right}, {self.span(e)})"
        if op == "*" and not (_INT.match(left) or _INT.match(right)):
            return f"_h.multiply({left}, {right}, {self.span(e)})"  # bounded (R046)
        if op == "..":
            short = min(64, self.limits.items)
            if _INT.match(left) and _INT.match(right) and int(right) - int(left) < short:
                return literal(tuple(range(int(left), int(right) + 1)))  # a constant
            return f"tuple(_h.upto({left}, {right}, {self.limits.items}, {self.span(e)}))"
        return f"({left} {op} {right})"

    def attr(self, e: A.Attr) -> str:
        sym = self.ref(e)
        if isinstance(sym, EnumValueSym):
            return literal(sym.value)
        if isinstance(sym, BoardAttrSym):  # the board's column: indexed by node or side
            if self.guarded and sym.visibility != "all":
                return f"(st.cols[{sym.slot}] if st.viewer < 0 else _kn.unknown())"
            return f"st.cols[{sym.slot}]"
        obj = self.src(e.obj)
        if isinstance(sym, AttrSym):
            player = sym.owner == "player"
            if self.guarded and (sym.visibility != "all" or not player):
                # an item's attribute too: the item may be one the viewer was not shown
                return (
                    f"(st.cols[{sym.slot}][{obj}] if st.viewer < 0 else "
                    f"_kn.col(st, {sym.slot}, {obj}, {literal(sym.visibility)}, {player}))"
                )
            return f"st.cols[{sym.slot}][{obj}]"
        t = self.type_of(e.obj)
        if t.name == "player" and e.name == "name":
            return f"st.cfg.player_names[{obj}]"
        if t.name in ("player", "entity"):  # seat, index: the number itself
            return obj
        if t.name == "board":
            return f"{obj}.attrs[{literal(e.name)}]"
        raise AssertionError(f"attribute {e.name} of {t}")

    def index(self, e: A.Index) -> str:
        t = self.type_of(e.obj)
        obj, idx = self.seq(e.obj), self.src(e.index)
        if OPTIMISED and t.name in ("list", "sides") and self.proven(e, obj):
            return f"{obj}[{idx}]"
        if t.name == "zone":
            zone = self.ref(e.obj)
            slot = self.zone_slot(obj, e.index, idx)
            if self.guarded and isinstance(zone, ZoneSym) and zone.visibility != "all":
                return self.seen_zone(slot, f"({slot}) - {obj}", zone)
            return f"st.zones[{slot}]"
        if t.name == "table":
            return f"_h.lookup({obj}, {idx}, {self.span(e)})"
        walrus = OPTIMISED and idx.isdigit() and not self.in_comp_source
        if _PURE.match(obj) and (_NAME.match(idx) or _INT.match(idx)) and not walrus:
            # inline when both sides are cheap and call nothing (evaluated twice); the
            # helper is called only to raise the error outside
            span = self.span(e)
            check = f"len({obj}) > {idx}" if idx.isdigit() else f"0 <= {idx} < len({obj})"
            if self.counted(e.index):  # never below 0: only the length is checked
                check = f"{idx} < len({obj})"
            if OPTIMISED and EMPTINESS and idx == "0":  # the first item: there is one
                check = obj
            return f"({obj}[{idx}] if {check} else _h.index({obj}, {idx}, {span}))"
        if (_NAME.match(idx) or _INT.match(idx)) and not self.in_comp_source:
            # the list evaluated once, named (`:=` is refused in a comprehension's source)
            name = self.temp()
            span = self.span(e)
            check = f"len({name} := {obj}) > {idx}" + ("" if idx.isdigit() else " >= 0")
            if OPTIMISED and EMPTINESS and idx == "0":  # the first item: there is one
                check = f"({name} := {obj})"
            return f"({name}[{idx}] if {check} else _h.index({name}, {idx}, {span}))"
        if OPTIMISED and _PURE.match(obj) and not self.in_comp_source:
            # the index evaluated once, named; the list read twice at no cost
            name = self.temp()
            check = f"0 <= ({name} := {idx}) < len({obj})"
            if self.counted(e.index):
                check = f"({name} := {idx}) < len({obj})"
            return f"({obj}[{name}] if {check} else _h.index({obj}, {name}, {self.span(e)}))"
        return f"_h.index({obj}, {idx}, {self.span(e)})"

    def counted(self, e: A.Expr) -> bool:
        """Is e a local never below 0 (ranges.py `counters`)? A `none` index is a
        TypeError, R030, with the shorter check as with the longer."""
        sym = self.ref(e) if isinstance(e, A.Name) else None
        return OPTIMISED and COUNTERS and isinstance(sym, LocalSym) and sym.slot in self.counters

    def extreme_of_two(self, f: str, a: str, b: str) -> str:
        """`min(a, b)` / `max(a, b)` as a comparison: Python's builtin makes an iterator
        of its arguments and calls the comparison through it, several times the cost.
        Each side is evaluated once, a before b; on a tie a is given, as the builtin
        gives it, and a `none` fails in the comparison (R030) as it does in min."""
        if not (OPTIMISED and TWO_EXTREMES) or self.in_comp_source:
            return f"{f}({a}, {b})"
        sides = []
        for side in (a, b):
            if _NAME.match(side) or _INT.match(side):
                sides.append((side, side))
            else:
                name = self.temp()
                sides.append((f"({name} := {side})", name))
        (first_a, read_a), (first_b, read_b) = sides
        keep = "<=" if f == "min" else ">="  # a kept unless b is smaller (larger)
        return f"({read_a} if {first_a} {keep} {first_b} else {read_b})"

    def temp(self) -> str:
        """A new name for a value named in an expression (`:=`): numbered after every
        name of the namespace, so that it hides none (`_t3` may be a board's TileOps)."""
        self.ns.counter += 1
        return f"_t{self.ns.counter}"

    def proven(self, e: A.Index, obj: str) -> bool:
        """Is the index of this list read proven to lie inside the list, so that it
        needs no check? A node (or side) of a board indexing that board's column (a
        column has an item per node or side; `none` as the index is a TypeError, R030,
        as with the check); a whole number, or a loop's variable over constant bounds,
        within a list of known length; a loop's variable over `0..len(xs) - 1`
        indexing xs itself, xs unchanged by the loop."""
        sym = self.ref(e.obj)
        at = self.type_of(e.index)
        if isinstance(sym, BoardAttrSym) and isinstance(e.obj, A.Attr | A.Name):
            return at == T("side" if sym.edge else "node", sym.board)
        if isinstance(e.obj, A.Attr) and at.name == "node":  # a fixed attribute: one
            board = self.type_of(e.obj.obj)  # value per node, or R019 at the start
            return board.name == "board" and board.arg == at.arg
        if isinstance(e.index, A.IntLit):
            low = high = e.index.value
        else:
            var = self.ref(e.index) if isinstance(e.index, A.Name) else None
            if isinstance(var, LocalSym) and self.indices_of.get(var.slot) == obj:
                return True
            low, high = self.range_of(e.index) or (-1, -1)
        size = self.known_length(e.obj)
        return low >= 0 and size is not None and high < size

    def within(self, e: A.Expr, low: int, high: int) -> bool:
        """Is e a whole number from low to high in every evaluation (never none)?"""
        known = self.range_of(e) if OPTIMISED else None
        return known is not None and low <= known[0] and known[1] <= high

    def range_of(self, e: A.Expr) -> tuple[int, int] | None:
        """The least and the greatest whole number e can be, where plain to see: a
        number, `x % k` (Python's: 0 to k - 1), a loop's variable over constant bounds,
        a local or a proc's parameter of known values (ranges.py), the branches of
        `if ... then ... else`, a def whose value is one of these (through its
        arguments, not read). None: not known (or it may be none)."""
        facts = self.facts if RANGES else {}
        return ranges.range_of(self.p, e, self.ranges, facts, extended=RANGES)

    def known_length(self, e: A.Expr) -> int | None:
        """The length of a list literal, of a const written as one, or of an attribute
        of a fixed length (lengths.py)."""
        sym = self.ref(e)
        if isinstance(sym, ValueSym) and sym.what == "const" and isinstance(sym.decl, A.ConstDecl):
            e = sym.decl.value
        if isinstance(sym, AttrSym) and FIXED_LENGTHS and isinstance(e, A.Attr | A.Name):
            return self.lengths.get(id(sym))
        return len(e.items) if isinstance(e, A.ListLit) else None

    def bind_loop(self, slot: int, source: A.Expr, source_src: str, unchanged: bool) -> None:
        """Note what is known of a loop variable's values (see `proven`): the bounds of
        a constant range, or the list whose indices `0..len(xs) - 1` runs over, when
        `unchanged` (the loop cannot change xs); or that it runs over the seats, so
        is never `none`."""
        if OPTIMISED and source_src == PLAYERS:
            self.seats.add(slot)
        values = constant_items(source_src)
        if values is not None:
            if values:
                self.ranges[slot] = (min(values), max(values))
            return
        if not (isinstance(source, A.Binary) and source.op == ".."):
            return
        low, high = source.left, source.right
        if not (isinstance(low, A.IntLit) and low.value >= 0 and unchanged):
            return
        if (
            isinstance(high, A.Binary)
            and high.op == "-"
            and isinstance(high.right, A.IntLit)
            and high.right.value == 1
            and isinstance(high.left, A.Call)
            and high.left.func == "len"
            and isinstance(self.ref(high.left.args[0]), LocalSym)
        ):
            self.indices_of[slot] = self.seq(high.left.args[0])

    def unbind_loop(self, slot: int) -> None:
        self.seats.discard(slot)
        self.ranges.pop(slot, None)
        self.indices_of.pop(slot, None)

    def zone_slot(self, base: str, owner: A.Expr, owner_src: str) -> str:
        """The slot of a player's zone; `none` as the owner is a runtime error."""
        if (
            self.type_of(owner).name == "player"
            and isinstance(owner, A.Name)
            and owner.id == "current"
        ):
            return f"{base} + st.current"
        var = self.ref(owner) if isinstance(owner, A.Name) else None
        if isinstance(var, LocalSym) and var.slot in self.seats:  # a seat: never `none`
            return f"{base} + {owner_src}"
        checked = f"_h.zone_slot({base}, {owner_src}, {self.span(owner)})"
        if OPTIMISED and INLINE_SLOTS and _PURE.match(owner_src):
            # tested inline (a def's parameter, read twice at no cost): the helper is
            # called only to raise the error for `none`
            return f"({base} + {owner_src} if {owner_src} is not None else {checked})"
        return checked

    def seen_zone(self, slot: str, owner: str, zone: ZoneSym) -> str:
        """A hidden zone, read inside `known` as its viewer sees it (rules that call
        `known` only; see runtime/seen.py)."""
        return (
            f"(st.zones[{slot}] if st.viewer < 0 else "
            f"_kn.zone(st, {slot}, {owner}, {literal(zone.visibility)}))"
        )

    def call(self, e: A.Call) -> str:
        sym = self.ref(e)
        if isinstance(sym, DefSym):
            return self.call_def(sym, e)
        f = e.func
        args = e.args
        if f in TILE_FUNCS or f in GRID_FUNCS:
            return self.board_call(e)
        if f in ("side_cell", "side_dir"):
            part = 0 if f == "side_cell" else 1
            return f"_h.side_part({self.src(args[0])}, {part}, {self.span(e)})"
        if f in ("across", "on_rim"):
            grid = f"st.cfg.boards[{literal(self.type_of(args[0]).arg)}]"
            if f == "across":
                return f"_h.across({grid}, {self.src(args[0])}, {self.span(e)})"
            return f"(_h.across({grid}, {self.src(args[0])}, {self.span(e)}) is None)"
        if f == "known":  # the second argument as the first sees it: runtime/seen.py
            return f"_kn.known(st, {self.src(args[0])}, lambda: {self.seen_by(args[1])})"
        if f in ("pieces", "nodes"):
            target = self.ref(args[0])
            assert target is not None
            table = "entities" if f == "pieces" else "nodes"
            return f"st.cfg.{table}[{literal(target.name)}]"
        a = [self.src(x) for x in args]
        if f in SIMPLE_CALLS:
            zone = self.ref(args[0])
            if f == "len" and isinstance(zone, ZoneSym):
                return f"len(st.zones[{self.layout.zone_base[zone.name]}])"
            if f == "len":
                return f"len({self.seq(args[0])})"
            return f"{SIMPLE_CALLS[f]}({a[0]})"
        if f == "seat":
            return a[0]
        if f in ("next_player", "prev_player"):
            delta = 1 if f == "next_player" else -1
            if self.orders is not None:  # some phase plays in a drawn order
                return (
                    f"_h.next_in_order(st, {a[0]}, {delta}, {self.orders}, {self.span(e)}, {f!r})"
                )
            if a[0] == "st.current":  # never none: no check
                return f"((st.current + {delta}) % st.cfg.n)"
            return f"_h.next_seat({a[0]}, {delta}, st.cfg.n, {self.span(e)}, {f!r})"
        if f in ("step", "distance", "path_length"):
            a[1:] = self.node_args(e)
        if f == "path_length":
            goals = a[2] if self.type_of(args[2]).name == "list" else f"({a[2]},)"
            return f"{a[0]}.path_length({a[1]}, {goals}, {a[3]}, {self.span(e)})"
        if f == "step":
            board = self.ref(args[0])
            if (
                isinstance(board, ValueSym)
                and isinstance(board.decl, A.BoardDecl)
                and board.decl.shape == "ring"
            ):
                return f"(({a[1]} + {a[2]}) % {a[0]}.size)"
            return f"_h.step({a[0]}, {a[1]}, {a[2]}, {self.span(e)})"
        if f == "number":
            return f"_h.number({a[0]}, {self.span(e)})"
        if f == "text":
            return self.show(args[0])
        if f in ("max", "min"):
            if len(a) == 2:
                return self.extreme_of_two(f, a[0], a[1])
            return f"_h.extreme({a[0]}, {f}, {self.span(e)}, {f!r})"
        if f in ("first", "last"):
            return f"_h.{f}({a[0]}, {self.span(e)})"
        if f == "distance":
            return f"{a[0]}.distance({a[1]}, {a[2]})"
        if f == "without":
            return f"tuple([_w for _w in {a[0]} if _w != {a[1]}])"
        if f == "count":
            if self.type_of(args[0]).elem == BOOL:
                return f"sum(1 for _w in {a[0]} if _w)"
            return f"len({a[0]})"
        raise AssertionError(f"built-in {f}")

    def seen_by(self, e: A.Expr) -> str:
        """The expression of `known(P, e)`, guarded even where the code around it is
        not (see `unguarded`)."""
        was, self.guarded = self.guarded, self.knows
        try:
            return self.src(e)
        finally:
            self.guarded = was

    @contextmanager
    def unguarded(self) -> Iterator[None]:
        """Compile statements without the guards of hidden reads: a statement never
        runs while `known` is worked out (only its expression does, and the defs it
        calls, which keep theirs), so `st.viewer < 0` is always true there. Off with
        OPTIMISED or UNGUARDED."""
        was = self.guarded
        self.guarded = was and not (OPTIMISED and UNGUARDED)
        try:
            yield
        finally:
            self.guarded = was

    @staticmethod
    def cheap(*sources: str) -> bool:
        """Are these sources cheap to evaluate twice, and call nothing?"""
        return all(_PURE.match(x) or _INT.match(x) for x in sources)

    def board_call(self, e: A.Call) -> str:
        f = e.func
        board = self.ref(e.args[0])
        assert isinstance(board, ValueSym)
        a = self.node_args(e)
        if f == "cell":
            return f"st.cfg.boards[{literal(board.name)}].cell({a[0]}, {a[1]})"
        if f == "neighbour":
            direction = self.within(e.args[2], 0, 3)
            return self.neighbour(board, a[0], a[1], self.span(e), direction)
        if f in ("line_from", "lines_through"):
            grid = f"st.cfg.boards[{literal(board.name)}]"
            most = self.limits.items  # no endless line on a grid without bounds
            return f"_h.{f}({grid}, {', '.join(a)}, {most}, {self.span(e)})"
        if f == "side":
            grid = f"st.cfg.boards[{literal(board.name)}]"
            call = f"_h.side({grid}, {a[0]}, {a[1]}, {self.span(e)})"
            decl = board.decl
            bounded = isinstance(decl, A.BoardDecl) and decl.shape == "grid" and not open_grid(decl)
            if OPTIMISED and bounded and self.cheap(*a[:2]):
                # a node of the grid (or none, which the helper refuses) and a direction
                # checked inline: the side's number read from the grid's table
                c, d = a[0], a[1]
                if _INT.match(c) or _INT.match(d) and not 0 <= int(d) < 4:
                    return call  # a number as the cell, or no such side: the helper checks
                checks = [f"{c} is not None"]
                if not (_INT.match(d) or self.within(e.args[2], 0, 3)):
                    checks.append(f"{d} is not None and 0 <= {d} < 4")
                return f"({grid}.canon[4 * {c} + {d}] if {' and '.join(checks)} else {call})"
            return call
        ops = self.ns.name_for(self.tiles[board.name], "_t")
        layer = self.tiles[board.name].layer
        if f == "placed":
            return f"{ops}.placed(st)"
        if f in ("tile", "turn_of", "secret_at"):  # (tile, turn, face down) of a cell
            part = ("tile", "turn_of", "secret_at").index(f)
            if self.guarded and part < 2:
                return (
                    f"(st.layers[{layer}].get({a[0]}, _NO_TILE)[{part}] if st.viewer < 0 "
                    f"else _kn.tile(st, {layer}, {a[0]}, {part}))"
                )
            return f"st.layers[{layer}].get({a[0]}, _NO_TILE)[{part}]"
        if f == "face_up":  # the tile on a cell if it lies face up, else none
            return f"_h.face_up(st.layers[{layer}].get({a[0]}, _NO_TILE))"
        if f == "open_side":
            return f"{ops}.open_side(st, {a[0]}, {a[1]} % 4)"
        if f in ("fits", "joins"):
            return f"{ops}.{f}(st, {', '.join(a)})"
        if f == "reached":
            return f"tuple(sorted({ops}.network(st, {a[0]})[0]))"
        part = 1 if f == "touching" else 2
        assert f in ("touching", "spots"), f
        return f"{ops}.network(st, {a[0]})[{part}]"

    def neighbour(self, board: ValueSym, c: str, d: str, span: str, direction: bool = False) -> str:
        """`neighbour(b, c, d)`; on a bounded grid, for a direction 0-3, read inline from
        the grid's table (a cell `none` is R030 either way, as the helper's read), with
        no check of d where it is known to be one (`direction`)."""
        grid = f"st.cfg.boards[{literal(board.name)}]"
        call = f"_h.neighbour({grid}, {c}, {d}, {span})"
        decl = board.decl
        bounded = isinstance(decl, A.BoardDecl) and decl.shape == "grid" and not open_grid(decl)
        if not (OPTIMISED and bounded and self.cheap(c, d)) or _INT.match(c):
            return call
        if _INT.match(d):
            return f"{grid}.next_cell[{c}][{d}]" if 0 <= int(d) < 4 else call
        if direction:
            return f"{grid}.next_cell[{c}][{d}]"
        return f"({grid}.next_cell[{c}][{d}] if {d} is not None and 0 <= {d} < 4 else {call})"

    def call_def(self, sym: DefSym, e: A.Call) -> str:
        each = [self.as_type(a, p.type) for p, a in zip(sym.params, e.args, strict=True)]
        name = self.specialised(sym, e)
        body = self.inlined(name, each)
        if body is not None:
            return self.seated(body, [x for x, a in zip(each, e.args, strict=True) if self.seat(a)])
        args = "".join(", " + a for a in each)
        slot = self.memo_slots.get(name) if MEMO_INLINE and not each and OPTIMISED else None
        if slot is not None and not self.memo_calls and name == sym.name:
            kept = f"st.cfg.memo[{slot}]"
            return f"({kept} if {kept} is not _UNSET else _d_{name}(st))"
        if self.memo_calls and not re.search(r"\b_opt\b", args):
            # in a bot's rules, a call that does not read the option is the same for
            # every option: worked out once per ranking (`_bm`, see bots.py)
            # (inside `known` a def may read less: its values are kept per viewer)
            cache = "_bm" if not self.guarded else "_h.memo_for(_bm, st.viewer)"
            return f"_h.memo_call({cache}, _d_{name}, st{args})"
        return f"_d_{name}(st{args})"

    def specialised(self, sym: DefSym, e: A.Call) -> str:
        """The name of the def's function to call: its second version (`_d_0r_NAME`,
        compiled knowing its whole-number parameters' values, see compile_def) when every
        such argument of this call is known to fall within them, else its own."""
        spec = self.specs.get(sym.name) if self.specialising(sym.name) else None
        if spec and all(self.within(e.args[i], low, high) for i, (low, high) in spec.items()):
            return f"{SPEC}{sym.name}"
        return sym.name

    def comp_parts(self, e: A.Comp) -> tuple[str, str, str, str, str]:
        """Sources of a comprehension's variable, source, element, condition (`where`,
        "" if none) and key (`by`, "" if none)."""
        source = self.comp_source(e)
        var, elem, where, key, _ = self.comp_body(e, source)
        return var, source, elem, where, key

    def comp_source(self, e: A.Comp) -> str:
        """Source of what a comprehension runs over (a range as it is, not copied)."""
        self.in_comp_source += 1
        try:
            source = self.seq(e.source)
        finally:
            self.in_comp_source -= 1
        if source.startswith("tuple(_h.upto(") and source.endswith("))"):
            source = source[6:-1]
        return source

    def comp_body(self, e: A.Comp, source: str) -> tuple[str, str, str, str, str | None]:
        """Sources of a comprehension's variable, element, condition and key over
        `source`, and of the player left out where it is `[p for p in players where
        p != q]` (None otherwise)."""
        local = self.p.locals_of[id(e)]
        var = f"_v{local.slot}"
        self.bound[local.slot] = var
        self.bind_loop(local.slot, e.source, source, True)  # a comprehension changes nothing
        self.in_comp += 1
        try:
            elem = self.src(e.elem)
            where = self.src(e.where) if e.where is not None else ""
            key = self.src(e.by) if e.by is not None else ""
            # `[p for p in players where p != q]`: the players but q, kept per table
            but = self.all_but(e, local.slot) if source == BUILTIN_NAMES["players"] else None
        finally:
            self.in_comp -= 1
            del self.bound[local.slot]
            self.unbind_loop(local.slot)
        return var, elem, where, key, but

    def comp(self, e: A.Comp) -> str:
        local = self.p.locals_of[id(e)]
        source = self.comp_source(e)
        if OPTIMISED and e.func in ("any", "all"):
            few = constant_items(source)
            if few is not None and len(few) <= UNROLL_MAX:
                return self.unrolled(e, local.slot, few)
        fit = self.fitting(e, local.slot) if OPTIMISED and e.by is None else None
        if fit is not None:
            return fit
        meets = membership(self, e, local.slot, source) if OPTIMISED and HOIST else None
        if meets is not None:
            return meets
        picked = sifted(self, e, local.slot, source) if OPTIMISED else None
        if picked is not None:  # a copy, or items picked by fixed attributes: sifted.py
            return f"({picked} if {source} else ())" if _PURE.match(source) else picked
        var, elem, where, key, but = self.comp_body(e, source)
        where = f" if {where}" if where else ""
        loop = f"for {var} in {source}{where}"
        f = e.func
        if f == "" and key:
            # sort (key, position, element) so that equal keys keep their order
            return (
                f"tuple([_x[2] for _x in sorted([({key}, _i, {elem}) for _i, {var} in "
                f"enumerate({source}){where}])])"
            )
        if f == "" and OPTIMISED and not key and but is not None:
            return f"_others[st.cfg.n][{but}]"
        if f == "":
            whole = f"tuple([{elem} {loop}])"
            bounds = _UPTO.match(source)
            item = e.elem
            if bounds and not where and isinstance(item, A.Index) and self._item_of(e, local.slot):
                # `[xs[k] for k in a..b]`: a slice when every index lies inside (else
                # item by item, for the checks)
                seq = self.src(item.obj)
                limit = self.limits.items
                return f"(_h.items({seq}, {bounds[1]}, {bounds[2]}, {limit}) or {whole})"
            if OPTIMISED and not bounds and constant_items(source) is None:
                # an empty source makes no comprehension (Python 3.11 makes a function
                # and calls it for each): the source tested first (named, unless cheap)
                if _PURE.match(source):
                    return f"({whole} if {source} else ())"
                if not self.in_comp_source:
                    name = self.temp()
                    made = f"tuple([{elem} for {var} in {name}{where}])"
                    return f"({made} if ({name} := {source}) else ())"
            return whole
        if f in ("any", "all", "sum"):
            return f"{f}({elem} {loop})"
        if f == "count":
            if self.type_of(e.elem).name == "bool":
                return f"sum(1 {loop} if {elem})" if not where else f"sum(1 {loop} and {elem})"
            return f"sum(1 {loop})"
        assert f in ("max", "min"), f
        return f"_h.extreme([{elem} {loop}], {f}, {self.span(e)}, {f!r})"

    def unrolled(self, e: A.Comp, slot: int, values: list[int]) -> str:
        """`any`/`all` over a few constant numbers (`any(fits(c, t) for t in [0, 2])`),
        written out as one test per number, joined by `or` / `and`: no generator to
        make and resume for a test the rules ask over and over. The numbers are
        constants, so writing the element once per number changes nothing but the
        cost; the tests run in the list's order and stop where `any`/`all` would."""
        tests = []
        for v in values:
            with self.constant_bound(slot, v):
                elem = self.src(e.elem)
                where = self.src(e.where) if e.where is not None else None
            if where is None:
                tests.append(elem)
            else:
                tests.append(
                    f"({where} and {elem})" if e.func == "any" else f"(not {where} or {elem})"
                )
        if not tests:
            return "False" if e.func == "any" else "True"
        joined = (" or " if e.func == "any" else " and ").join(tests)
        return f"(True if {joined} else False)"  # a bool, as any() and all() give

    @contextmanager
    def constant_bound(self, slot: int, value: int | str) -> Iterator[None]:
        """Compile with the variable at `slot` written as the constant `value` (a loop
        over a few constants written out once per value): a number is its own range."""
        self.bound[slot] = f"({value})" if isinstance(value, int) and value < 0 else literal(value)
        if isinstance(value, int):
            self.ranges[slot] = (value, value)
        try:
            yield
        finally:
            del self.bound[slot]
            self.unbind_loop(slot)

    def fitting(self, e: A.Comp, slot: int) -> str | None:
        """Where a tile fits over the spots of a network, asked at once and kept per
        layout (runtime/fitting.py): `any(any(joins(...) for t in [..]) for s in
        spots(..))` and `[s for s in spots(..) where any(joins(...) ...)]`; or None."""
        if e.func == "any" and e.where is None:
            call = fitting_call(self, e.source, slot, e.elem)
            return None if call is None else f"bool({call})"
        if e.func == "" and e.where is not None and self.is_var(e.elem, slot):
            return fitting_call(self, e.source, slot, e.where)
        return None

    def _item_of(self, e: A.Comp, slot: int) -> bool:
        """Is the comprehension's element `NAME[VAR]`, VAR its own variable and NAME a
        local (a Python name, evaluated at no cost)?"""
        elem = e.elem
        if not (isinstance(elem, A.Index) and isinstance(elem.index, A.Name)):
            return False
        var = self.ref(elem.index)
        return (
            isinstance(var, LocalSym)
            and var.slot == slot
            and isinstance(elem.obj, A.Name)
            and _NAME.match(self.src(elem.obj)) is not None
            and self.type_of(elem.obj).name == "list"
        )

    # ------------------------------------------------------------------ defs
    def comp_lines(self, e: A.Comp, target: str) -> list[str] | None:
        """`let xs = [elem for v in source where cond]` as a loop that appends: Python
        3.11 makes and calls a function for a comprehension, which costs more than the
        loop over a short list: the players. None where the comprehension is compiled
        as an expression (another source, a sort, the players but one)."""
        if not OPTIMISED or e.func != "" or e.by is not None:
            return None
        local = self.p.locals_of[id(e)]
        self.in_comp_source += 1
        try:
            source = self.seq(e.source)
        finally:
            self.in_comp_source -= 1
        if source != BUILTIN_NAMES["players"]:
            return None  # over a longer list, a comprehension's own loop is faster
        var = f"_v{local.slot}"
        self.bound[local.slot] = var
        self.bind_loop(local.slot, e.source, source, True)
        try:
            elem = self.src(e.elem)
            cond = self.src(e.where) if e.where is not None else None
            but = self.all_but(e, local.slot)
        finally:
            del self.bound[local.slot]
            self.unbind_loop(local.slot)
        if but is not None:
            return None
        made = f"_c{local.slot}"
        if cond is not None:  # few pass, often none: a tuple grown, no list made
            add = [f"if {cond}:", f"    {made} += ({elem},)"]
            return [
                f"{made} = ()",
                f"for {var} in {source}:",
                *("    " + a for a in add),
                f"{target} = {made}",
            ]
        return [
            f"{made} = []",
            f"for {var} in {source}:",
            f"    {made}.append({elem})",
            f"{target} = tuple({made})",
        ]

    def all_but(self, e: A.Comp, slot: int) -> str | None:
        """The source of q, where the comprehension is `[p for p in players where p !=
        q]` (or `q != p`), q a player (or none) that does not depend on p (compiled with
        p bound): the players but q are one tuple per table (`_others`, see Codegen)."""
        cond = e.where
        if not (isinstance(cond, A.Binary) and cond.op == "!=" and self.is_var(e.elem, slot)):
            return None
        for mine, other in ((cond.left, cond.right), (cond.right, cond.left)):
            if self.is_var(mine, slot) and self.type_of(other).name in ("player", "none"):
                src = self.src(other)
                return src if f"_v{slot}" not in src else None
        return None

    def is_var(self, e: A.Expr, slot: int) -> bool:
        """Is e the name of the local at slot?"""
        sym = self.ref(e) if isinstance(e, A.Name) else None
        return isinstance(sym, LocalSym) and sym.slot == slot

    def compile_defs(self, block: Callable[[tuple[A.Stmt, ...]], list[str]]) -> None:
        """Every def becomes a generated function; defs whose value is fixed for the
        whole table (no state read, no text shown) are computed once per table. The
        block of a def is compiled by `block` (straight-line code, see straight.py); its
        parameters and locals are Python variables of the function."""
        seen_by_known = seen.seen_defs(self.p) if self.knows else set()
        for name, sym in self.p.defs.items():
            with self.unguarded() if name not in seen_by_known else nullcontext():
                self.compile_def(name, sym, block)

    def compile_def(
        self, name: str, sym: DefSym, block: Callable[[tuple[A.Stmt, ...]], list[str]]
    ) -> None:
        """One def as a generated function (see compile_defs)."""
        params = [f"_a{p.slot}" for p in sym.params]
        for p, py in zip(sym.params, params, strict=True):
            self.bound[p.slot] = py
        decl_body = sym.decl.body
        lets = self.own_locals(decl_body) if isinstance(decl_body, tuple) else []
        for slot in lets:
            self.bound[slot] = f"_a{slot}"
        try:
            if isinstance(decl_body, tuple):
                if OPTIMISED:
                    self.grown = grown_locals(self.p, decl_body, lets)
                lines = block(decl_body)
                if OPTIMISED:  # the state's tables, and a loop's `in p.attr`, read once
                    lines = invariant.hoisted(prelude(lines), params)
                self.ns.function(f"_d_{name}", ", ".join(["st", *params]), lines, OPTIMISED)
                return
            body = self.src(decl_body)
            if ":=" in body and OPTIMISED and NAMED_READS:  # for comprehensions: unnamed
                self.in_comp += 1
                try:
                    self.inline_plain[name] = self.src(decl_body)
                finally:
                    self.in_comp -= 1
        finally:
            self.grown = Grown()
            for p in sym.params:
                self.bound.pop(p.slot, None)
            for slot in lets:
                self.bound.pop(slot, None)
        own = {p.slot for p in sym.params}
        if not sym.params and fixed(self.p, decl_body):
            slot = self.memo_slots[name] = len(self.memo_slots)
            lines = [
                "memo = st.cfg.memo",
                f"value = memo[{slot}]",
                "if value is _UNSET:",
                f"    value = memo[{slot}] = {body}",
                "return value",
            ]
        elif sym.params and _loops(self.p, decl_body) and fixed(self.p, decl_body, own):
            # a def that loops over what is fixed for the table, given its arguments:
            # worked out once per table and arguments (as `on_rim(c)` of a board)
            slot = self.memo_slots[name] = len(self.memo_slots)
            lines = [
                f"cache = st.cfg.memo[{slot}]",
                "if cache is _UNSET:",
                f"    cache = st.cfg.memo[{slot}] = {{}}",
                f"key = ({', '.join(params)},)",
                "value = cache.get(key, _UNSET)",
                "if value is _UNSET:",
                f"    value = cache[key] = {body}",
                "return value",
            ]
        else:
            lines = [f"return {body}"]
            if len(_SLOT_TEST.sub(r"\3", body)) <= max(INLINE_MAX, RULE_INLINE_MAX):
                self.inline_bodies[name] = (params, body)  # (measured as it was)
            if self.specialising(name):
                self.compile_spec(name, sym, params)
        self.ns.function(f"_d_{name}", ", ".join(["st", *params]), lines, OPTIMISED)
        if self.specialising(name) and f"_d_{SPEC}{name}" not in self.ns.env:
            # a def kept per table (above): its second name is the same function
            self.ns.env[f"_d_{SPEC}{name}"] = self.ns.env[f"_d_{name}"]

    def const_name(self, sym: ValueSym) -> str | None:
        """A const written as a list of plain numbers and texts has the same value at
        every table: a global of the generated code holds it (one load, not three)."""
        decl = sym.decl
        if not (OPTIMISED and LITERAL_CONSTS and sym.what == "const"):
            return None
        if not (isinstance(decl, A.ConstDecl) and isinstance(decl.value, A.ListLit)):
            return None
        if sym.slot not in self.const_names:
            value = literal_items(decl.value)
            self.const_names[sym.slot] = None if value is None else self.ns.name_for(value, "_c")
        return self.const_names[sym.slot]

    def specialising(self, name: str) -> bool:
        """Is the def compiled a second time (see `specialised`)?"""
        return OPTIMISED and RANGES and SPECIALISE and name in self.specs

    def compile_spec(self, name: str, sym: DefSym, params: list[str]) -> None:
        """The def of one expression again (`_d_0r_NAME`), its whole-number parameters
        known to be within the ranges of ranges.def_specs: their reads of a const list,
        a grid's neighbour or side need no check. Called only where the arguments are
        known so (`specialised`); short, it is written in place of those calls."""
        known = {sym.params[i].slot: r for i, r in self.specs[name].items()}
        for p, py in zip(sym.params, params, strict=True):
            self.bound[p.slot] = py
        self.facts.update(known)
        try:
            value = sym.decl.body
            assert isinstance(value, A.Expr)  # (ranges.def_specs: no `set` of a parameter)
            body = self.src(value)
        finally:
            for slot in known:
                del self.facts[slot]
            for p in sym.params:
                self.bound.pop(p.slot, None)
        if len(_SLOT_TEST.sub(r"\3", body)) <= INLINE_MAX:
            self.inline_bodies[f"{SPEC}{name}"] = (params, body)
        self.ns.function(
            f"_d_{SPEC}{name}", ", ".join(["st", *params]), [f"return {body}"], OPTIMISED
        )

    def inlined(self, name: str, args: list[str]) -> str | None:
        """The body of a short def written in place of its call, its parameters replaced
        by the arguments: a def call costs more than a short body, and the rules call
        such defs in their hot loops. Each argument must be cheap and call nothing (so
        that it may be evaluated any number of times), or the body must use each
        parameter once and always (no branch, loop or short cut): either way the value
        is the call's. No argument may name a local that the body binds."""
        known = self.inline_bodies.get(name)
        if known is None:
            return None
        params, body = known
        if self.in_comp and name in self.inline_plain:  # nothing named (`:=`) there
            body = self.inline_plain[name]
        size = len(_SLOT_TEST.sub(r"\3", body))
        if size > INLINE_MAX and not (self.memo_calls and _OPTION.search(" ".join(args))):
            return None  # longer: only in a bot's rules, given the option (RULE_INLINE_MAX)
        if self.in_comp_source and ":=" in body:
            return None
        bare = _STRING.sub("''", body)
        if 'f"' in body:  # an f-string's values are code: read it all (more cautious)
            bare = body
            if any('"' in a or "\\" in a or "#" in a for a in args):
                return None  # not to be written in the f-string (see f_string)
        own = set(_LOCAL.findall(bare)) - set(params)
        once = _BRANCHES.search(bare) is None and all(
            len(re.findall(rf"\b{p}\b", bare)) == 1 for p in params
        )
        named_ok = self.names_all(params, bare)
        for a in args:
            cheap = _PURE.match(a) or _INT.match(a)
            if not (cheap or once or named_ok) or own & set(_LOCAL.findall(a)):
                return None
        table = dict(zip(params, args, strict=True))
        # the body's own `:=` names made anew: two copies in one function share none, so
        # that loops.py may make each comprehension holding one a function of its own
        fresh = {t: self.temp() for t in _WALRUS.findall(bare)} if FRESH_TEMPS else {}
        named = self.named_args(table, bare)

        def put(m: re.Match[str]) -> str:
            if m[0] not in table:
                return fresh.get(m[0], m[0])
            if m[0] in named:  # read once, where the body first reads it; named after
                first = f"({named[m[0]]} := {table[m[0]]})"
                table[m[0]] = named.pop(m[0])
                return f"({first})"
            return f"({table[m[0]]})"

        return "(" + _LOCAL.sub(put, body) + ")"

    def names_all(self, params: list[str], bare: str) -> bool:
        """May every argument of a call of this body be named where the body first reads
        it (named_args, NAMED_ARGS)? Where the body, without branches, reads each
        parameter and first reads them in their order: each argument is then worked out
        once and always, in the order the call works them out."""
        if not (OPTIMISED and NAMED_READS and NAMED_ARGS) or _BRANCHES.search(bare):
            return False
        if self.in_comp or self.in_comp_source:
            return False
        firsts = [m.start() if (m := re.search(rf"\b{p}\b", bare)) else -1 for p in params]
        return all(f >= 0 for f in firsts) and firsts == sorted(firsts)

    def seat(self, e: A.Expr) -> bool:
        """Is e the variable of a loop over the seats (never `none`)?"""
        var = self.ref(e) if isinstance(e, A.Name) else None
        return isinstance(var, LocalSym) and var.slot in self.seats

    def seated(self, body: str, seats: list[str]) -> str:
        """A def's body written in place, its tests of a player's zone whose owner may be
        `none` (ExprGen.zone_slot, for the parameter) left out where the argument is a
        seat's loop variable, which never is (SEATED): `any(can_break(c, p) for p in
        players)` reads `front[p]` as `zones[12 + p]` for each seat."""
        for arg in seats if SEATED and OPTIMISED else ():
            read = rf"\(*{re.escape(arg)}\)*"
            test = rf"\((\d+) \+ ({read}) if \2 is not None else _h\.zone_slot\(\1, \2, _s\d+\)\)"
            body = re.sub(test, r"(\1 + \2)", body)
        return body

    def named_args(self, table: dict[str, str], bare: str) -> dict[str, str]:
        """The parameters whose argument, a read of the state (`st.cols[5][_a48][0]`)
        the body reads more than once, is read once and named (`:=`) where the body
        first reads it: in a body without branches the first read written is the first
        worked out, and always is. A name for each."""
        if not (OPTIMISED and NAMED_READS) or self.in_comp_source or _BRANCHES.search(bare):
            return {}
        if self.in_comp:  # what `:=` names there is the function's (a cell), not its own
            return {}
        return {
            p: self.temp()
            for p, a in table.items()
            if not (_NAME.match(a) or _INT.match(a)) and len(re.findall(rf"\b{p}\b", bare)) > 1
        }

    def own_locals(self, stmts: tuple[A.Stmt, ...]) -> list[int]:
        """The slots of the `let`s in a def's block (at any depth)."""
        slots: list[int] = []
        stack = list(stmts)
        while stack:
            s = stack.pop()
            if isinstance(s, A.Let):
                slots.append(self.p.locals_of[id(s)].slot)
            stack.extend(x for body in A.blocks_in(s) for x in body)
        return slots


def literal_items(e: A.ListLit) -> tuple[object, ...] | None:
    """The value of a list of plain whole numbers (`-1` too) and texts (no `{...}` in
    them), as a game holds it (a tuple); None for any other list."""
    items: list[object] = []
    for x in e.items:
        if isinstance(x, A.Unary) and x.op == "-" and isinstance(x.operand, A.IntLit):
            items.append(-x.operand.value)
        elif isinstance(x, A.IntLit) and not isinstance(x.value, bool):
            items.append(x.value)
        elif isinstance(x, A.TextLit) and all(isinstance(p, str) for p in x.parts):
            items.append("".join(cast(list[str], x.parts)))
        else:
            return None
    return tuple(items)


def _loops(program: Program, e: A.Expr) -> bool:
    """Does the expression hold a comprehension or an aggregate (a loop), through the
    defs it calls too?"""
    return any(isinstance(node, A.Comp) for node in expressions(program, [e]))


def fixed(program: Program, e: object, params: frozenset[int] | set[int] = frozenset()) -> bool:
    """Does the expression read only what is fixed for a table (consts, boards, kinds,
    the number of players), through the defs it calls too, and the locals `params`
    (the parameters of the def whose body it is)?"""
    own: set[int] = set(params)  # those and the variables of comprehensions inside
    for node in expressions(program, [e]):
        if isinstance(node, A.TextLit) and any(not isinstance(p, str) for p in node.parts):
            return False
        if isinstance(node, A.Comp):
            own.add(program.locals_of[id(node)].slot)
        sym = program.refs.get(id(node))
        if isinstance(sym, LocalSym) and sym.slot in own:
            continue
        if isinstance(sym, AttrSym | ZoneSym | LocalSym):
            return False
        if isinstance(node, A.Name) and node.id in STATE_NAMES:
            return False
        if isinstance(node, A.Call) and (node.func in TILE_FUNCS or node.func == "text"):
            return False
        if isinstance(sym, DefSym) and sym.params:
            return False
        if (
            isinstance(node, A.Call)
            and node.func in ("next_player", "prev_player")
            and random_orders(program) is not None  # follows a drawn order
        ):
            return False
    return True


def random_orders(program: Program) -> tuple[int, ...] | None:
    """Per phase, the local slot holding its drawn `order random`, or -1; None when no
    phase of the program has one."""
    slots = tuple(
        program.hidden[id(ph.decl)] if ph.decl.order == "random" else -1 for ph in program.phases
    )
    return slots if any(s >= 0 for s in slots) else None


def prelude(lines: list[str]) -> list[str]:
    """Read st.loc, st.cols, st.zones and st.cfg once per op (or def, or proc that never
    pauses) when they are used more than once."""
    text = "\n".join(lines)
    prelude = []
    for name, use in (("loc", "["), ("cols", "["), ("zones", "["), ("cfg", ".")):
        if text.count(f"st.{name}{use}") >= 2:
            text = text.replace(f"st.{name}{use}", f"{name}{use}")
            prelude.append(f"{name} = st.{name}")
    if "cfg = st.cfg" in prelude:  # the boards it reads twice, once (forward.py)
        text, boards = forward.boards(text)
        prelude += boards
    # a value stored in a slot and read again: read from a Python local (forward.py)
    return forward.forwarded([*prelude, *text.split("\n")]) if prelude else lines


def proc_function(name: str) -> str:
    """The name of the generated Python function of a proc that never pauses. The base
    version of an overridden block has a name no rule file can write ("base setup"):
    its function is named from the name's bytes, which no other proc's can be."""
    if name.isidentifier():
        return f"_p_{name}"
    return "_P_" + name.encode("utf-8").hex()
