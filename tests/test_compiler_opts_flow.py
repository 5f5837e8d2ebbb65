"""More of the code generator's optimisations (issue 21), those that cut the work
around a rule's own: a pausing proc called last in its caller pushes no return
address (a tail call), a grid's neighbour read inline.

As in test_compiler_opts.py, each is shown to fire on the generated source, and the
optimised code to play the very games the plain code plays (`exprgen.OPTIMISED` off).
"""

from __future__ import annotations

import random

import pytest
from compile_support import both_of_source
from test_compiler_opts import compiled, said, source_of

from rulelang import Ruleset, Said
from rulelang.diagnostics import GameRuntimeError

CALLS = """
proc ask {
  choose n in 1..3
  say "{current} took {n}"
}
proc twice {
  do ask
  do ask
}
proc last_of_all {
  say "begin"
  do twice
}
turn {
  do last_of_all
  do ask
}
end when turn_number == 6 { }
"""


def record(rules: Ruleset, seed: int) -> object:
    g = rules.new_game(2, seed=seed)
    g.playout(random.Random(seed))
    return g.record(), g.results()


def test_a_pausing_proc_called_last_pushes_no_return() -> None:
    rules = compiled(CALLS)
    plain = compiled(CALLS, optimised=False)
    pushes = sum(src.count("st.stack.append(") for src in rules.code.source)
    plain_pushes = sum(src.count("st.stack.append(") for src in plain.code.source)
    # `do twice` ends last_of_all and the second `do ask` ends twice: no push for them
    assert pushes < plain_pushes
    for seed in range(1, 6):
        assert record(rules, seed) == record(plain, seed)


def test_a_game_paused_in_a_tail_call_goes_on_as_the_plain_code() -> None:
    """Paused in the proc called last, then resumed move by move: the same decisions
    are asked, and the game ends after as many of them."""
    games = [compiled(CALLS, o).new_game(2, seed=3) for o in (True, False)]
    asked = [[], []]
    for i, g in enumerate(games):
        while not g.is_over():
            options = g.legal_actions()
            asked[i].append([str(a) for a in options])
            g.apply(options[len(asked[i]) % len(options)])
    assert asked[0] == asked[1] and len(asked[0]) == 15  # 3 a turn, 5 turns
    assert games[0].record() == games[1].record()


NEIGHBOURS = """
board b = grid(0, 2, 0, 1) {
  state mark: int = 0
}
def around(c: node(b), d: int) = neighbour(b, c, d)
def up(c: node(b)) = neighbour(b, c, 0)
turn {
  for d in 0..7 {
    say "{[around(c, d) for c in nodes(b)]}"
  }
  say "{[up(c) for c in nodes(b)]}"
  choose d in [0, 9]
  say "{around(nodes(b)[0], d)}"
}
end when turn_number == 2 { }
"""


def test_a_grid_neighbour_is_read_inline() -> None:
    rules = compiled(NEIGHBOURS)
    plain = compiled(NEIGHBOURS, optimised=False)
    assert ".next_cell[_a" in source_of(rules, "_d_around")
    assert "_h.neighbour" in source_of(rules, "_d_around")  # diagonals: the helper
    up = source_of(rules, "_d_up")
    assert ".next_cell[_a" in up and "_h.neighbour" not in up
    assert "_h.neighbour" in source_of(plain, "_d_up")
    assert said(rules) == said(plain)
    assert "none" in said(rules)[0]  # off the grid
    # a number that is no direction is still R045, as in the plain code
    errors = []
    for r in (rules, plain):
        g = r.new_game(2, seed=1)
        with pytest.raises(GameRuntimeError) as info:
            g.apply("9")
        errors.append((info.value.code, info.value.span, str(info.value)))
    assert errors[0] == errors[1] and errors[0][0] == "R045"


TEXTS = r"""
const words = ["it's", "say \"hi\"", "{{braces}}"]
player { score: int = 3 }
def key(x: int, y: int) = "{x},{y}"
def quoted(w: text) = "<{w}>"
turn {
  say "{current} has {current.score} {words[0]} {key(current.score, -2)}"
  say "{{not a value}} \\ \"q\" {quoted(words[1])} {quoted("it's")} {words[2]}"
  say "{[current, none]} {key(1, 2) == "1,2"} {none} {current.score - 5}"
}
end when true { }
"""


