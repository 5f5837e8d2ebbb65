"""What a game shows: views derived from the visibility declarations, attributes,
zones, tiles, values, the history and the record. Mixed into `Game` (engine.py)."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, cast, overload

from rulelang.check.symbols import AttrSym
from rulelang.check.types import T
from rulelang.diagnostics import UsageError
from rulelang.runtime import boards, views
from rulelang.runtime.code import PUBLIC, Event, Value
from rulelang.runtime.edit import Editor
from rulelang.runtime.state import State, events_of
from rulelang.runtime.values import plain
from rulelang.runtime.views import may_see

if TYPE_CHECKING:
    from rulelang.runtime.engine import Game
    from rulelang.runtime.ruleset import Ruleset
    from rulelang.runtime.view_types import PartialView, Tile, View


class GameQueries:
    rules: Ruleset
    state: State

    def _game(self) -> Game:
        return cast("Game", self)  # this class is mixed into Game only

    @property
    def players(self) -> int:
        return self.state.cfg.n

    @property
    def player_names(self) -> tuple[str, ...]:
        return self.state.cfg.player_names

    @overload
    def view(self, player: int | None, only: None = None) -> View: ...

    @overload
    def view(self, player: int | None, only: Collection[str]) -> PartialView: ...

    def view(self, player: int | None, only: Collection[str] | None = None) -> View | PartialView:
        """Everything `player` may see, as plain typed data: None sees everything, PUBLIC
        only what every player sees. `only` limits it to some parts (e.g. {"players"}).
        Without `only` it is a whole `View`: the builder fills in every part then (its
        type cannot say so; tests/test_view_types.py checks it)."""
        return views.view(self._game(), self._viewer(player), only)

    def _viewer(self, viewer: int | None) -> int | None:
        """None (everything), PUBLIC (what all may see) or a seat; anything else is refused."""
        if viewer is None or viewer == PUBLIC:
            return viewer
        if (
            isinstance(viewer, bool)
            or not isinstance(viewer, int)
            or not 0 <= viewer < self.players
        ):
            raise UsageError(
                f"no player {viewer!r} to view as: seats are 0..{self.players - 1}, "
                "or PUBLIC, or None for everything"
            )
        return viewer

    def attribute(
        self, name: str, of: int | None = None, viewer: int | None = None, kind: str = "player"
    ) -> Value:
        """A global (of=None), or an attribute of a player's seat (kind "player", the
        default) or of a piece or card of `kind` by its index, as plain data. With a
        viewer, an attribute that viewer may not see is refused."""
        sym = self._attr(name, of, kind)
        viewer = self._viewer(viewer)
        if viewer is not None and not may_see(
            sym.visibility, viewer, of if sym.owner == "player" else None
        ):
            raise UsageError(f"'{name}' is not visible to {self.player_names[viewer]}")
        st = self.state
        value = st.vars[sym.slot] if of is None else st.cols[sym.slot][of]
        return plain(self, sym.type, value)

    def _attr(self, name: str, of: int | None, kind: str = "player") -> AttrSym:
        p = self.rules.program
        if of is None:
            found = next((g for g in p.globals if g.name == name), None)
            if found is None:
                raise UsageError(f"no global '{name}' in {self.rules.title}")
            return found
        found = next((a for a in p.columns if a.name == name and a.owner == kind), None)
        if found is None:
            raise UsageError(f"no attribute '{name}' of {kind} in {self.rules.title}")
        size = len(self.state.cols[found.slot])
        if isinstance(of, bool) or not isinstance(of, int) or not 0 <= of < size:
            raise UsageError(f"there is no {kind} {of!r} (0..{size - 1})")
        return found

    def value(self, name: str) -> Value:
        """A param (as this game set it), const, table, die or board value, by name."""
        sym = next((v for v in self.rules.program.values if v.name == name), None)
        if sym is None:
            raise UsageError(f"no param or const '{name}' in {self.rules.title}")
        value = self.state.cfg.consts[sym.slot]
        if sym.what in ("table", "board"):
            return value
        return plain(self, sym.type, value)

    def zone(
        self, name: str, owner: int | None = None, viewer: int | None = None
    ) -> list[Value] | int:
        """A zone's contents as plain data, bottom first; if a viewer may not see
        inside it, only how many items it holds."""
        z = next((z for z in self.rules.program.zones if z.name == name), None)
        if z is None:
            raise UsageError(f"no zone '{name}' in {self.rules.title}")
        if z.per_player and (owner is None or not 0 <= owner < self.players):
            raise UsageError(f"zone '{name}' belongs to each player: say whose")
        items = self.state.zones[self.rules.layout.zone_base[name] + (owner or 0)]
        viewer = self._viewer(viewer)
        if viewer is not None and not may_see(z.visibility, viewer, owner):
            return len(items)
        elem = z.type.elem or T("any")
        return [plain(self, elem, v) for v in items]

    def items(self, zone: str, owner: int | None = None) -> list[Value]:
        """A zone's contents as values (piece and card indices), bottom first;
        omniscient."""
        z = next((z for z in self.rules.program.zones if z.name == zone), None)
        if z is None:
            raise UsageError(f"no zone '{zone}' in {self.rules.title}")
        return list(self.state.zones[self.rules.layout.zone_base[zone] + (owner or 0)])

    def name_of(self, kind: str, item: int) -> str:
        """The text of a piece or card of `kind` (its name attribute)."""
        return str(plain(self, T("entity", kind), item))

    @property
    def boards(self) -> dict[str, boards.Board]:
        """The boards of this game: read-only topology, node names and attributes."""
        return dict(self.state.cfg.boards)

    def node(self, board: str, at: Value) -> int:
        """A node of a board by index or name; on a grid, "x,y" names a cell."""
        return self.edit().node(board, at)

    def tile(self, board: str, at: Value, viewer: int | None = None) -> Tile | None:
        """The tile on a cell of a tiled board, as a view shows it to `viewer` (the
        omniscient view, viewer None, also gives the item), or None."""
        viewer = self._viewer(viewer)
        ops = self.rules.ex.tiles.get(board)
        if ops is None:
            raise UsageError(f"board '{board}' holds no tiles")
        node = self.node(board, at)
        if node not in self.state.layers[ops.layer]:
            return None
        return views.tile_cell(self._game(), ops, node, viewer)

    def edit(self) -> Editor:
        """Change the position by hand (tests, trying a rule): see runtime/edit.py."""
        return Editor(self._game())

    def history(self, viewer: int | None = None, since: object = None) -> list[str]:
        """The event log as text, each event shown only as far as `viewer` may see it;
        with `since` (a `mark()`), only what happened after that mark."""
        return views.log_lines(self._game(), self._viewer(viewer), since=since)

    def mark(self) -> object:
        """A bookmark of the history as it is now, for `history(viewer, since=...)`:
        following a game's news costs only the new events."""
        return self.state.log

    def events(self) -> list[Event]:
        """Every event so far, in order (omniscient: for referees, tests and saves)."""
        views.told(self.state)
        return events_of(self.state)

    def record(self, since: object = None, upto: object = None) -> list[dict[str, Value]]:
        """The log by stable identity, for saved games: each decision by its name and
        the chosen option's text, each chance event by its name and outcome. With
        marks (`mark()`), only the events after `since`, up to `upto` (default: now)."""
        return views.record(self._game(), since, upto)
