"""Helpers of the `rulelang serve` tests: a table opened in the test's own store (the
data folder conftest.py points at a temporary one), served by the Starlette app
through its TestClient; and a recorder of every message each connection receives."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

import rulelang
from rulelang.serve.opening import open_table, record_of
from rulelang.serve.tables import Table
from rulelang.serve.web import Hub, make_app
from rulelang.storage.store import Store

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted((ROOT / "rulesets").glob("*.rules")) + sorted(
    (ROOT / "rulesets" / "examples").glob("*.rules")
)
HEIMLICH = ROOT / "rulesets" / "heimlich.rules"
LABYRINTH = ROOT / "rulesets" / "labyrinth.rules"


def new_table(
    path: Path, players: int, bots: dict[int, str | None], seed: int = 1, **hub_args: Any
) -> tuple[Hub, Table]:
    """A hub holding one new table of `path` (recorded in the test's store)."""
    ruleset = rulelang.compile_file(path)
    game = ruleset.new_game(players, seed)
    store = Store(create=True, any_thread=True)
    table = open_table(store, ruleset, game, bots, record_of(path, game, bots, {}))
    hub = Hub(bot_delay=0, **hub_args)
    hub.add(table)
    return hub, table


@contextmanager
def served(hub: Hub) -> Iterator[TestClient]:
    """The hub's app, running (its lifespan started: the bots play) until the block ends."""
    with TestClient(make_app(hub)) as client:
        yield client


def settle(hub: Hub, table: Table, timeout: float = 20.0) -> None:
    """Wait until the table waits for a human (or is over): the bots' task is done."""
    end = time.monotonic() + timeout
    while hub.tasks or hub.next_unasked(table) is not None:
        assert time.monotonic() < end, "the bots did not settle"
        time.sleep(0.001)


@dataclass
class Seen:
    """Every message one connection received, in order."""

    token: str
    ws: Any
    messages: list[dict[str, Any]] = field(default_factory=list)

    def upto(self, seq: int) -> dict[str, Any]:
        """Read (and keep) messages until the state of `seq` (or later); that state."""
        states = [m for m in self.messages if m["type"] == "state"]
        if states and states[-1]["seq"] >= seq:
            return states[-1]
        while True:
            message = json.loads(self.ws.receive_text())
            self.messages.append(message)
            if message["type"] == "state" and message["seq"] >= seq:
                return message

    def send(self, data: object) -> dict[str, Any]:
        """Send a message and read (and keep) the next one."""
        self.ws.send_text(data if isinstance(data, str) else json.dumps(data))
        message: dict[str, Any] = json.loads(self.ws.receive_text())
        self.messages.append(message)
        return message


def tokens(table: Table) -> list[str]:
    """Every join token of the table: the seats', the game master's, the spectators'."""
    links = table.links
    out = [*links.seats.values(), links.spectator]
    return out + ([links.master] if links.master else [])


def play_out(
    hub: Hub, table: Table, client: TestClient, rng: random.Random, most: int = 400
) -> dict[str, Seen]:
    """Connect every link, then let the humans pick random legal options until the end
    (or `most` moves); every message each connection got."""
    seen: dict[str, Seen] = {}
    with contextlib_exit_stack() as stack:
        for token in tokens(table):
            ws = stack.enter_context(client.websocket_connect(f"/ws/{token}"))
            seen[token] = Seen(token, ws)
            seen[token].upto(table.seq)
        settle(hub, table)
        for _ in range(most):
            for s in seen.values():
                s.upto(table.seq)
            seat = table.deciding()
            if seat is None:
                break
            mine = seen[table.links.seats[seat]].messages[-1]
            legal = [o for o in mine["options"] if o["legal"]]
            reply = seen[table.links.seats[seat]].send(
                {"type": "move", "seq": mine["seq"], "option": rng.choice(legal)["i"]}
            )
            assert reply["type"] == "state", reply
            settle(hub, table)
        for s in seen.values():
            s.upto(table.seq)
    return seen


def contextlib_exit_stack() -> Any:
    import contextlib

    return contextlib.ExitStack()
