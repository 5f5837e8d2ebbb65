"""Show a player's view as text: boards, pieces, players, zones, recent events."""

from __future__ import annotations

from typing import Any

from rulelang.runtime.engine import Game


def render_view(game: Game, view: dict[str, Any], log_tail: int = 8) -> str:
    program = game.rules.program
    out: list[str] = [f"== {view['title']} == turn {view['turn']}, {view['current']} to play"]
    placed: set[tuple[str, str]] = set()
    for name, board in game.state.cfg.boards.items():
        out.append("")
        out.extend(_board(game, name, board, view, placed))
    for kind in program.kinds:
        rows = view["pieces"].get(kind.name)
        if not rows:
            continue
        shown = [a for a in kind.attrs.values() if (kind.name, a.name) not in placed
                 and a.name != "name" and any(a.name in r for r in rows)]
        if not shown:
            continue
        out.append("")
        label = f"{kind.name}s"
        out.append(label + ": " + ", ".join(
            _row_label(r) + " (" + ", ".join(f"{a.name} {r.get(a.name, '?')}" for a in shown)
            + ")" for r in rows))
    if view["globals"]:
        out.append("")
        out.append("  ".join(f"{k}: {v}" for k, v in view["globals"].items()))
    out.append("")
    for p in view["players"]:
        extras = ", ".join(f"{k}: {v}" for k, v in p.items() if k != "name")
        you = " (you)" if view.get("viewer") is not None and p["name"] == _name(game, view) \
            else ""
        out.append(f"  {p['name']}{you}" + (f" - {extras}" if extras else ""))
    for zone, content in view["zones"].items():
        if isinstance(content, dict):
            out.append(f"  {zone}: {content['size']} hidden")
        else:
            out.append(f"  {zone}: " + (", ".join(content) if content else "(empty)"))
    log = view["log"][-log_tail:] if log_tail else []
    if log:
        out.append("")
        out.append("recent events:")
        out.extend(f"  {line}" for line in log)
    return "\n".join(out)


def _name(game: Game, view: dict[str, Any]) -> str:
    viewer = view.get("viewer")
    if isinstance(viewer, int) and 0 <= viewer < game.state.cfg.n:
        return str(game.state.cfg.player_names[viewer])
    return ""


def _row_label(row: dict[str, Any]) -> str:
    return str(row.get("name", "?"))


def _board(game: Game, name: str, board: Any, view: dict[str, Any],
           placed: set[tuple[str, str]]) -> list[str]:
    """One line per node: its name and attributes, the pieces and markers on it."""
    program = game.rules.program
    on_node: dict[str, list[str]] = {n: [] for n in board.names}
    for kind in program.kinds:
        for attr in kind.attrs.values():
            if attr.type.name == "node" and attr.type.arg == name:
                placed.add((kind.name, attr.name))
                for row in view["pieces"].get(kind.name, []):
                    where = row.get(attr.name)
                    if where in on_node:
                        on_node[where].append(_row_label(row))
    for g in program.globals:
        if g.type.name == "node" and g.type.arg == name and g.name in view["globals"]:
            where = view["globals"][g.name]
            if where in on_node:
                on_node[where].append(f"[{g.name.upper()}]")
    width = max(len(n) for n in board.names)
    lines = [f"{name}:"]
    for i, node in enumerate(board.names):
        attrs = "  ".join(f"{k} {v[i]:>3}" for k, v in board.attrs.items())
        lines.append(f"  {i:>2} {node:<{width}}  {attrs}  | " + " ".join(on_node[node]))
    return lines
