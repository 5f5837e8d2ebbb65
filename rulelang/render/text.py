"""Show a player's view as text: boards, pieces, players, zones, recent events. Each
part of the screen has its function; they read the view through its type (`View`,
rulelang/runtime/view_types.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from rulelang import Game
from rulelang.render.board_map import grid_state, text
from rulelang.runtime.boards import Board, GridBoard

if TYPE_CHECKING:
    from rulelang.runtime.view_types import HiddenZone, PieceRow, Tile, View, ZoneTile


# a long game's private messages (a game master's every message) would fill the screen
PRIVATE_TAIL = 8


def render_view(
    game: Game,
    view: View,
    log_tail: int = 8,
    bookkeeping: bool = True,
    private_tail: int | None = PRIVATE_TAIL,
) -> str:
    """The screen of a whole view, top to bottom: the header, each board, the pieces,
    the globals, the players, the zones, the last `private_tail` private messages (None:
    all) and the last `log_tail` events (0: none). `bookkeeping=False` leaves out the
    attributes the rule file declares `shown as bookkeeping` (a bot's notebook)."""
    placed: set[tuple[str, str]] = set()  # (kind, attribute) shown on a node board
    if not bookkeeping:
        view = without_bookkeeping(game, view)
    out = [_header(view)]
    for name, board in game.boards.items():
        out.append("")
        out.extend(_board_part(game, name, board, view, placed))
    out.extend(_pieces(game, view, placed))
    if view["globals"]:
        out.append("")
        out.append("  ".join(f"{k}: {text(v)}" for k, v in view["globals"].items()))
    out.append("")
    out.extend(_players(game, view))
    out.extend(_zones(game, view))
    out.extend(_private(view, private_tail))
    out.extend(_recent(view, log_tail))
    return "\n".join(out)


def bookkeeping_of(game: Game) -> dict[str, set[str]]:
    """The attributes declared `display bookkeeping` (docs/language.md), by owner:
    "player", "global" or a kind's name."""
    program = game.rules.program
    attrs = [*program.player_attrs, *program.globals, *program.columns]
    out: dict[str, set[str]] = {}
    for a in attrs:
        if a.display == "bookkeeping":
            out.setdefault(a.owner, set()).add(a.name)
    return out


def without_bookkeeping(game: Game, view: View) -> View:
    """The view without the attributes the rule file marks as bookkeeping (a bot's
    notebook): what the table shows unless asked for everything (`board --all`)."""
    marked = bookkeeping_of(game)
    if not marked:
        return view
    players, globals_ = marked.get("player", set()), marked.get("global", set())
    out = dict(view)
    out["players"] = [{k: v for k, v in p.items() if k not in players} for p in view["players"]]
    out["globals"] = {k: v for k, v in view["globals"].items() if k not in globals_}
    out["pieces"] = {
        kind: [{k: v for k, v in r.items() if k not in marked.get(kind, set())} for r in rows]
        for kind, rows in view["pieces"].items()
    }
    return cast("View", out)


def _header(view: View) -> str:
    if "results" in view:  # over: nobody is to play
        return f"== {view['title']} == turn {view['turn']}, game over"
    header = f"== {view['title']} == turn {view['turn']}, {view['current']} to play"
    if view.get("reacting"):
        header += f"; reaction round: {view['reacting']} may react"
    return header


def _board_part(
    game: Game, name: str, board: Board, view: View, placed: set[tuple[str, str]]
) -> list[str]:
    """A board: its nodes one a line; or, a grid, its tiles and the map of its state."""
    if not isinstance(board, GridBoard):  # (only grids hold tiles)
        return _board(game, name, board, view, placed)
    out: list[str] = []
    tiled = name in view["boards"]
    if tiled:
        out.append(f"{name}:")
        out.extend(_tiles(board, view["boards"][name]))
    if view.get("board_state", {}).get(name):
        # the map of what the viewer may see of the board's state and sides
        out.extend(["", f"{name} state:"] if tiled else [f"{name}:"])
        out.extend(grid_state(game, name, board, view))
    return out


def _tiles(board: GridBoard, cells: dict[str, Tile]) -> list[str]:
    """The tiles laid on a board, and the face-down ones this view may see (a peek, the
    referee's view)."""
    out = grid_map(board, cells)
    seen = [f"{cell['tile']} at {c}" for c, cell in cells.items() if _seen_face_down(cell)]
    if seen:
        out.append(f"  shaded corners: face down, but seen: {', '.join(seen)}")
    return out


def _seen_face_down(cell: Tile) -> bool:
    return cell["secret"] and cell["tile"] != "?"


def _pieces(game: Game, view: View, placed: set[tuple[str, str]]) -> list[str]:
    """A line per kind of piece: each piece with the attributes not drawn on a board."""
    out: list[str] = []
    for kind, attrs in game.rules.kinds.items():
        rows = view["pieces"].get(kind)  # kinds of cards have no entry
        if not rows:
            continue
        shown = [
            a
            for a in attrs
            if (kind, a) not in placed and a != "name" and any(a in r for r in rows)
        ]
        if shown:
            out.append("")
            out.append(f"{kind}s: " + ", ".join(_piece(r, shown) for r in rows))
    return out


def _piece(row: PieceRow, shown: list[str]) -> str:
    # an attribute hidden from the viewer is absent from its row
    return _row_label(row) + " (" + ", ".join(f"{a} {text(row.get(a, '?'))}" for a in shown) + ")"


def _players(game: Game, view: View) -> list[str]:
    """A line per seat: its name, "(you)" for the viewer, the attributes it may see."""
    out: list[str] = []
    you = _name(game, view) if view["viewer"] is not None else None
    for p in view["players"]:
        extras = ", ".join(f"{k}: {text(v)}" for k, v in p.items() if k not in ("name", "seat"))
        mark = " (you)" if p["name"] == you else ""
        out.append(f"  {p['name']}{mark}" + (f" - {extras}" if extras else ""))
    return out


def _zones(game: Game, view: View) -> list[str]:
    """A line per zone that holds something: its items, or how many when hidden; the
    viewer's own hand of tiles drawn card by card."""
    out: list[str] = []
    viewer = _name(game, view)
    for zone, content in view["zones"].items():
        if isinstance(content, dict):
            out.extend(_hidden_zone(zone, content))
            continue
        faces = view["zone_tiles"].get(zone)
        if viewer and zone.endswith(f"[{viewer}]") and faces:
            out.append(f"  {zone}:")
            out.extend(_drawn([str(c) for c in content], faces))
        elif content:
            out.append(f"  {zone}: " + ", ".join(text(c) for c in content))
    return out


def _hidden_zone(zone: str, content: HiddenZone) -> list[str]:
    if not content["size"]:
        return []
    known = content.get("known")
    of = f" (you know of {', '.join(text(c) for c in known)})" if known else ""
    return [f"  {zone}: {content['size']} hidden{of}"]


def _private(view: View, tail: int | None) -> list[str]:
    """The last `tail` messages said to the viewer (None: all, since the start); in
    the referee's view everyone's, each with whom it was for."""
    said = view["private"]
    if not said:
        return []
    if "private_to" in view:
        head = "private messages:"
        lines = [
            f"  to {', '.join(to)}: {line}"
            for line, to in zip(said, view["private_to"], strict=True)
        ]
    else:
        head, lines = "only you know:", [f"  {line}" for line in said]
    if tail is not None and len(lines) > tail:
        earlier = len(lines) - tail
        return ["", head, f"  ({earlier} earlier not shown)", *lines[-tail:]]
    return ["", head, *lines]


def _recent(view: View, log_tail: int) -> list[str]:
    log = view["log"][-log_tail:] if log_tail else []
    if not log:
        return []
    return ["", "recent events:", *(f"  {line}" for line in log)]


def _name(game: Game, view: View) -> str:
    """The viewer's name; "" for PUBLIC and the omniscient view."""
    viewer = view["viewer"]
    if viewer is not None and 0 <= viewer < game.players:
        return game.player_names[viewer]
    return ""


def _row_label(row: PieceRow) -> str:
    return str(row.get("name", "?"))


def _board(
    game: Game, name: str, board: Board, view: View, placed: set[tuple[str, str]]
) -> list[str]:
    """One line per node: its name and attributes, the pieces and markers on it."""
    on_node = _on_nodes(game, name, board, view, placed)
    width = max(len(n) for n in board.names)
    # the state attributes the viewer may see, a column each (a hidden one is absent)
    state = {
        k: ({n: text(v) for n, v in values.items()}, max(3, *map(len, map(text, values.values()))))
        for k, values in view.get("board_state", {}).get(name, {}).items()
    }
    lines = [f"{name}:"]
    for i, node in enumerate(board.names):
        values = "  ".join(
            [f"{k} {v[i]:>3}" for k, v in board.attrs.items()]
            + [f"{k} {v[node]:>{w}}" for k, (v, w) in state.items()]
        )
        lines.append(f"  {i:>2} {node:<{width}}  {values}  | " + " ".join(on_node[node]))
    return lines


def _on_nodes(
    game: Game, name: str, board: Board, view: View, placed: set[tuple[str, str]]
) -> dict[str, list[str]]:
    """Per node, the pieces standing on it (by name) and the globals naming it
    ([GLOBAL]); the attributes that place pieces are added to `placed`."""
    on_node: dict[str, list[str]] = {n: [] for n in board.names}
    on_board = f"node({name})"
    for kind, attrs in game.rules.kinds.items():
        for attr, type_ in attrs.items():
            if type_ == on_board:
                placed.add((kind, attr))
                for row in view["pieces"].get(kind, []):
                    where = row.get(attr)
                    if isinstance(where, str) and where in on_node:
                        on_node[where].append(_row_label(row))
    for g, type_ in game.rules.globals.items():
        where = view["globals"].get(g)  # absent when hidden from the viewer
        if type_ == on_board and isinstance(where, str) and where in on_node:
            on_node[where].append(f"[{g.upper()}]")
    return on_node


def _drawn(names: list[str], faces: list[ZoneTile]) -> list[str]:
    """A hand of cards drawn side by side: tiles by their open sides, others by number."""
    rows = ["", "", "", ""]
    for i, (name, face) in enumerate(zip(names, faces, strict=True), 1):
        held: Tile = {"tile": name, "secret": False, "open": face["open"], "joined": face["joined"]}
        glyph = tile_glyph(held) if any(face["open"]) else ("   ", " * ", "   ")
        for r in range(3):
            rows[r] += f"  {glyph[r]}  "
        rows[3] += f"  {i:^3}  "
    legend = [f"    {i}. {name}" for i, name in enumerate(names, 1)]
    return ["   " + row for row in rows] + legend


def tile_glyph(cell: Tile | None) -> tuple[str, str, str]:
    """Three lines of three characters: open sides as lines, a dead end as a block; a
    face-down tile this view may see (the peeker's, the referee's) has shaded corners."""
    if cell is None:
        return ("   ", " · ", "   ")
    if cell["tile"] == "?":
        return ("▒▒▒", "▒?▒", "▒▒▒")
    n, e, s, w = cell["open"]
    joined = cell["joined"]
    centre = _JOINS.get((n, e, s, w), "┼") if joined else "■"
    if not any(cell["open"]):
        centre = "□"
    c = "▒" if cell["secret"] else " "  # face down, yet known to this view
    return (
        f"{c}{'│' if n else ' '}{c}",
        f"{'─' if w else ' '}{centre}{'─' if e else ' '}",
        f"{c}{'│' if s else ' '}{c}",
    )


_JOINS = {
    (True, True, True, True): "┼",
    (True, True, True, False): "├",
    (True, False, True, True): "┤",
    (False, True, True, True): "┬",
    (True, True, False, True): "┴",
    (True, False, True, False): "│",
    (False, True, False, True): "─",
    (True, True, False, False): "└",
    (True, False, False, True): "┘",
    (False, True, True, False): "┌",
    (False, False, True, True): "┐",
    (True, False, False, False): "╵",
    (False, True, False, False): "╶",
    (False, False, True, False): "╷",
    (False, False, False, True): "╴",
}


def grid_map(board: GridBoard, cells: dict[str, Tile]) -> list[str]:
    """The placed part of a grid board plus a margin of one cell (where a tile could go
    next), north at the top: drawn around what is laid, however far it has spread."""
    if not cells:
        return ["  (no tiles yet)"]
    coords = [tuple(int(v) for v in name.split(",")) for name in cells]
    xs = [c[0] for c in coords]
    ys = [c[1] for c in coords]
    x0, x1, y0, y1 = min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1
    if board.bounded:  # (a grid without bounds has room all round)
        x0, x1 = max(x0, board.x0), min(x1, board.x0 + board.width - 1)
        y0, y1 = max(y0, board.y0), min(y1, board.y0 + board.height - 1)
    label = max(3, len(str(y0)), len(str(y1)))  # row labels, right-aligned
    lines = [" " * (label + 3) + _x_labels(range(x0, x1 + 1))]
    for y in range(y1, y0 - 1, -1):
        rows = ["", "", ""]
        for x in range(x0, x1 + 1):
            glyph = tile_glyph(cells.get(f"{x},{y}"))
            for i in range(3):
                rows[i] += glyph[i]
        lines.append(" " * (label + 3) + rows[0])
        lines.append(f"  {y:>{label}} {rows[1]}")
        lines.append(" " * (label + 3) + rows[2])
    return lines


def _x_labels(xs: range) -> str:
    """The x of each column (3 characters wide), centred over it; when labels are too
    long to stand side by side (-10 and on), only every other (or third) column is
    labelled, so that no two labels touch."""
    longest = max(len(str(xs[0])), len(str(xs[-1])))
    every = -(-(longest + 1) // 3)  # columns per label, with a space between labels
    line = [" "] * (3 * len(xs) + longest)
    for i in range(0, len(xs), every):
        text = str(xs[i])
        at = max(0, 3 * i + 1 - (len(text) - 1) // 2 - (1 if len(text) == 2 else 0))
        line[at : at + len(text)] = text
    return "".join(line).rstrip() + " "
