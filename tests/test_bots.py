"""Computer players declared as rules: `bot NAME [for COND] { when choosing VAR { ... } }`.

What a bot chooses (priority lists, best values, the random rest and its ties), that it
reads only what its player may see (compile errors E247; decisions unchanged when only
hidden information changes), its own step budget (R031), its generator (derived from
the seed, apart from the dice), and the command line's `--bots`.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import rulelang
from rulelang import Game, GameRuntimeError, RuleError, UsageError
from rulelang.cli.main import run

# A card game with secrets: hands seen by their owner, a pile seen by nobody, a role
# seen by its player only, a mark on each card seen by nobody.
CARDS = """game "Bots at cards"
players 2..4
import dice
enum role { hunter, keeper }
card chip count 16 {
  value: int = index % 4
  mark: int = index % 3 visible to none
}
zone pile: chip visible to none
zone hand: chip per player visible to owner
zone table: chip
player {
  score: int = 0
  role: role visible to owner
  lucky: int = 0 visible to none
}
global { rolls: list(int) = [] }

def worth(p: player, c: chip) = c.value + (if p.role == hunter then 10 else 0)

setup {
  add pieces(chip) to pile
  shuffle pile
  deal 3 from pile to hand
  for p in players { set p.role = if seat(p) % 2 == 0 then role.hunter else role.keeper }
}

turn {
  roll r = d6
  set rolls = rolls + [r]
  choose n in 1..5 require n != 3 else "not three"
  set current.score += n
  choose c in hand[current] allow pass prompt "Play a chip?"
  if c != none {
    move c from hand[current] to table
    if len(pile) > 0 { move last(pile) from pile to hand[current] }
  }
  choose k in 1..4
}

end when any(p.score >= 30 for p in players) {
  win [p for p in players where p.score >= 30]
}
"""

BOTS = """
bot careful {
  when choosing n { prefer n == 3, n == 4, n == 2 }
  when choosing c { prefer c != none  best worth(me, c) }
}
"""


def compile_text(text: str, tmp_path: Path, name: str = "game.rules") -> rulelang.Ruleset:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return rulelang.compile_file(path)


def errors_of(text: str, tmp_path: Path) -> list[rulelang.Diagnostic]:
    with pytest.raises(RuleError) as info:
        compile_text(text, tmp_path)
    return [d for d in info.value.diagnostics if d.severity == "error"]


def at(game: Game, name: str) -> None:
    """Play on (first legal action) until the current player must choose `name`."""
    for _ in range(200):
        decision = game.pending()
        assert decision is not None
        if decision.name == name:
            return
        game.apply(game.legal_actions()[0])
    raise AssertionError(f"never asked for {name}")


# ------------------------------------------------------------------ what a bot chooses
def test_a_priority_list_takes_the_first_condition_some_option_meets(tmp_path: Path) -> None:
    rules = compile_text(CARDS + BOTS, tmp_path)
    game = rules.new_game(2, seed=1)
    at(game, "n")
    # 3 is refused by the rules, so `n == 3` meets no option: the next condition wins
    assert [a.text for a in game.legal_actions()] == ["1", "2", "4", "5"]
    for _ in range(5):
        assert game.bot_choice("careful").text == "4"
    game.edit().set("score", 0, of=0)
    assert game.bot_choice().text == "4"  # the declared bot is the default


def test_when_no_condition_is_met_every_option_is_left_to_chance(tmp_path: Path) -> None:
    text = CARDS + "bot picky { when choosing n { prefer n == 9, n > 5 } }"
    rules = compile_text(text, tmp_path)
    seen = set()
    for seed in range(30):
        game = rules.new_game(2, seed=seed)
        at(game, "n")
        seen.add(game.bot_choice("picky").text)
    assert seen == {"1", "2", "4", "5"}


def test_best_keeps_the_highest_value_and_least_the_lowest(tmp_path: Path) -> None:
    text = (
        CARDS
        + """
