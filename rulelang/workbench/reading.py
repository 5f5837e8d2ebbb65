"""What a rule test names, found in a game: players, pieces and cards by name, zones
as `hand[Ann]`, attributes as `Ann.score` or `Perry.at`, tiles as `tile maze 8,0`,
any part of a view as `view players.0.role`; and values shown as text, as a test
file writes them."""

from __future__ import annotations

import re
from typing import Any

from rulelang import PUBLIC, Game, UsageError
from rulelang.runtime.view_types import Tile
from rulelang.words import digits

Items = list[int]
BOARD_STATE = re.compile(r"(?P<board>\w+)\.(?P<attr>\w+)\[(?P<at>[^\]]+)\]")


class Failed(Exception):
    """An expectation that does not hold (or a line that cannot be done): why, and the
    expected and actual values when there are two to set side by side."""

    def __init__(
        self,
        message: str,
        expected: list[str] | None = None,
        actual: list[str] | None = None,
        at: tuple[int, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.message, self.expected, self.actual = message, expected, actual
        self.at = at  # the line at fault (number, text) when it is not the one running


def show(value: Any) -> str:
    """A value as a test writes it: texts as they are, `true`/`false`, `none`, lists
    in brackets."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(show(v) for v in value) + "]"
    if value == "":
        return '""'
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {show(v)}" for k, v in value.items()) + "}"
    return str(value)


def shown_list(items: list[str]) -> str:
    return ", ".join(items) if items else "(nothing)"


class Reader:
    """Names of a test file, looked up in one game."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.program = game.rules.program

    # ------------------------------------------------------------ names
    def viewer(self, who: str) -> int | None:
        """ "" is everything, "table" what every player sees, else a player by name."""
        if not who:
            return None
        if who.lower() in ("table", "the table"):
            return PUBLIC
        return self.seat(who)

    def seat(self, name: str) -> int:
        names = [n.lower() for n in self.game.player_names]
        if name.lower() not in names:
            raise Failed(f"no player '{name}' (players: {', '.join(self.game.player_names)})")
        return names.index(name.lower())

    def zone_kind(self, zone: str) -> str:
        found = next((z for z in self.program.zones if z.name == zone), None)
        if found is None:
            raise Failed(f"no zone '{zone}'")
        return str(found.kind)

    def tile_kind(self, board: str) -> str:
        ops = self.game.rules.ex.tiles.get(board)
        if ops is None:
            raise Failed(f"board '{board}' holds no tiles")
        return str(ops.kind)

    def pick_items(self, kind: str, texts: list[str], among: Items | None = None) -> Items:
        """Pieces or cards of `kind` by name, each a different one: of several of a
        name, the first `among` those given; else, by where it lies, the first in a zone
        no player owns, in no zone, in a player's zone, on a board."""
        if kind not in self.game.rules.kinds:
            raise Failed(f"no piece or card kind '{kind}'")
        places = self._places(kind)
        chosen: Items = []
        for text in texts:
            named = [
                i
                for i in range(self._count(kind))
                if i not in chosen and self.game.name_of(kind, i).lower() == text.lower()
            ]
            if among is not None:
                named = [i for i in named if i in among]
            if not named:
                where = " among them" if among is not None else ""
                raise Failed(f"no {kind} '{text}'{where} (or not so many)")
            named.sort(key=lambda i: places.get(i, 1))
            chosen.append(named[0])
        return chosen

    def off_board(self, kind: str) -> Items:
        """The items of `kind` that lie on no board (a tile is placed from these)."""
        places = self._places(kind)
        return [i for i in range(self._count(kind)) if places.get(i) != 3]

    def _count(self, kind: str) -> int:
        return len(self.game.state.cfg.entities[kind])

    def _places(self, kind: str) -> dict[int, int]:
        """Where each item of `kind` lies: 0 in a zone no player owns, 2 in a player's
        zone, 3 on a board (1, in no zone, is left out)."""
        places = {}
        for z in self.program.zones:
            if str(z.kind) != kind:
                continue
            for owner in range(self.game.players) if z.per_player else [None]:
                for i in self.game.items(z.name, owner):
                    places[i] = 2 if z.per_player else 0
        for board, ops in self.game.rules.ex.tiles.items():
            if str(ops.kind) == kind:
                cells = self.game.view(None, only={"boards"})["boards"].get(board, {})
                places.update({cell["item"]: 3 for cell in cells.values() if "item" in cell})
        return places

    def zone(self, target: str) -> tuple[str, int | None]:
        """`hand[Ann]` -> ("hand", Ann's seat); `deck` -> ("deck", None)."""
        name, bracket, owner = target.partition("[")
        if not bracket:
            return name, None
        return name, self.seat(owner.removesuffix("]"))

    def owner_of(self, name: str, attr: str) -> tuple[int, str]:
        """`Ann.score`: Ann's seat, "player"; `Perry.at`: Perry's index, his kind."""
        names = [n.lower() for n in self.game.player_names]
        if name.lower() in names and any(
            a.name == attr and a.owner == "player" for a in self.program.columns
        ):
            return names.index(name.lower()), "player"
        for kind, attrs in self.game.rules.kinds.items():
            if attr in attrs:
                try:
                    return self.game.edit().item(kind, name), kind
                except UsageError:
                    continue
        raise Failed(f"nothing named '{name}' has an attribute '{attr}'")

    # ------------------------------------------------------------ reading
    def read(self, target: str, viewer: int | None) -> str:
        game = self.game
        if target.startswith("tile "):
            board, _, cell = target[5:].partition(" ")
            return _tile(game.tile(board, cell.strip(), viewer))
        if target.startswith("view "):
            return show(_walk(game.view(viewer), target[5:].strip()))
        state = BOARD_STATE.fullmatch(target)
        if state and state["board"] in game.boards:
            return self.board_state(state["board"], state["attr"], state["at"], viewer)
        if "[" in target or any(z.name == target for z in self.program.zones):
            items = game.zone(*self.zone(target), viewer=viewer)
            return f"{items} hidden" if isinstance(items, int) else show(items)
        if "." not in target and any(v.name == target for v in self.program.values):
            return show(game.value(target))  # a param or const: everyone knows it
        name, dot, attr = target.rpartition(".")
        try:
            if not dot:
                return show(game.attribute(attr, viewer=viewer))
            of, kind = self.owner_of(name, attr)
            return show(game.attribute(attr, of=of, viewer=viewer, kind=kind))
        except UsageError as error:
            if "is not visible to" in str(error):
                return "hidden"
            raise

    def board_state(self, board: str, attr: str, at: str, viewer: int | None) -> str:
        """`grid3.mark[1,1]`: a board attribute of a cell, as `viewer` sees it."""
        seen = self.game.view(viewer, only={"board_state"}).get("board_state", {})
        if attr not in seen.get(board, {}):
            if viewer is not None:  # a state the viewer may not see
                return "hidden"
            raise Failed(f"board '{board}' has no attribute '{attr}'")
        name = self.game.boards[board].names[self.game.node(board, at)]
        return show(seen[board][attr].get(name))

    # ------------------------------------------------------------ editing
    def set(self, target: str, text: str) -> None:
        name, dot, attr = target.rpartition(".")
        if not dot:
            sym = next((g for g in self.program.globals if g.name == attr), None)
            if sym is None:
                raise Failed(f"no global '{attr}'")
            self.game.edit().set(attr, _value(text, str(sym.type)))
            return
        of, kind = self.owner_of(name, attr)
        sym = next(a for a in self.program.columns if a.name == attr and a.owner == kind)
        self.game.edit().set(attr, _value(text, str(sym.type)), of=of, kind=kind)

    def move(self, item: str, target: str) -> int:
        """Move the item named onto the zone; return its index."""
        zone, owner = self.zone(target)
        kind = self.zone_kind(zone)
        lying = self.game.items(zone, owner)
        others = [i for i in range(self._count(kind)) if i not in lying]
        [chosen] = self.pick_items(kind, [item], among=others or None)
        self.game.edit().move(chosen, zone, owner)
        return int(chosen)


def _value(text: str, type_name: str) -> Any:
    """A value written in a test, for an attribute of the type the rules give."""
    if text == "none":
        return None
    if type_name.startswith("list("):
        inner = type_name[5:-1]
        body = text.strip().removeprefix("[").removesuffix("]").strip()
        return [_value(t.strip(), inner) for t in body.split(", ")] if body else []
    if type_name == "int":
        try:
            return int(text)
        except ValueError:
            raise Failed(f"'{text}' is not a whole number") from None
    if type_name == "bool":
        if text not in ("true", "false"):
            raise Failed(f"a truth value is true or false, not '{text}'")
        return text == "true"
    return text


def _walk(view: Any, path: str) -> Any:
    """The part of a view a dotted path names; a number indexes a list."""
    here = view
    for part in path.split("."):
        if isinstance(here, list) and digits(part) and int(part) < len(here):
            here = here[int(part)]
        elif isinstance(here, dict) and part in here:
            here = here[part]
        else:
            keys = ", ".join(map(str, here)) if isinstance(here, dict) else "a list or a value"
            raise Failed(f"the view has no '{part}' in '{path}' (there: {keys})")
    return here


def _tile(tile: Tile | None) -> str:
    if tile is None:
        return "none"
    if tile.get("tile") == "?":
        return "face down"
    text = str(tile["tile"])
    if tile.get("turn"):
        text += f" turned {tile['turn']}"
    return text + (" face down" if tile.get("secret") else "")
