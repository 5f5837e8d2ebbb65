"""`rulelang compare A B` without -p: A's player count was taken unsaid, B played at
it though B allows others (a two-player game against one for 2 to 4). Where A and B
allow other counts, the command now says both and asks for -p, naming the counts both
allow; where they allow the same single count, it plays at it, as before."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import cli, no_traceback

EXAMPLES = Path(__file__).resolve().parents[1] / "rulesets" / "examples"
TICTACTOE = EXAMPLES / "tictactoe.rules"  # 2 players
LIARS = EXAMPLES / "liars-dice.rules"  # 2 to 4
TRICKS = EXAMPLES / "tricks.rules"  # 3 to 4
CONNECT = EXAMPLES / "connect-four.rules"  # 2


@pytest.mark.parametrize(
    ("a", "b", "said"),
    [
        (TICTACTOE, LIARS, "A (Tic-tac-toe) is for 2 players and B (Liar's Dice) for 2 to 4"),
        (LIARS, TICTACTOE, "(2 suits both)"),
        (TICTACTOE, TRICKS, "(no count suits both)"),
        (LIARS, TRICKS, "(3 to 4 suit both)"),
    ],
)
def test_files_that_allow_other_counts_ask_for_p(
    a: Path, b: Path, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = cli(capsys, "compare", a, b, "-n", "2")
    assert code == 64 and out == "" and said in err and "say how many with -p N" in err
    no_traceback(err)


def test_the_same_single_count_or_a_count_given_plays(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = cli(capsys, "compare", TICTACTOE, CONNECT, "-n", "2")
    assert code == 0 and "2 games each, 2 players" in out, err
    code, out, err = cli(capsys, "compare", TICTACTOE, LIARS, "-n", "2", "-p", "2")
    assert code == 0 and "2 games each, 2 players" in out, err
    code, out, err = cli(capsys, "compare", LIARS, TRICKS, "-n", "2", "-p", "2")
    assert code == 64 and "Tricks is for 3 to 4 players, not 2" in err
