"""Dealing anew what one seat cannot see: the items of the zones it may not look into
and the face-down tiles, shuffled among those places (sorted first, so that the deal
depends on no hidden order), but for what it saw or is offered. The determinization
of rules that `imagine` (determinize.py) and the copies a belief makes when it
resamples (belief.py) both deal this way."""

from __future__ import annotations

import random
from collections.abc import Collection
from typing import TYPE_CHECKING

from rulelang.runtime.code import ChoiceSpec, Value
from rulelang.runtime.state import known_places
from rulelang.runtime.views import may_see, view

if TYPE_CHECKING:
    from rulelang.runtime.engine import Game

Seen = frozenset[tuple[str, Value]]  # items the seat saw in a world, as (kind, item)
# what the seat sees of a world, besides the new lines of the log; not the options of
# its pending decision (a world does not learn from them what they would tell: the
# check of tests/test_secrecy.py sees rules whose options tell a secret; the items
# it is offered are the very ones it sees, see _repair_offered)
PARTS = (
    "globals",
    "players",
    "pieces",
    "zones",
    "boards",
    "board_state",
    "zone_tiles",
    "results",
)


def redeal_unseen(g: Game, seat: int, rng: random.Random, seen: Seen) -> Game | None:
    """A copy of `g` (a world of a belief, belief.py) with the items in the zones `seat`
    cannot see, and the face-down tiles, dealt anew among those places, but for the
    items it has seen (`seen`: it knows where they went) and those offered at the
    pending choice; None if nothing moved or what the seat sees would change. (A world
    in which a rule then misses an item it held is rejected by the belief.)"""
    other = g.clone()
    st = other.state
    kept = set(seen)
    spec = st.pending
    if isinstance(spec, ChoiceSpec) and spec.kind is not None:
        kept.update((spec.kind, v) for v in st.options)
    redeal_zones(other, seat, rng, kept)
    redeal_tiles(other, seat, rng, kept)

    if (st.zones == g.state.zones and st.layers == g.state.layers) or view(
        other, seat, PARTS
    ) != view(g, seat, PARTS):
        return None
    return other


def redeal_zones(
    game: Game, seat: int, rng: random.Random, kept: Collection[tuple[str, Value]]
) -> None:
    """Deal the items of the zones `seat` may not look into anew among those zones, zone
    by zone of the same kind of item, each keeping its size; the items in `kept` (as
    (kind, item)) and those `reveal ... to` showed the seat stay where they are. Sorted
    first, so that the deal depends on no hidden order."""
    rules, st = game.rules, game.state
    program, layout = rules.program, rules.layout
    groups: dict[str, list[int]] = {}
    for z in program.zones:
        base = layout.zone_base[z.name]
        for owner in range(st.cfg.n) if z.per_player else (None,):
            if not may_see(z.visibility, seat, owner):  # the views' own rule
                groups.setdefault(layout.zone_kind[z.name], []).append(base + (owner or 0))
    zones = st.zones
    known = known_places(st, seat) if st.shown is not None else set()
    for group_kind, slots in groups.items():
        stay = {v for k, v in kept if k == group_kind}
        stay.update(item for place, item in known if place[0] == "zone" and place[1] in slots)
        pool = sorted(item for slot in slots for item in zones[slot] if item not in stay)
        if len(pool) < 2:
            continue
        rng.shuffle(pool)
        dealt = iter(pool)  # the items kept keep their places, the others go round them
        for slot in slots:
            zones[slot] = tuple(i if i in stay else next(dealt) for i in zones[slot])
    st.dirty = True


def redeal_tiles(
    game: Game, seat: int, rng: random.Random, kept: Collection[tuple[str, Value]] = ()
) -> None:
    """Shuffle the face-down tiles among the face-down cells of their board (each cell
    keeps its quarter turns), but those `reveal ... to` showed the seat and `kept`."""
    rules, st = game.rules, game.state
    known = known_places(st, seat) if st.shown is not None else set()
    for ops in rules.ex.tiles.values():
        cells, where = st.layers[ops.layer], st.layers[ops.layer + 1]
        down = sorted(  # in a fixed order, not by history; the cells shown to the seat stay
            cell
            for cell, placed in cells.items()
            if placed[2]
            and (ops.kind, placed[0]) not in kept
            and (("tile", ops.layer, cell), placed[0]) not in known
        )
        if len(down) < 2:
            continue
        tiles = sorted(cells[cell][0] for cell in down)
        rng.shuffle(tiles)
        for cell, tile in zip(down, tiles, strict=True):
            cells[cell] = (tile, cells[cell][1], True)
            where[tile] = cell
        st.reach = {}
