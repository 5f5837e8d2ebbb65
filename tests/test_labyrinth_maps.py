"""Generated labyrinth maps meet every constraint of /work/shared/reference/labyrinth.md:
10,000 default maps (seeds 0..9999, only the setup runs) and a few hundred with other
parameters. The map is read back from the referee's view (labyrinth_support.Map) and
checked from the outside: nothing here trusts the rule file's own loops.
"""

from __future__ import annotations

import multiprocessing
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

import pytest
from conftest import sample
from labyrinth_support import LABYRINTH, Map, rules  # noqa: F401 - rules is a fixture

import rulelang
from rulelang import Ruleset

DEFAULT_MAPS = 10_000
DEFAULTS = {
    "width": 8, "height": 8, "river_tiles": 12, "max_bends": 4, "marshes": 8, "shops": 1,
    "hospitals": 1, "fake_portals": 1, "ab_portals": 1, "abc_portals": 1, "treasures": 2,
    "inner_walls": 20, "exits": 2,
}  # fmt: skip
# (options, maps): other sizes and counts, within and at the edges of the recommended ranges
VARIANTS = [
    ({"width": "6", "height": "6", "river_tiles": "7", "max_bends": "2", "marshes": "6",
      "inner_walls": "10"}, 100),
    ({"width": "10", "height": "10", "river_tiles": "16", "max_bends": "6", "marshes": "16",
      "shops": "2", "hospitals": "2", "treasures": "3", "inner_walls": "32"}, 100),
    ({"width": "12", "height": "7", "river_tiles": "14", "max_bends": "3", "exits": "4",
      "fake_portals": "2", "ab_portals": "2", "abc_portals": "0", "inner_walls": "25"}, 100),
    ({"max_bends": "0", "river_tiles": "8", "inner_walls": "0", "exits": "1"}, 50),
]  # fmt: skip

Cell = tuple[int, int]


def check_map(m: Map, o: dict[str, int], players: int) -> None:
    check_tiles(m, o)
    check_river(m, o)
    check_portals(m, o)
    check_walls(m, o)
    check_exits(m, o)
    assert not shut_in(m), "a player could be shut in"
    assert len(set(m.starts)) == players
    assert all(m.kind[c] == "safe" and m.treasure[c] == 0 for c in m.starts)


def check_tiles(m: Map, o: dict[str, int]) -> None:
    kinds = Counter(m.kind.values())
    portals = o["fake_portals"] + 2 * o["ab_portals"] + 3 * o["abc_portals"]
    special = o["river_tiles"] + o["marshes"] + o["shops"] + o["hospitals"] + portals
    assert kinds == {
        "safe": o["width"] * o["height"] - special, "river": o["river_tiles"],
        "marsh": o["marshes"], "shop": o["shops"], "hospital": o["hospitals"],
        "portal": portals,
    }  # fmt: skip
    # treasures lie one to a tile, on safe tiles
    assert sorted(m.treasure[c] for c in m.cells() if m.treasure[c]) == [1] * o["treasures"]
    assert all(m.kind[c] == "safe" for c in m.cells() if m.treasure[c])


def river_course(m: Map) -> list[Cell]:
    """The river from its source, following the flows; asserts it is one unforked chain."""
    river = [c for c in m.cells() if m.kind[c] == "river"]
    inflow: Counter[Cell] = Counter()
    for c in river:
        assert m.flow[c] in range(4)
        n = m.neighbour(c, m.flow[c])
        if n is not None and m.kind[n] == "river":
            inflow[n] += 1
    assert all(k == 1 for k in inflow.values()), "two river tiles flow into one"
    sources = [c for c in river if inflow[c] == 0]
    assert len(sources) == 1, f"the river has {len(sources)} sources"
    course = [sources[0]]
    while (n := m.neighbour(course[-1], m.flow[course[-1]])) is not None:
        assert n not in course, "the river meets itself"
        assert m.kind[n] == "river", "the river flows into dry land"
        course.append(n)
    assert sorted(course) == sorted(river), "a second river"
    return course


def check_river(m: Map, o: dict[str, int]) -> None:
    course = river_course(m)
    assert len(course) == o["river_tiles"]
    source, mouth = course[0], course[-1]
    # starts on the border flowing inwards: the side behind its flow is the outer wall
    assert m.neighbour(source, (m.flow[source] + 2) % 4) is None
    assert m.neighbour(mouth, m.flow[mouth]) is None  # flows off the board
    flows = [m.flow[c] for c in course]
    bends = sum(a != b for a, b in zip(flows, flows[1:], strict=False))
    assert bends <= o["max_bends"]
    assert all((a - b) % 4 != 2 for a, b in zip(flows, flows[1:], strict=False))
    # there is no flow on dry land
    assert all(m.flow[c] == -1 for c in m.cells() if m.kind[c] != "river")


def check_portals(m: Map, o: dict[str, int]) -> None:
    portal = [c for c in m.cells() if m.kind[c] == "portal"]
    label = Counter(m.portal[c] for c in portal)
    assert label == {
        k: n
        for k, n in [
            ("F", o["fake_portals"]),
            ("A", o["ab_portals"]),
            ("B", o["ab_portals"]),
            ("1", o["abc_portals"]),
            ("2", o["abc_portals"]),
            ("3", o["abc_portals"]),
        ]
        if n
    }
    assert set(m.portal_to) == set(portal)
    for c in portal:
        to = m.portal_to[c]
        assert m.kind[to] == "portal"
        cycle = {"F": ["F"], "A": ["A", "B"], "B": ["B", "A"], "1": ["1", "2", "3"],
                 "2": ["2", "3", "1"], "3": ["3", "1", "2"]}[m.portal[c]]  # fmt: skip
        walk = [c]
        while len(walk) < len(cycle):
            walk.append(m.portal_to[walk[-1]])
        assert [m.portal[w] for w in walk] == cycle
        assert m.portal_to[walk[-1]] == c  # the set closes
    assert all(m.portal[c] == "" for c in m.cells() if m.kind[c] != "portal")


