"""What `reveal ... to` showed each seat is kept per seat and brought up to date from
the records added since (state.known_places): it must always be the plain answer,
worked out from the whole history, for the game and for clones that went their own
ways (they share the kept answers of their table)."""

from __future__ import annotations

import random
from typing import Any

import rulelang
from rulelang.runtime.state import State, known_places
from tests.interop_support import ROOT


def plain_known(st: State, seat: int) -> set[tuple[Any, Any]]:
    """known_places as it was first written: the whole history read every time."""
    void: set[object] = set()
    out: set[tuple[Any, Any]] = set()
    shown = st.shown
    while shown is not None:
        audience, place, item, shown = shown
        if audience is None:
            void.add(place if item is None else (place, item))
        elif seat in audience and place not in void and (place, item) not in void:
            if place[0] == "zone":
                still = item in st.zones[place[1]]
            else:
                cell = st.layers[place[1]].get(place[2])
                still = cell is not None and cell[0] == item
            if still:
                out.add((place, item))
    return out


def play(game: Any, rng: random.Random, moves: int) -> None:
    for _ in range(moves):
        if game.is_over():
            return
        actions = game.legal_actions()
        game.apply(actions[int(rng.random() * len(actions))])


def test_the_kept_answer_is_the_plain_one_for_a_game_and_its_clones() -> None:
    rules = rulelang.compile_file(ROOT / "rulesets" / "saboteur.rules")
    rng = random.Random(5)
    checked = 0
    for seed in range(3):
        game = rules.new_game(5, seed=seed)
        others = []
        for step in range(60):
            play(game, rng, 5)
            if step % 10 == 3:
                others.append(game.clone())  # goes its own way below
            for other in others:
                play(other, rng, 1)
            for g in (game, *others):
                for seat in range(5):
                    assert known_places(g.state, seat) == plain_known(g.state, seat)
                    checked += bool(plain_known(g.state, seat))
    assert checked > 50  # maps were played: something was shown to someone
