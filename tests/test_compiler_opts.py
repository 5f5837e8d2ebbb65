"""The code generator's optimisations (issue 21): list reads proven in range without a
check, a def's lists grown in place (runtime/growing.py), `/` and `%` by a number and
a grid's sides without a helper, a constant range's rounds counted as a constant, the
state's tables read once per def, an item's zone kept so that moving it finds it at
once (helpers.Places); `any`/`all` over a few constants written out, a seat's zone
read without a check, a cell tested against the kept set of `reached`, the top item
moved without a search.

Each is shown to fire on the generated source, and the optimised code to play the
very games the plain code plays (`exprgen.OPTIMISED` off), for every shipped game.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from compile_support import both_of_file, compiled, with_loops, with_optimised

import rulelang
from rulelang import CHANCE, Game, Ruleset, Said
from rulelang.diagnostics import GameRuntimeError
from rulelang.runtime import exprgen

ROOT = Path(__file__).resolve().parent.parent


def source_of(rules: Ruleset, name: str) -> str:
    """The generated Python of a def (`_d_NAME`) or proc (`_p_NAME`)."""
    fn = rules.code.ops[0].__globals__[name]
    return with_loops(fn)  # and its loops (loops.py: `any`/`all`, list comprehensions)


def said(rules: Ruleset) -> list[str]:
    g = rules.new_game(2, seed=1)
    return [e.text for e in g.events() if isinstance(e, Said)]


def both(src: str) -> tuple[Ruleset, Ruleset]:
    return compiled(src), compiled(src, optimised=False)


GROWN = """
const names = ["a", "b", "c", "d"]
def squares(n: int) {
  let xs: list(int) = []
  let i = 0
  while i < n {
    set xs = xs + [i * i]
    set i += 1
  }
  return xs
}
def spread(n: int) {
  let out: list(int) = []
  for k in 0..n - 1 {
    set out = out + [k, k + 10]
  }
  let kept = out
  set out = out + [99]
  return [len(kept), len(out), out[2]] + kept
}
def distinct(xs: list(int)) {
  let seen: list(int) = []
  let n = 0
  for x in xs {
    if not (x in seen) {
      set seen = seen + [x]
      set n += 1
    }
  }
  return n
}
def spelled(ds: list(int)) {
  let out = ""
  for d in 0..3 {
    set out = out + names[d]
  }
  return out + " " + text([names[d % 4] for d in ds])
}
def doubled(n: int) {
  let xs = [1, 2]
  for x in xs {
    set xs = xs + [x * 10]
  }
  let seen: list(int) = []
  let again = 0
  for k in 0..n {
    if k == 2 {
      set seen = []
    }
    if k % 2 in seen {
      set again += 1
    }
    set seen = seen + [k % 2]
  }
  let sizes: list(int) = []
  for k in 0..2 {
    set sizes = sizes + [len(sizes), sum(v for v in sizes)]
  }
  return xs + [again] + sizes + [len([y for y in xs where y in xs])]
}
turn {
  say "{doubled(4)}"
  say "{squares(5)} {squares(0)} {squares(5) == [0, 1, 4, 9, 16]}"
  say "{spread(3)}"
  say "{distinct([3, 1, 3, 2, 1])}"
  say "{spelled([5, 6, 7])}"
}
end when true { }
"""


def test_a_list_grown_by_a_def_is_appended_to_and_reads_as_before() -> None:
    rules, plain = both(GROWN)
    assert said(rules) == said(plain)
    assert said(rules) == [
        "[1, 2, 10, 20, 1, 0, 0, 2, 0, 4, 2, 4]",
        "[0, 1, 4, 9, 16] [] yes",
        "[6, 7, 1, 0, 10, 1, 11, 2, 12]",
        "3",
        "abcd [b, c, d]",
    ]
    assert "cols = st.cols" not in source_of(rules, "_d_squares")
    assert "st.cfg" not in source_of(rules, "_d_spelled")  # names: a global (consts)
    exprgen.LITERAL_CONSTS = False
    try:
        spelled = source_of(compiled(GROWN), "_d_spelled")
    finally:
        exprgen.LITERAL_CONSTS = True
    assert "cfg = st.cfg" in spelled and "st.cfg.consts" not in spelled  # twice: once
    # a loop that grows the list it runs over runs over the list as it was; a list
    # only grown and tested with `in` is a set, emptied anew
    doubled = source_of(rules, "_d_doubled")
    assert "= tuple(_a" in doubled and "= set()" in doubled
    squares = source_of(rules, "_d_squares")
    # (the square of a computed number is bounded: _h.multiply, R046)
    assert ".append(_h.multiply(" in squares and "return tuple(" in squares
    assert ".append(" not in source_of(plain, "_d_squares")
    # two items at once; a copy taken (`let kept = out`) is a tuple, not the list
    spread = source_of(rules, "_d_spread")
    assert ".extend((" in spread and "= tuple(_a" in spread


def test_a_list_only_grown_and_tested_is_a_set() -> None:
    rules, _plain = both(GROWN)
    src = source_of(rules, "_d_distinct")
    assert "= set()" in src and ".add(" in src


def test_reads_proven_in_range_have_no_check() -> None:
    rules, plain = both(GROWN)
    # `names[d]` for d in 0..3, names a const of 4: no check; nor `names[d % 4]`
    # (Python's `% 4` is 0..3: runtime/ranges.py), and `% 4` is plain
    src = source_of(rules, "_d_spelled")
    assert re.search(r"_c[0-9]+\[_v", src) and src.count("_h.index(") == 0  # (a global)
    assert "_h.modulo" not in src and "% 4)" in src
    assert "_h.modulo" in source_of(plain, "_d_spelled")
    # a constant range's rounds are counted against the budget as a constant
    assert "st.steps += 4" in src and "_seq" not in src


ROUNDS = """
def total() {
  let s = 0
  for d in 0..3 {
    set s += d
  }
  return s
}
turn {
  say "{total()}"
}
end when true { }
"""


@pytest.mark.parametrize("steps", [3, 4])
def test_a_constant_range_still_counts_its_rounds(steps: int) -> None:
    """4 rounds: past a budget of 3 steps (R001, at the loop), within one of 4."""
    seen = []
    text = f'game "t"\nplayers 2..2\n{ROUNDS}'
    limits = rulelang.Limits(steps=steps)
    for optimised in (True, False):
        rules = with_optimised(
            optimised, lambda: rulelang.compile_source(text, "t.rules", limits=limits)
        )
        try:
            seen.append(said(rules))
        except GameRuntimeError as err:
            seen.append([err.code, str(err.span)])
    assert seen[0] == seen[1]
    assert seen[0][0] == ("R001" if steps == 3 else "6")
    assert "st.steps += 4" in source_of(compiled(ROUNDS), "_d_total")


BOARD = """
board b = grid(0, 2, 0, 2) {
  state mark: int = 0
  edge fence: bool = false
}
def marked(c: node(b)) = b.mark[c] + 1
def fenced(c: node(b), d: int) = b.fence[c, d]
turn {
  say "{marked(nodes(b)[4])} {fenced(nodes(b)[0], 1)}"
  say "{marked(neighbour(b, nodes(b)[0], 2))}"
}
end when true { }
"""


def test_a_board_column_read_by_its_node_or_side_has_no_check() -> None:
    rules = compiled(BOARD)
    marked = source_of(rules, "_d_marked")
    assert "len(" not in marked and "_h.index" not in marked
    fenced = source_of(rules, "_d_fenced")
    assert "_h.index" not in fenced and ".canon[4 * _a" in fenced  # the side inline
    assert "cols = st.cols" not in marked  # read once: no prelude for one use
    # `none` as the node is still R030, at the same place as the plain code's
    with pytest.raises(GameRuntimeError) as fast:
        said(rules)
    with pytest.raises(GameRuntimeError) as slow:
        said(compiled(BOARD, optimised=False))
    assert fast.value.code == slow.value.code == "R030"
    assert fast.value.span == slow.value.span


OUTSIDE = """
const names = ["a", "b", "c", "d"]
def past(n: int) {
  let out = ""
  for d in 0..4 {
    set out = out + names[d]
  }
  return out
}
def moved(n: int) {
  let out = ""
  for d in 0..3 {
    set d = d + n
    set out = out + names[d]
  }
  return out
}
def shrunk(xs: list(int)) {
  let ys = xs
  let total = 0
  for i in 0..len(ys) - 1 {
    set total += ys[i]
    set ys = [1]
  }
  return total
}
turn {
  choose which in 1..3
  if which == 1 { say past(0) } elif which == 2 { say moved(1) } else { say "{shrunk([5, 6])}" }
}
end when false { }
"""


@pytest.mark.parametrize("which", ["1", "2", "3"])
def test_reads_not_proven_in_range_keep_their_check(which: str) -> None:
    """A range past the list's end, a loop variable the body sets, a list the loop
    changes: each read is checked, and fails as the plain code does."""
    errors = []
    for optimised in (True, False):
        g = compiled(OUTSIDE, optimised).new_game(2, seed=1)
        with pytest.raises(GameRuntimeError) as info:
            g.apply(which)
        errors.append((info.value.code, info.value.span, str(info.value)))
    assert errors[0] == errors[1]


# ---------------------------------------------------------------- the shipped games
def plays(rules: Ruleset, players: int, seed: int, bots: bool) -> Iterator[object]:
    """What a game played to its end shows: its record, results and measures."""
    game: Game = rules.new_game(players, seed)
    if bots:
        taken = 0
        while not game.is_over() and taken < 20_000:
            if game.current_player() == CHANCE:
                game.resolve_chance()
                continue
            game.apply(game.bot_choice())
            taken += 1
    else:  # a random game may be long: the first 4000 decisions show enough
        game.playout(random.Random(seed), max_decisions=4000)
    yield game.record()
    yield game.results()
    yield game.measures()


GAMES = [  # rule file, players, seeds, played by the declared bots
    ("labyrinth.rules", 4, 3, False),
    ("labyrinth.rules", 4, 3, True),
    ("saboteur.rules", 5, 3, False),
    ("saboteur.rules", 3, 2, False),
    ("saboteur.rules", 10, 2, False),
    ("saboteur-stoneseekers.rules", 4, 2, False),
    ("heimlich.rules", 4, 6, False),
    ("examples/hanabi.rules", 3, 4, False),
    ("examples/connect-four.rules", 2, 4, False),
    ("examples/liars-dice.rules", 3, 4, False),
    ("examples/summit.rules", 3, 4, False),
    ("examples/tricks.rules", 4, 2, False),
]


@pytest.mark.parametrize(("file", "players", "seeds", "bots"), GAMES)
def test_the_optimised_code_plays_the_same_games(
    file: str, players: int, seeds: int, bots: bool, full: bool
) -> None:
    path = ROOT / "rulesets" / file
    if not path.exists():
        pytest.fail(f"{file} is missing")
    rules, plain = both_of_file(path)
    for seed in range(1, (seeds * 10 if full else seeds) + 1):
        assert list(plays(rules, players, seed, bots)) == list(plays(plain, players, seed, bots))


# ---------------------------------------------------------------- detach
ZONES = """
card card count 4 {
  n: int = 0
}
zone deck: card visible to all
zone hand: card per player visible to all
zone pile: card visible to all
setup {
  add pieces(card) to deck
  for p in players {
    move last(deck) from deck to hand[p]
  }
}
turn {
  choose c in hand[current]
  add c to pile
}
end when len(pile) == 2 { }
"""


def test_detach_looks_first_where_the_item_was_put() -> None:
    """`move` and `add` note where each item went (helpers.Places.hint); `add` takes
    the item from there without searching the other zones."""
    from rulelang.runtime import helpers, hints

    rules = compiled(ZONES)
    places = [v for k, v in rules.code.ops[0].__globals__.items() if k.startswith("_z")]
    assert len(places) == 1 and isinstance(places[0], helpers.Places)
    hint = places[0].hint
    g = rules.new_game(2, seed=1)
    deck, hand = rules.layout.zone_base["deck"], rules.layout.zone_base["hand"]
    # the last two: to the hands (hints.known: the list of hints as a dict)
    assert hints.known(hint) == {0: deck, 1: deck, 3: hand, 2: hand + 1}
    zones = g.state.zones
    # an item in two zones (which the rules never make): the hinted one is taken
    zones[deck] += (3,)
    helpers.detach(g.state, 3, places[0])
    assert 3 in zones[deck] and 3 not in zones[hand]


def test_a_stale_hint_costs_a_search_not_a_wrong_answer() -> None:
    from rulelang.runtime import helpers, hints

    rules = compiled(ZONES)
    g = rules.new_game(2, seed=1)
    (places,) = [v for v in rules.code.ops[0].__globals__.values() if isinstance(v, helpers.Places)]
    deck, hand = rules.layout.zone_base["deck"], rules.layout.zone_base["hand"]
    places.hint[3] = deck  # wrong: card 3 is in the first hand
    helpers.detach(g.state, 3, places)
    assert 3 not in g.state.zones[hand] and hints.of(places.hint, 3) == hand
    places.hint[2] = -1  # a board the kind has not
    helpers.detach(g.state, 2, places)
    assert 2 not in g.state.zones[hand + 1]


def test_games_are_played_with_fewer_collections(monkeypatch: pytest.MonkeyPatch) -> None:
    """`simulate`'s chunks run the collector less often, and put it back as it was."""
    import gc

    from rulelang.limits import Limits
    from rulelang.simulation import worker

    before = gc.get_threshold()
    seen = []
    real = worker._play_chunk

    def spy(args: worker.Chunk) -> list[worker.Record]:
        seen.append(gc.get_threshold()[0])
        return real(args)

    monkeypatch.setattr(worker, "_play_chunk", spy)
    path = str(ROOT / "rulesets" / "examples" / "tictactoe.rules")
    records = worker.play_chunk(worker.Chunk(path, 2, (1, 2), {}, Limits(), ("random",) * 2))
    assert len(records) == 2 and seen == [max(before[0], worker.FEWER_COLLECTIONS)]
    assert gc.get_threshold() == before


