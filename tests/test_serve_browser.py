"""`rulelang serve` end to end in Debian's Chromium: the server runs as the command runs
it, and one browser context per seat (its own cookies, its own socket) plays by clicking
the page's buttons. Heimlich with three humans against a bot; the labyrinth with a game
master, who sees the map the players do not; a page reloaded mid-game; a wrong link.
(The page without a server, for every shipped game: tests/test_serve_browser_page.py.)"""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import PHONE, WIDE, browser

__all__ = ["browser"]  # the fixture, imported to be used here

ROOT = Path(__file__).parent.parent
HEIMLICH = ROOT / "rulesets" / "heimlich.rules"
LABYRINTH = ROOT / "rulesets" / "labyrinth.rules"
MARKUP = Path(__file__).parent / "games" / "markup.rules"
WAIT = 10_000  # ms: the longest a page may take to show a change


class Server:
    """`rulelang serve FILE ...` on a free port of the loopback address; `links()` are
    its links by who they are for ("P1", "game master", "spectators"). Started without
    waiting, so that several start at once."""

    def __init__(self, tmp_path: Path, *args: str):
        env = dict(os.environ, RULELANG_DATA_DIR=str(tmp_path), PYTHONUNBUFFERED="1")
        command = [sys.executable, "-m", "rulelang.cli.main", "serve", *args]
        command += ["--port", "0", "--delay", "0"]
        self.process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env
        )
        self._links: dict[str, str] = {}

    def links(self) -> dict[str, str]:
        assert self.process.stdout is not None
        lines = []
        while not self._links or not lines or not lines[-1].startswith("Serving"):
            line = self.process.stdout.readline()
            assert line, "".join(lines)  # the server stopped before serving
            lines.append(line)
            found = re.match(r"\s+(?:seat \d+: )?([^:]+): (http://\S+)", line)
            if found:  # "game master (sees everything)": "game master"
                self._links[found[1].split(" (")[0]] = found[2]
        return self._links

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(10)
        assert self.process.stdout is not None
        self.process.stdout.close()


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory, full: bool) -> Iterator[dict[str, Server]]:
    """The tables of the tests here, their servers started at once (each takes a
    second or two to start). Heimlich's agents need 8 points to win (the rules' own
    42 with --full), so that the table can be played to its end in a few seconds."""
    score = [] if full else ["-o", "win_score=8"]
    started = {
        "heimlich": (
            "heimlich",
            str(HEIMLICH),
            "-p",
            "4",
            "--bots",
            "4:random",
            "--seed",
            "2",
            *score,
        ),
        "labyrinth": ("labyrinth", str(LABYRINTH), "-p", "2", "--seed", "4"),
        "markup": ("markup", str(MARKUP), "-p", "2"),
    }
    servers = {
        name: Server(tmp_path_factory.mktemp(folder), *args)
        for name, (folder, *args) in started.items()
    }
    yield servers
    for server in servers.values():
        server.stop()


def open_page(browser: Any, url: str, size: dict[str, int] = WIDE) -> Any:
    """A page in a context of its own (a device of its own), its script errors kept."""
    page = browser.new_context(viewport=size).new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(url)
    page.wait_for_selector("#header", timeout=WAIT)
    return page


def seq(page: Any) -> int:
    return int(page.evaluate("document.body.dataset.seq"))


# clicks one of the enabled options of the page's decision (the n-th, round), in the
# page itself: a state arriving between finding a button and clicking it would replace it
CLICK = """n => {
  const buttons = [...document.querySelectorAll('#decision.mine button.option:not([disabled])')];
  if (!buttons.length) return null;
  const button = buttons[n % buttons.length];
  button.click();
  return button.textContent;
}"""


def play(pages: dict[str, Any], decisions: int, rng: random.Random) -> int:
    """Click options on whichever page has the move, `decisions` times or until the
    game is over, waiting for the bots between; the decisions taken."""
    taken = 0
    deadline = time.monotonic() + 60
    while taken < decisions and time.monotonic() < deadline:
        if any(p.query_selector("#game-over") for p in pages.values()):
            break
        mine = [p for p in pages.values() if p.query_selector("#decision.mine")]
        if not mine:
            time.sleep(0.03)  # a bot's move, or a state on its way
            continue
        page = mine[0]
        before = seq(page)
        clicked = page.evaluate(CLICK, rng.randrange(1 << 20))
        if clicked is None:
            continue
        page.wait_for_function(f"document.body.dataset.seq != '{before}'", timeout=WAIT)
        taken += 1
    return taken


def same_state(pages: dict[str, Any]) -> int:
    """Wait until every page shows the same state; its seq."""
    first = next(iter(pages.values()))
    for page in pages.values():
        page.wait_for_function(
            "s => document.body.dataset.seq == s", arg=str(seq(first)), timeout=WAIT
        )
        page.wait_for_timeout(0)
    return seq(first)


def text_of(page: Any, selector: str) -> list[str]:
    return [e.text_content() for e in page.query_selector_all(selector)]


