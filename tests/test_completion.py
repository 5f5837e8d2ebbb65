"""Options that can be completed (`choose ... complete`): a choice offers an option only
if, once taken, the rules can run on to the end of the block the choice is in such that
every later choice has an option that itself completes, and every roll and pick
completes for each of its outcomes. Through the public API: nested procs, loops of
choices, other players' choices, passes, chance, reaction rounds, the search budget
(R025), refused moves and why_not, and random playouts that never stop with R002."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulelang
from rulelang import GameRuntimeError, Limits, Ruleset, UsageError
from rulelang.cli.main import run
from rulelang.runtime.code import ChoiceSpec

# Take 1 to 3; then a second helping, in a proc, must keep the sum at most 3: taking 3
# leaves no second helping (R002 without `complete`).
TRAP = """
game "trap"
players 2..2
global { score: int = 0 }

proc second(x: int) {
  choose y in 1..3
    require x + y <= 3 else "too much"
  set score += x + y
}

turn {
  choose x in 1..3 COMPLETE prompt "How many?"
  do second(x)
}

end when score >= 10 { win [current] }
"""


def rules(text: str, complete: str = "complete", **limits: int) -> Ruleset:
    source = text.replace("COMPLETE", complete)
    return rulelang.compile_source(source, limits=Limits(**limits))


def texts(g: rulelang.Game) -> list[str]:
    return [a.text for a in g.legal_actions()]


def test_an_option_whose_effect_cannot_complete_is_not_offered() -> None:
    g = rules(TRAP).new_game(2, 1)
    assert texts(g) == ["1", "2"]
    assert [d.text for d in g.pending().options] == ["1", "2"]  # type: ignore[union-attr]
    assert list(g.legal_values()) == [1, 2]
    g.apply("2")
    assert texts(g) == ["1"]  # the proc's choice: only what completes was offered


def test_without_complete_the_trap_option_is_offered_and_stops_the_game() -> None:
    g = rules(TRAP, complete="").new_game(2, 1)
    assert texts(g) == ["1", "2", "3"]
    with pytest.raises(GameRuntimeError) as err:
        g.apply("3")
    assert err.value.code == "R002"


def test_apply_refuses_an_option_that_cannot_complete_and_why_not_says_so() -> None:
    g = rules(TRAP).new_game(2, 1)
    before = g.state.fingerprint()
    with pytest.raises(UsageError, match="'3' is not a legal move here: '3' has no way"):
        g.apply("3")
    with pytest.raises(UsageError, match="not one of the options"):
        g.choose(3)
    assert g.state.fingerprint() == before  # the search ran on clones only
    assert "no way to complete its effect" in g.why_not("3").reason
    assert g.why_not("4").reason.startswith("'4' is not an option for 'x'")


def test_complete_else_gives_the_reason_why_not_answers() -> None:
    text = TRAP.replace("COMPLETE prompt", 'complete else "{x} leaves no second helping" prompt')
    g = rulelang.compile_source(text).new_game(2, 1)
    assert g.why_not("3").reason == "3 leaves no second helping"
    assert texts(g) == ["1", "2"]


def test_random_playouts_never_stop_with_r002_with_complete_and_do_without() -> None:
    with_complete, without = rules(TRAP), rules(TRAP, complete="")
    stopped = 0
    for seed in range(30):
        g = with_complete.new_game(2, seed)
        g.playout(random.Random(seed))
        assert g.is_over()
        try:
            rules_game = without.new_game(2, seed)
            rules_game.playout(random.Random(seed))
        except GameRuntimeError as err:
            assert err.code == "R002"
            stopped += 1
    assert stopped > 0


def test_complete_plays_exactly_like_the_condition_written_by_hand() -> None:
    """The search draws nothing from the game's generator: a playout with `complete`
    is the playout with the completion written as a requirement."""
    by_hand = rulelang.compile_source(
        TRAP.replace("COMPLETE", 'require x <= 2 else "no second helping"')
    )
    for seed in range(10):
        a, b = rules(TRAP).new_game(2, seed), by_hand.new_game(2, seed)
        a.playout(random.Random(seed))
        b.playout(random.Random(seed))
        assert [str(e) for e in a.history()] == [str(e) for e in b.history()]
        assert a.results() == b.results()


LOOP = """
game "loop"
players 2..2
global { score: int = 0 }

turn {
  choose n in 1..4 complete prompt "How many rounds?"
  let left = 5
  repeat n {
    choose k in 1..2 require k <= left else "not enough left"
    set left -= 2
    set score += k
  }
}

end when score >= 20 { win [current] }
"""


def test_a_loop_of_choices_must_complete_every_round() -> None:
    # rounds need 1, 3 and 5 left: a fourth round would find -1
    g = rulelang.compile_source(LOOP).new_game(2, 1)
    assert texts(g) == ["1", "2", "3"]
    g.apply("3")
    for _ in range(3):
        assert g.legal_actions()
        g.apply(texts(g)[-1])
    assert g.current_player() == 1  # the turn ended and the next player decides


OTHERS = """
game "others"
players 2..3
global { score: int = 0 }

