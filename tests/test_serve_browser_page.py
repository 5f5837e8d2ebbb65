"""The table page of `rulelang serve` in Debian's Chromium, without a server: its socket
is a stand-in that sends the messages the server would send (browser_support.message)
and records what the page sends. Every shipped game is drawn for a seat, the game master
and a spectator, on a wide screen and a phone's; a rule file made of markup shows its
texts as text. The page with the real server: tests/test_serve_browser.py."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import PHONE, WIDE, browser, message, seq_of, show_offline
from conftest import sample

import rulelang
from rulelang import PUBLIC, Game

__all__ = ["browser"]  # the fixture, imported to be used here

ROOT = Path(__file__).parent.parent
SHIPPED = sorted(
    p for p in [*ROOT.glob("rulesets/*.rules"), *ROOT.glob("rulesets/examples/*.rules")]
)
MARKUP = Path(__file__).parent / "games" / "markup.rules"

# what the page shows, read in the page: boards drawn, buttons, refused options with
# their reasons, the log's private lines, the results, and whether it is wider than
# the screen
PROBE = """() => ({
  boards: [...document.querySelectorAll('section.board')].map(b => ({
    name: b.dataset.board, svg: b.querySelectorAll('svg').length,
    shapes: b.querySelectorAll('svg rect, svg line, svg circle, svg path').length,
    hidden: b.querySelectorAll('.hidden-map').length})),
  legal: [...document.querySelectorAll('#decision button.option:not([disabled])')]
    .map(b => b.textContent),
  refused: [...document.querySelectorAll('.refused-option')].map(r =>
    [r.querySelector('button').textContent, r.querySelector('button').disabled,
     r.querySelector('.reason').textContent]),
  secret: [...document.querySelectorAll('#log li.secret .line')].map(l => l.textContent),
  results: [...document.querySelectorAll('#game-over li')].map(l => l.textContent),
  status: document.querySelector('#status') && document.querySelector('#status').textContent,
  wider: document.documentElement.scrollWidth > window.innerWidth,
  undrawn: [...document.querySelectorAll('section.board svg *')]
    .filter(e => ['none', 'contents'].includes(getComputedStyle(e).display)).length,
})"""


def played(path: Path, decisions: int) -> Game:
    rules = rulelang.compile_file(path)
    game = rules.new_game(max(rules.min_players, min(4, rules.max_players)), seed=3)
    rng = random.Random(5)
    for _ in range(decisions):
        if game.is_over():
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


@pytest.fixture(scope="module")
def pages(browser: Any) -> Iterator[dict[str, Any]]:
    """A wide page and a phone's, shared by the games drawn here (a page per game would
    cost more than the drawing)."""
    contexts = [browser.new_context(viewport=size) for size in (WIDE, PHONE)]
    out = {"wide": show_offline(contexts[0], [])[0], "phone": show_offline(contexts[1], [])[0]}
    yield out
    for context in contexts:
        context.close()


def check_drawn(pages: dict[str, Any], game: Game) -> None:
    """Each viewer's page draws every board the game has (or says its map is hidden),
    offers exactly the legal options as buttons to the seat that decides (none to the
    others), shows the results at the end, and fits a phone's screen (390 px) without
    sideways scrolling."""
    seat = max(game.current_player(), 0)
    for m in (message(game, seat), message(game, None), message(game, PUBLIC)):
        for size, page in pages.items():
            probe = page.evaluate(
                f"m => {{ window.rulelangTable.render(m); return ({PROBE})(); }}", m
            )
            assert [b["name"] for b in probe["boards"]] == list(game.boards)
            for board in probe["boards"]:
                assert board["hidden"] or (board["svg"] and board["shapes"] > 0), board
            legal = [a.text for a in game.legal_actions()] if m["your_turn"] else []
            assert probe["legal"] == legal
            if game.is_over():
                assert len(probe["results"]) == game.players
                assert probe["status"] == "game over"
            assert not (size == "phone" and probe["wider"]), m["role"]
            assert probe["undrawn"] == 0, (size, m["role"])  # no shape hidden by the page's CSS
            assert page.errors == []


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_every_shipped_game_is_drawn_for_every_viewer(pages: dict[str, Any], path: Path) -> None:
    """Mid-game, for a seat, the game master and a spectator (check_drawn)."""
    check_drawn(pages, played(path, 12))


@pytest.mark.long
def test_every_shipped_game_is_drawn_at_its_end(pages: dict[str, Any], full: bool) -> None:
    """At the end of a whole game (a sample by default, every game with --full)."""
    for path in SHIPPED[: sample(full, len(SHIPPED), 3)]:
        check_drawn(pages, played(path, 100_000))


def test_a_rule_file_made_of_markup_shows_as_text(browser: Any) -> None:
    """Names, prompts, options, refusals, messages and the title of a rule file are
    text on the page: no script of theirs runs, no element of theirs is made."""
    game = rulelang.compile_file(MARKUP).new_game(2)
    messages = [message(game, 0), message(game, None), message(game, PUBLIC)]
    for size in (WIDE, PHONE):
        context = browser.new_context(viewport=size)
        page, _ = show_offline(context, messages[:1])
        for m in messages:
            page.evaluate("m => window.rulelangTable.render(m)", m)
            assert page.evaluate("window.pwned") is None
            made = page.evaluate(
                "document.querySelectorAll('#app script, #app img, #app i, #app u, #app b > b')"
                ".length"
            )
            assert made == 0
            text = page.inner_text("#app")
            assert "<script>window.pwned = 1</script> Night" in text
            assert "<i>hall</i>" in page.text_content("#app")
        page.evaluate("m => window.rulelangTable.render(m)", messages[0])
        probe = page.evaluate(PROBE)
        assert probe["legal"] == [
            '"><img src=x onerror="window.pwned=2">',
            "</svg><script>window.pwned=3</script>",
        ]
        assert probe["refused"] == [
            ["<i>hall</i>", True, "<script>window.pwned=7</script> not there"]
        ]
        assert probe["secret"] == ["<img src=z onerror=window.pwned=6> only you"]
        assert page.title().startswith("<script>window.pwned = 1</script> Night")
        assert page.errors == []
        context.close()


def test_a_click_sends_the_option_and_a_refusal_is_shown(browser: Any) -> None:
    """A button, or the node an option names on the board, sends the option's number
    with the state's seq; the server's refusal
    (here: stale) is shown to the player; a refused option cannot be clicked."""
    game = rulelang.compile_file(MARKUP).new_game(2)
    context = browser.new_context(viewport=PHONE)
    page, sent = show_offline(context, [message(game, 0)])
    # an option naming a node of a board is marked there, and a tap there takes it
    targets = page.query_selector_all("section.board g.target")
    assert [t.get_attribute("data-node") for t in targets] == [
        '"><img src=x onerror="window.pwned=2">',
        "</svg><script>window.pwned=3</script>",
    ]
    targets[0].click()
    page.wait_for_function("document.querySelectorAll('#decision button:disabled').length == 3")
    page.evaluate("m => window.rulelangTable.render(m)", message(game, 0))
    page.locator("#decision").get_by_role("button", name="</svg><script>window.pwned").click()
    page.wait_for_function("document.querySelectorAll('#decision button:disabled').length == 3")
    assert sent == [
        {"type": "move", "seq": 0, "option": 0},
        {"type": "move", "seq": 0, "option": 1},
    ]
    assert page.is_disabled("button:has-text('<i>hall</i>')")
    # a stale move (another device of the seat moved first): the refusal, then the
    # state as it is now; the refusal stays until the game moves on again
    game.apply(game.legal_actions()[0])
    now = seq_of(game)
    stale = {"type": "refused", "reason": "stale move: the game moved on", "seq": now}
    page.sockets[0].send(json.dumps(stale))
    page.sockets[0].send(json.dumps(message(game, 0)))
    page.wait_for_function(f"document.body.dataset.seq == '{now}'")
    assert page.text_content(".refusal") == "stale move: the game moved on"
    game.apply(game.legal_actions()[0])
    page.sockets[0].send(json.dumps(message(game, 0)))
    page.wait_for_function(f"document.body.dataset.seq != '{now}'")
    assert page.query_selector(".refusal") is None
    context.close()


def test_a_dropped_connection_comes_back_by_itself(browser: Any) -> None:
    """When the socket closes (the server stopped, the Wi-Fi dropped) the page says it
    is reconnecting, opens a new socket by itself and shows the state it is sent."""
    game = rulelang.compile_file(MARKUP).new_game(2)
    context = browser.new_context(viewport=PHONE)
    page, _ = show_offline(context, [message(game, 0)])
    page.wait_for_selector("#decision.mine")
    page.sockets[0].close()
    page.wait_for_function("document.body.classList.contains('offline')")
    page.wait_for_function("!document.body.classList.contains('offline')", timeout=5000)
    assert len(page.sockets) == 2  # the stand-in answered the new socket with the state
    page.wait_for_selector("#decision.mine")
    assert page.errors == []
    context.close()