def check_walls(m: Map, o: dict[str, int]) -> None:
    inner = set()
    for c, d in m.walls:
        n = m.neighbour(c, d)
        if n is None:
            continue
        assert (n, (d + 2) % 4) in m.walls, "a wall seen from one side only"
        assert not (m.kind[c] == "river" and m.kind[n] == "river")
        inner.add(frozenset([c, n]))
    assert len(inner) == o["inner_walls"]
    rim = {(c, d) for c in m.cells() for d in range(4) if m.neighbour(c, d) is None}
    assert len(rim) == 2 * (o["width"] + o["height"])
    assert {s for s in m.walls if s in rim} == rim - m.exits  # outer walls, but exits
    # every tile reachable from every other: one component through open sides
    seen, todo = {(0, 0)}, [(0, 0)]
    while todo:
        c = todo.pop()
        for d in range(4):
            n = m.neighbour(c, d)
            if n is not None and (c, d) not in m.walls and n not in seen:
                seen.add(n)
                todo.append(n)
    assert len(seen) == o["width"] * o["height"], "a tile cannot be reached"


def check_exits(m: Map, o: dict[str, int]) -> None:
    assert len(m.exits) == o["exits"]
    for c, d in m.exits:
        assert m.neighbour(c, d) is None
        if m.kind[c] == "river":  # beside the river only at its mouth
            assert m.flow[c] == d


def move_end(m: Map, c: Cell, d: int) -> Cell | None:
    """Where a player on c ends a move towards d (None: the move is refused)."""
    n = m.neighbour(c, d)
    if n is None or (c, d) in m.walls:
        return None
    if m.kind[n] == "portal":
        return m.portal_to[n]
    if m.kind[n] == "river":
        f = m.flow[n]
        pushed = m.neighbour(n, f)
        if pushed is not None and (n, f) not in m.walls:
            return pushed
    return n


def shut_in(m: Map) -> bool:
    """Some place a player can stand on (a safe tile, the end of a move) cannot reach
    some other: the moves are not one strongly connected whole."""
    ends = {c: [e for d in range(4) if (e := move_end(m, c, d)) is not None] for c in m.cells()}
    stand = {c for c in m.cells() if m.kind[c] == "safe"} | {e for es in ends.values() for e in es}
    into: dict[Cell, list[Cell]] = {c: [] for c in m.cells()}
    for c, es in ends.items():
        for e in es:
            into[e].append(c)

    def closure(start: Cell, links: dict[Cell, list[Cell]]) -> set[Cell]:
        seen, todo = {start}, [start]
        while todo:
            for n in links[todo.pop()]:
                if n not in seen:
                    seen.add(n)
                    todo.append(n)
        return seen

    r = next(iter(stand))
    return not stand <= closure(r, ends) & closure(r, into)


def options_of(changes: dict[str, str]) -> dict[str, int]:
    return {**DEFAULTS, **{k: int(v) for k, v in changes.items()}}


def check_default_maps(seeds: range) -> int:
    """Check the default maps of these seeds (in a worker process); how many."""
    rules = rulelang.compile_file(LABYRINTH)
    for seed in seeds:
        players = 3 + seed % 4
        check_map(Map.of(rules.new_game(players, seed=seed)), DEFAULTS, players)
    return len(seeds)


@pytest.mark.long
def test_ten_thousand_default_maps_meet_every_constraint(full: bool) -> None:
    """All 10,000 with --full (.ci/run); else the first 1,500 seeds (every player count)."""
    # two processes: the suite is meant to use two cores, and this test alone would
    # take a minute on one
    maps = sample(full, DEFAULT_MAPS, 1500)
    chunks = [range(start, maps, 2) for start in (0, 1)]
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("fork")) as pool:
        assert sum(pool.map(check_default_maps, chunks)) == maps


@pytest.mark.parametrize("changes, maps", VARIANTS, ids=lambda v: str(v)[:40])
def test_maps_with_other_parameters_meet_every_constraint(
    rules: Ruleset, changes: dict[str, str], maps: int
) -> None:
    for seed in range(maps):
        game = rules.new_game(4, seed=seed, options=changes)
        check_map(Map.of(game), options_of(changes), 4)


def test_without_no_traps_some_maps_would_shut_a_player_in(rules: Ruleset) -> None:
    maps = [Map.of(rules.new_game(3, seed=s, options={"no_traps": "false"})) for s in range(60)]
    assert 5 < sum(shut_in(m) for m in maps) < 40


def test_the_same_seed_gives_the_same_map(rules: Ruleset) -> None:
    assert Map.of(rules.new_game(4, seed=7)) == Map.of(rules.new_game(4, seed=7))
    assert Map.of(rules.new_game(4, seed=7)) != Map.of(rules.new_game(4, seed=8))


def test_drawing_the_map_tells_nobody_anything(rules: Ruleset) -> None:
    for seed in range(20):
        game = rules.new_game(4, seed=seed)
        # the public turn order, then whose turn it is (told to the others)
        order, turn = game.history(None)
        assert order.startswith("Turn order: ")
        first = int(order.removeprefix("Turn order: P").split(",")[0]) - 1
        assert turn == f"P{first + 1}'s turn."
        for seat in range(4):
            assert game.history(seat) == ([order] if seat == first else [order, turn])
