"""The terminal map of a grid board's state: drawn exactly for the game master, and
nothing of the hidden state on a player's screen."""

from __future__ import annotations

import builtins
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_support import cli, no_traceback

import rulelang
from rulelang.render.board_map import MAX_WIDTH, labels_of
from rulelang.render.text import render_view

YARD = Path(__file__).resolve().parent / "games" / "yard.rules"

OMNISCIENT = """\
yard:
         0       1       2
     +       +       +       +
   2  wa      wo             d
     +       +-------+       +
   1              s@2
     +       +       +       +
   0       @1|          12
     +       +       +       +
  a cell shows: ground gold note @who
  blank: ground grass, gold 0, note ""
  ground: wa water, wo wood
  note: s start
  @: 1 P1 (at), 2 P2 (at)
  sides: --- | wall, d door
  toll (blank 0): 1,0 east 3
"""

PLAYER = """\
yard:
       0   1   2
     +   +   +   +
   2             |
     +   +   +   +
   1      s@2
     +   +   +   +
   0   @1
     +   +   +   +
  a cell shows: note @who
  blank: note ""
  note: s start
  @: 1 P1 (at), 2 P2 (at)
  sides: --- | door
"""

HIDDEN = ("ground", "gold", "wall", "toll", "water", "wood", "grass", "12")


def board_part(screen: str) -> str:
    """The map: from the board's name to the blank line after it."""
    start = screen.index("yard:")
    return screen[start : screen.index("\n\n", start) + 1]


def test_the_game_master_sees_the_whole_map_drawn() -> None:
    game = rulelang.compile_file(YARD).new_game(2, 1)
    assert board_part(render_view(game, game.view(None))) == OMNISCIENT


def test_a_player_sees_only_the_open_state() -> None:
    game = rulelang.compile_file(YARD).new_game(2, 1)
    screen = render_view(game, game.view(0))
    assert board_part(screen) == PLAYER
    assert not any(word in screen for word in HIDDEN)


def test_labels_tell_values_apart() -> None:
    # one prefix length for all the values of an attribute, so the labels line up
    assert labels_of(["river", "marsh", "shop", "safe"]) == {
        "'river'": "ri",
        "'marsh'": "ma",
        "'shop'": "sh",
        "'safe'": "sa",
    }
    assert labels_of([3, 12]) == {"3": "3", "12": "12"}
    # too long to tell apart by a prefix of 3: letters in the order of the texts
    assert labels_of(["building 1", "building 2"]) == {"'building 1'": "A", "'building 2'": "B"}


def typing(monkeypatch: pytest.MonkeyPatch, replies: list[str]) -> None:
    """Answer the prompts from `replies`, then leave (Ctrl-C)."""
    it: Iterator[str] = iter(replies)

    def fake_input(prompt: str = "") -> str:
        print(prompt)
        for reply in it:
            return reply
        raise KeyboardInterrupt

    monkeypatch.setattr(builtins, "input", fake_input)