@pytest.fixture(scope="module")
def heimlich(browser: Any, tables: dict[str, Server]) -> Iterator[dict[str, Any]]:
    """Heimlich's table: three humans, each in a browser context of their own (P3 on a
    phone), a bot in seat 4, and a spectator."""
    links = tables["heimlich"].links()
    pages = {
        name: open_page(browser, links[name], PHONE if name == "P3" else WIDE)
        for name in ("P1", "P2", "P3", "spectators")
    }
    yield pages
    for page in pages.values():
        page.context.close()


def check_heimlich(pages: dict[str, Any]) -> None:
    """Every page shows the same moves; each seat sees its own agent and no other's
    (the players' rows), the spectator none; no script error anywhere."""
    same_state(pages)
    logs = {name: text_of(p, "#log .line") for name, p in pages.items()}
    assert len({tuple(log) for log in logs.values()}) == 1  # Heimlich's log is public
    for name, page in pages.items():
        agents = [t for t in text_of(page, "#players li") if "agent:" in t]
        assert len(agents) == (0 if name == "spectators" else 1), agents
        if name != "spectators":
            assert agents[0].startswith(name)
        assert page.errors == []


def test_heimlich_three_humans_and_a_bot(heimlich: dict[str, Any]) -> None:
    """Three humans click their way through the game against a bot; every page,
    the spectator's too, follows live. P2 reloads the page mid-game: it shows the same
    state and log again, and P2 plays on from there."""
    pages = heimlich
    players = {name: pages[name] for name in ("P1", "P2", "P3")}
    assert play(players, 6, random.Random(1)) == 6
    before = same_state(pages)
    log = text_of(pages["P2"], "#log .line")
    pages["P2"].reload()
    pages["P2"].wait_for_selector("#header", timeout=WAIT)
    assert seq(pages["P2"]) == before
    assert text_of(pages["P2"], "#log .line") == log
    assert play(players, 8, random.Random(5)) == 8
    assert same_state(pages) > before
    check_heimlich(pages)
    assert any(line.startswith("P4 ") for line in text_of(pages["P1"], "#log .line"))  # the bot


@pytest.mark.long
def test_heimlich_to_its_end(heimlich: dict[str, Any]) -> None:
    """The same table played on to its end: every page shows the game over and the
    same results, each seat its own agent, the spectator none."""
    players = {name: heimlich[name] for name in ("P1", "P2", "P3")}
    play(players, 10_000, random.Random(2))
    for page in heimlich.values():
        page.wait_for_selector("#game-over", timeout=WAIT)
    check_heimlich(heimlich)
    results = {tuple(text_of(p, "#game-over li")) for p in heimlich.values()}
    assert len(results) == 1 and len(next(iter(results))) == 4


def test_labyrinth_with_a_game_master(browser: Any, tables: dict[str, Server]) -> None:
    """The game master's page draws the labyrinth's map (its cells' kinds, its walls);
    a player's page says the map is hidden and draws none of it. What the rules tell
    one player alone shows on that player's page, marked, and on the master's with
    whom it was for, never on the other player's."""
    links = tables["labyrinth"].links()
    pages = {name: open_page(browser, links[name]) for name in ("P1", "P2")}
    master = open_page(browser, links["game master"])
    play(pages, 8, random.Random(3))
    same_state({**pages, "master": master})
    assert master.query_selector("section.board svg.state")
    assert master.query_selector_all("svg.state line.cell-side.wall")
    assert master.query_selector(".hidden-map") is None
    for page in pages.values():
        assert page.query_selector("section.board svg") is None
        assert page.inner_text("section.board .hidden-map")
    secrets = {name: text_of(p, "#log li.secret .line") for name, p in pages.items()}
    p1_only = [line for line in secrets["P1"] if line.startswith("P1 ")]
    assert p1_only
    assert not set(p1_only) & set(text_of(pages["P2"], "#log .line"))
    assert "only P1 knows" in text_of(master, "#log li.secret .secret-mark")
    assert all(p.errors == [] for p in [*pages.values(), master])


def test_a_wrong_link_and_a_rule_file_of_markup(browser: Any, tables: dict[str, Server]) -> None:
    """A link with a wrong token is refused with a page that says so (404); a served
    rule file whose texts are markup shows them as text, through the server too."""
    good = tables["markup"].links()["P1"]
    wrong = good.rsplit("/", 1)[0] + "/not-a-token"
    page = browser.new_context(viewport=PHONE).new_page()
    response = page.goto(wrong)
    assert response.status == 404
    said = page.inner_text("body").lower()
    assert "does not open a seat at any table" in said
    assert "rulelang serve --resume" in said
    page = open_page(browser, good, PHONE)
    page.wait_for_selector("#decision.mine", timeout=WAIT)
    assert page.evaluate("window.pwned") is None
    assert page.query_selector_all("#app script, #app img, #app i, #app u") == []
    assert "<i>hall</i>" in page.text_content(".refused-option")
    page.locator("#decision").get_by_role("button", name="</svg><script>window.pwned").click()
    page.wait_for_selector("#decision:not(.mine)", timeout=WAIT)
    assert page.evaluate("window.pwned") is None and page.errors == []
