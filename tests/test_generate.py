"""`generate`: random paths, inner sides, rim sides and cells of a grid board, from the
game's seeded generator. Over many seeds and several parameter sets every constraint
holds; the same seed gives the same map, also after a save and a replay; impossible
requests stop with their R code, quickly."""

from __future__ import annotations

import builtins
import random
import time
from pathlib import Path

import pytest

import rulelang
from rulelang import Game, replay
from rulelang.cli.main import run
from rulelang.diagnostics import GameRuntimeError
from rulelang.storage import saves

GAME = """
game "G"
players 2..2
param width = 8
param height = 8
param length = 12
param bends = 4
param walls = 20
param exits = 2
param spots = 20
board maze = grid(0, width - 1, 0, height - 1) {
  state kind: text = "safe" visible to none
  state flow: int = -1 visible to none
  edge wall: bool = false visible to none
  edge exit: bool = false visible to none
}
global {
  river: list(node(maze)) = []
  flows: list(int) = []
  inner: list(side(maze)) = []
  outer: list(side(maze)) = []
  free: list(node(maze)) = []
}
setup {
  generate course, dirs = path on maze length length bends at most bends from rim to rim
  for i in 0..len(course) - 1 {
    set maze.kind[course[i]] = "river"
    set maze.flow[course[i]] = dirs[i]
  }
  generate ws = sides s on maze count walls
    where not (maze.kind[side_cell(s)] == "river" and maze.kind[across(s)] == "river")
    keep connected
  for s in ws { set maze.wall[s] = true }
  generate xs = rim sides s on maze count exits
    where maze.kind[side_cell(s)] != "river" or maze.flow[side_cell(s)] == side_dir(s)
  for s in xs { set maze.exit[s] = true }
  generate cs = cells c on maze count spots where maze.kind[c] == "safe"
  set river = course
  set flows = dirs
  set inner = ws
  set outer = xs
  set free = cs
}
turn { choose d in 0..3 }
end when turn_number > 2 { draw players }
"""

RULES = rulelang.compile_source(GAME, "g.rules")
PARAMS = [
    {},
    {"width": "6", "height": "6", "length": "8", "bends": "2", "walls": "10", "spots": "5"},
    {"width": "10", "height": "8", "length": "15", "bends": "6", "walls": "30", "exits": "4"},
    {"width": "5", "height": "9", "length": "9", "bends": "0", "walls": "8", "spots": "3"},
]


def world(g: Game) -> dict[str, object]:
    st = g.state
    board = st.cfg.boards["maze"]
    names = [g2.name for g2 in g.rules.program.globals]
    values = dict(zip(names, st.vars, strict=True))
    return {"board": board, **values}


def reachable(board: object, walls: set[int]) -> int:
    """How many cells the first one reaches across sides that are not walls."""
    nb, canon = board.neighbour, board.canon  # type: ignore[attr-defined]
    seen, todo = {0}, [0]
    for c in todo:
        for d in range(4):
            n = nb[c][d]
            if n >= 0 and n not in seen and canon[4 * c + d] not in walls:
                seen.add(n)
                todo.append(n)
    return len(seen)


@pytest.mark.parametrize("options", PARAMS)
def test_every_constraint_holds_over_many_seeds(options: dict[str, str]) -> None:
    n_len = int(options.get("length", 12))
    n_bends = int(options.get("bends", 4))
    for seed in range(60):
        g = RULES.new_game(2, seed=seed, options=options)
        w = world(g)
        board = w["board"]
        nb = board.neighbour  # type: ignore[attr-defined]
        course, dirs = list(w["river"]), list(w["flows"])  # type: ignore[call-overload]
        assert len(course) == len(dirs) == n_len
        assert len(set(course)) == n_len  # never meets itself
        for i in range(n_len - 1):
            assert nb[course[i]][dirs[i]] == course[i + 1]  # one direction per cell
        assert sum(1 for i in range(1, n_len) if dirs[i] != dirs[i - 1]) <= n_bends
        assert nb[course[0]][(dirs[0] + 2) % 4] < 0  # enters across the rim
        assert nb[course[-1]][dirs[-1]] < 0  # and leaves over it
        inner = list(w["inner"])  # type: ignore[call-overload]
        assert len(inner) == len(set(inner)) == int(options.get("walls", 20))
        river = set(course)
        for s in inner:
            assert s in board.inner_sides  # type: ignore[attr-defined]
            assert not (s >> 2 in river and board.across[s] in river)  # type: ignore[attr-defined]
        assert reachable(board, set(inner)) == board.size  # type: ignore[attr-defined]
        outer = list(w["outer"])  # type: ignore[call-overload]
        assert len(outer) == len(set(outer)) == int(options.get("exits", 2))
        for s in outer:
            assert s in board.rim_sides  # type: ignore[attr-defined]
            c = s >> 2
            assert c not in river or dirs[course.index(c)] == s & 3
        free = list(w["free"])  # type: ignore[call-overload]
        assert len(free) == len(set(free)) == int(options.get("spots", 20))
        assert not river & set(free)
        state = g.view(None)["board_state"]["maze"]
        assert sum(state["wall"].values()) == len(inner)
        assert sum(v == "river" for v in state["kind"].values()) == n_len


