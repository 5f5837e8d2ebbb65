"""Reaction rounds (`react from PLAYER as NAME { ... }` and `pass`), through the public
API: who is asked and in which order, acting several times and after passing, the end
after a full cycle of passes, reactions that are not turns, the log and the views,
hidden choices, clones, records, saves and replays, the step budget, and `none` where a
player is needed (R023)."""

from __future__ import annotations

import builtins
import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

import rulelang
from rulelang import CHANCE, Chose, Game, GameRuntimeError, Reaction, replay
from rulelang.cli.main import run
from rulelang.storage import saves

# Chips are dealt from the top of the pile (its end): with 3 players P1 holds chips 12
# and 11, P2 chips 10 and 9, P3 chips 8 and 7.
CHIPS = """
game "chips"
players 2..5
card chip count 12 { name: text = "chip {index + 1}" }
zone pile: chip
zone hand: chip per player visible to owner
player { played: int = 0 }
global { seen_turns: list(int) = []  seen_current: list(player) = [] }

setup {
  add pieces(chip) to pile
  deal 2 from pile to hand
}

turn {
  react from next_player(current) as who {
    set seen_turns = seen_turns + [turn_number]
    set seen_current = seen_current + [current]
    if len(hand[who]) == 0 { pass }
    choose c in hand[who] allow pass secret prompt "{who.name}: play a chip?"
    if c == none { pass }
    move c from hand[who] to pile
    set who.played += 1
  }
  choose done in ["end turn"] prompt "{current.name}: end the turn"
}

end when turn_number > 6 { win [current] }
"""


@pytest.fixture(scope="module")
def chips() -> rulelang.Ruleset:
    return rulelang.compile_source(CHIPS, "chips.rules")


def play(game: Game, moves: list[str]) -> list[int]:
    """Apply moves; return the seat asked for each."""
    asked = []
    for move in moves:
        decision = game.pending()
        assert decision is not None
        asked.append(decision.player)
        game.apply(move)
    return asked


def test_players_are_asked_in_seat_order_from_the_given_player(chips: rulelang.Ruleset) -> None:
    game = chips.new_game(4)
    first = game.pending()
    assert first is not None
    assert (first.player, first.prompt, first.reaction) == (1, "P2: play a chip?", True)
    assert play(game, ["pass", "pass", "pass", "pass"]) == [1, 2, 3, 0]
    after = game.pending()
    assert after is not None
    assert (after.player, after.name, after.reaction) == (0, "done", False)
    game.apply("end turn")
    second = game.pending()  # the next turn's round starts after P2
    assert second is not None and (second.player, game.turn_number) == (2, 2)


def test_a_player_may_act_several_times_in_a_row(chips: rulelang.Ruleset) -> None:
    game = chips.new_game(3)
    assert play(game, ["chip 10", "chip 9"]) == [1, 1]  # P2 again after each chip
    # P2 is given another opportunity, has no chip left and passes unasked
    assert game.pending().player == 2  # type: ignore[union-attr]
    assert game.history(None)[-1] == "P2 passes"
    assert game.attribute("played", of=1) == 2
    assert game.zone("hand", owner=1) == []


def test_a_player_who_passed_may_act_again_and_the_round_ends_after_a_full_cycle(
    chips: rulelang.Ruleset,
) -> None:
    game = chips.new_game(3)
    # P2 passes, P3 plays: P2 is asked again later and plays; then every one passes
    asked = play(game, ["pass", "chip 8", "pass", "pass", "chip 10", "pass", "pass", "pass"])
    assert asked == [1, 2, 2, 0, 1, 1, 2, 0]
    decision = game.pending()
    assert decision is not None and (decision.player, decision.name) == (0, "done")
    assert [game.attribute("played", of=p) for p in range(3)] == [0, 1, 1]


def test_a_player_with_nothing_to_play_passes_unasked(chips: rulelang.Ruleset) -> None:
    game = chips.new_game(3)
    play(game, ["chip 10", "chip 9", "pass", "pass"])  # P2 empties the hand
    play(game, ["end turn"])
    # turn 2 (P2): P3, P1, P2 (unasked: no chip), P3 ...
    assert play(game, ["pass", "pass"]) == [2, 0]
    decision = game.pending()
    assert decision is not None and (decision.player, decision.name) == (1, "done")
    assert "P2 passes" in game.history(None)


def test_reactions_are_not_turns(chips: rulelang.Ruleset) -> None:
    game = chips.new_game(3)
    play(game, ["chip 10", "pass", "chip 8", "chip 7", "pass", "pass"])
    assert game.turn_number == 1 and game.round_number == 1 and game.turn_player == 0
    assert set(game.attribute("seen_turns")) == {1}
    assert set(game.attribute("seen_current")) == {"P1"}
    view = game.view(None)
    assert (view["turn"], view["current"], view["to_act"]) == (1, "P1", "P1")
    assert "reacting" not in view  # the round is over