bot high { when choosing c { prefer c != none  best worth(me, c) } }
bot low { when choosing c { prefer c != none  least c.value } }
"""
    )
    rules = compile_text(text, tmp_path)
    game = rules.new_game(2, seed=4)
    at(game, "c")
    hand = [v for v in game.legal_values() if v is not None]
    values = {i: game.attribute("value", i, kind="chip") for i in hand}
    high = game.bot_choice("high").value
    low = game.bot_choice("low").value
    assert values[high] == max(values.values())
    assert values[low] == min(values.values())


def test_rules_narrow_in_order_and_a_choice_without_rules_is_random(tmp_path: Path) -> None:
    text = (
        CARDS
        + """
bot order { when choosing n { prefer n > 1  least n  } }
"""
    )
    rules = compile_text(text, tmp_path)
    game = rules.new_game(2, seed=2)
    at(game, "n")
    assert game.bot_choice("order").text == "2"  # of 2, 4, 5 (more than 1), the least
    game.apply(game.bot_choice("order"))
    at(game, "c")
    game.apply(game.legal_actions()[0])
    picks = set()
    for seed in range(40):  # `k` has no rules: uniformly random, by the seed
        g = rules.new_game(2, seed=seed)
        at(g, "k")
        picks.add(g.bot_choice("order").text)
    assert picks == {"1", "2", "3", "4"}


def test_ties_are_broken_by_the_seed_reproducibly(tmp_path: Path) -> None:
    text = CARDS + "bot even { when choosing k { prefer k % 2 == 0 } }"
    rules = compile_text(text, tmp_path)

    def choices(seed: int) -> list[str]:
        game = rules.new_game(2, seed=seed)
        out = []
        for _ in range(12):
            at(game, "k")
            action = game.bot_choice("even")
            out.append(action.text)
            game.apply(action)
        return out

    first = choices(7)
    assert set(first) <= {"2", "4"}
    assert choices(7) == first  # the same seed, the same ties
    assert len({tuple(choices(s)) for s in range(6)}) > 1  # other seeds, other ties
    # a clone continues with the same generator
    game = rules.new_game(2, seed=3)
    at(game, "k")
    game.bot_choice("even")
    twin = game.clone()
    assert [game.bot_choice("even").text for _ in range(8)] == [
        twin.bot_choice("even").text for _ in range(8)
    ]


def test_a_bot_never_changes_the_dice(tmp_path: Path) -> None:
    rules = compile_text(CARDS + BOTS, tmp_path)
    by_bot = rules.new_game(2, seed=5)
    by_first = rules.new_game(2, seed=5)
    for _ in range(20):  # the same moves, but one game also asks its bot each time
        by_bot.bot_choice("careful")
        by_bot.bot_choice("random")
        action = by_first.legal_actions()[0]
        by_bot.apply(action.text)
        by_first.apply(action)
    assert by_bot.view(None)["globals"]["rolls"] == by_first.view(None)["globals"]["rolls"]


def test_for_conditions_choose_the_bot_of_each_seat(tmp_path: Path) -> None:
    text = (
        CARDS
        + """
bot hunting for me.role == hunter { when choosing n { prefer n == 5 } }
bot keeping for me.role == keeper { when choosing n { prefer n == 1 } }
"""
    )
    rules = compile_text(text, tmp_path)
    game = rules.new_game(2, seed=1)
    assert list(rules.bots) == ["hunting", "keeping"]
    assert game.bot_for(0) == "hunting" and game.bot_for(1) == "keeping"
    at(game, "n")
    assert game.current_player() == 0 and game.bot_choice().text == "5"
    game.apply("5")
    game.apply(game.legal_actions()[0])
    game.apply(game.legal_actions()[0])
    at(game, "n")
    assert game.current_player() == 1 and game.bot_choice().text == "1"
    game.edit().set("role", "hunter", of=1)
    assert game.bot_for(1) == "hunting" and game.bot_choice().text == "5"
    plain = compile_text(CARDS, tmp_path, "plain.rules").new_game(2, seed=1)
    assert plain.bot_for(0) == "random"


def test_asking_an_unknown_bot_or_outside_a_choice_is_refused(tmp_path: Path) -> None:
    rules = compile_text(CARDS + BOTS, tmp_path)
    game = rules.new_game(2, seed=1)
    with pytest.raises(UsageError, match="unknown bot 'carefull'; did you mean 'careful'"):
        game.bot_choice("carefull")
    chance = rules.new_game(2, seed=1, auto_chance=False)
    with pytest.raises(UsageError, match="not waiting for a player's decision"):
        chance.bot_choice()


# ------------------------------------------------------------------ hidden information
def test_a_bots_choice_does_not_change_with_what_it_cannot_see(tmp_path: Path) -> None:
    """Re-deal the other player's hand, the pile and the hidden marks and luck: the
    bot of seat 0 decides the same, tie after tie, as in the untouched game."""
    text = (
        CARDS
        + """
