"""Expressions in plain words: "`c`'s kind is path", "some `m` of `moved` ...".

Generic over the AST: what a name stands for comes from the checked program's symbols
(`Program.refs`), never from a game's own names. Names a rule file chose are written
between backticks (code); the renderers set them in a code font."""

from __future__ import annotations

from typing import assert_never, cast

from rulelang.check.symbols import (
    BuiltinSym,
    DefSym,
    EnumSym,
    EnumValueSym,
    Program,
    ValueSym,
    ZoneSym,
)
from rulelang.syntax import ast as A

COMPARE = {
    "==": "is",
    "!=": "is not",
    "<": "is less than",
    "<=": "is at most",
    ">": "is more than",
    ">=": "is at least",
    "in": "is in",
    "notin": "is not in",
}
BUILTIN_NAMES = {
    "players": "the players",
    "current": "the current player",
    "player_count": "the number of players",
    "index": "its number",
    "me": "this player",
}
# built-in functions of one argument read as "the ... of X"
OF = {
    "len": "the number of",
    "count": "the number of",
    "first": "the first of",
    "last": "the last of",
    "sum": "the sum of",
    "abs": "the size of",
    "seat": "the seat of",
    "next_player": "the player after",
    "prev_player": "the player before",
    "number": "the number shown by",
    "text": "",
    "nodes": "every space of",
}
# built-in functions of boards and tiles, their arguments {0}, {1}... (docs/language.md)
CALLS = {
    "tile": "the tile at {1}",
    "turn_of": "the turn of the tile at {1}",
    "secret_at": "the tile at {1} lies face down",
    "face_up": "the face-up tile at {1}",
    "open_side": "the tile at {1} is open towards direction {2}",
    "fits": "{2} turned {3} quarter turns fits at {1}",
    "joins": "{2} turned {3} quarter turns fits at {1} and joins the network of {4}",
    "reached": "the cells joined to the network of {1}",
    "spots": "the empty cells an open side of the network of {1} points at",
    "touching": "the face-down tiles an open side of the network of {1} points at",
    "placed": "the cells of {0} that hold a tile",
    "cell": "the cell ({1}, {2}) of {0}",
    "neighbour": "the cell next to {1} in direction {2}",
    "step": "the space {2} steps on from {1}",
    "distance": "the distance from {1} to {2}",
    "path_length": "the length of the shortest path from {1} to {2} that avoids {3}",
    "line_from": "the {3} cells from {1} on in direction {2}",
    "lines_through": "every line of {2} cells through {1}",
    "side": "side {2} of {1}",
    "side_cell": "the cell of {0}",
    "side_dir": "the direction of {0}",
    "across": "the cell across {0}",
    "on_rim": "{0} is on the rim",
    "without": "{0} without {1}",
    "known": "{1} as {0} knows it",
}
ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"]
PRECEDENCE = {"or": 1, "and": 2, "+": 4, "-": 4, "*": 5, "/": 5, "%": 5}
PRECEDENCE.update(dict.fromkeys(COMPARE, 3))
LIST_SHOWN = 8  # a list literal longer than this is summed up, not written out


def words(name: str) -> str:
    """A name a rule file chose, as code."""
    return f"`{name}`"


def article(name: str) -> str:
    """ "a" or "an", by the first letter of the name that follows."""
    return "an" if name[:1].lower() in "aeiou" else "a"


def plain(name: str) -> str:
    """An attribute's name as words: `tools_left` -> "tools left"."""
    return name.replace("_", " ")


