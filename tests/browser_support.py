"""Shared by the browser tests of `rulelang serve` (tests/test_serve_browser*.py):
Debian's Chromium driven by Playwright (never `playwright install`: .ci/test installs
the distribution's Chromium), and the page's messages built from a game as the server
builds them (serve-protocol), to show the page a table without a server."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest

import rulelang
from rulelang import PUBLIC, Game

STATIC = Path(rulelang.__file__).parent / "serve" / "static"
ORIGIN = "http://table.test"  # a page shown without a server: its files from STATIC
PHONE = {"width": 390, "height": 844}
WIDE = {"width": 1280, "height": 900}


def chromium_path() -> str:
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    pytest.fail(
        "the browser tests need Chromium, which is not installed: "
        "apt-get install -y chromium (.ci/test installs it)"
    )


# one Playwright and one Chromium for the whole run: the test modules each import the
# fixture (a session fixture of its own per module), and Playwright's sync API runs once
# per thread; the last module's teardown closes them
_SHARED: dict[str, Any] = {"users": 0}


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Headless Chromium; each test opens its own contexts (a device each)."""
    if not _SHARED["users"]:
        from playwright.sync_api import sync_playwright

        _SHARED["playwright"] = sync_playwright().start()
        # its own home: Chromium keeps a crash reports folder in ~/.config/chromium
        # even when headless, and no test writes outside a temporary folder
        _SHARED["home"] = home = tempfile.mkdtemp(prefix="rulelang-chromium-")
        _SHARED["browser"] = _SHARED["playwright"].chromium.launch(
            executable_path=chromium_path(),
            args=["--no-sandbox"],
            env={**os.environ, "HOME": home, "XDG_CONFIG_HOME": home, "XDG_CACHE_HOME": home},
        )
    _SHARED["users"] += 1
    yield _SHARED["browser"]
    _SHARED["users"] -= 1
    if not _SHARED["users"]:
        _SHARED["browser"].close()
        _SHARED["playwright"].stop()
        shutil.rmtree(_SHARED["home"], ignore_errors=True)


def seq_of(game: Game) -> int:
    """A table's `seq` for a game played without a server: the decisions taken."""
    return sum(1 for event in game.record() if "choose" in event)


def message(game: Game, viewer: int | None) -> dict[str, Any]:
    """The state message a connection of `viewer` receives (a seat, None for the game
    master, PUBLIC for a spectator), made by the server's own Table.message; the table
    stands apart from any store (its `seq`, the decisions so far, is all it reads of one)."""
    from rulelang.serve.keeper import Links
    from rulelang.serve.tables import MASTER, SEAT, SPECTATOR, Table, Who

    seats = {seat: f"seat{seat}" for seat in range(game.players)}
    links = Links(seats, "master", "spectators")
    keeper = SimpleNamespace(id=1, shown=seq_of(game))
    table = Table(game.rules, game, {}, links, cast("Any", keeper))
    who = (
        Who(MASTER) if viewer is None else Who(SPECTATOR) if viewer == PUBLIC else Who(SEAT, viewer)
    )
    return table.message(who)


def show_offline(context: Any, messages: list[dict[str, Any]]) -> tuple[Any, list[Any]]:
    """A page of `context` at ORIGIN/t/TOKEN, its files from STATIC and its socket a
    stand-in that sends `messages` and records what the page sends (the list returned);
    `page.sockets` sends more."""
    sent: list[Any] = []

    def files(route: Any) -> None:
        path = route.request.url.removeprefix(ORIGIN)
        name = "index.html" if path.startswith("/t/") else path.removeprefix("/static/")
        route.fulfill(path=str(STATIC / name))

    def socket(ws: Any) -> None:
        sockets.append(ws)
        ws.on_message(lambda text: sent.append(json.loads(text)))
        for m in messages:
            ws.send(json.dumps(m))

    context.route(f"{ORIGIN}/**", files)
    context.route_web_socket("**/ws/**", socket)
    page = context.new_page()
    sockets: list[Any] = []
    page.sockets = sockets  # the stand-in's end of each socket the page opened
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.goto(f"{ORIGIN}/t/token")
    return page, sent
