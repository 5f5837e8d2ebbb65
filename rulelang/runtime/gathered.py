"""Every tile of a board given back at once (issue 21, item 1): a round's reset.

`for c in placed(board) { add tile(board, c) to pile }` gives each tile back by its
own `add`: three Python calls a tile (`add`, `detach`, `clear`), some 17 tiles a round
of a tile game. It is compiled as the `add` of them all, `add [tile(board, c) for c in
placed(board)] to pile`, which takes them off the board in one call
(helpers.TAKE_AT_ONCE): the same tiles, in the cells' order, each taken from its cell
(the same records of tiles shown, the same hints), the pile grown by them in that
order. A tile lies in one place, so
taking one leaves the others where they were: the tile at each cell is the one the
loop would have read there. The loop's rounds are counted against the step budget
as before. Only for that shape: one `add` of the tile at the loop's cell, the board of
`placed`, no `where`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rulelang.syntax import ast as A

if TYPE_CHECKING:
    from rulelang.runtime.exprgen import ExprGen

GATHERED = True  # off: the loop gives back one tile at a time, as written
_ADD_ONE = re.compile(r"_h\.add\(st, \((?P<item>.+),\), (?P<rest>[^()]+\))(?P<mark>  # @\d+)?$")


def gathered(ex: ExprGen, s: A.For, slot: int, seq: str, inner: list[str]) -> list[str] | None:
    """The loop `s` (its variable at `slot`, its cells read from `seq`, its body
    compiled as `inner`) as one `add` of every tile, or None."""
    if not GATHERED or s.where is not None or len(s.body) != 1 or len(inner) != 1:
        return None
    add, source = s.body[0], s.source
    if not (isinstance(add, A.AddItems) and _call(source, "placed") and _call(add.items, "tile")):
        return None
    assert isinstance(source, A.Call) and isinstance(add.items, A.Call)
    board, (on, at) = source.args[0], add.items.args
    same = isinstance(board, A.Name) and isinstance(on, A.Name) and board.id == on.id
    if not (same and ex.is_var(at, slot)):
        return None
    found = _ADD_ONE.match(inner[0])
    if found is None:
        return None
    items = f"tuple([{found['item']} for _v{slot} in {seq}])"
    return [f"_h.add(st, {items}, {found['rest']}{found['mark'] or ''}"]


def _call(e: A.Expr, func: str) -> bool:
    """Is e a call of the built-in `placed(board)` or `tile(board, cell)`?"""
    arity = 1 if func == "placed" else 2
    return isinstance(e, A.Call) and e.func == func and len(e.args) == arity