def test_path_without_rim_ends_and_bends() -> None:
    rules = rulelang.compile_source(
        'game "P"\nplayers 2..2\nboard b = grid(0, 4, 0, 4)\n'
        "global { cs: list(node(b)) = []\n ds: list(int) = [] }\n"
        "setup { generate a, d = path on b length 18\n set cs = a\n set ds = d }\n"
        "turn { choose x in 0..1 }\nend when turn_number > 0 { draw players }",
        "p.rules",
    )
    for seed in range(20):
        g = rules.new_game(2, seed=seed)
        cs, ds = g.state.vars
        nb = g.state.cfg.boards["b"].neighbour
        assert len(cs) == 18 and len(set(cs)) == 18  # never meets itself
        assert all(nb[cs[i]][ds[i]] == cs[i + 1] for i in range(17))


def test_same_seed_same_map_and_different_seeds_differ() -> None:
    maps = [world(RULES.new_game(2, seed=s))["inner"] for s in (5, 5, 6)]
    assert maps[0] == maps[1] != maps[2]


def test_a_save_and_replay_reproduce_the_map() -> None:
    g = RULES.new_game(2, seed=11)
    g.apply(g.legal_actions()[1])
    again = replay(RULES, 2, 11, g.record())
    assert again.state.vars == g.state.vars
    assert again.view(None)["board_state"] == g.view(None)["board_state"]
    kinds = [e["chance"] for e in g.record() if "chance" in e]
    assert kinds == ["course", "ws", "xs", "cs"]


def test_scripted_chance_seeds_the_drawing() -> None:
    g = RULES.new_game(2, seed=3, auto_chance=False)
    seeds = []
    while g.is_chance_node():
        decision = g.pending()
        assert decision is not None and decision.kind == "generate"
        seeds.append(len(seeds) + 100)
        g.apply_chance(seeds[-1])
    twin = RULES.new_game(2, seed=99, auto_chance=False)
    for s in seeds:
        twin.apply_chance(s)
    assert twin.state.vars == g.state.vars
    with pytest.raises(rulelang.UsageError):
        RULES.new_game(2, auto_chance=False).apply_chance("many")


def test_generation_writes_no_log_line_unless_asked() -> None:
    assert RULES.new_game(2, seed=1).view(None)["log"] == []
    logged = GAME.replace("keep connected", 'keep connected log "the walls go up"')
    g = rulelang.compile_source(logged, "g.rules").new_game(2, seed=1)
    assert g.view(None)["log"] == ["the walls go up"]
    assert g.view(0)["log"] == ["the walls go up"]


@pytest.mark.parametrize(
    ("statement", "code"),
    [
        ("generate a, d = path on b length 100", "R040"),
        ("generate a, d = path on b length 9 bends at most 0", "R040"),
        ("generate a, d = path on b length 2 bends at most 0 from rim to rim", "R040"),
        ("generate a = sides s on b count 5 keep connected", "R041"),
        ("generate a = sides s on b count 13", "R041"),
        ("generate a = rim sides s on b count 4 where side_dir(s) == 0", "R041"),
        ("generate a = cells c on b count 4 where c > 5", "R041"),
        ("generate a = cells c on b count 0 - 1", "R043"),
    ],
)
def test_impossible_requests_stop_with_their_code_quickly(statement: str, code: str) -> None:
    rules = rulelang.compile_source(
        f'game "I"\nplayers 2..2\nboard b = grid(0, 2, 0, 2)\nsetup {{ {statement} }}\n'
        "turn { choose x in 0..1 }\nend when turn_number > 0 { draw players }",
        "i.rules",
    )
    start = time.process_time()
    with pytest.raises(GameRuntimeError) as err:
        rules.new_game(2, seed=1)
    assert err.value.code == code
    assert time.process_time() - start < 1.0


class CountingRandom(random.Random):
    """The game's generator, counting its draws (every draw of `random` is one of
    these two: randrange, choice and shuffle call getrandbits)."""

    draws = 0

    def random(self) -> float:
        CountingRandom.draws += 1
        return super().random()

    def getrandbits(self, k: int) -> int:
        CountingRandom.draws += 1
        return super().getrandbits(k)


def test_the_default_map_is_cheap(monkeypatch: pytest.MonkeyPatch) -> None:
    """The default map's path, walls, exits and spots are found with few draws, not by
    drawing again and again until the constraints hold: counted, so that the machine's
    load cannot move it (about 170 draws a map on average, at most 332, over these 200
    seeds; a search that retried a whole map would draw thousands)."""
    monkeypatch.setattr(random, "Random", CountingRandom)
    draws = []
    for seed in range(200):
        CountingRandom.draws = 0
        RULES.new_game(2, seed=seed)
        draws.append(CountingRandom.draws)
    assert min(draws) > 0  # the map is drawn from the game's generator
    assert sum(draws) / len(draws) < 400 and max(draws) < 1000, (sum(draws), max(draws))


def test_a_game_saved_by_play_replays_the_same_map(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    game = tmp_path / "g.rules"
    game.write_text(GAME, encoding="utf-8")
    save = tmp_path / "g.save.json"
    replies = iter(["1", "2"])

    def fake_input(prompt: str = "") -> str:
        for reply in replies:
            return reply
        raise KeyboardInterrupt

    monkeypatch.setattr(builtins, "input", fake_input)
    assert run(["play", str(game), "-p", "2", "--seed", "7", "--save", str(save)]) == 130
    capsys.readouterr()
    record = saves.read(save)
    assert [e["chance"] for e in record.log if "chance" in e] == ["course", "ws", "xs", "cs"]
    again = replay(RULES, 2, 7, record.log)
    fresh = RULES.new_game(2, seed=7)
    assert again.view(None)["board_state"] == fresh.view(None)["board_state"]
    assert again.state.vars == fresh.state.vars
