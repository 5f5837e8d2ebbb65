"""Board state: `state` (one value per node) and `edge` attributes (one value per side
of a grid cell) read and set in play, sides as values, views that hide what is
`visible to none` from players and show it to the referee, clones that do not share
changes, and the bot proof (E247) for hidden board state."""

from __future__ import annotations

import pytest

import rulelang
from rulelang import Ruleset
from rulelang.diagnostics import RuleError

MAZE = """
board maze = grid(0, 3, 0, 2) {
  state kind: text = "safe" visible to none
  state seen: int = 0
  edge wall: bool = false visible to none
  edge mark: int = 0
}
global { last: side(maze) = none }
"""


def compile_text(body: str) -> Ruleset:
    return rulelang.compile_source(f'game "B"\nplayers 2..2\n{MAZE}\n{body}', "b.rules")


def say_all(setup: str, says: list[str]) -> list[str]:
    """The lines a game says in setup (after `setup` ran the statements given)."""
    lines = "\n".join(f'  say "{s}"' for s in says)
    end = 'turn { say "t" }\nend when turn_number > 0 { draw players }'
    rules = compile_text(f"setup {{\n{setup}\n{lines}\n}}\n{end}")
    g = rules.new_game(2, seed=1)
    return [e for e in g.view(None)["log"] if e != "t"]


def test_state_is_read_and_set_per_node() -> None:
    lines = say_all(
        '  set maze.kind[cell(maze, 1, 1)] = "river"\n  set maze.seen[2] += 5\n'
        "  set maze.seen[2] -= 1",
        ["{maze.kind[cell(maze, 1, 1)]} {maze.kind[0]} {maze.seen[2]} {maze.seen[3]}"],
    )
    assert lines == ["river safe 4 0"]


def test_an_inner_side_is_one_value_seen_from_both_cells() -> None:
    lines = say_all(
        "  set maze.wall[cell(maze, 1, 1), 1] = true\n"
        "  set maze.mark[cell(maze, 2, 2), 2] = 7\n"
        "  set last = side(maze, cell(maze, 2, 1), 3)",
        [
            "{maze.wall[cell(maze, 2, 1), 3]} {maze.wall[cell(maze, 1, 1), 3]}",
            "{maze.mark[cell(maze, 2, 1), 0]} {maze.mark[side(maze, cell(maze, 2, 2), 2)]}",
            "{last} {side_cell(last)} {side_dir(last)} {across(last)} {on_rim(last)}",
            "{maze.wall[last]}",
            "{side(maze, cell(maze, 3, 0), 2)} {across(side(maze, 0, 3))}"
            " {on_rim(side(maze, 0, 3))}",
        ],
    )
    assert lines == [
        "yes no",
        "7 7",
        "1,1 east 1,1 1 2,1 no",
        "yes",
        "3,0 south none yes",
    ]


def test_a_rim_side_is_its_own_and_every_canonical_side_is_viewed_once() -> None:
    rules = compile_text(
        "setup { set maze.mark[0, 3] = 1 set maze.mark[0, 2] = 2 }\n"
        'turn { say "t" }\nend when turn_number > 0 { draw players }'
    )
    g = rules.new_game(2)
    marks = g.view(None)["board_state"]["maze"]["mark"]
    # 4 x 3 cells: 3 * 3 + 4 * 2 inner sides and 2 * (4 + 3) rim sides
    assert len(marks) == 17 + 14
    assert marks["0,0 west"] == 1 and marks["0,0 south"] == 2
    assert "1,0 west" not in marks  # the inner side is named from the cell to the west
    assert sum(marks.values()) == 3


def test_views_hide_state_visible_to_none_from_players_only() -> None:
    rules = compile_text(
        'setup { set maze.kind[0] = "river" set maze.wall[0, 1] = true set maze.seen[0] = 3 }\n'
        'turn { say "t" }\nend when turn_number > 0 { draw players }'
    )
    g = rules.new_game(2)
    referee = g.view(None)["board_state"]["maze"]
    assert referee["kind"]["0,0"] == "river" and referee["wall"]["0,0 east"] is True
    for seat in (0, 1):
        mine = g.view(seat)["board_state"]["maze"]
        assert set(mine) == {"seen", "mark"}
        assert mine["seen"]["0,0"] == 3
        assert "river" not in str(g.view(seat))


