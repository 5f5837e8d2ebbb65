"""The components: boards (drawn), pieces and cards (counted, grouped alike), dice,
zones, what each player and the game keep; and the table of what changes with the
number of players. The values come from the compiled rules at a table
(`Ruleset.table_for`), so a deck read from a data file is counted as it is dealt."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence

from rulelang.check.symbols import AttrSym, Program
from rulelang.check.types import T
from rulelang.rulebook import comments
from rulelang.rulebook.english import English, article, plain, words
from rulelang.rulebook.model import NEW, Block, Drawing, Para, Table
from rulelang.runtime.boards import GridBoard
from rulelang.runtime.ruleset import TableFacts
from rulelang.syntax import ast as A

SEEN = {
    "all": "everyone",
    "owner": "its owner only",
    "others": "everyone but its owner",
    "none": "nobody",
}
MAX_DRAWN = 400  # spaces; a bigger board is described, not drawn
MAX_LISTED = 40  # the most rows a table of items lists


def names_of(board: object) -> list[str]:
    """The spaces of a board, in order; none for a grid without bounds."""
    if not getattr(board, "bounded", True):
        return []
    return [str(x) for x in getattr(board, "names", ())]


def show(value: object, t: T | None = None, facts: TableFacts | None = None) -> str:
    """A value as a player reads it: yes/no, a space's name, a list's items."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if t is not None and t.name == "node" and isinstance(value, int) and facts is not None:
        names = names_of(facts.values.get(t.arg))
        return str(names[value]) if 0 <= value < len(names) else str(value)
    if isinstance(value, tuple | list):
        elem = t.elem if t is not None else None
        return "[" + ", ".join(show(v, elem, facts) for v in value) + "]"
    if isinstance(value, dict):
        return ", ".join(f"{k}: {show(v)}" for k, v in value.items())
    if hasattr(value, "shape"):
        return f"a board of {len(names_of(value))} spaces"
    return str(value)


def type_words(t: T) -> str:
    """A type as words: "a space of `town`", "a list of numbers"."""
    match t.name:
        case "int":
            return "a number"
        case "bool":
            return "yes or no"
        case "text":
            return "a text"
        case "player":
            return "a player"
        case "node":
            return f"a space of {words(t.arg)}"
        case "list":
            return "a list of " + (type_words(t.elem).removeprefix("a ") if t.elem else "items")
        case "entity" | "enum":
            return f"{article(t.arg)} {words(t.arg)}"
    return str(t)