bot sly {
  when choosing c {
    prefer c != none
    best worth(me, c) + len(hand[next_player(me)]) + len(pile) + me.score
  }
  when choosing n { prefer n + len(table) > 4 }
  when choosing k { best count(x for x in hand[me] where x.value >= k) }
}
"""
    )
    rules = compile_text(text, tmp_path)
    compared = 0
    for seed in range(6):
        game = rules.new_game(2, seed=seed)
        while not game.is_over() and game.turn_number < 12:
            if game.current_player() == 0:
                twin = hidden_changed(game, seed)
                if game.items("pile") and game.items("hand", 1):
                    assert twin.items("hand", 1) != game.items("hand", 1)
                assert twin.items("hand", 0) == game.items("hand", 0)
                for _ in range(3):  # tie after tie, from the seat's generator
                    assert game.bot_choice("sly") == twin.bot_choice("sly")
                compared += 1
            game.apply(game.bot_choice("sly"))
    assert compared > 50


def hidden_changed(game: Game, seed: int) -> Game:
    """A copy of the game where what seat 0 may not see is different: the other hand
    swapped with cards of the pile, other marks on every card, other luck."""
    twin = game.clone()
    ed = twin.edit()
    others = list(twin.items("hand", 1))
    pile = list(twin.items("pile"))
    for a, b in zip(others, pile, strict=False):
        ed.move(b, "hand", 1)
        ed.move(a, "pile")
    for i in range(16):
        ed.set("mark", (i * 7 + seed + 1) % 5, of=i, kind="chip")
    ed.set("lucky", 99, of=0)
    ed.set("lucky", 42, of=1)
    return twin


TILES = """game "Bots and tiles"
players 2..2
card slab count 6 {
  name: text = "slab {index}"
  edges: list(bool) = [true, true, true, true]
  weight: int = index
}
board yard = grid(0, 2, 0, 0) tiles slab
zone box: slab
setup {
  add pieces(slab) to box
  place first(box) on yard at cell(yard, 0, 0) secret
  place last(box) on yard at cell(yard, 1, 0)
}
turn { choose spot in nodes(yard) }
end when turn_number > 3 { win players }
"""


def test_face_up_tells_only_what_lies_face_up(tmp_path: Path) -> None:
    text = (
        TILES
        + """
