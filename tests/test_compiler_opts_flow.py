"""More of the code generator's optimisations (issue 21), those that cut the work
around a rule's own: a pausing proc called last in its caller pushes no return
address (a tail call), a grid's neighbour read inline.

As in test_compiler_opts.py, each is shown to fire on the generated source, and the
optimised code to play the very games the plain code plays (`exprgen.OPTIMISED` off).
"""

from __future__ import annotations

import random

from test_compiler_opts import compiled, said, source_of

from rulelang import Ruleset

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