class Components:
    def __init__(
        self,
        program: Program,
        counts: dict[int, TableFacts],
        mark: Callable[[A.Decl | A.AttrDecl | AttrSym], str],
    ):
        self.program = program
        self.counts = counts
        self.facts = counts[min(counts)]
        self.most = counts[max(counts)]  # the most pieces and cards: every one listed
        self.mark = mark
        self.sources = program.sources

    def doc(self, decl: A.Decl | A.AttrDecl) -> str:
        return comments.doc(self.sources, decl.span)

    def board(self, d: A.BoardDecl) -> list[Block]:
        board = self.facts.values[d.name]
        names = names_of(board)
        blocks: list[Block] = [Para(self.board_words(d, board), d.span, self.doc(d), self.mark(d))]
        drawing = self.drawing(d.name, board)
        if drawing is not None:
            blocks.append(drawing)
        attrs = getattr(board, "attrs", {})
        own = [n for n, _e in d.attrs]
        if own and names:
            head = ["space", *(plain(n) for n in own)]
            rows = [[names[i], *(show(attrs[n][i]) for n in own)] for i in range(len(names))]
            blocks.append(Table(f"The spaces of {d.name}", head, rows[:MAX_LISTED], d.span))
        for a in (*d.state, *d.edges):
            where = "side of a cell" if a in d.edges else "space"
            kind = type_words(self.attr_type(a))
            text = f"Each {where} of {words(d.name)} holds {plain(a.name)}: {kind}"
            start = f", at first {self.default(a)}" if a.default is not None else ""
            blocks.append(Para(text + start + ".", a.span, self.doc(a)))
        return blocks

    def attr_type(self, a: A.AttrDecl) -> T:
        for sym in self.all_attrs():
            if sym.span == a.span:
                return sym.type
        return T(a.type.name, a.type.arg)

    def all_attrs(self) -> list[AttrSym]:
        p = self.program
        return [*p.player_attrs, *p.globals, *(a for k in p.kinds for a in k.attrs.values())]

    def default(self, a: A.AttrDecl) -> str:
        assert a.default is not None
        return English(self.program, self.facts.values)(a.default)

    def board_words(self, d: A.BoardDecl, board: object) -> str:
        n = len(names_of(board))
        tiles = f"; {words(d.tiles)} cards are laid on its cells" if d.tiles else ""
        if d.shape == "grid" and not getattr(board, "bounded", True):
            grows = "it grows as far as the cards reach"
            return f"{words(d.name)} is a grid without edges: {grows}{tiles}."
        if isinstance(board, GridBoard):
            return f"{words(d.name)} is a grid of {board.width} by {board.height} cells{tiles}."
        what = "a ring" if d.shape == "ring" else "a line"
        listed = ", ".join(names_of(board))
        order = "; after the last comes the first again" if d.shape == "ring" else ""
        return f"{words(d.name)} is {what} of {n} spaces, in order: {listed}{order}."

    def drawing(self, name: str, board: object) -> Drawing | None:
        names = names_of(board)
        if not names or len(names) > MAX_DRAWN:
            return None
        if isinstance(board, GridBoard):
            xs, ys = board.attrs["x"], board.attrs["y"]
            cells = [(int(str(x)), int(str(y))) for x, y in zip(xs, ys, strict=True)]
            x0, y0 = min(x for x, _ in cells), min(y for _, y in cells)
            places = [(float(x - x0), float(board.height - 1 - (y - y0))) for x, y in cells]
            return Drawing(name, "grid", names, places, board.width, board.height)
        if getattr(board, "shape", "") == "ring":
            n = len(names)
            angles = [2 * math.pi * i / n - math.pi / 2 for i in range(n)]
            return Drawing(name, "ring", names, [(math.cos(a), math.sin(a)) for a in angles])
        return Drawing(name, "line", names, [(float(i), 0.0) for i in range(len(names))])

    def kind(self, d: A.KindDecl) -> list[Block]:
        items = self.most.items.get(d.name, [])
        sizes = sorted({len(f.items.get(d.name, [])) for f in self.counts.values()})
        noun = "piece" if d.category == "piece" else "card"
        source = f", listed in {d.data}" if d.data else ""
        if len(sizes) > 1:
            count = f"{sizes[0]} to {sizes[-1]} {noun}s by the number of players (see Setup)"
        else:
            count = f"{sizes[0]} {noun}{'s' if sizes[0] != 1 else ''}"
        text = f"{words(d.name)}: {count}{source}."
        blocks: list[Block] = [Para(text, d.span, self.doc(d), self.mark(d))]
        kind = next(k for k in self.program.kinds if k.name == d.name)
        blocks.extend(self.items_table(d, kind.attrs, items))
        return blocks

    def items_table(
        self, d: A.KindDecl, attrs: dict[str, AttrSym], items: list[dict[str, object]]
    ) -> list[Block]:
        """The items grouped alike, with a count; attributes the same for every item
        are said once, under the table."""
        if not items:
            return []
        shown = {n: [show(it[n], attrs[n].type, self.facts) for it in items] for n in attrs}
        varying = [n for n in attrs if len(set(shown[n])) > 1]
        same = [n for n in attrs if n not in varying]
        blocks: list[Block] = []
        if varying:
            groups = Counter(tuple(shown[n][i] for n in varying) for i in range(len(items)))
            rows = runs([[str(c), *key] for key, c in groups.items()])
            more = (
                f" (the first {MAX_LISTED} of {len(rows)} kinds)" if len(rows) > MAX_LISTED else ""
            )
            head = ["count", *(plain(n) for n in varying)]
            blocks.append(Table(f"The {d.name} items{more}", head, rows[:MAX_LISTED], d.span))
        if same:
            said = ", ".join(f"{plain(n)} {shown[n][0]}" for n in same)
            blocks.append(Para(f"Every {words(d.name)} starts with: {said}.", d.span))
        blocks.append(
            self.keeps(
                list(attrs.values()), d.attrs, f"What {article(d.name)} {d.name} carries", False
            )
        )
        return blocks

    def keeps(
        self,
        attrs: Sequence[AttrSym],
        decls: Sequence[A.AttrDecl],
        caption: str,
        first: bool = True,
    ) -> Table:
        """A table of attributes: their kind of value, their first value (`first`),
        who sees them and what the rule file says of them."""
        rows = []
        by_span = {a.span: a for a in decls}
        for a in attrs:
            decl = by_span.get(a.span)
            start = self.default(decl) if decl is not None and decl.default is not None else "-"
            note = comments.doc(self.sources, a.span)
            if self.mark(decl or a) == NEW:
                note = f"(new in this variant) {note}".strip()
            row = [plain(a.name), type_words(a.type), start, SEEN[a.visibility], note]
            rows.append(row if first else row[:2] + row[3:])
        head = ["what", "kind of value", "at first", "seen by", "notes"]
        return Table(
            caption, head if first else head[:2] + head[3:], rows, decls[0].span if decls else None
        )

    def zones(self) -> Table:
        rows = []
        for z in self.program.zones:
            decl = next(
                d for d in self.program.decls if isinstance(d, A.ZoneDecl) and d.name == z.name
            )
            whose = "one per player" if z.per_player else "one"
            rows.append([z.name, words(z.kind), whose, SEEN[z.visibility], self.doc(decl)])
        return Table(
            "Where the pieces and cards lie",
            ["place", "holds", "how many", "seen by", "notes"],
            rows,
        )

    def per_players(
        self, tables: list[A.TableDecl], kinds: list[A.KindDecl], counts: dict[int, TableFacts]
    ) -> Table | None:
        """Everything that changes with the number of players: a row per table and per
        kind whose count does, a column per player count."""
        head = ["", *(f"{n} players" for n in counts)]
        rows = []
        for t in tables:
            rows.append(
                [plain(t.name), *(show(f.values[t.name].get(n)) for n, f in counts.items())]
            )
        for k in kinds:
            sizes = [str(len(f.items[k.name])) for f in counts.values()]
            if len(set(sizes)) > 1:
                rows.append(
                    [f"{k.name} ({'pieces' if k.category == 'piece' else 'cards'})", *sizes]
                )
        if not rows:
            return None
        return Table("What depends on the number of players", head, rows)


RUN = 3  # the fewest rows of numbers one after the other said as one


def runs(rows: list[list[str]]) -> list[list[str]]:
    """Rows of (count, number) with the same count and numbers one after the other,
    RUN or more, as one row: "1 each", "1 to 30" (a card of each value from 1 to 30
    read as thirty rows). Rows of several values, or not whole numbers, as they are."""
    if not rows or len(rows[0]) != 2 or not all(_whole(r[1]) for r in rows):
        return rows
    out: list[list[str]] = []
    i = 0
    while i < len(rows):
        j = i + 1
        while (
            j < len(rows)
            and rows[j][0] == rows[i][0]
            and int(rows[j][1]) == int(rows[j - 1][1]) + 1
        ):
            j += 1
        if j - i >= RUN:
            out.append([f"{rows[i][0]} each", f"{rows[i][1]} to {rows[j - 1][1]}"])
        else:
            out.extend(rows[i:j])
        i = j
    return out


def _whole(text: str) -> bool:
    return text.lstrip("-").isdecimal()
