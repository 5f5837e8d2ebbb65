"""Rule tests written as text (`*.rulestest`, docs/testing.md): every shipped game has
a test file and every case of it passes; a failing case points at its line with the
expected and actual values side by side; a malformed file is refused with its line;
`rulelang test` exits 0, 2 (a case failed), 65 (a file it cannot run) or 64; pytest
collects the files through the plugin."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_support import cli, no_traceback

import rulelang
from rulelang.workbench import runner, testfile

ROOT = Path(__file__).resolve().parent.parent
RULESETS = ROOT / "rulesets"
# the shipped games' tests, and the labyrinth's on the fixed map of its scenario tests
TEST_FILES = sorted(RULESETS.rglob("*.rulestest")) + [ROOT / "tests/labyrinth/fixed.rulestest"]
CASES = [(path, case) for path in TEST_FILES for case in testfile.read(path).cases]
RULES_CACHE: dict[Path, rulelang.Ruleset] = {}

RACE = """game "Race"
players 2..3
import dice
param goal = 10 "points to win"
player { score: int = 0 }
turn {
  roll r = d6
  choose n in 1..r prompt "{current} rolled {r}: take how many?"
  require n != 5 else "five is unlucky"
  set current.score += n
  say "{current} has {current.score}." to current
}
end when any(p.score >= goal for p in players) { win [p for p in players where p.score >= goal] }
"""


def test_every_shipped_game_has_rule_tests() -> None:
    games = sorted(RULESETS.glob("*.rules")) + sorted((RULESETS / "examples").glob("*.rules"))
    missing = [g.name for g in games if not g.with_suffix(".rulestest").is_file()]
    assert not missing, f"write a .rulestest beside each of {missing}"


@pytest.mark.parametrize(("path", "case"), CASES, ids=[f"{p.stem}:{c.number}" for p, c in CASES])
def test_shipped_rule_tests_pass(path: Path, case: testfile.Case) -> None:
    test = testfile.read(path)
    if path not in RULES_CACHE:
        RULES_CACHE[path] = runner.load_rules(test)
    failure = runner.run_case(RULES_CACHE[path], test, case)
    assert failure is None, str(failure)


def write(folder: Path, tests: str) -> Path:
    (folder / "race.rules").write_text(RACE)
    path = folder / "race.rulestest"
    path.write_text(tests)
    return path


def outcomes(path: Path) -> list[runner.Failure | None]:
    return runner.run_file(testfile.read(path))


def test_a_passing_case_scripts_rolls_plays_and_reads(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """players Ann, Bob
case "a roll, a move, what each sees"
  roll r: 4
  to act: Ann
  prompt: Ann rolled 4: take how many?
  options: 1, 2, 3, 4
  options include: 2, 4
  options exclude: 5
  play 3
  expect Ann.score = 3
  log to Ann:
    | Ann chooses 3
    | Ann has 3.
  log to Bob: Ann chooses 3
  log never: Bob has
  Bob sees Ann.score = 3
  not over
case "an edit, a refusal, the end"
  set Bob.score = 9
  roll r: 6
  refuse 5: five is unlucky
  refuse 7: '7' is not an option for 'n'; the options are: ...
  play 2
  roll r: 1
  play 1
  winners: Bob
  results: loss, win
""",
    )
    assert outcomes(path) == [None, None]


def test_a_failing_case_points_at_its_line_with_expected_and_actual(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """players Ann, Bob
case "wrong options"
  roll r: 3
  options: 1, 2, 4
case "wrong score"
  roll r: 2
  play 2
  expect Ann.score = 3
case "an illegal move"
  roll r: 2
  play 6
