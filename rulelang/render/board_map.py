"""A grid board's `state` and `edge` attributes drawn as a text map for the terminal.

Only what the view holds is drawn: hidden attributes are absent from a player's view,
so a player's screen cannot show them (nor how many there are). Nothing here knows a
game: labels, marks and the legend are derived from the values the view holds.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from rulelang import Game

if TYPE_CHECKING:
    from rulelang.runtime.boards import GridBoard
    from rulelang.runtime.view_types import PlainValue, View

MAX_WIDTH = 100  # columns; a wider map is given as a list instead
MAX_LINES = 3  # text lines per cell before the list is preferred
LABEL_LEN = 3  # longest prefix used as a label; beyond, letters A, B, ... stand in
# the marks of boolean edge attributes after the first (which is drawn as --- and |)
OTHER_MARKS = "=#~%&"
SEVERAL = "*"  # a side where more than one boolean edge attribute holds


def text(value: PlainValue) -> str:
    """A view's value as a player reads it: yes/no, none, lists joined (the map and the
    rest of the screen, rulelang/render/text.py, write values alike)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, list):
        return "[" + ", ".join(text(v) for v in value) + "]"
    return str(value)


ARROWS = {0: "↑", 1: "→", 2: "↓", 3: "←"}  # directions as `neighbour` numbers them


def displayed(game: Game, display: str, values: dict[str, PlainValue]) -> dict[str, PlainValue]:
    """A board attribute's values as its `display` says to show them (docs/language.md):
    `direction` numbers as arrows, `node(B)` numbers as the names of B's nodes; any
    other value (the -1 of "no direction") as it is."""

    if display == "direction":
        shown: dict[int, str] = ARROWS
    elif display.startswith("node(") and display[5:-1] in game.boards:
        shown = dict(enumerate(game.boards[display[5:-1]].names))
    else:
        return values
    return {n: _mapped(v, shown) for n, v in values.items()}


def _mapped(value: PlainValue, shown: dict[int, str]) -> PlainValue:
    """`value` as `shown` maps it when a number it maps (not a truth value)."""
    if isinstance(value, int) and not isinstance(value, bool) and value in shown:
        return shown[value]
    return value


def _key(value: PlainValue) -> str:
    """A hashable stand-in for a view value (lists are not hashable)."""
    return repr(value)


def blank_of(values: list[PlainValue]) -> PlainValue:
    """The value left blank in the cells: none if any cell holds none, else the most
    common value (the first of them met, in node order), so a map shows what differs."""
    if any(v is None for v in values):
        return None
    counts = Counter(_key(v) for v in values)
    top = counts.most_common(1)[0][0]
    return next(v for v in values if _key(v) == top)


def labels_of(values: list[PlainValue]) -> dict[str, str]:
    """A short label for each distinct value (by `_key`): numbers as themselves, others
    by the shortest common prefix length (up to LABEL_LEN) that tells them all apart,
    else by letters A, B, ... in the order of their texts."""
    distinct = {_key(v): v for v in values}
    if all(isinstance(v, int) and not isinstance(v, bool) for v in distinct.values()):
        return {k: str(v) for k, v in distinct.items()}
    texts = {k: (text(v) or '""').replace(" ", "_") for k, v in distinct.items()}
    for n in range(1, LABEL_LEN + 1):
        cut = {k: t[:n] for k, t in texts.items()}
        if len(set(cut.values())) == len(cut):
            return cut
    order = sorted(texts, key=lambda k: texts[k])
    return {k: _letters(i) for i, k in enumerate(order)}


def _letters(i: int) -> str:
    out = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        out = chr(65 + r) + out
    return out


class Attr:
    """One state attribute as the map shows it: its blank value and its labels."""

    def __init__(self, name: str, by_node: dict[str, PlainValue], whole: bool = False):
        self.name = name
        self.by_node = by_node
        values = list(by_node.values())
        self.blank = blank_of(values)
        shown = [v for v in values if _key(v) != _key(self.blank)]
        self.labels = labels_of(shown) if shown else {}
        if whole:  # a displayed value (an arrow, a node's name) is its own label
            self.labels = {_key(v): text(v) for v in shown}
        self.width = max((len(s) for s in self.labels.values()), default=0)

    def label(self, node: str) -> str:
        value = self.by_node[node]
        return "" if _key(value) == _key(self.blank) else self.labels[_key(value)]

    def legend(self) -> str | None:
        """'kind: f forest, m meadow' when a label is not the value's whole text."""
        texts = {}
        for v in self.by_node.values():
            k = _key(v)
            if k in self.labels:
                texts[k] = text(v)
        if all(self.labels[k] == texts[k] for k in texts):
            return None
        pairs = sorted((self.labels[k], texts[k]) for k in texts)
        return f"{self.name}: " + ", ".join(f"{label} {t}" for label, t in pairs)


