"""The Starlette app: the table page at /t/{token}, its WebSocket at /ws/{token}, the
page's files at /static, and, without a rule file, the lobby at /.

One event loop serves every table. A table's moves are taken one at a time (a lock
per table): a move is checked, applied, committed to the store, and only then is the
new state sent to each connection, built for that connection's viewer. Bots move on
the server, one move per step (a search bot thinks in a worker thread), each move
committed and sent as a human's is."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from rulelang import search
from rulelang.diagnostics import GameRuntimeError, render
from rulelang.runtime.engine import CHANCE, Action
from rulelang.serve.tables import Refused, Table, Who, decode, encode
from rulelang.storage.store import StoreError

STATIC = Path(__file__).parent / "static"
NOT_A_TABLE = "this link is not a table's (wrong or old link)"
CLOSE_UNKNOWN = 4404  # the WebSocket close code for a link that is no table's

PLACEHOLDER = """<!doctype html><meta charset="utf-8"><title>rulelang table</title>
<meta name="viewport" content="width=device-width">
<pre id="state">connecting...</pre><div id="options"></div><pre id="said"></pre>
<script>
const token = location.pathname.split("/").pop();
const scheme = location.protocol === "https:" ? "wss://" : "ws://";
const ws = new WebSocket(scheme + location.host + "/ws/" + token);
let seq = 0;
ws.onmessage = (e) => {
  const m = JSON.parse(e.data);
  if (m.type !== "state") { document.getElementById("said").textContent = m.reason; return; }
  seq = m.seq;
  document.getElementById("state").textContent = m.history.join("\\n") + "\\n\\n" +
    (m.over ? "Game over: " + JSON.stringify(m.result) : "To play: " + m.to_play);
  const box = document.getElementById("options");
  box.replaceChildren();
  for (const o of m.options) {
    const b = document.createElement("button");
    b.textContent = o.text; b.title = o.why || ""; b.disabled = !o.legal;
    b.onclick = () => ws.send(JSON.stringify({type: "move", seq: seq, option: o.i}));
    box.append(b);
  }
};
</script>"""


class Hub:
    """The tables a server hosts, by token, and the connections watching each."""

    def __init__(self, bot_delay: float = 0.3, max_decisions: int = 10_000):
        self.tables: dict[int, Table] = {}
        self.by_token: dict[str, tuple[Table, Who]] = {}
        self.hosts: dict[str, Table] = {}
        self.watching: dict[int, dict[WebSocket, Who]] = {}
        self.locks: dict[int, asyncio.Lock] = {}
        self.bot_delay = bot_delay
        self.max_decisions = max_decisions
        self.tasks: set[asyncio.Task[None]] = set()
        # called (in the event loop, the table's lock held) after each move is stored and
        # sent, with the seconds from its arrival: the load test's clock, the tests' eye
        self.on_move: Callable[[Table, float], None] | None = None

    def add(self, table: Table) -> None:
        self.tables[table.id] = table
        for token, who in table.who.items():
            self.by_token[token] = (table, who)
        self.hosts[table.links.host] = table
        self.watching[table.id] = {}

    def lock(self, table: Table) -> asyncio.Lock:
        return self.locks.setdefault(table.id, asyncio.Lock())

    # -- sending ---------------------------------------------------------------------

    async def send(self, ws: WebSocket, message: dict[str, Any]) -> None:
        with contextlib.suppress(Exception):  # a connection that went away: its loss
            await ws.send_text(encode(message))

    async def broadcast(self, table: Table) -> None:
        """The new state to every connection of the table, each for its own viewer (one
        message built per viewer, shared by the connections of the same one)."""
        built: dict[Who, str] = {}
        for ws, who in list(self.watching[table.id].items()):
            if who not in built:
                built[who] = encode(table.message(who))
            with contextlib.suppress(Exception):
                await ws.send_text(built[who])

    async def stopped(self, table: Table, why: str) -> None:
        table.error = why
        for ws in list(self.watching[table.id]):
            await self.send(ws, {"type": "error", "reason": why})

    # -- moves -------------------------------------------------------------------------

    async def human(self, table: Table, who: Who, data: dict[str, Any]) -> None:
        """A client's move: refused (Refused), or applied, stored and sent to all."""
        async with self.lock(table):
            action = table.action_for(who, data)
            if not await self.apply(table, action):
                raise Refused("the move could not be saved; it was not made")
        self.wake(table)

    async def apply(self, table: Table, action: Action) -> bool:
        """Apply, commit, then tell everyone; on a failure to commit, the game is put back
        as it was (nobody was told of the move) and False returned."""
        before = table.game.clone()
        started = asyncio.get_running_loop().time()
        try:
            table.game.apply(action)
            self.settle_chance(table)
        except GameRuntimeError as err:
            await self.stopped(table, render(err.diagnostic, table.ruleset.program.sources))
            return True
        try:
            table.keeper.keep(table.game)
        except StoreError as exc:
            table.game = before
            await self.stopped(table, f"the game could not be saved: {exc}")
            return False
        await self.broadcast(table)
        self.moved(table, started)
        return True

    @staticmethod
    def settle_chance(table: Table) -> None:
        """Chance events the game left pending (a resumed game decides them by hand)."""
        game = table.game
        while not game.is_over() and game.current_player() == CHANCE:
            game.resolve_chance()

    def wake(self, table: Table) -> None:
        """Let the bots (and forced moves) play on, in a task of their own."""
        if self.next_unasked(table) is None:
            return
        task = asyncio.get_running_loop().create_task(self.bots(table))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def next_unasked(self, table: Table) -> str | None:
        """ "bot" or "forced" if a move is to be made without asking anyone, else None."""
        game = table.game
        if game.is_over() or table.error is not None:
            return None
        who = game.current_player()
        if who == CHANCE:
            return "forced"
        if who in table.bots:
            return "bot"
        return "forced" if len(game.legal_actions()) == 1 else None

    async def bots(self, table: Table) -> None:
        """Bots' and forced moves until a human is asked or the game ends."""
        in_a_row = 0
        while True:
            async with self.lock(table):
                kind = self.next_unasked(table)
                if kind is None:
                    return
                in_a_row += 1
                if in_a_row > self.max_decisions:
                    await self.stopped(table, f"bots took {self.max_decisions} decisions in a row")
                    return
                if not await self.step(table, kind):
                    return
            if kind == "bot" and self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            else:
                await asyncio.sleep(0)  # let the other tables and connections in

    async def step(self, table: Table, kind: str) -> bool:
        game = table.game
        if game.current_player() == CHANCE:
            self.settle_chance(table)
            return await self.apply_settled(table)
        if kind == "forced":
            return await self.apply(table, game.legal_actions()[0])
        name = table.bots[game.current_player()]
        try:
            if search.is_search(name):  # seconds of thought: off the event loop
                action = await asyncio.to_thread(search.bot_action, game, name)
            else:
                action = search.bot_action(game, name)
        except GameRuntimeError as err:
            await self.stopped(table, render(err.diagnostic, table.ruleset.program.sources))
            return False
        return await self.apply(table, action)

    async def apply_settled(self, table: Table) -> bool:
        started = asyncio.get_running_loop().time()
        try:
            table.keeper.keep(table.game)
        except StoreError as exc:
            await self.stopped(table, f"the game could not be saved: {exc}")
            return False
        await self.broadcast(table)
        self.moved(table, started)
        return True

    def moved(self, table: Table, started: float) -> None:
        """Tell the watcher of moves (a test, the load test) of a move stored and sent."""
        if self.on_move is not None:
            self.on_move(table, asyncio.get_running_loop().time() - started)

    # -- a connection --------------------------------------------------------------------

    async def connect(self, ws: WebSocket) -> None:
        await ws.accept()
        found = self.by_token.get(ws.path_params["token"])
        if found is None:
            await self.send(ws, {"type": "error", "reason": NOT_A_TABLE})
            await ws.close(CLOSE_UNKNOWN)
            return
        table, who = found
        async with self.lock(table):  # the first state, and no move sent in between
            self.watching[table.id][ws] = who
            await self.send(ws, table.message(who))
        try:
            await self.listen(ws, table, who)
        finally:
            self.watching[table.id].pop(ws, None)

    async def listen(self, ws: WebSocket, table: Table, who: Who) -> None:
        while True:
            try:
                text = await ws.receive_text()
            except (WebSocketDisconnect, RuntimeError):
                return
            except KeyError:  # a binary frame: receive_text finds no "text"
                await self.refuse(ws, table, "send JSON as a text message")
                continue
            try:
                data = decode(text)
                if data["type"] == "sync":
                    async with self.lock(table):
                        await self.send(ws, table.message(who))
                else:
                    await self.human(table, who, data)
            except Refused as why:
                await self.refuse(ws, table, str(why))
                if str(why).startswith("stale"):
                    await self.send(ws, table.message(who))

    async def refuse(self, ws: WebSocket, table: Table, reason: str) -> None:
        await self.send(ws, {"type": "refused", "reason": reason, "seq": table.seq})