bot looker {
  when choosing spot {
    prefer face_up(yard, spot) != none and face_up(yard, spot).weight > 2
    prefer secret_at(yard, spot)
  }
}
"""
    )
    rules = compile_text(text, tmp_path)
    game = rules.new_game(2, seed=1)
    assert game.bot_choice("looker").text == "1,0"  # the face-up slab 5
    twin = game.clone()
    twin.edit().clear("yard", "0,0")  # another slab, still face down
    twin.edit().place("yard", "0,0", "slab 3", face_down=True)
    twin.edit().clear("yard", "1,0")
    twin.edit().place("yard", "1,0", "slab 1")
    assert twin.bot_choice("looker").text == "0,0"  # slab 1 weighs too little: face down next
    other = game.clone()
    other.edit().clear("yard", "0,0")
    other.edit().place("yard", "0,0", "slab 4", face_down=True)  # a heavier one, hidden
    assert other.bot_choice("looker").text == game.bot_choice("looker").text


HIDDEN_HEAD = (
    CARDS
    + "card slab count 2 { edges: list(bool) = [true, true, true, true]  weight: int = 0 }\n"
    + "board yard = grid(0, 2, 0, 0) tiles slab\n"
)


@pytest.mark.parametrize(
    ("rule", "shown"),
    [
        (
            "prefer n == players[1].score and n == next_player(me).lucky",
            "reads 'next_player(...).lucky', which its player may not see: 'lucky' of a "
            "player is visible to none",
        ),
        (
            "prefer n > 0 and current.role == hunter",
            "reads 'current.role', which its player may not see: 'role' is visible to its "
            "owner only, and 'current' is not known to be the bot's own player (write me.ATTR)",
        ),
        (
            "prefer n in [x.value for x in pile]",
            "reads zone 'pile', which its player may not see: zone 'pile' is visible to "
            "nobody (len(pile) is allowed)",
        ),
        (
            "prefer len(hand[me]) > 0 and n in [x.value for x in hand[next_player(me)]]",
            "reads zone 'hand[next_player(...)]', which its player may not see: 'hand' is "
            "visible to its owner only, and 'next_player(...)' is not known to be the bot's "
            "own player (write hand[me])",
        ),
        (
            "best first(hand[me]).mark",
            "reads 'first(...).mark', which its player may not see: 'mark' of chip is "
            "visible to none",
        ),
        (
            "best tile(yard, 0).weight",
            "reads 'tile(...)', which its player may not see: it tells what lies on a cell "
            "even when the tile is face down (use face_up(board, cell): the tile if it lies "
            "face up, else none)",
        ),
    ],
)
def test_reading_what_the_player_may_not_see_is_e247(rule: str, shown: str, tmp_path: Path) -> None:
    text = HIDDEN_HEAD + f"bot nosy {{ when choosing n {{ {rule} }} }}\n"
    [d] = errors_of(text, tmp_path)
    assert d.code == "E247"
    assert d.message == f"bot 'nosy' {shown}"


def test_a_hidden_read_through_a_def_is_found_and_placed_in_the_def(tmp_path: Path) -> None:
    text = (
        HIDDEN_HEAD
        + """
def role_of(p: player) = p.role
def my_worth(p: player, c: chip) = worth(p, c) + len(hand[p])
def their_worth(c: chip) = worth(next_player(current), c)
bot nosy {
  when choosing c { best my_worth(me, c) }
  when choosing n { prefer role_of(me) == hunter, role_of(next_player(me)) == keeper }
  when choosing k { best their_worth(first(hand[me])) }
  when choosing spot { best 1 }
}
"""
    )
    found = errors_of(text, tmp_path)
    codes = [(d.code, d.span.line) for d in found]
    lines = (HIDDEN_HEAD + text[len(HIDDEN_HEAD) :]).splitlines()
    role_line = next(i for i, x in enumerate(lines, 1) if x.startswith("def role_of"))
    worth_line = next(i for i, x in enumerate(lines, 1) if x.startswith("def worth"))
    assert ("E101", len(lines) - 1) in codes  # no choice is named spot
    hidden = [d for d in found if d.code == "E247"]
    assert {d.span.line for d in hidden} == {role_line, worth_line}
    assert all("(in def " in d.message for d in hidden)
    # my_worth(me, c) reads own role and hand: allowed; role_of(me) too
    assert not any("my_worth" in d.message for d in hidden)
    assert sum("role_of" in d.message for d in hidden) == 1


def test_the_for_condition_and_block_defs_are_checked_too(tmp_path: Path) -> None:
    text = (
        HIDDEN_HEAD
        + """
def pile_high() {
  let best = 0
  for x in pile { set best = max(best, x.value) }
  return best
}
bot nosy for next_player(me).role == hunter {
  when choosing n { least n + pile_high() }
}
"""
    )
    found = errors_of(text, tmp_path)
    assert [d.code for d in found] == ["E247", "E247"]
    assert "reads 'next_player(...).role'" in found[1].message
    assert "reads zone 'pile' (in def pile_high" in found[0].message


def test_a_parameter_a_def_changes_is_no_longer_the_bots_player(tmp_path: Path) -> None:
    text = (
        HIDDEN_HEAD
        + """
