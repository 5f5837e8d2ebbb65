"""Setting up a position by hand: for tests and for designers trying a rule.

`Game.edit()` moves pieces and cards, lays tiles and sets attributes directly, then
recomputes the pending decision's options. Edits are not decisions: they are not in
the game's record, so an edited game cannot be replayed from it.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from rulelang.check.layout import SIDES
from rulelang.check.types import T
from rulelang.diagnostics import UsageError
from rulelang.runtime import helpers
from rulelang.runtime.code import ChoiceSpec, Value
from rulelang.runtime.tiles import TileOps

if TYPE_CHECKING:
    from rulelang.runtime.engine import Game


class Editor:
    def __init__(self, game: Game):
        self.game = game

    def _error(self, message: str) -> Exception:
        return UsageError(message)

    def item(self, kind: str, item: Value) -> int:
        """A piece or card of `kind` by its index or its name."""
        st = self.game.state
        items = st.cfg.entities.get(kind)
        if items is None:
            raise self._error(f"no piece or card kind '{kind}'")
        if isinstance(item, int) and not isinstance(item, bool) and 0 <= item < len(items):
            return item
        shown = self.game.rules.ex.fmt(T("entity", kind))
        for i in items:
            if isinstance(item, str) and shown(st, i).lower() == item.lower():
                return i
        raise self._error(f"no {kind} '{item}'")

    def _zone(self, name: str, owner: int | None) -> tuple[str, int]:
        z = next((z for z in self.game.rules.program.zones if z.name == name), None)
        if z is None:
            raise self._error(f"no zone '{name}'")
        if z.per_player and (owner is None or not 0 <= owner < self.game.players):
            raise self._error(f"zone '{name}' belongs to each player: say whose")
        return z.kind, self.game.rules.layout.zone_base[name] + (owner or 0)

    def _places(self, kind: str) -> helpers.Places:
        layout = self.game.rules.layout
        shared = tuple(
            layout.zone_base[z.name]
            for z in self.game.rules.program.zones
            if z.kind == kind and not z.per_player
        )
        per_player = tuple(
            layout.zone_base[z.name]
            for z in self.game.rules.program.zones
            if z.kind == kind and z.per_player
        )
        boards = tuple(o for o in self.game.rules.ex.tiles.values() if o.kind == kind)
        return helpers.Places(shared, per_player, boards)

    def move(self, item: Value, zone: str, owner: int | None = None) -> int:
        """Put an item on top of a zone, taking it from wherever it is; return it."""
        kind, slot = self._zone(zone, owner)
        i = self.item(kind, item)
        helpers.add(self.game.state, (i,), slot, self._places(kind))
        return self._changed(i)

    def place(
        self, board: str, at: Value, item: Value, turn: int = 0, face_down: bool = False
    ) -> int:
        """Lay a tile on a cell of a board (by node index, or a name such as "3,0")."""
        ops = self._tiles(board)
        node = self.node(board, at)
        i = self.item(ops.kind, item)
        if node in self.game.state.layers[ops.layer]:
            raise self._error(
                f"cell {self.game.state.cfg.boards[board].names[node]} of "
                f"'{board}' already holds a tile"
            )
        helpers.place(
            self.game.state,
            ops,
            node,
            i,
            turn,
            face_down,
            self._places(ops.kind),
            self.game.rules.program.decls[0].span,
        )
        return self._changed(i)

    def reveal(self, board: str, at: Value, turn: int | None = None) -> None:
        self._tiles(board).reveal(self.game.state, self.node(board, at), turn)
        self._changed(None)

    def clear(self, board: str, at: Value) -> None:
        self._tiles(board).clear(self.game.state, self.node(board, at))
        self._changed(None)

    def set(self, name: str, value: Value, of: int | None = None, kind: str = "player") -> None:
        """Set a global (of=None), or an attribute of a player seat or of a piece or card
        of `kind` by index. Players, pieces, cards and nodes may be given by index or by
        name; a value of the wrong type is refused."""
        sym = self.game._attr(name, of, kind)
        st = self.game.state
        value = self._value_of(sym.type, value, name)
        layout = self.game.rules.layout
        if layout.holds_edges(sym) and (value is None or len(value) != SIDES):
            raise self._error(f"'{name}' of a tile holds {SIDES} sides (N, E, S, W), not {value!r}")
        n = self.game.rules.ex.lengths.get(id(sym))  # the rules keep its length (lengths.py)
        if n is not None and (not isinstance(value, tuple) or len(value) != n):
            raise self._error(f"'{name}' holds a list of {n} items in these rules, not {value!r}")
        if sym.owner == "global":
            st.vars[sym.slot] = value
        elif of is not None:
            if sym.slot not in st.cfg.changing:  # shared with clones: copy before writing
                st.cols[sym.slot] = list(st.cols[sym.slot])
            st.cols[sym.slot][of] = value
        else:
            raise self._error(f"say whose '{name}' to set")
        self._changed(None)

    def _value_of(self, t: T, value: Value, name: str) -> Value:
        """A value for an attribute of type t, from plain data (names or indices)."""
        if value is None or t.name == "any":
            return value
        if t.name == "player":
            names = [n.lower() for n in self.game.player_names]
            if isinstance(value, str) and value.lower() in names:
                return names.index(value.lower())
            if _index(value, len(names)):
                return value
        elif t.name == "entity":
            return self.item(t.arg, value)
        elif t.name == "node":
            return self.node(t.arg, value)
        elif t.name == "enum":  # by its name, kept as the interned text the rules use
            values = self.game.rules.program.enums[t.arg].values
            if isinstance(value, str) and value in values:
                return sys.intern(value)
            shown = ", ".join(values)
            raise self._error(f"'{name}' holds a value of {t} ({shown}), not {value!r}")
        elif t.name == "list" and t.elem is not None and isinstance(value, list | tuple):
            return tuple(self._value_of(t.elem, v, name) for v in value)
        elif isinstance(value, _PLAIN.get(t.name, ())) and (
            t.name == "bool" or not isinstance(value, bool)
        ):
            return value
        raise self._error(f"'{name}' holds a {t}, not {value!r}")

    def node(self, board: str, at: Value) -> int:
        b = self.game.state.cfg.boards.get(board)
        if b is None:
            raise self._error(f"no board '{board}'")
        if isinstance(at, int) and not isinstance(at, bool) and 0 <= at < len(b.names):
            return at
        if isinstance(at, str) and at in b.names:
            return b.names.index(at)
        raise self._error(f"board '{board}' has no cell or node '{at}'")

    def _tiles(self, board: str) -> TileOps:
        ops = self.game.rules.ex.tiles.get(board)
        if ops is None:
            raise self._error(f"board '{board}' holds no tiles")
        return ops

    def _changed(self, item: int | None) -> int:
        st = self.game.state
        st.dirty = True
        st.reach = {}
        spec = st.pending
        # an edit that meets an end rule ends the game at once
        if not st.over and self.game.rules.code.check_end(st):
            return -1 if item is None else item
        if isinstance(spec, ChoiceSpec) and not st.over:
            st.options = spec.options(st)
        return -1 if item is None else item


_PLAIN: dict[str, type | tuple[type, ...]] = {"bool": bool, "int": int, "text": str}


def _index(value: Value, size: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < size