turn {
  choose x in 1..3 complete prompt "Bid"
  choose y in 1..3 by next_player(current) require y > x else "bid higher"
  set score += 1
}

end when score >= 4 { win [current] }
"""


def test_a_later_choice_by_another_player_counts() -> None:
    g = rulelang.compile_source(OTHERS).new_game(3, 1)
    assert g.current_player() == 0
    assert texts(g) == ["1", "2"]
    g.apply("2")
    assert g.current_player() == 1  # the next player answers, as the search assumed
    assert texts(g) == ["3"]


PASSING = """
game "passing"
players 2..2
global { score: int = 0 }

turn {
  choose x in 1..3 complete
  choose y in 1..3 require x + y <= 3 else "too much" allow pass
  set score += x
}

end when score >= 10 { win [current] }
"""


def test_a_choice_that_allows_a_pass_completes_by_passing() -> None:
    g = rulelang.compile_source(PASSING).new_game(2, 1)
    assert texts(g) == ["1", "2", "3"]
    g.apply("3")
    assert texts(g) == ["pass"]


CHANCE = """
game "chance"
players 2..2
die coin = 1..2
global { score: int = 0 }

turn {
  choose x in 1..3 complete
  roll d = coin
  choose y in 1..3 require x + d + y <= 5 else "too much"
  set score += x + d + y
}

end when score >= 20 { win [current] }
"""


def test_every_outcome_of_a_roll_in_the_effect_must_complete() -> None:
    # x = 3 completes if the coin shows 1, not if it shows 2: not offered
    ruleset = rulelang.compile_source(CHANCE)
    g = ruleset.new_game(2, 1)
    assert texts(g) == ["1", "2"]
    scripted = ruleset.new_game(2, 1, auto_chance=False)
    assert texts(scripted) == ["1", "2"]
    scripted.apply("2")
    assert scripted.is_chance_node()  # the search's rolls left the game's chance alone
    scripted.apply_chance(2)
    assert texts(scripted) == ["1"]
    for seed in range(10):
        game = ruleset.new_game(2, seed)
        game.playout(random.Random(seed))
        assert game.is_over()


REACT = """
game "react"
players 2..2
global { score: int = 0 }

turn {
  react from current as who {
    choose a in 1..3 complete
    if a == 3 {
      pass
    }
    choose b in 1..2 require a + b <= 2 else "too much"
    set score += 1
    pass
  }
  set score += 1
}

end when score >= 10 { win [current] }
"""


def test_pass_leaves_the_effect_of_a_choice_in_a_reaction_round() -> None:
    g = rulelang.compile_source(REACT).new_game(2, 1)
    assert texts(g) == ["1", "3"]  # 2 leaves no b; 3 passes, which ends the effect


DEEP = """
game "deep"
players 2..2
global { score: int = 0 }

turn {
  choose x in 1..3 complete
  repeat 3 {
    choose y in 1..5
  }
  choose z in 1..3 require z > 3 + x * 0 else "never"
  set score += 1
}

end when score >= 10 { win [current] }
"""


def test_a_search_past_the_completion_limit_is_r025() -> None:
    with pytest.raises(GameRuntimeError) as err:
        rules(DEEP, completion=50).new_game(2, 1)
    assert err.value.code == "R025"
    assert "--max-completion" in str(err.value)
    with pytest.raises(GameRuntimeError) as err:  # within the limit: nothing completes
        rules(DEEP, completion=1000).new_game(2, 1)
    assert err.value.code == "R002"


LONG = """
game "long"
players 2..2
global { score: int = 0 }

turn {
  choose x in 1..2 complete
  repeat 2000 {
    choose y in 1..2 require y >= x else "too small"
  }
  choose z in 1..2 require z > x else "too small"
  set score += 1
}

end when score >= 10 { win [current] }
"""


def test_a_long_chain_of_choices_in_the_effect_is_searched_without_recursion() -> None:
    g = rulelang.compile_source(LONG).new_game(2, 1)
    assert texts(g) == ["1"]  # 2 leaves no z, after 2000 choices
    g.apply("1")
    assert texts(g) == ["1", "2"]


def test_the_completion_limit_is_a_limit_of_the_ruleset() -> None:
    assert Limits().completion == 10_000
    with pytest.raises(UsageError):
        Limits(completion=0)


def test_a_clone_has_the_same_options_and_plays_on_alone() -> None:
    g = rules(TRAP).new_game(2, 3)
    c = g.clone()
    assert texts(c) == texts(g) == ["1", "2"]
    c.apply("1")
    assert texts(g) == ["1", "2"]


ROOT = Path(__file__).resolve().parent.parent
SABOTEUR = ROOT / "rulesets" / "saboteur.rules"
CAN_PLAY = """      require action == discard or can_play(c)
        else "{c} has nowhere to go now; you can discard it"