def neighbours_role(p: player) {
  set p = next_player(p)
  return p.role
}
def own_role(p: player) {
  let r = p.role
  return r
}
bot nosy {
  when choosing n { prefer neighbours_role(me) == hunter, own_role(me) == keeper }
}
"""
    )
    [d] = errors_of(text, tmp_path)
    assert d.code == "E247" and "reads 'p.role' (in def neighbours_role" in d.message


def test_what_a_bot_may_read_compiles(tmp_path: Path) -> None:
    text = (
        HIDDEN_HEAD
        + """
def mine(p: player) = [x for x in hand[p] where x.value > 0]
bot fine for me.role == hunter or len(pile) > 0 {
  when choosing c {
    prefer c != none and c in mine(me), c == none
    best (if c == none then 0 else c.value) + len(hand[next_player(me)]) + len(table)
  }
  when choosing n { least n + me.score + count(p.score > 3 for p in players) + turn_number }
  when choosing k {
    prefer face_up(yard, 0) == none and not secret_at(yard, 1) and k in [x.value for x in table]
    best (if face_up(yard, 2) == none then 0 else face_up(yard, 2).weight)
  }
}
"""
    )
    rules = compile_text(text, tmp_path)
    assert list(rules.bots) == ["fine"]


def test_a_choice_name_no_choose_has_is_e101_with_a_suggestion(tmp_path: Path) -> None:
    [d] = errors_of(CARDS + "bot b { when choosing kk { best 1 } }", tmp_path)
    assert (d.code, d.message, d.hint) == ("E101", "unknown choice 'kk'", "did you mean 'k'?")


def test_a_misspelt_rule_is_a_syntax_error_and_rule_words_stay_names(tmp_path: Path) -> None:
    text = CARDS + "bot b { when choosing n { least n, n  otherwise rando  favour n } }"
    found = errors_of(text, tmp_path)
    assert [(d.code, d.message) for d in found] == [
        ("E001", "'least' takes one value"),
        ("E001", "'otherwise' is written 'otherwise random'"),
        ("E001", "unexpected 'favour' in a bot's rules"),
    ]
    names = CARDS.replace("score: int = 0", "score: int = 0  best: int = 1  least: int = 2")
    names += "const prefer = 3\nconst otherwise = 4\nconst random = 5\nconst choosing = 6\n"
    names += "bot b { when choosing n { best n + prefer + otherwise + random + choosing } }"
    assert list(compile_text(names, tmp_path).bots) == ["b"]


def test_a_variant_overrides_a_bot_and_adds_others(tmp_path: Path) -> None:
    base = CARDS + "bot careful { when choosing n { best n } }\n"
    (tmp_path / "base.rules").write_text(base, encoding="utf-8")
    variant = 'extends "base.rules"\noverride bot careful { when choosing n { least n } }\n'
    rules = compile_text(variant + "bot bold { when choosing n { best n } }\n", tmp_path)
    assert list(rules.bots) == ["careful", "bold"]
    game = rules.new_game(2, seed=1)
    at(game, "n")
    assert game.bot_choice().text == "1" and game.bot_choice("bold").text == "5"
    [d] = errors_of('extends "base.rules"\nbot careful { }\n', tmp_path)
    assert d.code == "E112"


def test_rules_are_typed(tmp_path: Path) -> None:
    found = errors_of(CARDS + "bot b { when choosing n { prefer n  best n == 1 } }", tmp_path)
    assert [d.code for d in found] == ["E201", "E201"]


def test_two_bots_of_one_name_are_e102(tmp_path: Path) -> None:
    [d] = errors_of(CARDS + "bot b { }\nbot b { }\n", tmp_path)
    assert d.code == "E102"


# ------------------------------------------------------------------ the step budget
LOOPING = (
    CARDS
    + """