def page(hub: Hub) -> Callable[[Request], Any]:
    async def table_page(request: Request) -> Response:
        if request.path_params["token"] not in hub.by_token:
            refused = STATIC / "refused.html"  # a page that says what to do about it
            if refused.is_file():
                return FileResponse(refused, status_code=404)
            return PlainTextResponse(NOT_A_TABLE, status_code=404)
        index = STATIC / "index.html"
        if index.is_file():
            return FileResponse(index, headers={"Cache-Control": "no-store"})
        return HTMLResponse(PLACEHOLDER)

    return table_page


def make_app(hub: Hub, lobby: Any = None) -> Starlette:
    """The app for a hub's tables; `lobby` (lobby.Lobby) adds / and /links/{token}."""
    from rulelang.serve.lobby import links_page

    routes: list[Any] = [
        Route("/t/{token}", page(hub)),
        Route("/links/{token}", links_page(hub)),
        WebSocketRoute("/ws/{token}", hub.connect),
    ]
    if lobby is not None:
        routes += lobby.routes()
    if STATIC.is_dir():
        routes.append(Mount("/static", StaticFiles(directory=STATIC), name="static"))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        for table in list(hub.tables.values()):  # a table resumed at a bot's turn
            hub.wake(table)
        yield

    return Starlette(routes=routes, lifespan=lifespan)