def test_the_log_shows_reactions_and_hides_secret_choices(chips: rulelang.Ruleset) -> None:
    game = chips.new_game(3)
    play(game, ["chip 10", "pass"])
    assert game.view(2)["reacting"] == "P3"  # who may react now: public
    play(game, ["pass", "pass"])
    everything = game.history(None)
    assert everything == [
        "reaction round, starting with P2",
        "P2 reacts with chip 10",
        "P2 passes",
        "P3 passes",
        "P1 passes",
        "the reaction round is over",
    ]
    # the chip is secret: its player sees it, the others see that P2 reacted
    assert game.history(1)[1] == "P2 reacts with chip 10"
    assert game.history(0)[1] == "P2 reacts in secret"
    assert game.history(rulelang.PUBLIC)[1] == "P2 reacts in secret"
    assert game.view(0)["log"] == game.history(0)
    kinds = [type(e).__name__ for e in game.events()]
    assert kinds == ["Reaction", "Chose", "Chose", "Reaction", "Chose", "Reaction"] + [
        "Chose",
        "Reaction",
        "Reaction",
    ]
    assert game.events()[0] == Reaction("begin", 1)
    assert game.events()[-1] == Reaction("end", None)
    chose = game.events()[1]
    assert isinstance(chose, Chose) and chose.decision.reaction and chose.who == 1


