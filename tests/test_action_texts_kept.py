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
