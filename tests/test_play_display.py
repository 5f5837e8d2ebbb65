"""How the table's screens show attributes the rule file marks with `display` (issue
20, item 5): directions as arrows, node numbers as the nodes' names, bookkeeping (a
bot's notebook) left out unless a player asks for everything (`board --all`)."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import rulelang
from rulelang.cli.play import Table
from rulelang.diagnostics import RuleError
from rulelang.render.text import render_view

LABYRINTH = Path(__file__).resolve().parent.parent / "rulesets" / "labyrinth.rules"

# No game in particular: a strip of cells whose flows and links are numbers.
STRIP = """
game "Strip"
players 2..2
board strip = grid(0, 3, 0, 0) {
  state flow: int = -1 display direction
  state link: int = -1 display node(strip)
  state plain: int = 0
}
player {
  score: int = 0
  seen: list(int) = [] display bookkeeping
}
setup {
  set strip.flow[cell(strip, 0, 0)] = 1
  set strip.flow[cell(strip, 1, 0)] = 3
  set strip.link[cell(strip, 2, 0)] = 3
  set strip.plain[cell(strip, 3, 0)] = 2
}
turn {
  choose n in [1, 2]
  set current.score += n
  set current.seen = current.seen + [n]
}
end when any(p.score >= 6 for p in players) { win [p for p in players where p.score >= 6] }
"""


def strip_screen(bookkeeping: bool) -> str:
    game = rulelang.compile_source(STRIP, "strip.rules").new_game(2, seed=1)
    game.apply(game.legal_actions()[1])
    return render_view(game, game.view(None), bookkeeping=bookkeeping)


def test_a_direction_is_drawn_as_an_arrow_and_a_node_number_as_its_name() -> None:
    screen = strip_screen(bookkeeping=True)
    row = next(line for line in screen.splitlines() if line.startswith("   0 "))
    assert "→" in row and "←" in row  # flows 1 and 3
    assert "3,0" in row  # link 3: node number 3 of the strip, the cell 3,0
    assert "2" in row  # a number with no display stays a number
    assert "link -1" in screen  # the blank, a number that is no node's, as it is


def test_bookkeeping_is_left_out_unless_asked() -> None:
    assert "seen: [2]" in strip_screen(bookkeeping=True)
    hidden = strip_screen(bookkeeping=False)
    assert "seen" not in hidden and "score: 2" in hidden


def test_an_unknown_display_is_e280() -> None:
    for bad in ("display compass", "display node(nowhere)"):
        src = STRIP.replace("score: int = 0", f"score: int = 0 {bad}")
        with pytest.raises(RuleError) as caught:
            rulelang.compile_source(src, "strip.rules")
        assert "E280" in str(caught.value)


def test_the_game_master_s_labyrinth_map_draws_flows_and_portals() -> None:
    """The omniscient map (`play --omniscient`): no r0-r3, no node numbers as portals'
    targets; and every cell as wide as its column."""
    game = rulelang.compile_file(LABYRINTH).new_game(3, 1)
    screen = render_view(game, game.view(None), bookkeeping=False)
    drawn = screen[screen.index("maze:") : screen.index("  a cell shows")]
    assert not re.search(r"\br-?\d", drawn)
    assert re.search(r"r[↑→↓←]", drawn)
    portals = re.findall(r"\bp \w (\S+)", drawn)
    assert portals and all(re.fullmatch(r"\d+,\d+", p) for p in portals), portals
    borders = [line for line in drawn.splitlines() if line.strip().startswith("+")]
    assert len({tuple(m.start() for m in re.finditer(r"\+", b)) for b in borders}) == 1
    assert "walls_seen" not in screen and "visited" not in screen


def test_board_all_shows_the_bookkeeping_at_the_table() -> None:
    """A human at the omniscient table: the notebook is not on the screen; `board
    --all` shows it; `board` again leaves it out."""
    game = rulelang.compile_file(LABYRINTH).new_game(3, 1)
    out: list[str] = []
    answers: Iterator[str] = iter(["board", "board --all", "board"])

    def read(prompt: str) -> str:
        out.append(prompt)
        try:
            return next(answers)
        except StopIteration:
            raise KeyboardInterrupt from None

    table = Table(game, {1: None, 2: None}, read, out.append, clear=False, omniscient=True)
    with contextlib.suppress(KeyboardInterrupt):
        table.run()
    boards = [line for line in out if line.startswith("== ")]
    assert len(boards) == 4  # the turn's screen and the three asked for
    shown = [("walls_seen" in line) for line in out if line.startswith("== ")]
    assert shown == [False, False, True, False]


def test_the_screen_of_a_finished_game_says_it_is_over() -> None:
    """The last screen of `rulelang play` said "turn 15, P3 to play" under "Game
    over.": a finished game's header says it is over, and names nobody to play."""
    rules = rulelang.compile_source(
        'game "Once"\nplayers 2..2\nturn { choose n in 1..2 }\nend when turn_number > 2 '
        "{ win [current] }\n",
        "once.rules",
    )
    game = rules.new_game(2, seed=1)
    assert render_view(game, game.view(0)).splitlines()[0] == "== Once == turn 1, P1 to play"
    while not game.is_over():
        game.apply(game.legal_actions()[0])
    for viewer in (None, 0):
        header = render_view(game, game.view(viewer)).splitlines()[0]
        assert header == "== Once == turn 3, game over"
