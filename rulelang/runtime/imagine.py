"""`imagine { ... }`: how a player pictures what it cannot see, for information-set search.

`determinize` deals anew the items a seat cannot see (zones, face-down tiles) and the
pieces and cards the other players hold secretly. What cannot be dealt, the rules
picture: when they declare an `imagine` block, a determinization for a seat first
**forgets** every value that seat may not see (each attribute `visible to none`, of any
owner, the other players' `visible to owner` attributes and the seat's own `visible
to others` ones go back to their declared defaults, as before setup), then runs the
block with `me` the seat: it draws a world that agrees with what `me` knows (a map
that fits its notebook, say) from the determinization's own generator. The block may
read anything, since nothing secret is left to read; it may draw chance (`generate`,
`roll`, `pick`, `shuffle`), never ask a player (E305, E311). Its chance events and
messages leave no trace in the log.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang.runtime.code import IMAGINED, run

if TYPE_CHECKING:
    from rulelang.runtime.ruleset import Ruleset
    from rulelang.runtime.state import State


def forget(rules: Ruleset, st: State, seat: int) -> None:
    """Every value `seat` may not see back to its default (the state before setup)."""
    blank = st.cfg.blank
    assert blank is not None
    for slot in rules.imagine_forgets.hidden_cols:
        st.cols[slot] = blank.cols[slot].copy()
    for slot in rules.imagine_forgets.hidden_vars:
        st.vars[slot] = blank.vars[slot]
    for slot in rules.imagine_forgets.owner_cols:
        col = st.cols[slot] = st.cols[slot].copy()
        default = blank.cols[slot]
        for p in range(st.cfg.n):
            if p != seat:
                col[p] = default[p]
    for slot in rules.imagine_forgets.others_cols:  # what all but the seat itself see
        col = st.cols[slot] = st.cols[slot].copy()
        col[seat] = blank.cols[slot][seat]


# what the block must leave as it was: where the game stands, and its log
KEPT = (
    "stack",
    "pending",
    "who",
    "options",
    "steps",
    "auto_chance",
    "log",
    "private",
    "current",
    "reactor",
)


def imagine(rules: Ruleset, st: State, seat: int) -> None:
    """Run the rules' `imagine` block for `seat` on `st` (a determinization): from the
    block's start to its end, then back to the decision the game waits for, as if it
    had never run but for what it set."""
    code = rules.code
    saved = [getattr(st, name) for name in KEPT]
    st.stack = [IMAGINED]
    st.loc[rules.imagine_me] = seat
    st.auto_chance = True
    pc = run(code, st, code.imagine)
    # the checker lets no decision in (E305, E311) and no end rule runs inside a block
    assert pc == IMAGINED, pc
    for name, value in zip(KEPT, saved, strict=True):
        setattr(st, name, value)
    st.dirty = True
    st.reach = {}