def test_a_text_with_values_is_one_f_string() -> None:
    rules = compiled(TEXTS)
    plain = compiled(TEXTS, optimised=False)
    assert source_of(rules, "_d_key").split("return ")[1].startswith('f"{')
    assert "str(" in source_of(plain, "_d_key")
    assert said(rules) == said(plain)
    assert said(rules) == [
        "P1 has 3 it's 3,-2",
        '{not a value} \\ "q" <say "hi"> <it\'s> {braces}',
        "[P1, none] yes none -2",
    ]


NONE_TEXT = """
player { label: text }
turn {
  say "hello {current.label}!"
}
end when true { }
"""


def test_a_text_none_in_an_f_string_is_still_r030() -> None:
    errors = []
    for optimised in (True, False):
        with pytest.raises(GameRuntimeError) as info:
            said(compiled(NONE_TEXT, optimised))
        errors.append((info.value.code, info.value.span, str(info.value)))
    assert any('f"hello' in src for src in compiled(NONE_TEXT).code.source)
    assert errors[0] == errors[1] and errors[0][0] == "R030"


PRIVATE = """
turn {
  say "{current} alone" to current
  say "to all"
  say "to both of {current}" to players
  choose n in 1..2
}
end when turn_number == 3 { }
"""


def test_a_private_message_is_one_record_of_both_lists() -> None:
    """A message said to some is kept once: the log's record is the private list's
    too (a record kept fewer per message); the views show what they showed."""
    g = compiled(PRIVATE).new_game(2, seed=1)
    g.apply("1")
    link = g.state.log
    while link[0] != "said" or link[1] is None:
        link = link[3]
    assert link is g.state.private
    assert g.view(0)["private"] == ["P1 alone", "to both of P1", "to both of P2"]
    assert g.view(1)["private"] == ["to both of P1", "P2 alone", "to both of P2"]
    assert g.view(None)["private_to"][:2] == [["P1"], ["P1", "P2"]]


def test_a_message_to_one_player_shares_its_audience() -> None:
    rules = compiled(PRIVATE)
    assert any("_alone[" in src for src in rules.code.source)
    g = rules.new_game(2, seed=1)
    g.apply("1")
    g.apply("2")
    alone = [link[1] for link in _records(g.state.private) if len(link[1]) == 1]
    assert sorted(a[0] for a in alone) == [0, 0, 1]  # turns 1 and 3: P1; 2: P2
    for seat in (0, 1):  # the same tuple for each message to a seat
        assert len({id(a) for a in alone if a[0] == seat}) == 1
    plain = compiled(PRIVATE, optimised=False).new_game(2, seed=1)
    plain.apply("1")
    plain.apply("2")
    assert plain.record() == g.record() and plain.view(0) == g.view(0)


def _records(private: object) -> list[tuple[object, ...]]:
    out = []
    link = private
    while isinstance(link, tuple):
        out.append(link)
        link = link[4]
    return out


FIRST = """
player { pair: list(int) = [4, 5] }
def head(p: player) = current.pair[0] + p.pair[1]
def past(p: player) = p.pair[2]
proc grow(p: player) { set p.pair = p.pair + [1] }  # its length may change (lengths.py)
turn {
  choose n in 1..2
  say "{head(current)}"
  if n == 2 { say "{past(current)}" }
}
end when turn_number == 3 { }
"""


def test_a_read_at_a_fixed_index_names_its_list_once() -> None:
    rules, plain = compiled(FIRST), compiled(FIRST, optimised=False)
    head = source_of(rules, "_d_head")
    assert "len(_t" in head and "len(st.cols[0][_a0])" not in head
    assert "len(st.cols[0][_a0])" in source_of(plain, "_d_head")  # read twice
    errors = []
    for r in (rules, plain):
        g = r.new_game(2, seed=1)
        g.apply("1")
        with pytest.raises(GameRuntimeError) as info:
            g.apply("2")
        errors.append((said_texts(g), info.value.code, info.value.span, str(info.value)))
    assert errors[0] == errors[1] and errors[0][1] == "R003" and errors[0][0] == ["9", "9"]