""",
    )
    options, score, illegal = outcomes(path)
    assert options is not None and score is not None and illegal is not None
    assert (options.line, options.expected, options.actual) == (4, ["1", "2", "4"], ["1", "2", "3"])
    assert str(options).splitlines() == [
        f'{path}:4: case "wrong options": options: not as expected',
        "    options: 1, 2, 4",
        "    expected   actual",
        "    1          1",
        "    2          2",
        "  ! 4          3",
    ]
    assert str(score).splitlines()[-2:] == ["  expected: 3", "  actual:   2"]
    assert score.line == 8
    assert illegal.line == 11
    assert illegal.message.startswith("'6' is not legal: '6' is not an option for 'n'")


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ('case "x"\n  bogus 3\n', 2, "'bogus' is not a step of a rule test"),
        ('case "x"\n  optons: 1\n', 2, "did you mean 'options'?"),
        ('case "x"\n  roll 3\n', 2, "write roll NAME: OUTCOME"),
        ('case "x"\n  play 1\n  seed 3\n', 3, "it comes before the case's first move"),
        ("case x\n", 1, 'case needs a name in quotes: case "..."'),
        ("players 2\n", 1, "no cases"),
        ('case "x"\n  | a\n', 2, "a '| ...' line must follow a line ending with ':'"),
    ],
)
def test_a_malformed_file_is_refused_at_its_line(
    tmp_path: Path, text: str, line: int, message: str
) -> None:
    path = write(tmp_path, text)
    with pytest.raises(testfile.Malformed) as info:
        runner.run_file(testfile.read(path))
    assert info.value.line == line and message in info.value.message


def test_rulelang_test_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = write(tmp_path, 'case "starts"\n  to act: P1\n')
    code, out, err = cli(capsys, "test", good)
    assert (code, out.strip(), err) == (0, "1 case(s): 1 passed", "")
    (tmp_path / "bad.rulestest").write_text('rules "race.rules"\ncase "x"\n  to act: P2\n')
    code, out, err = cli(capsys, "test", tmp_path)  # a folder: every test file in it
    assert code == 2 and "FAIL" in out and "2 case(s): 1 passed, 1 failed" in out
    (tmp_path / "broken.rulestest").write_text('case "x"\n  bogus\n')
    code, out, err = cli(capsys, "test", tmp_path / "broken.rulestest")
    assert code == 65 and "broken.rulestest:2: 'bogus' is not a step" in err
    code, out, err = cli(capsys, "test", tmp_path / "none.rulestest")
    assert code == 64 and "no such test file or folder" in err
    no_traceback(out, err)


def test_a_rule_file_given_runs_the_tests_beside_it_that_test_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`rulelang test race.rules`: a designer types the file they edit; the test files
    beside it that name it (by their `rules` line or by name) run, the others do not."""
    write(tmp_path, 'case "starts"\n  to act: P1\n')  # race.rulestest, by name
    (tmp_path / "named.rulestest").write_text('rules "race.rules"\ncase "x"\n  to act: P2\n')
    (tmp_path / "other.rulestest").write_text('rules "tictactoe"\ncase "y"\n  over\n')
    assert testfile.find([tmp_path / "race.rules"]) == [
        tmp_path / "named.rulestest",
        tmp_path / "race.rulestest",
    ]
    code, out, err = cli(capsys, "test", tmp_path / "race.rules")
    assert code == 2 and "2 case(s): 1 passed, 1 failed" in out and "other" not in out
    (tmp_path / "lone.rules").write_text((tmp_path / "race.rules").read_text())
    code, out, err = cli(capsys, "test", tmp_path / "lone.rules")
    assert code == 64 and "tests of" in err and "lone.rulestest" in err
    no_traceback(out, err)


def test_a_test_file_of_rules_with_errors_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, 'case "x"\n  not over\n')
    (tmp_path / "race.rules").write_text('game "Broken"\nplayers 2..2\nturn { set x = 1 }\n')
    code, out, err = cli(capsys, "test", path)
    assert code == 65 and "error[E101]" in err and "the rules of" in err


def test_a_shipped_game_by_name_from_any_folder(tmp_path: Path) -> None:
    path = tmp_path / "mine.rulestest"
    path.write_text('rules "tictactoe"\ncase "x"\n  play 1,1\n  to act: P2\n')
    assert outcomes(path) == [None]


def test_pytest_collects_rule_test_files(tmp_path: Path) -> None:
    write(tmp_path, 'case "passes"\n  to act: P1\ncase "fails"\n  roll r: 2\n  options: 1\n')
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_ADDOPTS"}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:rulelang",
            "-p",
            "rulelang.workbench.pytest_plugin",
            "race.rulestest",
            "-q",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=120,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "1 failed, 1 passed" in done.stdout
    assert 'race.rulestest:5: case "fails": options: not as expected' in done.stdout


