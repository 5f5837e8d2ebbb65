"""A served table's moves in the store of saved games (the one `play` records in), and
its links in a file of their own beside the store.

Every move is committed (one transaction, synchronous=FULL) before the table tells
anyone of it: a server killed at any moment loses no move a player saw acknowledged.
The links are secrets: they are not in the database (`games show` and `export` would
print or copy them), but in `serve/ID.json` in the data folder, a file only its owner
may read (mode 0600), written atomically."""

from __future__ import annotations

import json
import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from rulelang.storage import saves
from rulelang.storage.store import OVER, PLAYING, Store, data_dir
from rulelang.words import digits

if TYPE_CHECKING:
    from rulelang import Game, Ruleset

TOKEN_BYTES = 16  # 128 bits: unguessable; 22 characters in a link


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


@dataclass
class Links:
    """The tokens of a table: one per human seat, the game master's (None where the
    rules hide nothing), the spectators', and the host's (the page of all links)."""

    seats: dict[int, str]
    master: str | None
    spectator: str
    host: str = field(default_factory=new_token)

    @classmethod
    def new(cls, humans: list[int], master: bool) -> Links:
        return cls({s: new_token() for s in humans}, new_token() if master else None, new_token())

    def to_data(self) -> dict[str, object]:
        seats = {str(s): t for s, t in self.seats.items()}
        return {
            "seats": seats,
            "master": self.master,
            "spectator": self.spectator,
            "host": self.host,
        }

    @classmethod
    def from_data(cls, data: object) -> Links:
        """The links a file holds, every field checked (ValueError if one is wrong)."""
        if not isinstance(data, dict) or not isinstance(data.get("seats"), dict):
            raise ValueError("not a table's links")
        seats = {int(s): t for s, t in data["seats"].items() if digits(str(s))}
        tokens = [*seats.values(), data.get("spectator"), data.get("host")]
        master = data.get("master")
        if master is not None:
            tokens.append(master)
        if not all(isinstance(t, str) and len(t) >= 16 for t in tokens):
            raise ValueError("a link's token is missing or wrong")
        return cls(seats, master, data["spectator"], data["host"])


def links_path(game_id: int) -> Path:
    return data_dir() / "serve" / f"{game_id}.json"


def write_links(game_id: int, links: Links) -> None:
    """Write the links durably, readable by the owner only (0600), via a temporary file."""
    path = links_path(game_id)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    temp = path.with_name(f".{path.name}.tmp")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump(links.to_data(), out)
        out.flush()
        os.fsync(out.fileno())
    os.replace(temp, path)


def forget_links(game_id: int | None = None) -> list[str]:
    """Remove the links of a deleted table (of every table when `game_id` is None), so
    that no link of a deleted game opens a seat of a later one under its number (a new
    store numbers its games from 1 again). Returns what could not be removed, said."""
    folder = links_path(0).parent
    paths = sorted(folder.glob("*.json")) if game_id is None else [links_path(game_id)]
    failed = []
    for path in paths:
        try:
            path.unlink(missing_ok=True)
        except OSError as exc:
            failed.append(f"{path}: {exc.strerror or exc}")
    return failed


def read_links(game_id: int) -> Links:
    """The links of a stored table; OSError or ValueError if they cannot be read."""
    data = json.loads(links_path(game_id).read_text(encoding="utf-8"))
    return Links.from_data(data)


def results_line(game: Game) -> str:
    return ", ".join(f"{n}: {r}" for n, r in zip(game.player_names, game.results(), strict=True))


class Keeper:
    """The moves of one table, stored as they are made: `keep` after each move commits
    the events not stored yet (with the game's status) in one transaction."""

    def __init__(self, store: Store, game_id: int, game: Game, log: list[dict[str, object]]):
        self.store = store
        self.id = game_id
        self.mark = game.mark()
        self.count = len(log)  # events stored (the store checks it at each append)
        # the table's `seq`: the states it has shown, one a `keep`, starting from the
        # decisions taken. Not the events: they count chance events too, and how many
        # there were can depend on what a viewer may not see.
        self.shown = sum(1 for event in log if "choose" in event)

    @classmethod
    def start(cls, store: Store, ruleset: Ruleset, game: Game, record: saves.Save) -> Keeper:
        record.log = game.record()
        over = game.is_over()  # a game may end in its setup, before any move
        status, result = (OVER, results_line(game)) if over else (PLAYING, "")
        game_id = store.add(ruleset.title, record, status, result)
        return cls(store, game_id, game, record.log)

    def keep(self, game: Game) -> None:
        """Commit the events since the last `keep` (StoreError if it cannot be)."""
        now = game.mark()
        events = game.record(self.mark, now)
        over = game.is_over()
        status, result = (OVER, results_line(game)) if over else (PLAYING, "")
        self.store.append(self.id, events, status, result, self.count)
        self.mark, self.count = now, self.count + len(events)
        self.shown += 1
