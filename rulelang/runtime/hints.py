"""Where each item of a kind was last put (`Places.hint` in runtime/helpers.py): a list
indexed by the item's number, not a dict keyed by it.

Items are numbers from 0 (a table's rows). A card game moves some 600 items a match
and writes each one's hint: in a dict each write hashed the number, looked it up and
replaced its value, where a list's item is written in place (CPython's specialised
store of a list item). A hint is only ever a place to look first (`detach` checks it
before trusting it), so an item the list does not reach (a number past `ROOM`, a value
that is no number) simply has none, and is found by searching its places.

Writers store `hint[item] = slot` inside `try`, which costs nothing unless it fails,
and call `put` when it does (the list grows to the item); readers read inside `try`
likewise and take `NONE` for an item without a hint. Off (`LIST`): a dict, as before.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

# Off: hints kept in a dict keyed by item (to measure the list alone; same games)
LIST = True
# No place: neither a zone's slot (0 <= slot < zones) nor a board's (-1 - index), so a
# reader that tests both takes it for no hint and searches
NONE = 1 << 62
# The longest list of hints kept: an item numbered past it has none (a table of
# millions of rows keeps a list of millions; past this, a search each time)
ROOM = 1 << 24
Hints = Any  # list[int] when LIST, else dict[Value, int]: both written `hint[item] = slot`


def new() -> Hints:
    """An empty store of hints."""
    return [] if LIST else {}


def put(hint: Hints, item: object, slot: int) -> None:
    """`hint[item] = slot` where the plain store failed: the list grown to the item, if
    it is a number the list may reach (else the item keeps no hint)."""
    if isinstance(hint, dict):
        hint[item] = slot
    elif type(item) is int and 0 <= item < ROOM:
        if item >= len(hint):
            hint.extend([NONE] * (max(item + 1, 2 * len(hint)) - len(hint)))
        hint[item] = slot


def put_each(hint: Hints, items: Iterable[object], slot: int) -> None:
    """`put` of each item (where the plain loop failed part way: the items before are
    written again, to the same slot)."""
    for item in items:
        put(hint, item, slot)


def of(hint: Hints, item: object) -> int | None:
    """The item's hint, or None."""
    try:
        slot = hint[item]
    except (LookupError, TypeError):
        return None
    return None if slot == NONE else int(slot)


def known(hint: Hints) -> dict[object, int]:
    """Every item's hint, as a dict (for tests and tools)."""
    if isinstance(hint, dict):
        return dict(hint)
    return {item: slot for item, slot in enumerate(hint) if slot != NONE}
