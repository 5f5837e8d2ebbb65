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


def test_a_resume_has_no_branch_of_a_playout() -> None:
    """A resume runs only for a game played through the API, where no playout budget is
    set (Game.playout sets it, and back to 0, around its own runs): the op's `if
    st.budget:` blocks, where a playout takes the next decision itself, are left out
    of the resumes (they were read and tested at every pause)."""
    for name in RULESETS:
        rules = rulelang.compile_file(ROOT / "rulesets" / name)
        for resume in rules.code.resumes:
            if resume is not None:
                assert "budget" not in resume.__code__.co_names, (name, resume.__name__)
    heimlich = rulelang.compile_file(ROOT / "rulesets" / "heimlich.rules")
    assert any("st.budget" in source for source in heimlich.code.source)  # the ops keep it


PADDED = """game "t"
players 2..4
global {
  total: int = 0
  who: player = none
}
player { score: int = 0 }
turn {
  if total > 4 { set who.score += 1 }
PADDING
  choose z in 1..3 log "{current} takes {z}"
  set total += z
}
end when total > 10 { win [current] }
""".replace("PADDING", "\n".join("  set total += 0" for _ in range(45)))  # too long to copy


def counting_resumes(rules: Ruleset, returned: list[int]) -> Ruleset:
    """The same ruleset, each generated resume noting the pc it returns."""
    for pc, resume in enumerate(rules.code.resumes):
        if resume is not None:

            def noted(st: object, spec: object, value: object, resume=resume) -> int:  # type: ignore[no-untyped-def]
                returned.append(resume(st, spec, value))
                return returned[-1]

            rules.code.resumes[pc] = noted
    return rules


def test_an_error_in_an_op_after_the_resume_is_placed_as_run_places_it() -> None:
    """A resume that does not pause returns the op to run on with, which `apply` runs
    itself (`run` written out): an error there is placed on its rule line as before."""
    returned: list[int] = []
    seen = []
    for rules in (
        counting_resumes(rulelang.compile_source(PADDED, "t.rules"), returned),
        engine_resumes(rulelang.compile_source(PADDED, "t.rules")),
    ):
        game = rules.new_game(2, seed=1)
        with pytest.raises(GameRuntimeError) as info:
            for _ in range(20):
                game.apply(game.legal_actions()[-1])
        seen.append((info.value.code, str(info.value.span), game.record()))
    assert returned and all(pc >= 0 for pc in returned)  # it ran on in another op
    assert seen[0] == seen[1]
    assert seen[0][0] == "R030" and ":9:" in seen[0][1]


def test_apply_runs_on_after_a_resume_without_calling_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A quarter of Heimlich's decisions run on after the resume (the next decision is
    in another op): `apply` runs those ops itself, one Python call fewer, and plays
    the same games (test_the_generated_resume_plays_the_engines_games)."""
    from rulelang.runtime import engine

    runs: list[int] = []
    real = engine.run

    def counted(code: object, st: object, pc: int) -> int:
        runs.append(pc)
        return real(code, st, pc)  # type: ignore[arg-type]

    returned: list[int] = []
    rules = counting_resumes(rulelang.compile_file(ROOT / "rulesets" / "heimlich.rules"), returned)
    game = rules.new_game(4, seed=3)
    monkeypatch.setattr(engine, "run", counted)
    rng = random.Random(3)
    while not game.is_over():
        actions = game.legal_actions()
        game.apply(actions[int(rng.random() * len(actions))])
    assert any(pc >= 0 for pc in returned) and game.results()
    assert runs == []