def occupants(game: Game, board: str, view: View) -> tuple[dict[str, list[str]], list[str]]:
    """Who stands where: per cell name the marks of the players (seat numbers) and of
    pieces and globals (short labels) whose visible node attributes name it; and the
    legend of those marks."""
    on_board = f"node({board})"
    at: dict[str, list[str]] = {}
    legend: list[str] = []
    player_attrs = [a.name for a in game.rules.program.player_attrs if str(a.type) == on_board]
    for seat, p in enumerate(view["players"]):  # a row per seat, in seat order
        mark = str(seat + 1)
        hits = [a for a in player_attrs if p.get(a) is not None]  # absent: hidden
        for a in hits:
            at.setdefault(str(p[a]), []).append(mark)
        if hits:
            legend.append(f"{mark} {p['name']} ({', '.join(hits)})")
    others: list[tuple[str, str, str]] = []  # (name, attribute, cell)
    for kind, attrs in game.rules.kinds.items():
        for attr, type_ in attrs.items():
            if type_ == on_board:
                for row in view["pieces"].get(kind, []):
                    if row.get(attr) is not None:
                        others.append((str(row.get("name", kind)), attr, str(row[attr])))
    for g, type_ in game.rules.globals.items():
        if type_ == on_board and view["globals"].get(g) is not None:
            others.append((g, "", str(view["globals"][g])))
    labels = labels_of([name for name, _, _ in others])
    for name, attr, cell in others:
        mark = labels[_key(name)]
        at.setdefault(cell, []).append(mark)
        legend.append(f"{mark} {name}" + (f" ({attr})" if attr else ""))
    return at, legend


def who_label(marks: list[str]) -> str:
    if not marks:
        return ""
    return "@" + ("" if all(len(m) == 1 for m in marks) else ",").join(marks)


def pack(widths: list[int], gaps: list[int], width: int) -> list[list[int]] | None:
    """The slots (by index) on each text line of a cell `width` wide, in order, a slot
    never split, each after its gap unless it starts a line; None if a slot is wider
    than the cell."""
    lines: list[list[int]] = [[]]
    used = 0
    for i, w in enumerate(widths):
        if w > width:
            return None
        if lines[-1] and used + gaps[i] + w > width:
            lines.append([])
            used = 0
        used += w + (gaps[i] if lines[-1] else 0)
        lines[-1].append(i)
    return lines


def layout(widths: list[int], gaps: list[int], columns: int) -> tuple[int, list[list[int]]] | None:
    """The cell width and the slots of each of its lines: as few lines as the map's
    width allows, then the narrowest cell giving that many; None if none fits."""
    most = (MAX_WIDTH - 6) // columns - 1
    best = pack(widths, gaps, most) if most >= 3 else None
    if best is None or len(best) > MAX_LINES:
        return None
    for w in range(3, most + 1):
        lines = pack(widths, gaps, w)
        if lines is not None and len(lines) == len(best):
            return w, lines
    return most, best


def gaps_of(slots: list[list[str]]) -> list[int]:
    """A space before a slot where some cell would otherwise run two numbers together
    (a label ending in a digit right before one starting with a digit)."""
    n = len(slots[0]) if slots else 0
    gaps = [0] * n
    for labels in slots:
        for i in range(1, n):
            a, b = labels[i - 1], labels[i]  # each padded to its slot's width
            if a and b and a[-1].isdigit() and b[0].isdigit():
                gaps[i] = 1
    return gaps


class Sides:
    """The boolean edge attributes of a grid as marks on the sides of its cells."""

    def __init__(self, edges: dict[str, dict[str, PlainValue]]):
        self.attrs = list(edges.items())
        self.marks: list[tuple[str, str]] = []
        spare = iter(OTHER_MARKS)
        for i, (name, _) in enumerate(self.attrs):
            if i == 0:
                self.marks.append(("-", "|"))
                continue
            letter = name[0].lower()
            taken = {m for m, _ in self.marks}
            mark = letter if letter.isalpha() and letter not in taken else next(spare, "?")
            self.marks.append((mark, mark))
        self.several: list[str] = []

    def mark(self, side: str, across: bool, width: int) -> str:
        held = [i for i, (_, values) in enumerate(self.attrs) if values.get(side) is True]
        if not held:
            return " " * width
        if len(held) > 1:
            names = ", ".join(self.attrs[i][0] for i in held)
            self.several.append(f"{side}: {names}")
            return SEVERAL * width
        horizontal, vertical = self.marks[held[0]]
        return horizontal * width if across else vertical

    def legend(self) -> list[str]:
        if not self.attrs:
            return []
        parts = [
            f"{h * 3} {v} {name}" if h != v else f"{h} {name}"
            for (h, v), (name, _) in zip(self.marks, self.attrs, strict=True)
        ]
        out = ["sides: " + ", ".join(parts)]
        if self.several:
            out.append(f"{SEVERAL} several: " + "; ".join(dict.fromkeys(self.several)))
        return out


