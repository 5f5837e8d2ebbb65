"""What the checker passes share: the scope of a rule being checked, built-in names."""

from __future__ import annotations

from dataclasses import dataclass, field

from rulelang.check.symbols import (
    BuiltinSym,
    DefSym,
    KindSym,
    LocalSym,
    ProcSym,
    Sym,
    ValueSym,
    ZoneSym,
)
from rulelang.check.types import INT, PLAYER, T, list_of
from rulelang.diagnostics import NO_SPAN
from rulelang.syntax import ast as A

TILE_FUNCS = {
    "tile",
    "face_up",
    "turn_of",
    "open_side",
    "fits",
    "joins",
    "reached",
    "touching",
    "spots",
    "placed",
    "secret_at",
}
GRID_FUNCS = {"cell", "neighbour", "side", "line_from", "lines_through"}
BOARD_FUNCS = TILE_FUNCS | GRID_FUNCS


def open_grid(d: A.BoardDecl) -> bool:
    """`grid()`: a grid without bounds, whose cells are endless (runtime/open_grid.py)."""
    return d.shape == "grid" and not d.args


# functions of a side value (docs/language.md, "Board state, sides and generation")
SIDE_FUNCS = {"side_cell", "side_dir", "across", "on_rim"}
# the arguments of board functions that are nodes of the board given first
NODE_ARGS: dict[str, tuple[int, ...]] = {
    "step": (1,),
    "distance": (1, 2),
    "path_length": (1,),  # the goals and walls may be lists: checked by the board
    "neighbour": (1,),
    "line_from": (1,),
    "lines_through": (1,),
    "side": (1,),
    "tile": (1,),
    "face_up": (1,),
    "turn_of": (1,),
    "secret_at": (1,),
    "open_side": (1,),
    "fits": (1,),
    "joins": (1, 4),
    "reached": (1,),
    "touching": (1,),
    "spots": (1,),
}
BUILTIN_VALUES = {
    "players": BuiltinSym("players", NO_SPAN, list_of(PLAYER)),
    "player_count": BuiltinSym("player_count", NO_SPAN, INT),
    "current": BuiltinSym("current", NO_SPAN, PLAYER),
    "index": BuiltinSym("index", NO_SPAN, INT),
    "turn_number": BuiltinSym("turn_number", NO_SPAN, INT),
    "round_number": BuiltinSym("round_number", NO_SPAN, INT),
}
STATE_BUILTINS = {"current", "turn_number", "round_number"}
# statements that may wait for a player or the dice (a reaction round asks players)
PAUSING = (A.Choose, A.Roll, A.ShuffleLet, A.ShuffleZone, A.Pick, A.React, A.Generate)


@dataclass
class Ctx:
    static: bool = False  # a value fixed for the whole game: no state may be read
    value: ValueSym | None = None  # the value being defined, to record what it needs
    owner: str = ""  # the proc or def being checked, for the call graph
    kind: KindSym | None = None  # inside a kind's attribute defaults: `index` is known
    pause_ok: bool = True  # choices and chance are allowed here
    decide_ok: bool = True  # choices too (not in `imagine`: chance only)
    context: str = "rule"  # what to call this place in messages
    scopes: list[dict[str, LocalSym]] = field(default_factory=list)
    indexing: bool = False  # the name being checked is indexed: hand[p]
    reacting: int = 0  # inside the body of this many `react` statements: `pass` is allowed
    loops: int = 0  # inside this many loops (not counting past a `react`): `break` is allowed
    block_def: DefSym | None = None  # in the block of this def: only values are computed
    returns: T | None = None  # the type of the def's `return`s so far (joined)

    def lookup(self, name: str) -> LocalSym | None:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return None


def describe(sym: Sym) -> str:
    if isinstance(sym, ValueSym):
        return sym.what
    if isinstance(sym, ProcSym):
        return "proc"
    if isinstance(sym, DefSym):
        return "def"
    if isinstance(sym, ZoneSym):
        return "zone"
    if isinstance(sym, BuiltinSym):
        return "built-in value"
    if isinstance(sym, LocalSym):
        return "local name"
    return "name"