# ---------------------------------------------------------------- any/all written out
FEW = """
const xs = [5, 6, 7]
def early() = any(xs[k] > 5 for k in [0, 1, 3])
def kept() = all(xs[k] > 4 for k in [-1, 0, 2] where k >= 0)
def neither() = any(xs[k] > 6 for k in [0, 1] where k > 0)
def far() = any(xs[k] > 9 for k in [0, 3])
turn {
  say "{early()} {kept()} {neither()}"
  say "{far()}"
}
end when true { }
"""


def test_any_and_all_over_a_few_constants_are_written_out() -> None:
    """One test per number joined by `or`/`and`, in the list's order, stopping where
    any()/all() stop: `early` never reads xs[3]; `far` does, and fails as before."""
    rules, plain = both(FEW)
    for name in ("_d_early", "_d_kept", "_d_neither", "_d_far"):
        assert "any(" not in source_of(rules, name) and "all(" not in source_of(rules, name)
    assert "any(" in source_of(plain, "_d_early")
    with pytest.raises(GameRuntimeError) as fast:
        said(rules)
    with pytest.raises(GameRuntimeError) as slow:
        said(plain)
    assert fast.value.code == slow.value.code == "R003"  # list index out of range
    assert fast.value.span == slow.value.span
    first = compiled(FEW.replace('  say "{far()}"\n', ""))
    assert said(first) == ["yes yes no"]


