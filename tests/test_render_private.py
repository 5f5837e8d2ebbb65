"""A long game's private messages do not fill the screen: the screen shows the last
PRIVATE_TAIL of them and says how many earlier ones it leaves out; `play`'s `board
--all` shows them all."""

from __future__ import annotations

from pathlib import Path

import rulelang
from rulelang.render.text import PRIVATE_TAIL, render_view

RULES = """game "Whisper"
players 2..2
turn {
  choose n in 1..2
  say "{current} whispers {turn_number}" to current
}
end when turn_number > 30 { draw players }
"""


def _game(tmp_path: Path, moves: int) -> rulelang.Game:
    path = tmp_path / "whisper.rules"
    path.write_text(RULES)
    game = rulelang.compile_file(path).new_game(2, seed=1)
    for _ in range(moves):
        game.apply(game.legal_actions()[0])
    return game


def test_the_screen_shows_the_last_private_messages(tmp_path: Path) -> None:
    game = _game(tmp_path, 24)  # 12 whispers to P1
    screen = render_view(game, game.view(0), log_tail=0).splitlines()
    shown = [line.strip() for line in screen if "whispers" in line]
    assert len(shown) == PRIVATE_TAIL
    assert shown[-1] == "P1 whispers 23"
    assert "(4 earlier not shown)" in [line.strip() for line in screen]
    everything = render_view(game, game.view(0), log_tail=0, private_tail=None)
    assert sum("whispers" in line for line in everything.splitlines()) == 12
    assert "earlier not shown" not in everything


def test_the_game_masters_screen_is_cut_the_same_way(tmp_path: Path) -> None:
    game = _game(tmp_path, 24)
    screen = [line.strip() for line in render_view(game, game.view(None), log_tail=0).splitlines()]
    assert "(16 earlier not shown)" in screen
    assert screen[-1] == "to P2: P2 whispers 24"


def test_a_short_list_is_shown_whole(tmp_path: Path) -> None:
    game = _game(tmp_path, 4)
    screen = render_view(game, game.view(0), log_tail=0)
    assert "earlier not shown" not in screen
    assert sum("whispers" in line for line in screen.splitlines()) == 2