def test_an_expectation_meets_the_game_at_its_next_decision(tmp_path: Path) -> None:
    """The setup's deal is done before a hand is read, without scripting the shuffles;
    the last move's log holds what it did, not the chance events drawn after it."""
    path = tmp_path / "deal.rulestest"
    path.write_text(
        'rules "saboteur"\nplayers Ann, Bob, Cy\ncase "dealt"\n  Bob sees hand[Ann] = 6 hidden\n'
    )
    assert outcomes(path) == [None]
    path = write(
        tmp_path,
        """players Ann, Bob
case "the log of a move"
  roll r: 3
  play 3
  expect Ann.score = 3
  to act: Bob
  log:
    | Ann chooses 3
    | Ann has 3.
""",
    )
    assert outcomes(path) == [None]


def test_a_folder_is_searched_but_not_its_hidden_folders_or_installed_packages(
    tmp_path: Path,
) -> None:
    for folder in ["games", "games/.venv/lib", "games/venv/x", "games/sub"]:
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
        (tmp_path / folder / "a.rulestest").write_text('case "x"\n  over\n')
    found = testfile.find([tmp_path / "games"])
    assert found == [tmp_path / "games/a.rulestest", tmp_path / "games/sub/a.rulestest"]


def test_the_screen_a_player_is_shown(tmp_path: Path) -> None:
    path = tmp_path / "screen.rulestest"
    path.write_text(
        'rules "tictactoe"\ncase "shown"\n  play 1,1\n  screen to P2 includes: P1 chooses 1,1\n'
        '  screen never: P2 chooses\ncase "not shown"\n  screen to P1 includes: P1 chooses 1,1\n'
    )
    shown, missing = outcomes(path)
    assert shown is None and missing is not None
    assert missing.message == "no line of the screen is 'P1 chooses 1,1'" and missing.line == 7


EMPTY_OPTION = """game "blank"
players 2..2
global { picked: text = "none" }
turn {
  choose x in ["", "a"] prompt "pick"
    require x != "a" else "not a"
  set picked = x
}
end when picked != "none" { win players }
"""


def test_an_empty_option_is_written_as_an_empty_text(tmp_path: Path) -> None:
    """`""` is the empty text in `options`, `play` and `refuse` as in `expect`; before,
    an option whose text is empty could be neither listed nor played."""
    (tmp_path / "blank.rules").write_text(EMPTY_OPTION)
    path = tmp_path / "blank.rulestest"
    path.write_text(
        "players Ann, Bob\n"
        'case "listed"\n  options: ""\n  options include: ""\n  options exclude: a\n'
        'case "listed a line each"\n  options:\n    | ""\n'
        'case "refused"\n  refuse "": no\n'
        'case "played"\n  play ""\n  expect picked = ""\n'
    )
    results = outcomes(path)
    assert results[:2] + results[3:] == [None, None, None]
    assert "'\"\"' is legal" in str(results[2])  # "" read as the empty text, which is legal