"""
COMPLETE = """      complete else "{c} has nowhere to go now; you can discard it"
"""


def test_saboteur_with_complete_instead_of_can_play_plays_the_same_games() -> None:
    """`play_turn` of the shipped Saboteur restates the conditions of each card's effect
    (`can_play`); with `complete` instead, every option offered, and so every random
    game, is the same. (The shipped file keeps `can_play`: the search makes Saboteur's
    playouts about 2.4 times slower; see docs/performance.md.)"""
    text = SABOTEUR.read_text(encoding="utf-8")
    assert CAN_PLAY in text
    variant = rulelang.compile_source(text.replace(CAN_PLAY, COMPLETE), str(SABOTEUR))
    shipped = rulelang.compile_file(SABOTEUR)
    refused = 0
    for seed in range(3):
        a, b = shipped.new_game(5, seed), variant.new_game(5, seed)
        rng_a, rng_b = random.Random(seed), random.Random(seed)
        while not a.is_over():
            assert texts(a) == texts(b)
            i = int(rng_a.random() * len(a.legal_actions()))
            assert int(rng_b.random() * len(b.legal_actions())) == i
            if texts(a) == ["discard"]:  # play refused: the same reason
                assert a.why_not("play").reason == b.why_not("play").reason
                refused += 1
            action = texts(a)[i]
            a.apply(action)
            b.apply(action)
        assert a.results() == b.results()
    assert refused > 0


TOPSECRET = ROOT / "rulesets" / "heimlich-topsecret.rules"
PLAYABLE = """      require playable(plays) else "this card has no legal effect now"
"""
TOPSECRET_COMPLETE = """      complete else "this card has no legal effect now"
"""


def test_heimlich_top_secret_with_complete_instead_of_playable_plays_the_same_games() -> None:
    """Likewise for Heimlich's top-secret cards, in a reaction round: `playable` restates
    each card's first choice; `complete` finds the same cards."""
    text = TOPSECRET.read_text(encoding="utf-8")
    assert PLAYABLE in text
    variant = rulelang.compile_source(text.replace(PLAYABLE, TOPSECRET_COMPLETE), str(TOPSECRET))
    shipped = rulelang.compile_file(TOPSECRET)
    decisions = refused = 0
    for seed in range(4):
        a, b = shipped.new_game(4, seed), variant.new_game(4, seed)
        rng = random.Random(seed)
        while not a.is_over():
            assert texts(a) == texts(b)
            spec = b.state.pending
            if isinstance(spec, ChoiceSpec) and spec.name == "plays":
                # a card in hand that is not offered (the pass is an option too)
                refused += len(tuple(spec.domain(b.state))) + 1 > len(texts(b))
            action = texts(a)[int(rng.random() * len(texts(a)))]
            a.apply(action)
            b.apply(action)
            decisions += 1
        assert a.results() == b.results()
    assert decisions > 100
    assert refused > 0


def test_the_command_line_sets_the_completion_limit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "deep.rules"
    path.write_text(DEEP, encoding="utf-8")
    simulate = ["simulate", str(path), "-p", "2", "-n", "1"]
    assert run([*simulate, "--max-completion", "50"]) == 70
    text = capsys.readouterr()
    assert "R025" in text.out + text.err
    assert "--max-completion" in text.out + text.err
    assert run([*simulate, "--max-completion", "0"]) != 0
    text = capsys.readouterr()
    assert "--max-completion must be a whole number of at least 1" in text.out + text.err


def test_a_replay_and_an_edit_see_the_same_options() -> None:
    ruleset = rules(TRAP)
    g = ruleset.new_game(2, 5)
    for _ in range(5):
        g.apply(texts(g)[-1])
    again = rulelang.replay(ruleset, 2, 5, g.events())
    assert again.state.fingerprint() == g.state.fingerprint()
    assert texts(again) == texts(g)
    # an edit recomputes the options of the pending choice, with their completion
    capped = TRAP.replace("score: int = 0", "score: int = 0  cap: int = 3").replace(
        "x + y <= 3", "x + y <= cap"
    )
    edited = rules(capped).new_game(2, 1)
    assert texts(edited) == ["1", "2"]
    edited.edit().set("cap", 4)
    assert texts(edited) == ["1", "2", "3"]
    edited.edit().set("cap", 2)
    assert texts(edited) == ["1"]


def test_a_declared_bot_ranks_only_the_options_that_complete() -> None:
    greedy = (
        TRAP
        + """
bot greedy {
  when choosing x {
    best x
  }
}
"""
    )
    g = rules(greedy).new_game(2, 1)
    assert g.bot_choice("greedy").text == "2"  # 3 would be best, but is no option
    g.apply(g.bot_choice("greedy"))
    assert texts(g) == ["1"]
