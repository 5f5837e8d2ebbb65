"""Show a player's view as text: boards, pieces, players, zones, recent events."""

from __future__ import annotations

from typing import Any

from rulelang import Game
from rulelang.render.board_map import grid_state, text


def render_view(game: Game, view: dict[str, Any], log_tail: int = 8) -> str:
    kinds = game.rules.kinds
    header = f"== {view['title']} == turn {view['turn']}, {view['current']} to play"
    if view.get("reacting"):
        header += f"; reaction round: {view['reacting']} may react"
    out: list[str] = [header]
    placed: set[tuple[str, str]] = set()
    for name, board in game.boards.items():
        out.append("")
        if name in view.get("boards", {}):
            out.append(f"{name}:")
            cells = view["boards"][name]
            out.extend(grid_map(board, cells))
            seen = [  # face-down tiles this view may see (a peek, the referee's view)
                f"{cell['tile']} at {c}"
                for c, cell in cells.items()
                if cell.get("secret") and cell["tile"] != "?"
            ]
            if seen:
                out.append(f"  shaded corners: face down, but seen: {', '.join(seen)}")
        elif board.shape != "grid":
            out.extend(_board(game, name, board, view, placed))
        if board.shape == "grid" and view.get("board_state", {}).get(name):
            # the map of what the viewer may see of the board's state and sides
            if name in view.get("boards", {}):
                out.append("")
                out.append(f"{name} state:")
            else:
                out.append(f"{name}:")
            out.extend(grid_state(game, name, board, view))
    for kind, attrs in kinds.items():
        rows = view["pieces"].get(kind)
        if not rows:
            continue
        shown = [
            a
            for a in attrs
            if (kind, a) not in placed and a != "name" and any(a in r for r in rows)
        ]
        if not shown:
            continue
        out.append("")
        label = f"{kind}s"
        out.append(
            label
            + ": "
            + ", ".join(
                _row_label(r) + " (" + ", ".join(f"{a} {text(r.get(a, '?'))}" for a in shown) + ")"
                for r in rows
            )
        )
    if view["globals"]:
        out.append("")
        out.append("  ".join(f"{k}: {text(v)}" for k, v in view["globals"].items()))
    out.append("")
    for p in view["players"]:
        extras = ", ".join(f"{k}: {text(v)}" for k, v in p.items() if k not in ("name", "seat"))
        you = " (you)" if view.get("viewer") is not None and p["name"] == _name(game, view) else ""
        out.append(f"  {p['name']}{you}" + (f" - {extras}" if extras else ""))
    viewer = _name(game, view)
    for zone, content in view["zones"].items():
        if isinstance(content, dict):
            if content["size"]:
                known = content.get("known")
                of = f" (you know of {', '.join(text(c) for c in known)})" if known else ""
                out.append(f"  {zone}: {content['size']} hidden{of}")
        elif zone.endswith(f"[{viewer}]") and viewer and view.get("zone_tiles", {}).get(zone):
            out.append(f"  {zone}:")
            out.extend(_drawn(content, view["zone_tiles"][zone]))
        elif content:
            out.append(f"  {zone}: " + ", ".join(text(c) for c in content))
    if view.get("private") and "private_to" in view:
        # the referee's view: everyone's private messages, each with whom it was for
        out.append("")
        out.append("private messages:")
        out.extend(
            f"  to {', '.join(to)}: {line}"
            for line, to in zip(view["private"], view["private_to"], strict=True)
        )
    elif view.get("private"):
        out.append("")
        out.append("only you know:")
        out.extend(f"  {line}" for line in view["private"])
    log = view["log"][-log_tail:] if log_tail else []
    if log:
        out.append("")
        out.append("recent events:")
        out.extend(f"  {line}" for line in log)
    return "\n".join(out)


def _name(game: Game, view: dict[str, Any]) -> str:
    viewer = view.get("viewer")
    if isinstance(viewer, int) and 0 <= viewer < game.players:
        return game.player_names[viewer]
    return ""


def _row_label(row: dict[str, Any]) -> str:
    return str(row.get("name", "?"))


def _board(
    game: Game, name: str, board: Any, view: dict[str, Any], placed: set[tuple[str, str]]
) -> list[str]:
    """One line per node: its name and attributes, the pieces and markers on it."""
    on_node: dict[str, list[str]] = {n: [] for n in board.names}
    on_board = f"node({name})"
    for kind, attrs in game.rules.kinds.items():
        for attr, type_ in attrs.items():
            if type_ == on_board:
                placed.add((kind, attr))
                for row in view["pieces"].get(kind, []):
                    where = row.get(attr)
                    if where in on_node:
                        on_node[where].append(_row_label(row))
    for g, type_ in game.rules.globals.items():
        if type_ == on_board and g in view["globals"]:
            where = view["globals"][g]
            if where in on_node:
                on_node[where].append(f"[{g.upper()}]")
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


def _drawn(names: list[str], faces: list[dict[str, Any]]) -> list[str]:
    """A hand of cards drawn side by side: tiles by their open sides, others by number."""
    rows = ["", "", "", ""]
    for i, (name, face) in enumerate(zip(names, faces, strict=True), 1):
        glyph = tile_glyph({"tile": name, **face}) if any(face["open"]) else ("   ", " * ", "   ")
        for r in range(3):
            rows[r] += f"  {glyph[r]}  "
        rows[3] += f"  {i:^3}  "
    legend = [f"    {i}. {name}" for i, name in enumerate(names, 1)]
    return ["   " + row for row in rows] + legend


def tile_glyph(cell: dict[str, Any] | None) -> tuple[str, str, str]:
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
    c = "▒" if cell.get("secret") else " "  # face down, yet known to this view
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


def grid_map(board: Any, cells: dict[str, Any]) -> list[str]:
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
