"""A board built from its declaration's shape and arguments: the kinds of board
(runtime/boards.py, runtime/open_grid.py) meet here, so that neither imports the
other."""

from __future__ import annotations

from collections.abc import Sequence

from rulelang.runtime.boards import Board, GridBoard, TooLarge
from rulelang.runtime.open_grid import OpenGrid


def build(name: str, shape: str, args: list[object], limit: int) -> Board:
    """A board of `shape` built from its arguments; ValueError (TooLarge past `limit`
    nodes or cells) saying why it cannot be."""
    if shape == "grid":
        if not args:  # no bounds: the cells are wherever tiles go
            return OpenGrid(name, limit)
        bounds = [a for a in args if isinstance(a, int)]
        if len(args) != 4 or len(bounds) != 4:
            raise ValueError(
                "grid() takes four numbers: x from, x to, y from, y to (or none, for a "
                "grid without bounds)"
            )
        x0, x1, y0, y1 = bounds
        if (x1 - x0 + 1) * (y1 - y0 + 1) > limit:
            raise TooLarge(
                f"grid '{name}' would have {(x1 - x0 + 1) * (y1 - y0 + 1)} cells; "
                f"at most {limit} are allowed"
            )
        return GridBoard(name, x0, x1, y0, y1)
    if len(args) != 1:
        raise ValueError(f"{shape}() takes one argument: a number of nodes or a list of names")
    arg = args[0]
    if not isinstance(arg, int | Sequence):
        raise ValueError(f"{shape}() takes one argument: a number of nodes or a list of names")
    size = arg if isinstance(arg, int) else len(arg)
    if size > limit:
        raise TooLarge(f"board '{name}' would have {size} nodes; at most {limit} are allowed")
    if isinstance(arg, int):
        names: Sequence[str] = [str(i) for i in range(arg)]
    else:
        names = [str(x) for x in arg]
    if not names:
        raise ValueError(f"board '{name}' has no nodes")
    return Board(name, shape, names)
