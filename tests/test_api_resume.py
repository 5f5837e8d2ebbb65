"""A choice resumed through the API runs a generated resume (Codegen.resumes): one
function that records the chosen value, with its log line's values written inline,
and runs on with the op after the choice. It must play the very games the engine's
own resume plays (the op after the choice, called from `Game._resume`), show the same
texts, and place an error where the engine did."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import sample

import rulelang
from rulelang import CHANCE, Game, Ruleset
from rulelang.diagnostics import GameRuntimeError

ROOT = Path(__file__).resolve().parent.parent
RULESETS = sorted(
    str(p.relative_to(ROOT / "rulesets"))
    for p in [*(ROOT / "rulesets").glob("*.rules"), *(ROOT / "rulesets/examples").glob("*.rules")]
)


def engine_resumes(rules: Ruleset) -> Ruleset:
    """The same ruleset with no generated resume: every choice resumes in the engine."""
    rules.code.resumes = [None] * len(rules.code.resumes)
    return rules


def played(game: Game, seed: int, decisions: int) -> list[object]:
    """Decisions taken through the API: the actions offered at each, then the record,
    every viewer's history, the results and the measures."""
    rng = random.Random(seed)
    seen: list[object] = []
    for _ in range(decisions):
        if game.is_over():
            break
        if game.current_player() == CHANCE:
            game.resolve_chance()
            continue
        actions = game.legal_actions()
        seen.append([tuple(a) for a in actions])
        game.apply(actions[int(rng.random() * len(actions))])
    viewers = (None, *range(game.players))
    return [*seen, game.record(), [game.history(v) for v in viewers], game.results()]


@pytest.mark.parametrize("name", RULESETS)
def test_the_generated_resume_plays_the_engines_games(name: str, full: bool) -> None:
    path = ROOT / "rulesets" / name
    rules, plain = rulelang.compile_file(path), engine_resumes(rulelang.compile_file(path))
    assert any(r is not None for r in rules.code.resumes)
    players = rules.min_players
    for seed in range(1, sample(full, 6, 1) + 1):
        decisions = sample(full, 3000, 300)
        mine = played(rules.new_game(players, seed), seed, decisions)
        assert mine == played(plain.new_game(players, seed), seed, decisions)


def test_a_choice_with_a_hidden_line_is_resumed_by_the_engine() -> None:
    """Its record holds the line others read as well (helpers.choice_record): no
    generated resume for it, one for every other choice."""
    rules = rulelang.compile_file(ROOT / "rulesets" / "saboteur.rules")
    hidden = [pc for pc, s in rules.code.choices.items() if s.narrate_hidden is not None]
    assert hidden and all(rules.code.resumes[pc] is None for pc in hidden)
    others = [pc for pc in rules.code.choices if pc not in hidden]
    assert others and all(rules.code.resumes[pc] is not None for pc in others)


NONE_IN_LINE = """game "t"
players 2..4
global {
  total: int = 0
  word: text = none
}
turn {
  choose z in 1..3 log "{current} takes {z} and {word}"
  set total += z
}
end when total > 10 { win [current] }
"""


@pytest.mark.parametrize("generated", [True, False])
def test_none_in_a_log_line_is_a_rule_error_on_the_choice(generated: bool) -> None:
    """A text hole of a choice's log line is shown when the value is chosen, so `none`
    there fails then: R030 on the `choose` line, by either resume (it escaped as a bare
    TypeError before)."""
    rules = rulelang.compile_source(NONE_IN_LINE, "t.rules")
    if not generated:
        engine_resumes(rules)
    game = rules.new_game(2, seed=1)
    with pytest.raises(GameRuntimeError) as info:
        game.apply(game.legal_actions()[0])
    assert info.value.code == "R030"
    assert info.value.span is not None and info.value.span.line == 8


NONE_AFTER = """game "t"
players 2..4
global {
  total: int = 0
  who: player = none
}
turn {
  choose z in 1..3 log "{current} takes {z}"
  set total += z
  set who.score += z
}
player { score: int = 0 }
end when total > 10 { win [current] }
"""


def test_an_error_after_the_choice_is_placed_as_the_engine_placed_it() -> None:
    seen = []
    for rules in (
        rulelang.compile_source(NONE_AFTER, "t.rules"),
        engine_resumes(rulelang.compile_source(NONE_AFTER, "t.rules")),
    ):
        game = rules.new_game(2, seed=1)
        with pytest.raises(GameRuntimeError) as info:
            game.apply(game.legal_actions()[1])
        seen.append((info.value.code, str(info.value.span), game.record()))
    assert seen[0] == seen[1]
    assert seen[0][0] == "R030" and ":10:" in seen[0][1]