class English:
    """Renders the expressions of one checked program."""

    def __init__(self, program: Program, values: dict[str, object]) -> None:
        self.program = program
        self.values = values  # the params' values in force (defaults or -o)

    def __call__(self, e: A.Expr) -> str:
        return self.expr(e)

    def expr(self, e: A.Expr) -> str:
        x = cast(A.AnyExpr, e)
        match x:
            case A.IntLit():
                return str(x.value)
            case A.BoolLit():
                return "yes" if x.value else "no"
            case A.NoneLit():
                return "nothing"
            case A.TextLit():
                return self.text(x)
            case A.Name():
                return self.name(x)
            case A.Attr():
                return self.attr(x)
            case A.Index():
                return self.index(x)
            case A.Call():
                return self.call(x)
            case A.Comp():
                return self.comp(x)
            case A.ListLit():
                return self.listing(x.items)
            case A.Unary():
                return f"minus {self.expr(x.operand)}" if x.op == "-" else self.negated(x.operand)
            case A.Binary():
                return self.binary(x)
            case A.Cond():
                return f"{self.expr(x.then)} if {self.expr(x.cond)}, else {self.expr(x.otherwise)}"
            case _:
                assert_never(x)

    def text(self, t: A.TextLit) -> str:
        """A text as the rule file writes it, its {expressions} as written."""
        out = []
        for part in t.parts:
            out.append(part if isinstance(part, str) else "{" + self.source(part) + "}")
        return "“" + "".join(out).replace("`", "'") + "”"

    def source(self, e: A.Expr) -> str:
        """The exact text of an expression in its rule file (for a {...} of a text)."""
        sources, s = self.program.sources, e.span
        if sources is None or not s.end_line:
            return self.expr(e)
        lines = sources.texts.get(s.file, "").splitlines()[s.line - 1 : s.end_line]
        if not lines:
            return self.expr(e)
        if len(lines) == 1:
            return lines[0][s.col - 1 : s.end_col - 1]
        return " ".join([lines[0][s.col - 1 :], *lines[1:-1], lines[-1][: s.end_col - 1]])

    def name(self, n: A.Name) -> str:
        sym = self.program.refs.get(id(n))
        if isinstance(sym, ValueSym) and sym.what == "param":
            value = self.values.get(n.id, "?")
            shown = ("yes" if value else "no") if isinstance(value, bool) else value
            return f"{words(n.id)} ({shown})"
        if isinstance(sym, EnumValueSym):
            return sym.value
        if isinstance(sym, EnumSym):
            return "any of " + ", ".join(sym.values)
        if isinstance(sym, BuiltinSym):
            return BUILTIN_NAMES.get(n.id, words(n.id))
        return words(n.id)

    def attr(self, a: A.Attr) -> str:
        sym = self.program.refs.get(id(a))
        if isinstance(sym, EnumValueSym):
            return sym.value
        if isinstance(a.obj, A.Name):
            return f"{self.expr(a.obj)}'s {plain(a.name)}"
        return f"the {plain(a.name)} of {self.expr(a.obj)}"

    def index(self, i: A.Index) -> str:
        sym = self.program.refs.get(id(i.obj))
        key = self.expr(i.index)
        if isinstance(sym, ValueSym) and sym.what == "table":
            if isinstance(i.index, A.Name) and i.index.id == "player_count":
                return f"the {words(sym.name)} for this number of players"
            return f"the {words(sym.name)} for {key}"
        if isinstance(i.obj, A.Attr) and self.board_state(i.obj):
            return f"the {plain(i.obj.name)} of {key}"
        if isinstance(sym, BuiltinSym) and isinstance(i.obj, A.Name) and i.obj.id == "players":
            if isinstance(i.index, A.IntLit) and 0 <= i.index.value < len(ORDINALS):
                return f"the {ORDINALS[i.index.value]} player"
            return f"the player in seat {key} (from 0)"
        if isinstance(sym, ZoneSym):
            return f"{key}'s {words(sym.name)}"
        if i.pair:
            return f"{self.expr(i.obj)} on the side of {key}"
        return f"{self.expr(i.obj)}[{key}]"

    def is_condition(self, e: A.Expr) -> bool:
        """A yes-or-no value worked out from others: `a == b`, `x and y`, `not z`."""
        t = self.program.types.get(id(e))
        return t is not None and t.name == "bool" and isinstance(e, A.Binary | A.Unary | A.Comp)

    def board_state(self, a: A.Attr) -> bool:
        """`b.kind` of a board `b`: a value per cell, read `b.kind[c]`."""
        sym = self.program.refs.get(id(a.obj))
        return isinstance(sym, ValueSym) and sym.what == "board"

    def call(self, c: A.Call) -> str:
        args = [self.expr(a) for a in c.args]
        sym = self.program.refs.get(id(c))
        if isinstance(sym, DefSym) or c.func in self.program.defs:
            return f"{words(c.func)}({', '.join(args)})" if args else words(c.func + "()")
        if c.func == "pieces" and c.args and isinstance(c.args[0], A.Name):
            return self.kind_items(c.args[0].id)
        if c.func in CALLS and c.func not in self.program.defs:
            try:
                return CALLS[c.func].format(*args)
            except IndexError:  # an optional argument left out: said as written
                pass
        if c.func == "len" and len(args) == 1 and (noun := self.zone_noun(c.args[0])):
            return f"the number of {noun} in {args[0]}"
        if c.func in OF and len(args) == 1:
            return f"{OF[c.func]} {args[0]}".strip()
        if c.func in ("max", "min") and len(args) == 2:
            most = "greater" if c.func == "max" else "smaller"
            return f"the {most} of {args[0]} and {args[1]}"
        if c.func in ("max", "min"):
            return f"the {'highest' if c.func == 'max' else 'lowest'} of {args[0]}"
        if c.func in ("any", "all") and args:
            return f"{'any' if c.func == 'any' else 'all'} of {args[0]}"
        return f"{c.func.replace('_', ' ')}({', '.join(args)})"

    def zone_noun(self, e: A.Expr) -> str | None:
        """ "cards" or "pieces", where `e` is a zone (`pile`, `hand[p]`): `len(pile)` is
        "the number of cards in `pile`", not "the number of `pile`"."""
        zone = self.program.refs.get(id(e.obj if isinstance(e, A.Index) else e))
        if not isinstance(zone, ZoneSym):  # a local of that name is no zone
            return None
        k = next((k for k in self.program.kinds if k.name == zone.kind), None)
        return "cards" if k is not None and k.decl.category == "card" else "pieces"

    def kind_items(self, kind: str) -> str:
        """`pieces(agent)`: "the `agent` pieces" (or cards)."""
        k = next((k for k in self.program.kinds if k.name == kind), None)
        noun = "cards" if k is not None and k.decl.category == "card" else "pieces"
        return f"the {words(kind)} {noun}"

    def comp(self, c: A.Comp) -> str:
        var, source = words(c.var), self.expr(c.source)
        if isinstance(c.source, A.Comp):  # a list of a list: which `where` is whose
            source = f"({source})"
        where = f" where {self.expr(c.where)}" if c.where is not None else ""
        if c.func == "any":
            return f"{self.expr(c.elem)} for some {var} of {source}{where}"
        if c.func == "all":
            return f"{self.expr(c.elem)} for every {var} of {source}{where}"
        if c.func in ("count", "len"):
            return f"the number of {var} in {source}{where}"
        items = self.each(c, var, source, where)
        if c.func in ("max", "min"):
            return f"the {'highest' if c.func == 'max' else 'lowest'} {items}"
        if c.func == "sum":
            return f"the sum of {items}"
        order = f", ordered by {self.expr(c.by)}" if c.by is not None else ""
        return (f"{c.func.replace('_', ' ')} of " if c.func else "") + items + order

    def each(self, c: A.Comp, var: str, source: str, where: str) -> str:
        if isinstance(c.elem, A.Name) and c.elem.id == c.var:
            return f"every {var} in {source}{where}"
        return f"{self.expr(c.elem)} for each {var} in {source}{where}"

    def listing(self, items: tuple[A.Expr, ...]) -> str:
        if not items:
            return "nothing"
        if len(items) > LIST_SHOWN:
            return f"a list of {len(items)} items"
        return "[" + ", ".join(self.expr(i) for i in items) + "]"

    def negated(self, e: A.Expr) -> str:
        if isinstance(e, A.Binary) and e.op in ("==", "in"):
            return self.binary(A.Binary(e.span, "!=" if e.op == "==" else "notin", e.left, e.right))
        if isinstance(e, A.Name | A.Attr | A.Call):
            return f"not {self.expr(e)}"
        return f"not ({self.expr(e)})"

    def binary(self, b: A.Binary) -> str:
        left, right = self.expr(b.left), self.expr(b.right)
        if b.op in ("in", "notin") and isinstance(b.right, A.ListLit):
            verb = "is one of" if b.op == "in" else "is none of"
            return f"{left} {verb} {', '.join(self.expr(i) for i in b.right.items)}"
        if b.op in COMPARE:
            return f"{left} {COMPARE[b.op]} {right}"
        if b.op == "and":
            return f"{self.grouped(b.left, b.op)} and {self.grouped(b.right, b.op, True)}"
        if b.op == "or":
            return f"{left}, or {right}"
        if b.op == "..":
            return f"{left} to {right}"
        return f"{self.grouped(b.left, b.op)} {b.op} {self.grouped(b.right, b.op, True)}"

    def grouped(self, e: A.Expr, op: str, right: bool = False) -> str:
        """An operand, in parentheses where it would read wrongly without: a looser
        operator inside a tighter one, or `a - (b - c)`."""
        inner = self.expr(e)
        if not isinstance(e, A.Binary) or e.op not in PRECEDENCE:
            return inner
        mine, theirs = PRECEDENCE[op], PRECEDENCE[e.op]
        if theirs < mine or (right and theirs == mine and op in ("-", "/", "%")):
            return f"({inner})"
        return inner
