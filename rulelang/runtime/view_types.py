"""The shape of a view (`Game.view`): what the runtime produces and rendering, the
interop adapters and bots read. Views stay plain dicts, that `json.dumps` takes and
tests compare; these TypedDicts only name their keys and say what each holds
(docs/api.md, "Views"; tests/test_view_types.py checks every shipped game's views
against them).

`View` is a whole view (`only=None`): every part is there but the ones that exist only
at some moments or for some viewers. `PartialView` is a view of some parts (`only=`):
the header is there, each part only when asked for."""

# no `from __future__ import annotations`: Python 3.11 sees NotRequired only in
# annotations that are not strings, and the keys a view must have are read at run time
# (tests/test_view_types.py)
from typing import NotRequired, TypeAlias, TypedDict

# A value as views give it: numbers, truth values and texts as they are, players,
# pieces, cards and nodes by name, lists as lists, None for none.
PlainValue: TypeAlias = int | bool | str | None | list["PlainValue"]

# One seat: always "name" (text) and "seat" (number), then the attributes the viewer
# may see, by the names the rule file gives them (so a dict, not a TypedDict).
PlayerRow: TypeAlias = dict[str, PlainValue]

# One piece: the attributes of its kind the viewer may see, by name.
PieceRow: TypeAlias = dict[str, PlainValue]

# Per board, per state or edge attribute the viewer may see: the value of each node (by
# name, "0,0") or of each side (by name, "0,0 north").
BoardState: TypeAlias = dict[str, dict[str, dict[str, PlainValue]]]


class HiddenZone(TypedDict):
    """A zone the viewer may not look into."""

    size: int  # how many items it holds
    known: NotRequired[list[PlainValue]]  # those `reveal ... to` showed the viewer


# A zone's items by name, bottom first, or how many when the viewer may not look in.
ZoneContent: TypeAlias = list[PlainValue] | HiddenZone


class ZoneTile(TypedDict):
    """A tile card in a zone the viewer looks into, to draw it."""

    open: list[bool]  # its open sides: north, east, south, west
    joined: bool  # whether its open sides join in the middle


class Tile(TypedDict):
    """A tile lying on a tiled board. Face down and not seen by the viewer it is only
    {"tile": "?", "secret": True}; otherwise it has all but `item`, which only the
    omniscient view gives."""

    tile: str  # its name, "?" when face down and not seen
    secret: bool  # face down
    turn: NotRequired[int]  # quarter turns
    open: NotRequired[list[bool]]  # open sides as it lies: north, east, south, west
    joined: NotRequired[bool]
    item: NotRequired[int]  # the card's index (omniscient view only)


class ViewHeader(TypedDict):
    """What every view has, whatever its parts, and what only some moments add."""

    title: str
    viewer: int | None  # a seat, PUBLIC (-1), or None for the omniscient view
    turn: int
    round: int
    phase: str  # "" in a game without phases
    current: str  # the name of the turn player
    reacting: NotRequired[str]  # in a reaction round: who may react now
    to_act: NotRequired[str]  # at a player's decision: who decides
    prompt: NotRequired[str]  # ... for that player and the omniscient view
    options: NotRequired[list[str]]  # ... the options' texts, likewise
    results: NotRequired[dict[str, str]]  # at the end: "win", "draw" or "loss" by name


class View(ViewHeader):
    """A whole view: `Game.view(viewer)`."""

    globals: dict[str, PlainValue]
    players: list[PlayerRow]
    pieces: dict[str, list[PieceRow]]
    zones: dict[str, ZoneContent]  # by label: "deck", "hand[Ann]"
    zone_tiles: dict[str, list[ZoneTile]]  # by label, for zones of tiles seen into
    boards: dict[str, dict[str, Tile]]  # tiled boards: per board, by cell name
    board_state: NotRequired[BoardState]  # absent when no board has such attributes
    log: list[str]  # the last lines of the history the viewer sees
    private: list[str]  # messages said to this viewer alone or to a few
    private_to: NotRequired[list[list[str]]]  # omniscient view: each message's audience


class PartialView(ViewHeader, total=False):
    """A view of some parts: `Game.view(viewer, only=...)`; the parts as in `View`."""

    globals: dict[str, PlainValue]
    players: list[PlayerRow]
    pieces: dict[str, list[PieceRow]]
    zones: dict[str, ZoneContent]
    zone_tiles: dict[str, list[ZoneTile]]
    boards: dict[str, dict[str, Tile]]
    board_state: BoardState
    log: list[str]
    private: list[str]
    private_to: list[list[str]]
