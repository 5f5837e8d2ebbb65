"""Determinization: a copy of a game in which what one seat cannot see is dealt anew.

Information-set search (rulelang/search) plays many games forward from positions that
the deciding player cannot tell apart. Each one is a clone of the real game in which
everything hidden from that seat, by the rule file's visibility declarations, is
re-dealt at random, so that whatever the search does, it never reads a secret. What is
re-dealt is first put in a fixed order (sorted), so the same generator gives the same
determinization whatever the hidden truth was: a search decides the same when only
what its player cannot see changes.

- the future of the dice: the clone draws its chance events from the caller's
  generator, not the game's (for every seat, and for `seat=None` too);
- the items of the zones the seat may not look into (`visible to none`, another
  player's `visible to owner` zone) are shuffled among those zones, zone by zone of the
  same kind of item, each keeping its size; but the items the seat is offered in its
  own pending choice stay where they are (it sees them: `choose c in pot`), and so do
  the items `reveal ... to` showed the seat, while they are still where it saw them;
- face-down tiles on a tiled board are shuffled among the face-down cells of the board
  (each cell keeps its quarter turns), except those `reveal ... to` showed the seat;
- a per-player zone `visible to others` (a hand held facing the table) is dealt anew
  for its owner only: every other seat sees it;
- the `visible to owner` player attributes of the other players: a piece or card
  (a secret piece each player holds) is drawn anew among the pieces of its kind the seat does
  not see held, when the players' values are all different; any other value
  (a role, say) is shuffled among the other players.

Not re-dealt (a search reads them as they are): globals, piece and card attributes and
board `state`/`edge` attributes declared `visible to none`, the values of secret
choices held in the rules' local variables. What the seat was told privately in
words (`say ... to`) is text: a search knows only what `reveal ... to` showed it.
docs/api.md says so too.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from rulelang.check.symbols import AttrSym, Program, imagine_proc
from rulelang.runtime.code import ChoiceSpec
from rulelang.runtime.imagine import forget, imagine
from rulelang.runtime.state import known_places

if TYPE_CHECKING:
    from rulelang.runtime.engine import Game


def not_redealt(program: Program) -> list[str]:
    """The hidden attributes a determinization leaves as they are (globals, piece, card
    and board attributes that are not `visible to all`): an information-set search of
    these rules would read them, so it refuses to play them. None when the rules
    `imagine` them (runtime/imagine.py: forgotten, then pictured anew)."""
    if imagine_proc(program.procs) is not None:
        return []
    syms = {id(s): s for s in program.refs.values() if isinstance(s, AttrSym)}
    syms.update((id(a), a) for a in program.globals)
    hidden = {
        f"{'' if s.owner == 'global' else s.owner + '.'}{s.name}"
        for s in syms.values()
        if s.visibility != "all"
        and s.owner != "player"
        # a player's own value `visible to others` is one it cannot see (no re-deal)
        or s.visibility == "others"
    }
    return sorted(hidden)


def determinize(game: Game, seat: int | None, rng: random.Random) -> Game:
    """A clone of `game` with what `seat` cannot see re-dealt from `rng` (seat None: only
    the future of the dice). The original is untouched."""
    other = game.clone()
    st = other.state
    st.rng = rng  # its dice come from the caller's generator (no copy: cheap)
    st.rng_shared = False
    if seat is None:
        return other
    rules = game.rules
    program, layout = rules.program, rules.layout
    n = st.cfg.n
    # zones, grouped by the kind of item they hold
    groups: dict[str, list[int]] = {}
    for z in program.zones:
        if z.visibility == "all":
            continue
        base = layout.zone_base[z.name]
        owners = range(n) if z.per_player else (None,)
        for owner in owners:
            if z.visibility == "owner" and owner == seat:
                continue
            if z.visibility == "others" and owner != seat:  # all but the owner see it
                continue
            groups.setdefault(layout.zone_kind[z.name], []).append(base + (owner or 0))
    zones = st.zones
    # what the seat sees stays put: the items it is offered in its own pending choice,
    # and what `reveal ... to` showed it (where it still is)
    known = known_places(st, seat) if st.shown is not None else set()
    spec = st.pending
    offered: frozenset[object] = frozenset()
    if isinstance(spec, ChoiceSpec) and spec.kind is not None and st.who == seat:
        offered = frozenset(st.options)
    offered_kind = spec.kind if isinstance(spec, ChoiceSpec) else None
    for group_kind, slots in groups.items():
        kept = set(offered) if group_kind == offered_kind else set()
        kept.update(item for place, item in known if place[0] == "zone" and place[1] in slots)
        pool = sorted(item for slot in slots for item in zones[slot] if item not in kept)
        if len(pool) < 2:
            continue
        rng.shuffle(pool)
        if kept:  # the items kept keep their places, the others are dealt around them
            dealt = iter(pool)
            for slot in slots:
                zones[slot] = tuple(i if i in kept else next(dealt) for i in zones[slot])
            continue
        at = 0
        for slot in slots:
            size = len(zones[slot])
            zones[slot] = tuple(pool[at : at + size])
            at += size
    # face-down tiles
    for ops in rules.ex.tiles.values():
        cells, where = st.layers[ops.layer], st.layers[ops.layer + 1]
        down = sorted(  # in a fixed order, not by history; the cells shown to the seat stay
            cell
            for cell, placed in cells.items()
            if placed[2] and (("tile", ops.layer, cell), placed[0]) not in known
        )
        if len(down) < 2:
            continue
        tiles = sorted(cells[cell][0] for cell in down)
        rng.shuffle(tiles)
        for cell, tile in zip(down, tiles, strict=True):
            cells[cell] = (tile, cells[cell][1], True)
            where[tile] = cell
        st.reach = {}
    if rules.imagines:  # the rules picture the rest: forget it all, then imagine
        forget(rules, st, seat)
        imagine(rules, st, seat)  # marks the state changed
        if isinstance(spec, ChoiceSpec) and not st.over:  # the seat's too: they may
            st.options = spec.options(st)  # depend on what it pictured (who is here)
        return other
    # the other players' secrets
    others = [p for p in range(n) if p != seat]
    for a in program.player_attrs:
        if a.visibility != "owner" or len(others) < 2:
            continue
        col = st.cols[a.slot] = st.cols[a.slot].copy()  # the column may be shared
        values = [col[p] for p in others]
        kind = st.cfg.entities.get(a.type.arg) if a.type.name == "entity" else None
        if kind is not None and len(set(values)) == len(values) and None not in values:
            unseen = [item for item in kind if item != col[seat]]
            values = rng.sample(unseen, len(values))
        else:
            values.sort(key=repr)
            rng.shuffle(values)
        for p, v in zip(others, values, strict=True):
            col[p] = v
    st.dirty = True
    if isinstance(spec, ChoiceSpec) and not st.over and st.who != seat:
        st.options = spec.options(st)  # another's decision: its options may have changed
    return other
