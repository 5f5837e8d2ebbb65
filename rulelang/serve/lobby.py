"""The lobby (`rulelang serve` without a rule file): a page listing the shipped games and
the rule files of the current folder, each with a form to start a table; and the host's
page of a table's join links (/links/{host token}).

A client picks a game by its place in the list, never by a path: the lobby opens only
the files it listed. The pages hold no rule text (no titles: file names and player
names only, escaped)."""

from __future__ import annotations

import html
import secrets
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs

from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from rulelang.diagnostics import RuleError, UsageError, render
from rulelang.exits import CliExit
from rulelang.serve.opening import open_table, record_of
from rulelang.words import digits

if TYPE_CHECKING:
    from rulelang import Ruleset
    from rulelang.serve.web import Hub
    from rulelang.storage.store import Store

STYLE = (
    "<style>body{font-family:sans-serif;max-width:40em;margin:1em auto;padding:0 .5em}"
    "li{margin:.6em 0}input[type=number]{width:4em}</style>"
)


def offered() -> list[Path]:
    """The games the lobby offers: the shipped ones, then *.rules of the current folder."""
    from rulelang.loader import shipped_games

    shipped = sorted(shipped_games().values(), key=lambda p: p.stem)
    here = sorted(p for p in Path.cwd().glob("*.rules") if p.is_file())
    return [*shipped, *here]


def links_of(table_links: Any, names: tuple[str, ...], base: str) -> list[tuple[str, str]]:
    """(who, link) for each join link of a table: the seats, the game master, spectators."""
    out = [
        (f"seat {s + 1}: {names[s]}", f"{base}t/{t}") for s, t in sorted(table_links.seats.items())
    ]
    if table_links.master is not None:
        out.append(("game master (sees everything)", f"{base}t/{table_links.master}"))
    out.append(("spectators", f"{base}t/{table_links.spectator}"))
    return out


def links_page(hub: Hub) -> Any:
    async def page(request: Request) -> Response:
        table = hub.hosts.get(request.path_params["token"])
        if table is None:
            return PlainTextResponse("this link is not a table's (wrong or old link)", 404)
        rows = links_of(table.links, table.game.player_names, str(request.base_url))
        items = "".join(
            f'<li>{html.escape(who)}<br><a href="{html.escape(url)}">{html.escape(url)}</a></li>'
            for who, url in rows
        )
        body = (
            f"<!doctype html><meta charset=utf-8><meta name=viewport content='width=device-width'>"
            f"<title>table {table.id}</title>{STYLE}<h1>Table {table.id}: "
            f"{html.escape(table.rules_name)}</h1><p>Give each player their own link: a link is "
            f"the only way to play (or see) as its seat.</p><ul>{items}</ul>"
        )
        return HTMLResponse(body, headers={"Cache-Control": "no-store"})

    return page


class Lobby:
    def __init__(self, hub: Hub, store: Store):
        self.hub = hub
        self.store = store
        self.games = offered()
        self.compiled: dict[Path, Ruleset] = {}

    def routes(self) -> list[Route]:
        return [Route("/", self.index), Route("/new", self.new, methods=["POST"])]

    async def index(self, request: Request) -> Response:
        forms = "".join(
            f'<li><form method=post action="/new"><b>{html.escape(p.stem)}</b> '
            f'<input type=hidden name=game value="{i}"> players '
            f"<input type=number name=players min=1 max=99 value=2> bots (seats) "
            f'<input name=bots size=6 placeholder="2,3"> <button>start a table</button>'
            f"</form></li>"
            for i, p in enumerate(self.games)
        )
        body = (
            "<!doctype html><meta charset=utf-8><meta name=viewport content='width=device-width'>"
            f"<title>rulelang tables</title>{STYLE}<h1>Start a table</h1><ul>{forms}</ul>"
        )
        return HTMLResponse(body)

    async def new(self, request: Request) -> Response:
        form = parse_qs((await request.body()).decode("utf-8", "replace")[:4096])
        try:
            table = self.start(form)
        except (UsageError, CliExit) as exc:
            return PlainTextResponse(str(getattr(exc, "message", "") or exc), 400)
        except RuleError as err:
            return PlainTextResponse(
                "\n".join(render(d, err.sources) for d in err.diagnostics), 400
            )
        self.hub.add(table)
        self.hub.wake(table)
        return RedirectResponse(f"/links/{table.links.host}", status_code=303)

    def start(self, form: dict[str, list[str]]) -> Any:
        from rulelang import compile_file

        def field(name: str) -> str:
            return (form.get(name) or [""])[0].strip()

        index = field("game")
        if not digits(index) or int(index) >= len(self.games):
            raise UsageError("pick a game from the list")
        path = self.games[int(index)]
        if path not in self.compiled:
            self.compiled[path] = compile_file(path)
        ruleset = self.compiled[path]
        players = int(field("players")) if digits(field("players")) else 0
        bots = seats_of(field("bots"), players)
        game = ruleset.new_game(players, secrets.randbelow(2**31))
        if len(bots) == players:  # as `serve --bots` refuses: nobody would be asked
            raise UsageError("every seat is a bot's: leave a seat to a human")
        return open_table(self.store, ruleset, game, bots, record_of(path, game, bots, {}))


def seats_of(text: str, players: int) -> dict[int, str | None]:
    """The seats the lobby's form gives to bots (numbers from 1), each with the rules'
    declared bots."""
    seats: dict[int, str | None] = {}
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        if not digits(part) or not 1 <= int(part) <= players:
            raise UsageError(
                f"bots: seat numbers 1..{players} separated by commas, not {part[:20]!r}"
            )
        seats[int(part) - 1] = None
    return seats
