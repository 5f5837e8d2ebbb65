"""Determinization: a world one seat could believe it is in, for information-set search.

Information-set search (rulelang/search) plays many games forward from positions that
the deciding player cannot tell apart. Each one is a world in which everything hidden
from that seat is drawn again from what produced it, consistent with what the seat
observed: a world of the seat's belief (runtime/belief.py: the record replayed with
what the seat did not see drawn again, kept where its view agrees), so that whatever
the search does, it never reads a secret. Its future dice draw from the caller's
generator (for `seat=None` too: then it is a plain clone).

Rules with an `imagine` block picture what the seat cannot see themselves (the fast
path, runtime/imagine.py): the determinization is a clone of the real game in which
the items of the zones the seat may not look into are dealt anew among those zones
(per kind of item, each zone keeping its size; sorted first, so that the deal depends
on no hidden order), as are face-down tiles among the face-down cells of their board,
but for what the seat is offered and what `reveal ... to` showed it; then every value
the seat may not see is forgotten and the block pictures it. `redeal_unseen` deals the
same way the copies a belief makes when it resamples.

`not_redealt` names the hidden globals, piece, card and board attributes of rules
without `imagine`: the search bots refuse such rules up front (search/__init__.py).
docs/api.md and docs/bots.md say so too.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from rulelang.check.symbols import AttrSym, Program, imagine_proc
from rulelang.runtime.belief import follows_record, world
from rulelang.runtime.code import ChoiceSpec, Value
from rulelang.runtime.imagine import forget, imagine
from rulelang.runtime.redeal import redeal_tiles, redeal_zones

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
    """A world `seat` could believe it is in, drawn from `rng` (seat None: a clone with
    only the future of the dice drawn from `rng`). The original is untouched."""
    if seat is None:
        other = game.clone()
        other.state.rng = rng  # its dice come from the caller's generator (no copy: cheap)
        other.state.rng_shared = False
        return other
    # a game after a quiet playout has no record: dealt anew, as a position set by hand
    if not game.rules.imagines and not game.state.hushed and follows_record(game, seat):
        return world(game, seat, rng)  # replayed from what the seat saw (belief.py)
    other = game.clone()
    st = other.state
    st.rng = rng
    st.rng_shared = False
    spec = st.pending
    offered: set[tuple[str, Value]] = set()
    if isinstance(spec, ChoiceSpec) and spec.kind is not None and st.who == seat:
        offered = {(spec.kind, v) for v in st.options}  # it sees them: they stay put
    redeal_zones(other, seat, rng, offered)
    redeal_tiles(other, seat, rng)
    if not game.rules.imagines:  # a position set up by hand (Game.edit): no history
        _redeal_owned(other, seat, rng)
        return other
    forget(game.rules, st, seat)  # the rules picture the rest: forget it all, then imagine
    imagine(game.rules, st, seat)  # marks the state changed
    if isinstance(spec, ChoiceSpec) and not st.over:  # the options may depend on what
        st.options = spec.options(st)  # it pictured (who is here)
    return other


def _redeal_owned(game: Game, seat: int, rng: random.Random) -> None:
    """The other players' `visible to owner` attributes of a position set up by hand
    (which has no history to draw them from): a piece or card is drawn among those of
    its kind the seat does not hold, when the players hold different ones; any other
    value is shuffled among the other players (with one other player it stays as it
    is: docs/api.md says so)."""
    st = game.state
    others = [p for p in range(st.cfg.n) if p != seat]
    for a in game.rules.program.player_attrs:
        if a.visibility != "owner" or len(others) < 2:
            continue
        col = st.cols[a.slot] = st.cols[a.slot].copy()  # the column may be shared
        values = [col[p] for p in others]
        kind = st.cfg.entities.get(a.type.arg) if a.type.name == "entity" else None
        if kind is not None and len(set(values)) == len(values) and None not in values:
            values = rng.sample([item for item in kind if item != col[seat]], len(values))
        else:
            values.sort(key=repr)
            rng.shuffle(values)
        for p, v in zip(others, values, strict=True):
            col[p] = v
    st.dirty = True
    spec = st.pending
    if isinstance(spec, ChoiceSpec) and not st.over and st.who != seat:
        st.options = spec.options(st)  # another's decision: its options may have changed