def test_the_rules_a_test_names_must_be_a_rules_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before, `rules "/etc/passwd"` was parsed, and its first line quoted in the
    syntax error; a save may name only a .rules file, and now so may a test."""
    secret = tmp_path / "secret.txt"
    secret.write_text("root:x:0:0:the secret line\n")
    path = tmp_path / "t.rulestest"
    path.write_text(f'rules "{secret}"\nplayers Ann, Bob\ncase "x"\n  options: 1\n')
    code, out, err = cli(capsys, "test", path)
    assert code == 65 and "is not a .rules file" in err
    assert "the secret line" not in out + err


@pytest.mark.parametrize(
    ("table", "line", "message"),
    [
        ("players 9\n", 1, "Race is for 2 to 3 players, not 9"),
        ("players Ann, Bob\noption goal = many\n", 2, "option 'goal' needs a whole number"),
        ("option goal = 5\noption speed = 2\nseed 3\n", 2, "unknown option 'speed'"),
    ],
)
def test_a_table_the_rules_refuse_fails_at_its_own_line(
    tmp_path: Path, table: str, line: int, message: str
) -> None:
    """A player count or an option the rules refuse failed every case at the case's
    first line (`to act: P1`), not at the line that set the table."""
    path = write(tmp_path, table + 'case "one"\n  to act: P1\ncase "two"\n  roll r: 2\n')
    for failure in outcomes(path):
        assert failure is not None and failure.line == line, failure
        assert failure.message.startswith(message), failure
        assert str(failure).splitlines()[1] == "    " + table.splitlines()[line - 1]


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        (
            'players Ann, Bob, Ann\ncase "x"\n  to act: Ann\n',
            1,
            "two players are named 'Ann'; each needs their own",
        ),
        ('case "x"\n  players Ann, , Bob\n  to act: Ann\n', 2, "the name of player 2 is empty"),
        (
            'players Ann, ann\ncase "x"\n  to act: Ann\n',
            1,
            "two players are named 'ann'; each needs their own",
        ),
        (
            'players Table, Bob\ncase "x"\n  log to table never: Table has\n',
            1,
            "'Table' is a word of rule tests (hidden, nobody, none, table, the table), not a name",
        ),
        (
            'case "x"\n  to act: P1\ncase "x"\n  to act: P1\n',
            3,
            "a case 'x' is at line 1: name each its own",
        ),
    ],
)
def test_names_a_test_gives_twice_are_refused(
    tmp_path: Path, text: str, line: int, message: str
) -> None:
    """Two players named alike passed (`to act: Ann` held for either; `play --names`
    refuses them), and two cases of one name were two pytest items of one id."""
    path = write(tmp_path, text)
    with pytest.raises(testfile.Malformed) as info:
        runner.run_file(testfile.read(path))
    assert (info.value.line, info.value.message) == (line, message)


def test_a_case_may_seat_more_players_than_the_background_names(tmp_path: Path) -> None:
    """`players 3` in a case after a background's `players Ann, Bob` kept the two names:
    every case failed with '2 names given for 3 players'."""
    path = write(tmp_path, 'players Ann, Bob\ncase "three"\n  players 3\n  to act: P1\n')
    assert outcomes(path) == [None]


def test_digits_of_other_kinds_are_names_not_counts(tmp_path: Path) -> None:
    """`players ²` was 'internal error: ValueError' (str.isdigit holds for '²', which
    int() refuses): a player's name, like any word that is not a count."""
    path = write(tmp_path, 'case "squared"\n  players ²\n  to act: ²\n')
    failure = outcomes(path)[0]
    assert failure is not None and "is for 2 to 3 players, not 1" in failure.message
    path = write(tmp_path, 'case "squared"\n  players ², ³\n  to act: ²\n')
    assert outcomes(path) == [None]


def test_a_test_file_named_twice_runs_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`rulelang test race.rulestest .` ran the file's cases twice, counting each twice."""
    path = write(tmp_path, 'case "starts"\n  to act: P1\n')
    monkeypatch.chdir(tmp_path)
    code, out, err = cli(capsys, "test", path, ".", "race.rules", "race.rulestest")
    assert (code, out.strip(), err) == (0, "1 case(s): 1 passed", "")


def test_a_test_naming_no_shipped_game_says_so(tmp_path: Path) -> None:
    """`rules "sabotuer"` said "'sabotuer' is not a .rules file", as if a shipped game
    could not be named so; now it says no game has that name, and the nearest."""
    path = tmp_path / "t.rulestest"
    path.write_text('rules "sabotuer"\ncase "x"\n  to act: P1\n')
    with pytest.raises(testfile.Malformed) as info:
        runner.run_file(testfile.read(path))
    assert (info.value.line, info.value.message) == (
        1,
        "no rule file 'sabotuer' beside the test, nor a shipped game of that name; "
        "did you mean 'saboteur'?",
    )


def test_a_test_of_a_library_is_refused_at_its_rules_line(tmp_path: Path) -> None:
    """A library's tests failed every case, at an `option` line when there was one
    (the option was unknown to the library, which is no game at all)."""
    (tmp_path / "lib.rules").write_text('library "bits"\nconst three = 3\n', encoding="utf-8")
    path = tmp_path / "t.rulestest"
    path.write_text('rules "lib.rules"\noption x = 3\ncase "x"\n  to act: P1\n')
    with pytest.raises(testfile.Malformed) as info:
        runner.run_file(testfile.read(path))
    assert (info.value.line, info.value.message) == (
        1,
        "'bits' is a library of definitions, not a game: test it through a game that imports it",
    )