def test_play_never_shows_a_player_the_hidden_map(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    typing(monkeypatch, ["2", "board", "1"])
    code, out, err = cli(capsys, "play", YARD, "-p", "2", "--bots", "2")
    assert code == 130
    no_traceback(out, err)
    assert "sides: --- | door" in out
    assert not any(word in out for word in HIDDEN)


def test_omniscient_play_and_the_end_of_the_game_draw_the_map(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    typing(monkeypatch, [])
    code, out, _ = cli(capsys, "play", YARD, "-p", "2", "--bots", "2", "--omniscient")
    assert code == 130
    assert "ground: wa water, wo wood" in out and "sides: --- | wall, d door" in out
    code, out, err = cli(capsys, "play", YARD, "-p", "2", "--bots", "all")
    assert code == 0, err
    assert "ground: wa water, wo wood" in out[out.index("Game over.") :]


LABYRINTH = Path(__file__).resolve().parent.parent / "rulesets" / "labyrinth.rules"
MAP_WORDS = ("maze:", "a cell shows", "blank:", "sides:", "kind:", "@:")


# a 12 x 12 map takes three lines a cell: a portal's way out is a cell's name ("10,11")
@pytest.mark.parametrize("size, lines", [(8, 1), (12, 3)])
def test_the_labyrinth_map_fits_the_screen(size: int, lines: int) -> None:
    ruleset = rulelang.compile_file(LABYRINTH)
    game = ruleset.new_game(3, 5, options={"width": size, "height": size})
    screen = render_view(game, game.view(None))
    drawn = screen[screen.index("maze:") : screen.index("  a cell shows")].splitlines()
    assert len(drawn) == 3 + size * (1 + lines)  # the name, the x, the lower rim
    assert max(len(line) for line in drawn) <= MAX_WIDTH
    assert re.search(r"^  a cell shows: kind flow portal", screen, re.M)
    assert '  blank: kind safe, flow -1, portal "", portal_to -1, treasure 0' in screen
    assert "  kind: h hospital, m marsh, p portal, r river, s shop" in screen
    assert "  sides: --- | wall, e exit" in screen
    assert "  @: 1 P1 (at), 2 P2 (at), 3 P3 (at)" in screen
    assert len(re.findall(r"\+-{3,}\+", screen)) >= 5  # walls drawn between cells
    assert len(re.findall(r"e{3,}|^ .* e$", screen, re.M)) >= 1  # an exit on the rim
    player = render_view(game, game.view(0))
    assert not any(word in player for word in MAP_WORDS) and "@" not in player


def test_a_labyrinth_player_sees_no_map_in_play(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    typing(monkeypatch, ["1", "2", "board", "3", "4"])
    code, out, err = cli(capsys, "play", LABYRINTH, "-p", "3", "--bots", "2,3", "--seed", "4")
    assert code == 130
    no_traceback(out, err)
    assert "Move which way?" in out and "Game over." not in out
    assert not any(word in out for word in MAP_WORDS)
    typing(monkeypatch, ["1"])
    code, out, _ = cli(
        capsys, "play", LABYRINTH, "-p", "3", "--bots", "2,3", "--seed", "4", "--omniscient"
    )
    assert code == 130 and all(word in out for word in MAP_WORDS)


RING = """
game "Ring"
players 2..3
board town = ring(["church", "mill", "ruin"]) {
  points = [0, 1, 2]
  state gold: int = 0 visible to none
  state owner: player = none
}
piece pawn count 2 { name: text = "pawn {index}"  at: node(town) = 0 }
turn {
  choose k in 1..2
  set town.gold[k] += 1
  set town.owner[k] = current
}
end when turn_number > 4 { draw players }
"""


def test_a_ring_shows_its_state_in_columns(tmp_path: Path) -> None:
    path = tmp_path / "ring.rules"
    path.write_text(RING, encoding="utf-8")
    game = rulelang.compile_file(path).new_game(2, 1)
    game.apply("2")
    assert render_view(game, game.view(None)).splitlines()[2:6] == [
        "town:",
        "   0 church  points   0  gold   0  owner none  | pawn 0 pawn 1",
        "   1 mill    points   1  gold   0  owner none  | ",
        "   2 ruin    points   2  gold   1  owner   P1  | ",
    ]
    assert render_view(game, game.view(1)).splitlines()[3:6] == [
        "   0 church  points   0  owner none  | pawn 0 pawn 1",
        "   1 mill    points   1  owner none  | ",
        "   2 ruin    points   2  owner   P1  | ",
    ]


WIDE = """
game "Wide"
players 2..2
board strip = grid(0, 39, 0, 1) {
  state mark: int = 0
  edge fence: bool = false
  edge cost: int = 1
}
setup {
  set strip.mark[cell(strip, 5, 1)] = 7
  set strip.fence[cell(strip, 2, 0), 1] = true
  set strip.cost[cell(strip, 3, 0), 0] = 4
}
turn { choose k in 1..2 }
end when turn_number > 2 { draw players }
"""


def test_a_board_too_wide_is_given_as_a_list(tmp_path: Path) -> None:
    path = tmp_path / "wide.rules"
    path.write_text(WIDE, encoding="utf-8")
    game = rulelang.compile_file(path).new_game(2, 1)
    assert render_view(game, game.view(0)).splitlines()[2:6] == [
        "strip:",
        "  mark (blank 0): 5,1 7",
        "  fence: 2,0 east",
        "  cost (blank 1): 3,0 north 4",
    ]


PAIR = """
game "Pair"
players 2..2
board duo = grid(0, 1, 0, 0) {
  edge wall: bool = false
  edge window: bool = false
  edge web: bool = false
}
setup {
  set duo.wall[cell(duo, 0, 0), 1] = true
  set duo.window[cell(duo, 0, 0), 1] = true
  set duo.window[cell(duo, 0, 0), 0] = true
  set duo.web[cell(duo, 1, 0), 2] = true
}
turn { choose k in 1..2 }
end when turn_number > 2 { draw players }
"""


def test_several_boolean_edges_have_marks_of_their_own(tmp_path: Path) -> None:
    path = tmp_path / "pair.rules"
    path.write_text(PAIR, encoding="utf-8")
    game = rulelang.compile_file(path).new_game(2, 1)
    assert render_view(game, game.view(0)).splitlines()[2:10] == [
        "duo:",
        "       0   1",
        "     +www+   +",
        "   0     *",
        "     +   +===+",
        "  sides: --- | wall, w window, = web",
        "  * several: 0,0 east: wall, window",
        "",
    ]
