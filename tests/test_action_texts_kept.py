"""Option texts are made once per game, decision and value (runtime/engine.py,
`_each_kept`): a hand that changed by one card makes one new text, and every text is
still the one the option's formatter gives."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import rulelang

ROOT = Path(__file__).resolve().parent.parent


def test_each_option_text_is_made_once_and_stays_right() -> None:
    rules = rulelang.compile_file(ROOT / "rulesets" / "saboteur.rules")
    made: list[tuple[int, Any]] = []
    plain = {}
    for spec in rules.code.choices.values():
        plain[spec.pc] = spec.show

        def counted(st: Any, v: Any, pc: int = spec.pc) -> str:
            made.append((pc, v))
            return str(plain[pc](st, v))

        object.__setattr__(spec, "show", counted)  # frozen: for this test only
    try:
        game = rules.new_game(4, 3)
        rng = random.Random(3)
        decisions = 0
        while not game.is_over():
            if game.current_player() == rulelang.CHANCE:
                game.resolve_chance()
                continue
            st, spec = game.state, game.state.pending
            actions = game.legal_actions()
            assert [a.text for a in actions] == [
                "pass" if v is None else plain[spec.pc](st, v) for v in st.options
            ]
            game.apply(actions[int(rng.random() * len(actions))])
            decisions += 1
    finally:
        for spec in rules.code.choices.values():
            object.__setattr__(spec, "show", plain[spec.pc])
    assert decisions > 300
    assert len(made) == len(set(made))  # each (decision, value) once: ~100 of ~1400 options


PICK = """
game "t"
players 2..2
turn {
  choose p in players prompt "Whom?"
  choose n in 1..3 prompt "How many?"
}
end when turn_number > 4 { draw players }
"""


def test_the_games_of_a_table_share_the_texts_of_the_same_names() -> None:
    """A second game with the same players' names makes no text again; one with
    other names makes its own (a player's option reads as its name)."""
    rules = rulelang.compile_source(PICK, "t.rules")
    made: list[Any] = []
    spec = next(s for s in rules.code.choices.values() if s.name == "p")
    plain = spec.show

    def counted(st: Any, v: Any) -> str:
        made.append(v)
        return str(plain(st, v))

    object.__setattr__(spec, "show", counted)  # frozen: for this test only
    try:
        texts = []
        for names in (None, None, ("Ann", "Bob"), None):
            game = rules.new_game(2, seed=1, names=names)
            before = len(made)
            while not game.is_over():
                texts.append([a.text for a in game.legal_actions()])
                game.apply(game.legal_actions()[-1])
            texts.append(len(made) - before)
    finally:
        object.__setattr__(spec, "show", plain)
    first, again, named, third = (texts[i * 9 : i * 9 + 9] for i in range(4))
    assert first[0] == ["P1", "P2"] and first[-1] == 2  # two players' texts made
    assert again[-1] == 0 and third[-1] == 0  # the same names: none made again
    assert named[0] == ["Ann", "Bob"] and named[-1] == 2


GROWING = """
game "t"
players 2..2
turn {
  choose n in 1..turn_number prompt "How many?"
}
end when turn_number > 8 { draw players }
"""


def test_a_table_keeps_a_bounded_number_of_option_sets(monkeypatch: Any) -> None:
    """The actions are kept per decision by options (a dict per decision): the count of
    option sets kept still bounds them, and a game past the bound starts afresh."""
    from rulelang.runtime import state

    rules = rulelang.compile_source(GROWING, "t.rules")

    def played(seed: int) -> Any:
        game = rules.new_game(2, seed=seed)
        while not game.is_over():
            game.apply(game.legal_actions()[-1])
        return game.state.cfg.actions

    monkeypatch.setattr(state, "KEPT_ACTIONS", 20)
    first = played(1)
    assert played(2) is first  # 8 option sets (1..1 to 1..8): under the bound, shared
    monkeypatch.setattr(state, "KEPT_ACTIONS", 5)
    assert played(3) is not first  # 8 > 5: the next game keeps them anew