def grid_state(game: Game, name: str, board: GridBoard, view: View) -> list[str]:
    """The map of a grid board's visible state: y upwards, each cell its values' labels
    and who stands there, each side its boolean edge attributes; then the legend."""
    state = view["board_state"][name]
    kinds = {a.name: a for a in game.rules.view_plan.board_attrs if a.board == name}
    cells = [
        Attr(a, displayed(game, kinds[a].display, values), whole=bool(kinds[a].display))
        for a, values in state.items()
        if not kinds[a].edge
    ]
    bools = {a: v for a, v in state.items() if kinds[a].edge and str(kinds[a].type) == "bool"}
    others = {a: v for a, v in state.items() if kinds[a].edge and a not in bools}
    at, who_legend = occupants(game, name, view)
    shown = [a for a in cells if a.width]
    who_width = max((len(who_label(m)) for m in at.values()), default=0)
    widths = [a.width for a in shown] + ([who_width] if who_width else [])
    slots = {
        node: [a.label(node).ljust(a.width) for a in shown]
        + ([who_label(at.get(node, [])).ljust(who_width)] if who_width else [])
        for node in board.names
    }
    gaps = gaps_of(list(slots.values()))
    fit = layout(widths, gaps, board.width)
    if fit is None:
        return state_list(cells, bools, others)
    width, lines = fit
    names = [a.name for a in shown] + (["@who"] if who_width else [])
    sides = Sides(bools)
    out = _draw(board, width, [_line_format(line, gaps) for line in lines], slots, sides)
    if names:
        shows = " / ".join(" ".join(names[i] for i in line) for line in lines)
        out.append(f"  a cell shows: {shows}")
    blanks = [f"{a.name} {_shown(a.blank)}" for a in cells]
    if blanks:
        out.append("  blank: " + ", ".join(blanks))
    out.extend(f"  {line}" for a in shown if (line := a.legend()))
    if who_legend:
        out.append("  @: " + ", ".join(dict.fromkeys(who_legend)))
    out.extend(f"  {line}" for line in sides.legend())
    out.extend(f"  {line}" for line in _edge_list(others))
    return out


def _line_format(line: list[int], gaps: list[int]) -> list[tuple[int, str]]:
    """The slots of one text line of a cell, each with the space put before it."""
    return [(i, " " * gaps[i] if k else "") for k, i in enumerate(line)]


def _shown(value: PlainValue) -> str:
    return '""' if value == "" else text(value)


def _draw(
    board: GridBoard,
    width: int,
    lines: list[list[tuple[int, str]]],
    slots: dict[str, list[str]],
    sides: Sides,
) -> list[str]:
    xs = range(board.x0, board.x0 + board.width)
    ys = range(board.y0 + board.height - 1, board.y0 - 1, -1)
    out = [("     " + "".join(f" {x:^{width}}" for x in xs)).rstrip()]
    for y in ys:
        out.append(_border(xs, f"{{x}},{y} north", sides, width))
        for row, line in enumerate(lines):
            drawn = f"{y:>4} " if row == 0 else "     "
            drawn += sides.mark(f"{board.x0},{y} west", False, 1)
            for x in xs:
                cell = slots[f"{x},{y}"]
                content = "".join(gap + cell[i] for i, gap in line)
                # a cell never runs into the next column, whatever its labels hold
                drawn += content[:width].ljust(width) + sides.mark(f"{x},{y} east", False, 1)
            out.append(drawn.rstrip())
    out.append(_border(xs, f"{{x}},{board.y0} south", sides, width))
    return out


def _border(xs: range, side: str, sides: Sides, width: int) -> str:
    """A line of corners and sides: `side` names each x's side ('{x},3 north')."""
    return "     +" + "".join(sides.mark(side.format(x=x), True, width) + "+" for x in xs)


def _edge_list(others: dict[str, dict[str, PlainValue]]) -> list[str]:
    """Edge attributes that are not booleans: the sides whose value is not the blank."""
    out = []
    for name, values in others.items():
        blank = blank_of(list(values.values()))
        odd = [f"{s} {text(v)}" for s, v in values.items() if _key(v) != _key(blank)]
        out.append(f"{name} (blank {_shown(blank)}): " + (", ".join(odd) or "nowhere else"))
    return out


def state_list(
    cells: list[Attr],
    bools: dict[str, dict[str, PlainValue]],
    others: dict[str, dict[str, PlainValue]],
) -> list[str]:
    """The list form, for a map too wide to draw: per attribute, the nodes (or sides)
    whose value is not the blank one."""
    out = []
    for a in cells:
        odd = [f"{n} {text(v)}" for n, v in a.by_node.items() if _key(v) != _key(a.blank)]
        out.append(f"  {a.name} (blank {_shown(a.blank)}): " + (", ".join(odd) or "nowhere else"))
    for name, values in bools.items():
        held = [s for s, v in values.items() if v is True]
        out.append(f"  {name}: " + (", ".join(held) or "nowhere"))
    out.extend(f"  {line}" for line in _edge_list(others))
    return out