def said_texts(g: object) -> list[str]:
    from rulelang import Said

    return [e.text for e in g.events() if isinstance(e, Said)]  # type: ignore[attr-defined]


OTHERS = """
players 2..4
global { nobody: player = none }
def others(q: player) = [p for p in players where p != q]
def flipped(q: player) = [p for p in players where q != p]
def odd() = [p for p in players where p != players[(seat(p) + 1) % player_count]]
turn {
  say "{others(current)} {flipped(current)} {others(nobody)} {odd()}" to others(current)
  choose n in 1..2
}
end when turn_number == 4 { }
"""


def test_the_players_but_one_are_kept_per_table() -> None:
    rules, plain = both_of_source(f'game "t"\n{OTHERS}')
    assert "_others[st.cfg.n][_a" in source_of(rules, "_d_others")
    assert "_others[" in source_of(rules, "_d_flipped")
    assert "_others[" not in source_of(rules, "_d_odd")  # q depends on p
    assert "_others[" not in source_of(plain, "_d_others")
    for players in (2, 3, 4):
        games = [r.new_game(players, seed=players) for r in (rules, plain)]
        for g in games:
            g.playout(random.Random(1))
        assert games[0].record() == games[1].record()
        first = [e for e in games[0].events() if isinstance(e, Said)][0]
        assert first.audience == tuple(range(1, players))
    g = rules.new_game(3, seed=1)
    assert [e.text for e in g.events() if isinstance(e, Said)][0] == (
        "[P2, P3] [P2, P3] [P1, P2, P3] [P1, P2, P3]"
    )


LOOPED = """
players 2..4
player {
  score: int = 0
  pair: list(int) = [1]
}
def near(q: player) {
  let close = [p for p in players where p != q and p.score == q.score]
  let scores = [p.score * 10 for p in players]
  return close + scores
}
turn {
  choose n in 1..3
  set current.score = n
  let seen = [p for p in players where p.score > 1]
  say "{near(current)} {seen}"
  if n == 3 {
    let bad = [p.pair[1] for p in players]
    say "{bad}"
  }
}
end when turn_number == 6 { }
"""


def test_a_list_of_the_players_is_made_by_a_loop() -> None:
    rules, plain = both_of_source(f'game "t"\n{LOOPED}')
    near = source_of(rules, "_d_near")
    assert "in cfg.players:" in near and ".append(" in near and "tuple([" not in near
    assert "tuple([" in source_of(plain, "_d_near")
    for seed in range(1, 6):
        outcome = []
        for r in (rules, plain):
            g = r.new_game(3, seed=seed)
            rng = random.Random(seed)
            try:
                for _ in range(3):
                    g.apply(rng.choice(["1", "2"]))
                g.apply("3")  # `p.pair[1]` of a list of one: R003 in the loop
                error = None
            except GameRuntimeError as err:
                error = (err.code, err.span, str(err))
            outcome.append((g.record(), error))
        assert outcome[0] == outcome[1]
        assert outcome[0][1] is not None and outcome[0][1][0] == "R003"


EMPTY = """
player { met: list(player) = [] }
def named(p: player) = ["hi {q}" for q in p.met where q != p] + ["end"]
turn {
  choose n in 1..2
  say "{named(current)}"
  if n == 2 { set current.met = current.met + [current] + players }
}
end when turn_number == 5 { }
"""


def test_a_comprehension_of_an_empty_list_is_not_run() -> None:
    rules, plain = compiled(EMPTY), compiled(EMPTY, optimised=False)
    named = source_of(rules, "_d_named")
    assert "if st.cols[0][_a0] else ())" in named
    assert "else ())" not in source_of(plain, "_d_named")
    games = [r.new_game(2, seed=1) for r in (rules, plain)]
    for g in games:
        for choice in ["1", "2", "2", "1"]:
            g.apply(choice)
    assert games[0].record() == games[1].record()
    texts = [e.text for e in games[0].events() if isinstance(e, Said)]
    assert texts[0] == "[end]" and texts[-1] == "[hi P1, end]"