def test_views_mark_the_reacting_player_and_play_shows_it(
    chips: rulelang.Ruleset,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    rules = tmp_path / "chips.rules"
    rules.write_text(CHIPS, encoding="utf-8")
    # an Enter to take the screen; at the second hand-over, one before it to clear it
    replies: Iterator[str] = iter(["", "3", "", "", "3"])

    def fake_input(prompt: str = "") -> str:
        for reply in replies:
            return reply
        raise KeyboardInterrupt

    monkeypatch.setattr(builtins, "input", fake_input)
    monkeypatch.chdir(tmp_path)
    assert run(["play", str(rules), "-p", "3", "--bots", "none", "--no-store"]) == 130
    out = capsys.readouterr().out
    assert "turn 1, P1 to play; reaction round: P2 may react" in out
    # the prompt names the seat ("{who.name}: play a chip?"): it is not said twice
    assert "\nP2: play a chip?" in out and "\nP3: play a chip?" in out
    assert "P2: P2:" not in out and "P3: P3:" not in out
    save = saves.read(tmp_path / "chips-seed0.save.json")
    assert save.log == [
        {"choose": "c", "by": 1, "option": "pass"},
        {"choose": "c", "by": 2, "option": "pass"},
    ]


def test_a_choice_in_a_reaction_asks_the_reacting_player_even_in_a_proc() -> None:
    rules = rulelang.compile_source(
        """
        players 3..3
        player { answers: list(int) = [] }
        proc answer(p: player) {
          choose n in 1..2 prompt "answer"                 # no 'by': the reacting player
          set p.answers = p.answers + [n]
        }
        turn {
          react from current as who {
            if len(who.answers) >= 1 { pass }
            do answer(who)
            choose ok in ["yes"] by current prompt "turn player"
          }
          choose done in ["end"]
        }
        end when turn_number > 2 { win [current] }
        """,
        "procs.rules",
    )
    game = rules.new_game(3)
    seen = []
    while game.turn_number == 1:
        d = game.pending()
        assert d is not None
        seen.append((d.player, d.prompt, d.reaction))
        game.apply(d.options[0])
    assert seen == [
        (0, "answer", True),
        (0, "turn player", True),  # asked by current, who is the reacting player here
        (1, "answer", True),
        (0, "turn player", False),  # the turn player, not reacting: not marked
        (2, "answer", True),
        (0, "turn player", False),
        (0, "choose done", False),
    ]
    history = game.history(None)
    assert "P2 reacts with 1" in history and "P1 chooses yes" in history


def test_counterclockwise_phases_react_counterclockwise_and_rounds_may_nest() -> None:
    rules = rulelang.compile_source(
        """
        players 2..4
        global { calls: list(text) = [] }
        phase main {
          order counterclockwise
          turn {
            react from current as who {
              if len(calls) >= 2 { pass }
              choose x in ["call", "fold"] prompt "outer"
              if x == "fold" { pass }
              set calls = calls + [who.name]
              react from who as other {
                choose y in ["ok"] allow pass prompt "inner"
                if y == none { pass }
              }
            }
            choose done in ["end"]
          }
        }
        end when turn_number > 2 { win [current] }
        """,
        "nest.rules",
    )
    game = rules.new_game(3)
    asked: list[tuple[int, str]] = []

    def answer(move: str) -> None:
        d = game.pending()
        assert d is not None
        asked.append((d.player, d.prompt))
        game.apply(move)

    answer("fold")  # P1 (outer) folds: next counterclockwise is P3
    answer("call")  # P3 calls: an inner round from P3, counterclockwise
    for move in ["ok", "pass", "pass", "pass"]:
        answer(move)
    answer("call")  # the inner round is over: P3 again in the outer round
    for move in ["pass", "pass", "pass"]:
        answer(move)
    assert asked == [
        (0, "outer"),
        (2, "outer"),
        (2, "inner"),
        (2, "inner"),
        (1, "inner"),
        (0, "inner"),
        (2, "outer"),
        (2, "inner"),
        (1, "inner"),
        (0, "inner"),
    ]
    # two calls made: every outer opportunity now passes unasked
    d = game.pending()
    assert d is not None and (d.player, d.prompt) == (0, "choose done")
    history = game.history(None)
    assert history.count("reaction round, starting with P3") == 2
    assert history.count("the reaction round is over") == 3
    assert game.attribute("calls") == ["P3", "P3"]


def test_chance_inside_a_reaction_and_clones_go_on_alike() -> None:
    rules = rulelang.compile_source(
        """
        players 2..4
        die d6 = 1..6
        player { score: int = 0 }
        turn {
          react from next_player(current) as who {
            choose go in ["roll"] allow pass
            if go == none { pass }
            roll face = d6
            set who.score += face
            if who.score > 6 { pass }
          }
          choose done in ["end"]
        }
        end when turn_number > 3 { win [current] }
        """,
        "dice.rules",
    )
    game = rules.new_game(2, seed=3, auto_chance=False)
    game.apply("roll")
    assert game.current_player() == CHANCE and game.turn_player == 0
    game.apply_chance(5)
    copy = game.clone()
    for g in (game, copy):
        g.apply("roll")
        g.apply_chance(4)  # 9 points: P2 stops with a pass
    assert game.pending() == copy.pending()
    assert game.pending().player == 0  # type: ignore[union-attr]
    assert game.history(None) == copy.history(None)
    assert game.attribute("score", of=1) == 9


def test_records_saves_and_replays_round_trip(chips: rulelang.Ruleset, tmp_path: Path) -> None:
    game = chips.new_game(3, seed=5)
    rng = random.Random(1)
    for _ in range(25):  # stop in the middle of some reaction round
        if game.is_over():
            break
        actions = game.legal_actions()
        game.apply(actions[int(rng.random() * len(actions))])
    record = json.loads(json.dumps(game.record()))
    path = tmp_path / "chips.save.json"
    saves.write(path, saves.Save("chips.rules", "0" * 64, 3, 5, log=record))
    again = replay(chips, 3, 5, saves.read(path).log)
    for viewer in (None, 0, 1, 2):
        assert again.history(viewer) == game.history(viewer)
        assert again.view(viewer) == game.view(viewer)
    assert again.pending() == game.pending()
    assert again.turn_number == game.turn_number
    assert replay(chips, 3, 5, game.events()).history(None) == game.history(None)


def test_random_games_with_reactions_end(chips: rulelang.Ruleset) -> None:
    for n in (2, 5):
        for seed in range(3):
            game = chips.new_game(n, seed=seed)
            game.playout(random.Random(seed))
            assert game.is_over() and game.turn_number == 7
            assert any(line.startswith("reaction round") for line in game.history(None))


def test_a_reaction_round_that_never_asks_nor_passes_is_stopped() -> None:
    rules = rulelang.compile_source(
        """
        players 2..2
        global { n: int = 0 }
        turn {
          react from current as who {
            set n += 1
          }
          choose done in ["end"]
        }
        end when false { }
        """,
        "forever.rules",
    )
    with pytest.raises(GameRuntimeError) as info:
        rules.new_game(2)
    assert info.value.code == "R001"
    assert "this reaction round gave 100000 opportunities" in str(info.value)
    assert info.value.span.line == 5


@pytest.mark.parametrize(
    ("rule", "message"),
    [
        (
            "phase p {\n order clockwise from next_player(nobody)\n turn { choose x in [1] }\n}",
            "the player given to next_player is none",
        ),
        (
            "phase p {\n order clockwise from prev_player(nobody)\n turn { choose x in [1] }\n}",
            "the player given to prev_player is none",
        ),
        (
            "phase p {\n order clockwise from nobody\n turn { choose x in [1] }\n}",
            "the player 'order ... from' gives is none",
        ),
        (
            "turn {\n react from nobody as who { pass }\n choose x in [1] }",
            "the first player of this reaction round is none",
        ),
        ("turn {\n choose x in [1] by nobody }", "the player who chooses is none"),
    ],
)
def test_none_where_a_player_is_needed_is_r023(rule: str, message: str) -> None:
    rules = rulelang.compile_source(
        f"players 2..2\nglobal {{ nobody: player = none }}\n{rule}\nend when false {{ }}",
        "none.rules",
    )
    with pytest.raises(GameRuntimeError) as info:
        rules.new_game(2)
    assert info.value.code == "R023"
    assert message + ", not a player" in str(info.value)
    assert info.value.span.line == 4
