"""What a browser table needs besides the views: the shape of the game's boards, a
ruleset's public facts, the same for every viewer.

`layout(game)` is JSON-able and read by rulelang/serve/static/table.js, which draws the
boards from it and from the views (as rulelang/render/text.py draws them as text).
Nothing here knows a game: boards are drawn by their shape, pieces are placed by the
attributes whose type is `node(BOARD)`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulelang.render.board_map import ARROWS
from rulelang.render.text import bookkeeping_of
from rulelang.runtime.boards import GridBoard

if TYPE_CHECKING:
    from rulelang import Game
    from rulelang.runtime.boards import Board


def layout(game: Game) -> dict[str, Any]:
    """The boards by name with their shape, and where pieces, players and globals stand
    on them; the board attributes' display and the bookkeeping attributes."""
    rules = game.rules
    program = rules.program
    placed: dict[str, list[dict[str, str]]] = {name: [] for name in game.boards}
    for name in game.boards:
        on_board = f"node({name})"
        for a in program.player_attrs:
            if str(a.type) == on_board:
                placed[name].append({"owner": "player", "attr": a.name})
        for kind, attrs in rules.kinds.items():
            for attr, type_ in attrs.items():
                if type_ == on_board:
                    placed[name].append({"owner": kind, "attr": attr})
        for g, type_ in rules.globals.items():
            if type_ == on_board:
                placed[name].append({"owner": "global", "attr": g})
    board_attrs: dict[str, dict[str, object]] = {
        a.name: {"board": a.board, "edge": bool(a.edge), "display": a.display, "type": str(a.type)}
        for a in rules.view_plan.board_attrs
    }
    return {
        "title": rules.title,
        "boards": {name: _board(name, board, placed[name]) for name, board in game.boards.items()},
        "board_attrs": board_attrs,
        "arrows": {str(k): v for k, v in ARROWS.items()},
        "bookkeeping": {k: sorted(v) for k, v in bookkeeping_of(game).items()},
        "pieces": list(rules.pieces),
    }


def _board(name: str, board: Board, placed: list[dict[str, str]]) -> dict[str, Any]:
    out: dict[str, Any] = {"shape": board.shape, "placed": placed}
    out["bounded"] = board.bounded
    if isinstance(board, GridBoard):
        out["names"] = []  # a grid's cells are named "x,y"
        if board.bounded:  # (a grid without bounds grows where tiles are laid)
            out.update(x0=board.x0, y0=board.y0, width=board.width, height=board.height)
    else:
        out["names"] = list(board.names)
    return out