def test_a_clone_does_not_share_changes() -> None:
    rules = compile_text(
        "turn { choose c in nodes(maze)\n set maze.seen[c] += 1\n set maze.wall[c, 0] = true }\n"
        "end when turn_number > 5 { draw players }"
    )
    g = rules.new_game(2)
    twin = g.clone()
    g.apply(g.legal_actions()[0])
    assert g.view(None)["board_state"]["maze"]["seen"]["0,0"] == 1
    assert g.view(None)["board_state"]["maze"]["wall"]["0,0 north"] is True
    assert twin.view(None)["board_state"]["maze"]["seen"]["0,0"] == 0
    assert twin.view(None)["board_state"]["maze"]["wall"]["0,0 north"] is False


def test_boards_without_state_show_no_board_state() -> None:
    rules = rulelang.compile_source(
        'game "P"\nplayers 2..2\nboard b = ring(3)\nturn { say "t" }\n'
        "end when turn_number > 0 { draw players }",
        "p.rules",
    )
    assert "board_state" not in rules.new_game(2).view(None)


def test_state_on_a_ring_and_node_typed_state() -> None:
    rules = rulelang.compile_source(
        'game "R"\nplayers 2..2\nboard town = ring(4) {\n  state next_one: node(town) = 0\n}\n'
        "setup { set town.next_one[1] = 3\n set town.next_one[2] += 2 }\n"
        'turn { say "{town.next_one[1]} {town.next_one[2]}" }\n'
        "end when turn_number > 0 { draw players }",
        "r.rules",
    )
    assert rules.new_game(2).view(None)["log"] == ["3 2"]


def test_bot_proof_refuses_hidden_board_state() -> None:
    body = (
        "turn { choose c in nodes(maze) }\nend when turn_number > 3 { draw players }\n"
        'bot peek { when choosing c { prefer maze.kind[c] == "safe" } }'
    )
    with pytest.raises(RuleError) as err:
        compile_text(body)
    assert "E247" in str(err.value) and "'kind' of maze is visible to none" in str(err.value)
    edge = body.replace('maze.kind[c] == "safe"', "maze.wall[c, 0]")
    with pytest.raises(RuleError, match="E247"):
        compile_text(edge)
    seen = body.replace('maze.kind[c] == "safe"', "maze.seen[c] == 0 and not (maze.mark[c, 1] > 0)")
    assert compile_text(seen).bots["peek"] is not None


def test_setting_a_fixed_attribute_is_still_e246() -> None:
    with pytest.raises(RuleError, match="E246"):
        rulelang.compile_source(
            'game "F"\nplayers 2..2\nboard b = grid(0, 1, 0, 1) { dark = [1, 2, 3, 4] }\n'
            "turn { choose c in nodes(b)\n set b.dark[c] = 0 }\n"
            "end when turn_number > 0 { draw players }",
            "f.rules",
        )


def test_state_is_viewed_as_plain_data_by_node_name() -> None:
    """Texts and numbers as they are; a node-typed state by the node's name."""
    rules = compile_text(
        'setup {\n  set maze.kind[cell(maze, 1, 1)] = "river"\n  set maze.seen[2] = 7\n}\n'
        'turn { say "t" }\nend when turn_number > 0 { draw players }'
    )
    maze = rules.new_game(2, seed=1).view(None)["board_state"]["maze"]
    assert maze["kind"] == {name: "river" if name == "1,1" else "safe" for name in maze["kind"]}
    assert list(maze["seen"].values()) == [0, 0, 7] + [0] * 9
    ring = rulelang.compile_source(
        'game "R"\nplayers 2..2\nboard town = ring(4) {\n  state next_one: node(town) = 0\n}\n'
        'setup { set town.next_one[1] = 3 }\nturn { say "t" }\n'
        "end when turn_number > 0 { draw players }",
        "r.rules",
    )
    town = ring.new_game(2).view(None)["board_state"]["town"]
    assert town == {"next_one": {"0": "0", "1": "3", "2": "0", "3": "0"}}
