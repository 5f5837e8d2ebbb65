"""Compile the statements that move things between places: zones and board cells."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rulelang.check.symbols import Program
from rulelang.diagnostics import Span
from rulelang.runtime.exprs import ExprCompiler, Fn, fail
from rulelang.syntax import ast as A


class PlacesCodegen:
    """deal, move, add, place, clear, reveal. Mixed into Codegen (codegen.py)."""

    p: Program
    ec: ExprCompiler
    end_reads: set[int]

    def add_simple(self, f: Callable[[Any], None], span: Span) -> None:
        raise NotImplementedError  # pragma: no cover - Codegen defines it

    def s_Deal(self, s: A.Deal) -> None:
        src, dst = self.ec.zone_base[s.source], self.ec.zone_base[s.dest]
        count = self.ec.compile(s.count)
        dirty = self._zone_dirty(s.source, s.dest)

        def deal(st: Any) -> None:
            n = count(st)
            pile = st.zones[src]
            for p in range(st.cfg.n):
                hand = st.zones[dst + p]
                for _ in range(n):
                    if pile:
                        hand.append(pile.pop())
            if dirty:
                st.dirty = True
        self.add_simple(deal, s.span)

    def _zone_dirty(self, *names: str) -> bool:
        return any(id(z) in self.end_reads for z in self.p.zones if z.name in names)

    def _zone_index(self, ref: A.ZoneRef) -> Fn:
        base = self.ec.zone_base[ref.zone]
        if ref.owner is None:
            return lambda st: base
        owner = self.ec.compile(ref.owner)
        return lambda st: base + owner(st)

    def s_MoveItem(self, s: A.MoveItem) -> None:
        item, src, dst = self.ec.compile(s.item), self._zone_index(s.source), self._zone_index(
            s.dest)
        span, name = s.span, s.source.zone
        dirty = self._zone_dirty(s.source.zone, s.dest.zone)

        def move(st: Any) -> None:
            v = item(st)
            try:
                st.zones[src(st)].remove(v)
            except ValueError:
                raise fail("R006", f"that is not in zone '{name}'", span) from None
            st.zones[dst(st)].append(v)
            if dirty:
                st.dirty = True
        self.add_simple(move, s.span)

    def detacher(self, kind: str) -> Callable[[Any, Any], None]:
        """Take an item out of wherever it is (any zone or board cell of its kind), so
        that `add` and `place` keep every piece and card in exactly one place."""
        slots: list[int] = []
        for z in self.p.zones:
            if z.kind == kind:
                base = self.ec.zone_base[z.name]
                slots.extend(range(base, base + (self.p.max_players if z.per_player else 1)))
        boards = [ops for name, ops in self.ec.tiles.items()
                  if self.ec.tile_kinds.get(name) == kind]

        def detach(st: Any, item: Any) -> None:
            zones = st.zones
            for slot in slots:
                if item in zones[slot]:
                    zones[slot].remove(item)
            for ops in boards:
                where = ops.cell_of(st, item)
                if where >= 0:
                    ops.clear(st, where)
        return detach

    def s_AddItems(self, s: A.AddItems) -> None:
        items, dst = self.ec.compile(s.items), self._zone_index(s.dest)
        many = self.ec.type_of(s.items).name == "list"
        dirty = self._zone_dirty(s.dest.zone)
        kind = next(z.kind for z in self.p.zones if z.name == s.dest.zone)
        detach = self.detacher(kind)

        def add(st: Any) -> None:
            zone = st.zones[dst(st)]
            for item in (items(st) if many else (items(st),)):
                detach(st, item)
                zone.append(item)
            if dirty:
                st.dirty = True
        self.add_simple(add, s.span)

    def _tile_target(self, board: str, at: A.Expr) -> tuple[Any, Fn]:
        return self.ec.tiles[board], self.ec.compile(at)

    def s_Place(self, s: A.Place) -> None:
        ops, node = self._tile_target(s.board, s.at)
        tile = self.ec.compile(s.tile)
        turn = self.ec.compile(s.turn) if s.turn is not None else (lambda st: 0)
        secret, span = s.secret, s.span
        detach = self.detacher(self.ec.tile_kinds[s.board])
        dirty = 1 in self.end_reads or any(
            z.kind == self.ec.tile_kinds[s.board] and id(z) in self.end_reads
            for z in self.p.zones)

        def place(st: Any) -> None:
            where = node(st)
            if where is None:
                raise fail("R003", "there is no such cell to place on", span)
            if st.layers[ops.layer][where] is not None:
                raise fail("R006", "that cell already holds a tile", span)
            item = tile(st)
            detach(st, item)
            ops.place(st, where, item, turn(st), secret)
            if dirty:
                st.dirty = True
        self.add_simple(place, s.span)

    def s_Clear(self, s: A.Clear) -> None:
        ops, node = self._tile_target(s.board, s.at)
        dirty = 1 in self.end_reads

        def clear(st: Any) -> None:
            ops.clear(st, node(st))
            if dirty:
                st.dirty = True
        self.add_simple(clear, s.span)

    def s_Reveal(self, s: A.Reveal) -> None:
        ops, node = self._tile_target(s.board, s.at)
        turn = self.ec.compile(s.turn) if s.turn is not None else None
        dirty = 1 in self.end_reads

        def reveal(st: Any) -> None:
            ops.reveal(st, node(st), turn(st) if turn else None)
            if dirty:
                st.dirty = True
        self.add_simple(reveal, s.span)

