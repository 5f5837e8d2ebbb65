"""`rulelang play` as a player reads it (issue 20, item 5): numbers typed where the
options are numbers, every line since the last prompt, the hot seat's hand-over, the
question's seat said once, and a choice with one option taken without asking."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import rulelang
from rulelang.cli.play import CLEAR, Table

# Each turn: take 0 to 3 (the options are numbers), hear a secret, roll a die; a turn
# whose total is 3 or more must then "pass" (one option); the first to 9 wins.
TAKE = """
game "Take"
players 2..3
player { total: int = 0 }
die d6 = 1..6

turn {
  choose n in 0..3 prompt "{current}: take how many?"
  set current.total += n
  say "{current} took {n}."
  say "Only you know: {n} is yours." to current
  roll face = d6 log "{current} rolls {face}"
  if current.total >= 3 {
    choose w in ["pass"] prompt "Then what?"
  }
}

end when any(p.total >= 9 for p in players) { win [p for p in players where p.total >= 9] }
"""


def seated(answers: list[str], humans: int = 1, clear: bool = False) -> tuple[list[str], Table]:
    """A table of two seats (the second a bot unless `humans` is 2) answered from
    `answers`, run until they run out; what was written (prompts included)."""
    game = rulelang.compile_source(TAKE, "take.rules").new_game(2, seed=1)
    out: list[str] = []
    it: Iterator[str] = iter(answers)

    def read(prompt: str) -> str:
        out.append(prompt)
        try:
            return next(it)
        except StopIteration:
            raise KeyboardInterrupt from None

    bots: dict[int, str | None] = {} if humans == 2 else {1: None}
    table = Table(game, bots, read, out.append, clear=clear)
    with contextlib.suppress(KeyboardInterrupt):
        table.run()
    return out, table


def test_a_number_typed_among_numbered_options_is_that_number() -> None:
    out, table = seated(["3"])
    assert "P1 took 3." in table.game.history(None)
    assert any("the options are numbers" in line for line in out)


def test_a_place_in_the_list_is_still_there_with_a_hash() -> None:
    _, table = seated(["#3"])  # the third option listed: 0, 1, 2
    assert "P1 took 2." in table.game.history(None)


def test_a_number_that_is_not_an_option_is_refused_with_the_options() -> None:
    out, table = seated(["7", "#9"])
    assert table.game.turn_number == 1
    assert "  7 is not one of the options (0, 1, 2, 3); #N picks the Nth listed." in out
    assert "  There is no option #9: pick 1 to 4." in out


def test_a_place_in_other_digits_is_refused_not_a_crash() -> None:
    """`#²` at a prompt of `play` or `resume` was an internal error (str.isdigit holds
    for '²', int() refuses it); it is an answer no option has, and asked again."""
    out, table = seated(["#\u00b2"])
    assert table.game.turn_number == 1
    assert out.count("> ") == 2 and any("#\u00b2" in line for line in out)


def test_help_says_how_numbers_are_read() -> None:
    out, _ = seated(["help"])
    after = out[out.index("> ") :]
    assert any("#2 picks the second listed" in line for line in after)


def test_every_line_since_the_last_prompt_is_printed() -> None:
    """After the human's move: their own move, their secret, the roll, the bot's move."""
    out, table = seated(["1"])
    seen = table.game.history(0)
    first = out.index("> ")
    second = out.index("> ", first + 1)
    printed = [line.strip() for line in out[first:second]]
    since = seen[seen.index("P1 took 1.") :]
    assert since and all(line in printed for line in since), (since, printed)
    assert any(line.startswith("P1 rolls ") for line in since)
    assert any(line.startswith("P2 took ") for line in since)


def test_the_seat_is_not_said_twice_in_the_question() -> None:
    out, _ = seated([])
    assert "P1: take how many?" in out
    assert not any("P1: P1:" in line for line in out)


def test_a_choice_with_one_option_is_taken_without_asking() -> None:
    out, table = seated(["3", "1"])
    assert "P1: Then what? pass (the only option: taken)" in out
    # asked twice (3, then 1), never about the pass; the pass is in the record
    assert out.count("> ") == 3  # the third: the answers ran out
    assert "Then what?" not in "".join(line for line in out if line.endswith("? "))
    assert table.game.turn_number >= 3  # the game went on past the forced pass


def test_hot_seat_clears_the_screen_before_the_next_player_takes_it() -> None:
    """Nothing said to P1 alone is on the screen when P2 sits down: P1 reads it, clears
    the screen, and only then is P2 asked to take it."""
    out, _ = seated(["", "2", "", "", "1"], humans=2, clear=True)
    secret = out.index("  Only you know: 2 is yours.")
    cleared = out.index("P1: press Enter to clear the screen... ")
    wipe = out.index(CLEAR, cleared)
    handover = out.index("Pass the screen to P2 and press Enter... ", wipe)
    assert secret < cleared < wipe < handover
    # P2's screen, after the hand-over: cleared again, P2's news since the start
    p2 = out[out.index(CLEAR, handover) :]
    assert "  P1 took 2." in p2 and not any("Only you know: 2" in line for line in p2)


PEEK = """
game "Peek"
players 2..2
player { looked: int = 0 }
turn {
  choose what in ["peek", "look", "pass"] prompt "Do what?"
  if what != "pass" { set current.looked += 1 }
}
end when any(p.looked >= 2 for p in players) { win [p for p in players where p.looked >= 2] }
"""


def test_an_option_named_like_a_command_is_the_option() -> None:
    """Before, typing `peek` (an option: peek at a card) asked the others to see the game
    master's log, and `look` showed the board: neither option could be typed."""
    game = rulelang.compile_source(PEEK, "peek.rules").new_game(2, seed=1)
    answers = iter(["peek", "look"])
    out: list[str] = []
    table = Table(game, {1: "random"}, lambda prompt: next(answers), out.append, clear=False)
    with contextlib.suppress(StopIteration):
        table.run()
    chosen = [line for line in game.history(None) if line.startswith("P1 chooses")]
    assert chosen[:2] == ["P1 chooses peek", "P1 chooses look"]
    assert not any("always declines" in line for line in out)  # what peek says here


# A turn that draws a card, then asks a choice with one option: the player's screen
# must show the card drawn before the move it forces is taken.
DRAW = """
game "Draw"
players 2..2
card chip count 6 { name: text = "chip {index}" }
zone pile: chip visible to none
zone hand: chip per player visible to owner
global { turns: int = 0 }
setup { add pieces(chip) to pile }
turn {
  move last(pile) from pile to hand[current]
  choose c in hand[current] require c == last(hand[current]) else "the new chip only"
    prompt "Play which chip?"
  set turns += 1
}
end when turns >= 4 { draw players }
"""


def test_a_turn_whose_first_choice_is_forced_shows_the_board_first() -> None:
    """Courier's crown, drawn beside a spy that had to be played, was never on the
    screen: a forced first move of a turn printed only its line. The board (with the
    card drawn) comes first now, as it does before a choice that is asked."""
    game = rulelang.compile_source(DRAW, "draw.rules").new_game(2, seed=1)
    out: list[str] = []
    Table(game, {1: None}, lambda prompt: "", out.append).run()
    text = "\n".join(out)
    taken = [i for i, line in enumerate(out) if "(the only option: taken)" in line]
    assert len(taken) == 2  # P1's two turns
    for at, chip in zip(taken, ["chip 5", "chip 3"], strict=True):
        board = max(i for i, line in enumerate(out[:at]) if line.startswith("== Draw =="))
        assert chip in "\n".join(out[board:at]), text