SEATS = """
zone hand: card per player visible to all
card card count 4 {
  n: int = 0
}
def sizes() = [len(hand[p]) for p in players]
def owner(q: player) = len(hand[q])
turn {
  say "{sizes()} {owner(current)}"
}
end when true { }
"""


def test_a_zone_of_a_seat_in_a_loop_over_players_needs_no_check() -> None:
    """A loop over `players` binds a seat, never `none`: its zone is read without the
    helper that turns `none` into R-error; a parameter keeps it."""
    rules, plain = both(SEATS)
    assert "zone_slot" not in source_of(rules, "_d_sizes")
    assert "zone_slot" in source_of(plain, "_d_sizes")
    assert "zone_slot" in source_of(rules, "_d_owner")
    assert said(rules) == said(plain) == ["[0, 0] 0"]


def test_a_cell_tested_against_reached_cells_reads_the_kept_set() -> None:
    """`x in reached(b, s)` tests the network's kept set of cells: the sorted list
    `reached` gives elsewhere is not made for it (the plain code makes it)."""
    path = ROOT / "rulesets" / "saboteur.rules"
    rules, plain = both_of_file(path)
    faces = source_of(rules, "_d_faces_network")
    assert re.search(r" in _t\d+\.network\(st, ", faces) and "sorted(" not in faces
    assert "sorted(" in source_of(plain, "_d_faces_network")