def forever(x: int) {
  let i = 0
  while i >= 0 { set i += 1 }
  return i
}
def short(x: int) {
  let i = 0
  while i < 1000 { set i += 1 }
  return i + x
}
bot stuck { when choosing n { best forever(n) } }
bot busy { when choosing n { best short(n) } }
"""
)


def test_a_bot_that_loops_forever_stops_with_r031(tmp_path: Path) -> None:
    path = tmp_path / "loop.rules"
    path.write_text(LOOPING, encoding="utf-8")
    rules = rulelang.compile_file(path, limits=rulelang.Limits(steps=5000))
    game = rules.new_game(2, seed=1)
    at(game, "n")
    with pytest.raises(GameRuntimeError) as info:
        game.bot_choice("stuck")
    assert info.value.code == "R031"
    assert (
        info.value.message
        == "bot 'stuck' ran more than 5000 rounds of loops ranking the options of 'n'"
    )
    # the ranking (4 options, 1000 rounds each) has the bot's own budget, apart from
    # the game's steps
    game.state.steps = 4990
    assert game.bot_choice("busy").text == "5"
    assert game.state.steps == 4990


def test_a_for_condition_that_loops_forever_is_r031(tmp_path: Path) -> None:
    path = tmp_path / "loop.rules"
    defs = LOOPING.split("bot stuck", 1)[0]
    path.write_text(defs + "bot lost for forever(1) > 0 { }\n", encoding="utf-8")
    rules = rulelang.compile_file(path, limits=rulelang.Limits(steps=300))
    game = rules.new_game(2, seed=1)
    with pytest.raises(GameRuntimeError) as info:
        game.bot_for(0)
    assert info.value.code == "R031"
    assert info.value.message == (
        "bot 'lost' ran more than 300 rounds of loops checking its 'for' condition"
    )


def test_a_bot_that_loops_forever_stops_the_command_line_with_r031(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "loop.rules"
    path.write_text(LOOPING.replace("best short(n)", "best forever(n)"), encoding="utf-8")
    code = run(
        ["simulate", str(path), "-p", "2", "-n", "1", "--bots", "all:busy", "--max-steps", "500"]
    )
    err = capsys.readouterr().err
    assert code == 70
    assert "runtime error[R031]: bot 'busy' ran more than 500 rounds" in err


# ------------------------------------------------------------------ the command line
def test_play_uses_the_declared_bots_by_default(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (
        CARDS.replace(
            'require n != 3 else "not three"',
            'require n != 3 else "not three" log "{current} names {n}"',
        )
        + """
bot fives { when choosing n { prefer n == 5 } when choosing c { prefer c == none } }
"""
    )
    path = tmp_path / "fives.rules"
    path.write_text(text, encoding="utf-8")
    assert run(["play", str(path), "-p", "2", "--bots", "all", "--seed", "3", "--no-store"]) == 0
    out = capsys.readouterr().out
    assert "Game over." in out
    # every n was 5 and every c a pass (the random bot would not keep to that)
    assert re.findall(r"P\d names (\d)", out) == ["5"] * 11
    assert re.findall(r"P\d passes", out) and not re.findall(r"P\d chooses [a-z]", out)
    assert run(["play", str(path), "-p", "2", "--bots", "all", "--seed", "3", "--no-store"]) == 0
    assert capsys.readouterr().out == out  # the same seed, the same game
    assert run(["play", str(path), "-p", "2", "--bots", "all:random", "--seed", "3"]) == 0
    assert len(set(re.findall(r"P\d names (\d)", capsys.readouterr().out))) > 1


def test_play_bots_picks_per_seat_and_refuses_unknown_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "cards.rules"
    path.write_text(CARDS + BOTS, encoding="utf-8")
    assert run(["play", str(path), "-p", "2", "--bots", "1:careful,2:random"]) == 0
    assert "Game over." in capsys.readouterr().out
    code = run(["play", str(path), "-p", "2", "--bots", "2:carefull"])
    err = capsys.readouterr().err
    assert code == 64
    assert "unknown bot 'carefull'" in err and "did you mean 'careful'?" in err
    assert run(["simulate", str(path), "-p", "2", "-n", "2", "--bots", "1:nobody"]) == 64
    assert "unknown bot 'nobody'" in capsys.readouterr().err


def test_simulate_plays_the_declared_bots(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fast = CARDS + "bot fast { when choosing n { prefer n == 5 } }"
    slow = CARDS + "bot slow { when choosing n { prefer n == 1 } }"
    means = {}
    for name, text in (("fast", fast), ("slow", slow)):
        path = tmp_path / f"{name}.rules"
        path.write_text(text, encoding="utf-8")
        assert run(["simulate", str(path), "-p", "2", "-n", "6", "--json"]) == 0
        means[name] = json.loads(capsys.readouterr().out)["mean_turns"]
        assert (
            run(["simulate", str(path), "-p", "2", "-n", "6", "--json", "--bots", "all:random"])
            == 0
        )
        means[name + " random"] = json.loads(capsys.readouterr().out)["mean_turns"]
    # 5 points a turn: 6 turns each, 12 in all; 1 point a turn: 30 each
    assert means["fast"] == 11.0
    assert means["slow"] == 59.0
    assert means["fast random"] == means["slow random"]  # random bots: the same games


def test_simulate_says_which_bots_played_each_seat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A designer reads whose games the figures are: the declared bot by name where a
    seat is not named, random where the rules declare none."""
    path = tmp_path / "fast.rules"
    path.write_text(CARDS + "bot fast { when choosing n { prefer n == 5 } }", encoding="utf-8")
    assert run(["simulate", str(path), "-p", "2", "-n", "2"]) == 0
    assert capsys.readouterr().out.splitlines()[1] == "bots: every seat fast (declared)"
    assert run(["simulate", str(path), "-p", "2", "-n", "2", "--bots", "2:random"]) == 0
    assert capsys.readouterr().out.splitlines()[1] == "bots: 1: fast (declared), 2: random"
    path.write_text(CARDS, encoding="utf-8")
    assert run(["simulate", str(path), "-p", "2", "-n", "2"]) == 0
    assert capsys.readouterr().out.splitlines()[1] == "bots: every seat random (no bot declared)"