def test_moving_the_top_item_needs_no_search(monkeypatch: pytest.MonkeyPatch) -> None:
    from rulelang.runtime import helpers

    searched = []  # the zones copied into a list, to search and take an item from

    def counted(zone: tuple[int, ...]) -> list[int]:
        searched.append(zone)
        return [*zone]

    rules = compiled(ZONES)
    g = rules.new_game(2, seed=1)
    st = g.state
    monkeypatch.setattr(helpers, "list", counted, raising=False)  # found before the builtin
    deck, pile = rules.layout.zone_base["deck"], rules.layout.zone_base["pile"]
    st.zones[deck] = (0, 1, 2)
    helpers.move(st, 2, deck, pile, None, "deck")  # type: ignore[arg-type]
    assert st.zones[deck] == (0, 1) and st.zones[pile][-1] == 2 and searched == []
    helpers.move(st, 0, deck, pile, None, "deck")  # type: ignore[arg-type]
    assert st.zones[deck] == (1,) and st.zones[pile][-2:] == (2, 0) and searched == [(0, 1)]
    with pytest.raises(GameRuntimeError):
        helpers.move(st, 3, deck, pile, None, "deck")  # type: ignore[arg-type]


def test_adding_a_whole_zone_empties_it_and_notes_each_item_left() -> None:
    """`add [c for c in deck] to pile` takes every item (the zone becomes empty) and,
    once they were revealed to someone, notes each item leaving, bottom first, as
    `left` (an item nobody was shown leaves no note: tests/test_shown_records.py)."""
    from rulelang.runtime import helpers, hints

    rules = compiled(ZONES)
    g = rules.new_game(2, seed=1)
    st = g.state
    (places,) = [v for v in rules.code.ops[0].__globals__.values() if isinstance(v, helpers.Places)]
    deck, pile = rules.layout.zone_base["deck"], rules.layout.zone_base["pile"]
    st.zones[deck], st.zones[pile] = (0, 1), ()
    st.shown, st.shown_items = ("start",), frozenset({0, 1})
    helpers.add(st, [0, 1], pile, places)
    assert st.zones[deck] == () and st.zones[pile] == (0, 1)
    assert st.shown == (None, ("zone", deck), 1, (None, ("zone", deck), 0, ("start",)))
    helpers.add(st, (1,), deck, places)  # one item: as it was
    assert st.zones[deck] == (1,) and st.zones[pile] == (0,)
    assert hints.of(places.hint, 1) == deck