def test_simulate_names_only_the_declared_bots_a_seat_can_get(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A seat takes the first declared bot whose `for` holds: a bot after one without
    `for` is never taken unless named (it said 'fast or slow', and every seat played
    fast); where every bot has a `for`, a seat none suits plays random."""
    path = tmp_path / "two.rules"
    fast = "bot fast { when choosing n { prefer n == 5 } }\n"
    slow = "bot slow { when choosing n { prefer n == 1 } }\n"
    path.write_text(CARDS + fast + slow, encoding="utf-8")
    assert run(["simulate", str(path), "-p", "2", "-n", "2"]) == 0
    assert capsys.readouterr().out.splitlines()[1] == "bots: every seat fast (declared)"
    first = "bot first for seat(me) == 0 { when choosing n { prefer n == 5 } }\n"
    path.write_text(CARDS + first + fast + slow, encoding="utf-8")
    assert run(["simulate", str(path), "-p", "2", "-n", "2"]) == 0
    assert capsys.readouterr().out.splitlines()[1] == "bots: every seat first or fast (declared)"
    path.write_text(CARDS + first, encoding="utf-8")
    assert run(["simulate", str(path), "-p", "2", "-n", "2"]) == 0
    line = capsys.readouterr().out.splitlines()[1]
    assert line == "bots: every seat first or random (declared)"


def docs_example() -> str:
    text = (Path(__file__).resolve().parent.parent / "docs" / "language.md").read_text("utf-8")
    section = text.split("## Computer players: bot", 1)[1]
    return section.split("```rulelang\n", 1)[1].split("```", 1)[0]


def test_the_example_of_the_language_page_plays_as_its_bots_say(tmp_path: Path) -> None:
    rules = compile_text(docs_example(), tmp_path)
    assert list(rules.bots) == ["spender", "saver"]
    spent = passed = 0
    for seed in range(10):
        game = rules.new_game(3, seed=seed)
        while not game.is_over():
            who = game.current_player()
            decision = game.pending()
            assert decision is not None
            action = game.bot_choice()
            role = game.attribute("role", who)
            assert game.bot_for(who) == ("spender" if role == "spender" else "saver")
            if decision.name == "c":
                coins = [v for v in game.legal_values() if v is not None]
                value = {c: game.attribute("value", c, kind="coin") for c in coins}
                if role == "spender" and coins:
                    assert action.value is not None
                    assert value[action.value] == max(value.values())
                if role == "saver":
                    score = game.attribute("score", who)
                    if action.value is None:
                        passed += 1
                        assert all(score + v < 10 for v in value.values())
                    else:
                        assert score + value[action.value] >= 10
                spent += action.value is not None
            game.apply(action)
    assert spent and passed


def test_the_stone_seekers_bots_can_be_declared(tmp_path: Path) -> None:
    """design.md 3.4: the bot sketched there, appended to the blocks of the stone
    seekers' rule file, compiles against the shipped Saboteur and plays to the end;
    with the seed's `targets`, which reads face-down goals with `tile`, it is E247."""
    root = Path(__file__).resolve().parent.parent
    design = (root / "docs" / "design.md").read_text("utf-8")
    blocks = re.findall(r"((?:<!--[^\n]*-->\n)+)```rulelang\n(.*?)^```", design, re.S | re.M)
    group = "\n".join(b for d, b in blocks if "group saboteur-stoneseekers.rules" in d)
    sketch = design.split("The sketch as first planned")[0].rsplit("```text\n", 1)[1]
    sketch = sketch.split("```", 1)[0]
    for name in ("saboteur.rules", "saboteur-cards.yaml"):
        (tmp_path / name).write_text((root / "rulesets" / name).read_text("utf-8"), "utf-8")
    rules = compile_text(group + "\n" + sketch, tmp_path, "stoneseekers.rules")
    game = rules.new_game(4, seed=2)
    decisions = 0
    while not game.is_over():
        assert game.bot_for(game.current_player()) == "dwarf"
        game.apply(game.bot_choice())
        decisions += 1
    assert "win" in game.results() and decisions > 20
    with_seed_targets = sketch.replace("override def targets", "def targets_unused")
    found = errors_of(group + "\n" + with_seed_targets, tmp_path)
    assert {d.code for d in found} == {"E247"}
    assert all("tile(...)" in d.message and "in def targets" in d.message for d in found)


def test_a_save_keeps_the_bot_of_each_seat(tmp_path: Path) -> None:
    from rulelang.storage import saves

    path = tmp_path / "cards.rules"
    path.write_text(CARDS + BOTS, encoding="utf-8")
    record = saves.Save(
        str(path), saves.fingerprint(path), 3, 1, bots=[1, 2], bot_names={"2": "random"}
    )
    saves.write(tmp_path / "g.save.json", record)
    back = saves.read(tmp_path / "g.save.json")
    assert (back.bots, back.bot_names) == ([1, 2], {"2": "random"})
    data = json.loads((tmp_path / "g.save.json").read_text("utf-8"))
    del data["bot_names"]  # a save of an earlier version: every bot seat plays the declared
    data["checksum"] = saves.checksum(data)
    (tmp_path / "old.save.json").write_text(json.dumps(data), "utf-8")
    assert saves.read(tmp_path / "old.save.json").bot_names == {}
    data["bot_names"] = {"0": "random"}  # seat 1 is not a bot seat
    data["checksum"] = saves.checksum(data)
    (tmp_path / "bad.save.json").write_text(json.dumps(data), "utf-8")
    with pytest.raises(saves.SaveError, match="'bot_names' is missing or wrong"):
        saves.read(tmp_path / "bad.save.json")
    data["bot_names"] = {"\u00b2": "random"}  # '²': str.isdigit holds, int() refuses it
    data["checksum"] = saves.checksum(data)  # was a ValueError: rulelang's internal error
    (tmp_path / "odd.save.json").write_text(json.dumps(data), "utf-8")
    with pytest.raises(saves.SaveError, match="'bot_names' is missing or wrong"):
        saves.read(tmp_path / "odd.save.json")


def test_a_seat_given_twice_in_bots_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--bots 1:random,1:careful` played seat 1 with the last bot, unsaid; `all` may
    still be narrowed by a seat after it."""
    path = tmp_path / "cards.rules"
    path.write_text(CARDS + BOTS, encoding="utf-8")
    for spec in ("1:random,1:careful", "2,02"):
        code = run(["simulate", str(path), "-p", "2", "-n", "2", "--bots", spec])
        assert code == 64
        assert "is given twice" in capsys.readouterr().err
    code = run(["simulate", str(path), "-p", "2", "-n", "2", "--bots", "all:random,1:careful"])
    assert code == 0
