"""Limits: rule files that nest too deeply, numbers too long, and sizes that would
exhaust memory end in a diagnostic (65) or a rule's runtime error (70), never in a
Python exception or a machine out of memory. The runtime's resource budget (items,
steps, decisions) is configurable: `--max-items`, `--max-steps`, `--max-decisions` on
the command line, `limits=Limits(...)` in the API."""

from __future__ import annotations

import pickle
import random
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import rulelang
from rulelang import GameRuntimeError, Limits, UsageError
from rulelang.cli.main import run
from rulelang.limits import DEFAULT_LIMITS
from rulelang.syntax.limits import MAX_NESTING

MAX_ITEMS = DEFAULT_LIMITS.items

SKELETON = """game "limits"
players 2..2
global {{ total: int = 0 }}
{decls}
turn {{
{body}
  choose x in 1..2
  set total += x
}}
end when total > 6 {{ win [current] }}
"""


def rules(tmp_path: Path, body: str = "", decls: str = "", name: str = "limits") -> Path:
    path = tmp_path / f"{name}.rules"
    path.write_text(SKELETON.format(body=body, decls=decls), encoding="utf-8")
    return path


def cli(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str]:
    code = run([str(a) for a in argv])
    out, err = capsys.readouterr()
    text = out + err
    assert "Traceback" not in text and "internal error" not in text, text
    return code, text


@pytest.fixture(autouse=True)
def default_recursion() -> Iterator[None]:
    """Python's default recursion limit, as the command runs with (the limits of this
    file are found by it): a library imported earlier in the test process may have
    raised it (jedi sets 3000 when imported)."""
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    yield
    sys.setrecursionlimit(before)


@pytest.mark.parametrize(
    "body",
    [
        "  set total = " + " + ".join(["1"] * 300),
        "  set total = " + "-" * 500 + "1",
        "  let b = " + "not " * 500 + "true",
        "  let xs = " + "[" * 250 + "1" + "]" * 250,
        "  if true {\n" * 120 + "  set total += 1\n" + "  }\n" * 120,
    ],
    ids=["300 plus", "500 minus", "500 not", "250 lists", "120 ifs"],
)
def test_deep_nesting_is_a_diagnostic(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], body: str
) -> None:
    code, text = cli(capsys, "validate", rules(tmp_path, body))
    assert code == 65
    assert "error[E203]" in text or "nests too deeply" in text, text


def test_parentheses_only_group(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """5,000 parentheses around a number nest nothing: the rule reads and plays."""
    body = "  set total += " + "(" * 5000 + "1" + ")" * 5000
    code, _text = cli(capsys, "play", rules(tmp_path, body), "-p", "2", "--bots", "all")
    assert code == 0


def test_nesting_within_the_limit_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deep = MAX_NESTING - 10
    body = "  if true {\n" * deep + "  set total += 1\n" + "  }\n" * deep
    code, _text = cli(capsys, "play", rules(tmp_path, body), "-p", "2", "--bots", "all")
    assert code == 0


@pytest.mark.parametrize("length", [300, 1500])
def test_a_long_chain_of_defs_is_a_diagnostic(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], length: int
) -> None:
    """Defs calling each other hundreds deep exhausted the checker's stack (exit 1);
    now it is E244, and a chain of ordinary length still plays."""
    chain = "".join(f"def f{i}() = f{i + 1}() + 1\n" for i in range(length))
    decls = chain + f"def f{length}() = 0"
    code, text = cli(capsys, "validate", rules(tmp_path, "  set total += f0()", decls))
    assert code == 65
    assert "error[E244]" in text, text
    short = "".join(f"def g{i}() = g{i + 1}() + 1\n" for i in range(30)) + "def g30() = 0"
    path = rules(tmp_path, "  set total += g0() - 30", short)
    assert cli(capsys, "play", path, "-p", "2", "--bots", "all")[0] == 0


def test_a_number_of_too_many_digits_is_a_diagnostic(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, text = cli(capsys, "validate", rules(tmp_path, "  set total = " + "9" * 4301))
    assert code == 65
    assert "a number of 4301 digits" in text


@pytest.mark.parametrize(
    "body, decls, code_",
    [
        ("  choose n in 1..100000000", "", "R009"),
        ("  set total = sum(i for i in 1..100000000)", "", "R009"),
        ("", "piece p count 10000000 { }", "R022"),
        ("", "table t { 1..100000000: 1 }\nconst c = t[5]", "R021"),
        ("", "board b = grid(0, 100000, 0, 100000)", "R008"),
        ("", "board b = ring(100000000)", "R008"),
        ("  repeat 1000000000 { set total += 0 }", "", "R001"),
        ("  for i in 1..999999 { set total += 0 }", "", "R001"),
    ],
    ids=["choice", "sum", "kind", "table", "grid", "ring", "repeat", "for"],
)
def test_sizes_past_the_limits_stop_with_a_runtime_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], body: str, decls: str, code_: str
) -> None:
    path = rules(tmp_path, body, decls)
    assert cli(capsys, "validate", path)[0] == 0  # nothing wrong that a check could see
    code, text = cli(capsys, "play", path, "-p", "2", "--bots", "all")
    assert code == 70
    assert f"runtime error[{code_}]" in text


def test_a_range_at_the_limit_is_allowed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = f"  let n = len(1..{MAX_ITEMS})\n  set total += n - n"
    code, _text = cli(capsys, "play", rules(tmp_path, body), "-p", "2", "--bots", "all")
    assert code == 0


NEVER_ENDS = """game "forever"
players 2..2
global { total: int = 0 }
turn {
  choose x in 1..2
  set total += x
}
end when total < 0 { draw players }
"""


@pytest.mark.parametrize("command", ["play", "simulate"])
def test_a_game_bots_never_end_stops_with_a_clear_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    path = tmp_path / "forever.rules"
    path.write_text(NEVER_ENDS, encoding="utf-8")
    argv = ["-p", "2", "--bots", "all"] if command == "play" else ["-p", "2", "-n", "2"]
    code, text = cli(capsys, command, path, *argv, "--max-decisions", "300")
    assert code == 70
    assert "runtime error[R010]" in text and "300 decisions" in text
    assert "do its end rules ever hold?" in text
    assert "= hint: if the game is meant to last this long, raise it with --max-decisions" in text


HUGE_TABLE = """game "t"
players 2..5
table tokens {
  2..999999999999999999: 3,
}
piece token count tokens[player_count] {
  at: int = 0
}
global { total: int = 0 }
turn { set total += 1 }
end when total > 10 { win [current] }
"""


def test_the_fuzzers_huge_ranges_end_in_diagnostics_or_runtime_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Found by tests/fuzz: a table key range and a players range of 10**18."""
    table = tmp_path / "table.rules"
    table.write_text(HUGE_TABLE, encoding="utf-8")
    assert cli(capsys, "validate", table)[0] == 0  # covered by its one huge range
    code, text = cli(capsys, "play", table, "-p", "2", "--bots", "all")
    assert code == 70 and "runtime error[R021]: table 'tokens' has more than" in text
    players = tmp_path / "players.rules"
    players.write_text(
        HUGE_TABLE.replace("players 2..5", "players 2..999999999999999999").replace(
            "2..999999999999999999: 3", "2: 3"
        ),
        encoding="utf-8",
    )
    code, text = cli(capsys, "validate", players)
    assert code == 65 and "at most 100 players may play, not 999999999999999999" in text


# --------------------------------------------------------------------------- the options
# Each limit lowered by its option stops a game that the default lets play, and raised
# lets play a game that the default stops; small sizes keep the tests fast.
SMALL = {"--max-items": 1000, "--max-steps": 1000, "--max-decisions": 300}

# (option, body or declarations within the default but past the small limit, code)
LOWERED = [
    ("--max-items", "  choose n in 1..2000", "", "R009"),
    ("--max-items", "  let n = len(1..2000)\n  set total += n - n", "", "R009"),
    ("--max-items", "  roll r = d\n  set total += r - r", "die d = 1..2000", "R009"),
    ("--max-items", "", "piece p count 2000 { }", "R022"),
    ("--max-items", "", "table t { 1..2000: 1 }\nconst c = t[5]", "R021"),
    ("--max-items", "", "board b = grid(0, 99, 0, 19)", "R008"),
    ("--max-items", "", "board b = ring(2000)", "R008"),
    ("--max-steps", "  repeat 2000 { set total += 0 }", "", "R001"),
    ("--max-steps", "  for i in 1..2000 { set total += 0 }", "", "R001"),
    ("--max-steps", "  let i = 0\n  while i < 2000 { set i += 1 }", "", "R001"),
]
LOWERED_IDS = ["choice", "range", "die", "kind", "table", "grid", "ring", "repeat", "for", "while"]

# (option, raised value, body past the default limit, code)
RAISED = [
    (
        "--max-items",
        MAX_ITEMS + 1,
        f"  let n = len(1..{MAX_ITEMS + 1})\n  set total += n - n",
        "R009",
    ),
    ("--max-steps", 250_000, "  repeat 200000 { set total += 0 }", "R001"),
]

# ends after about 670 decisions: within the default, past the small limit
LONG = NEVER_ENDS.replace(
    "end when total < 0 { draw players }", "end when total > 1000 { win [current] }"
)
# ends after about 107 000 decisions: past the default (100 000)
LONGER = LONG.replace("total > 1000", "total > 160000")


def hint(option: str) -> str:
    return f"raise it with {option} (limits=Limits("


@pytest.mark.parametrize("option, body, decls, code_", LOWERED, ids=LOWERED_IDS)
def test_a_lowered_limit_stops_a_game_the_default_plays(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    option: str,
    body: str,
    decls: str,
    code_: str,
) -> None:
    path = rules(tmp_path, body, decls)
    assert cli(capsys, "play", path, "-p", "2", "--bots", "all")[0] == 0
    code, text = cli(capsys, "play", path, "-p", "2", "--bots", "all", option, SMALL[option])
    assert code == 70, text
    assert f"runtime error[{code_}]" in text and str(SMALL[option]) in text
    assert hint(option) in text


@pytest.mark.parametrize("option, raised, body, code_", RAISED, ids=["items", "steps"])
def test_a_raised_limit_plays_a_game_the_default_stops(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    option: str,
    raised: int,
    body: str,
    code_: str,
) -> None:
    path = rules(tmp_path, body)
    code, text = cli(capsys, "play", path, "-p", "2", "--bots", "all")
    assert code == 70 and f"runtime error[{code_}]" in text, text
    assert cli(capsys, "play", path, "-p", "2", "--bots", "all", option, raised)[0] == 0


def test_a_lowered_limit_of_decisions_stops_play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "long.rules"
    path.write_text(LONG, encoding="utf-8")
    assert cli(capsys, "play", path, "-p", "2", "--bots", "all")[0] == 0
    code, text = cli(capsys, "play", path, "-p", "2", "--bots", "all", "--max-decisions", "300")
    assert code == 70 and "runtime error[R010]" in text
    assert "bots took 300 decisions in a row and the game did not end" in text


def late(body: str) -> str:
    """The body run only from the third turn or so: not by the first turn, which
    `simulate` plays in its own process to check the table, but in the workers."""
    return "  if total > 2 {\n" + "\n".join("  " + line for line in body.splitlines()) + "\n  }"


# (option, body past the small limit, body past the default, the raised limit, code);
# each body runs late (see `late`) in the workers of `simulate`
SIMULATED = [
    (
        "--max-items",
        "  choose n in 1..2000",
        f"  choose n in 1..{MAX_ITEMS + 1}",
        MAX_ITEMS + 1,
        "R009",
    ),
    (
        "--max-items",
        "  let n = len(1..2000)\n  set total += n - n",
        f"  let n = len(1..{MAX_ITEMS + 1})\n  set total += n - n",
        MAX_ITEMS + 1,
        "R009",
    ),
    (
        "--max-steps",
        "  repeat 2000 { set total += 0 }",
        "  repeat 200000 { set total += 0 }",
        250_000,
        "R001",
    ),
]


@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize(
    "option, lowered_body, raised_body, raised, code_", SIMULATED, ids=["choice", "items", "steps"]
)
def test_simulate_and_its_workers_keep_the_limits(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    jobs: int,
    option: str,
    lowered_body: str,
    raised_body: str,
    raised: int,
    code_: str,
) -> None:
    sim = ["-p", "2", "-n", "2", "--jobs", jobs]
    path = rules(tmp_path, late(lowered_body))
    assert cli(capsys, "simulate", path, *sim)[0] == 0
    code, text = cli(capsys, "simulate", path, *sim, option, SMALL[option])
    assert code == 70 and f"runtime error[{code_}]" in text and hint(option) in text, text
    # another file: a process compiles each file it simulates once (simulation/worker.py)
    path = rules(tmp_path, late(raised_body), name="raised")
    code, text = cli(capsys, "simulate", path, *sim)
    assert code == 70 and f"runtime error[{code_}]" in text, text
    assert cli(capsys, "simulate", path, *sim, option, raised)[0] == 0


@pytest.mark.parametrize("jobs", [1, 2])
def test_simulate_keeps_the_limit_of_decisions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], jobs: int
) -> None:
    sim = ["-p", "2", "-n", "2", "--jobs", jobs, "--json"]
    long, longer = tmp_path / "long.rules", tmp_path / "longer.rules"
    long.write_text(LONG, encoding="utf-8")
    longer.write_text(LONGER, encoding="utf-8")
    assert cli(capsys, "simulate", long, *sim)[0] == 0
    code, text = cli(capsys, "simulate", long, *sim, "--max-decisions", "300")
    assert code == 70 and "did not end after 300 decisions by bots" in text, text
    code, text = cli(capsys, "simulate", longer, *sim)
    assert code == 70 and "did not end after 100000 decisions by bots" in text, text
    code, text = cli(capsys, "simulate", longer, *sim, "--max-decisions", "200000")
    assert code == 0 and '"mean_decisions": 1' in text, text


def test_resume_takes_the_limits(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A game saved as bots played it resumes under the limits given to `resume`."""
    path, save = tmp_path / "forever.rules", tmp_path / "forever.save.json"
    path.write_text(NEVER_ENDS, encoding="utf-8")
    play = ["play", path, "-p", "2", "--bots", "all", "--save", save, "--max-decisions", "50"]
    code, text = cli(capsys, *play)
    assert code == 70 and "bots took 50 decisions in a row" in text
    code, text = cli(capsys, "resume", save, "--max-decisions", "20")
    assert code == 70 and "bots took 20 decisions in a row" in text, text


@pytest.mark.parametrize("command", ["play", "resume", "simulate"])
@pytest.mark.parametrize(
    "option, value",
    [
        ("--max-items", "0"),
        ("--max-steps", "-1"),
        ("--max-decisions", "0"),
        ("--max-items", "many"),
        ("--max-steps", "1.5"),
        ("--max-decisions", ""),
    ],
)
def test_a_bad_limit_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, option: str, value: str
) -> None:
    path = rules(tmp_path)
    args = {"play": [path, "-p", "2", "--bots", "all"], "simulate": [path, "-p", "2", "-n", "1"]}
    argv = args.get(command, [tmp_path / "none.save.json"])
    code, text = cli(capsys, command, *argv, option, value)
    assert code == 64, text
    assert text.startswith("error: ") and option in text, text
    if value.lstrip("-").isdigit():
        assert f"{option} must be a whole number of at least 1, not {value}" in text


def test_help_gives_the_limits_and_their_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("play", "resume", "simulate"):
        code, text = cli(capsys, command, "--help")
        assert code == 0
        text = " ".join(text.split())  # the help is wrapped to the terminal's width
        for option in ("--max-items", "--max-steps", "--max-decisions"):
            assert option in text, (command, option)
        for default in ("1000000", "100000"):
            assert f"[default: {default}]" in text, (command, default)


# --------------------------------------------------------------------------- the API
def test_the_api_takes_limits(tmp_path: Path) -> None:
    source = SKELETON.format(body="  let n = len(1..2000)\n  set total += n - n", decls="")
    rulelang.compile_source(source).new_game(2)  # within the default
    small = rulelang.compile_source(source, limits=Limits(items=1000))
    assert small.limits == Limits(items=1000, steps=100_000, decisions=100_000)
    with pytest.raises(GameRuntimeError) as info:
        small.new_game(2)
    assert info.value.code == "R009"
    assert info.value.message == "1..2000 has 2000 numbers; at most 1000 are allowed"
    assert info.value.hint == "raise it with --max-items (limits=Limits(items=...) in the API)"
    path = tmp_path / "limits.rules"
    path.write_text(source, encoding="utf-8")
    with pytest.raises(GameRuntimeError):
        rulelang.compile_file(path, limits=Limits(items=1999)).new_game(2)
    ruleset, _warnings = rulelang.compile_file_with_warnings(path, limits=Limits(items=2000))
    ruleset.new_game(2)


def test_each_compile_keeps_its_own_limits() -> None:
    """The limits are constants of the generated code: two compiles of one text with
    other limits, in one process, each keep theirs (no cache mixes them up)."""
    source = SKELETON.format(
        body="  choose n in 1..2000\n  repeat 1500 { set total += 0 }", decls=""
    )
    small_items = rulelang.compile_source(source, limits=Limits(items=1000))
    small_steps = rulelang.compile_source(source, limits=Limits(steps=1000))
    default = rulelang.compile_source(source)
    for ruleset, code in [(small_items, "R009"), (small_steps, "R001"), (default, None)]:
        try:
            ruleset.new_game(2).playout(random.Random(1))
        except GameRuntimeError as err:
            assert err.code == code
        else:
            assert code is None


def test_simulate_workers_compile_once_per_limits(tmp_path: Path) -> None:
    from rulelang.simulation.worker import Chunk, play_chunk

    path = rules(tmp_path, late("  let n = len(1..2000)\n  set total += n - n"))
    [played] = play_chunk(Chunk(str(path), 2, (0,), {}, Limits()))
    assert played.results
    with pytest.raises(GameRuntimeError) as info:
        play_chunk(Chunk(str(path), 2, (0,), {}, Limits(items=1000)))
    assert info.value.code == "R009"
    assert play_chunk(Chunk(str(path), 2, (0,), {}, Limits()))[0].results == played.results


def test_playout_stops_at_the_rulesets_limit_of_decisions() -> None:
    forever = rulelang.compile_source(NEVER_ENDS, limits=Limits(decisions=50))
    game = forever.new_game(2)
    assert game.playout(random.Random(1)) == 50 and not game.is_over()
    assert game.playout(random.Random(1), max_decisions=7) == 7
    assert (
        rulelang.compile_source(NEVER_ENDS).new_game(2).playout(random.Random(1), max_decisions=10)
        == 10
    )


@pytest.mark.parametrize(
    "given",
    [{"items": 0}, {"steps": -5}, {"decisions": True}, {"items": 1.5}, {"steps": "10"}],
)
def test_a_bad_limit_is_a_usage_error_in_the_api(given: dict[str, object]) -> None:
    with pytest.raises(UsageError, match="must be a whole number of at least 1"):
        Limits(**given)  # type: ignore[arg-type]


def test_limits_must_be_limits() -> None:
    with pytest.raises(UsageError, match="limits must be a rulelang.Limits"):
        rulelang.compile_source(NEVER_ENDS, limits={"items": 5})  # type: ignore[arg-type]


def test_a_runtime_error_keeps_its_hint_through_pickling() -> None:
    """Workers of `simulate` send their errors back pickled: the hint comes along."""
    forever = rulelang.compile_source(
        SKELETON.format(body="  choose n in 1..20", decls=""), limits=Limits(items=10)
    )
    with pytest.raises(GameRuntimeError) as info:
        forever.new_game(2)
    again = pickle.loads(pickle.dumps(info.value))
    assert (again.code, again.message, again.hint) == (
        info.value.code,
        info.value.message,
        info.value.hint,
    )
    assert str(again).endswith(
        "= hint: raise it with --max-items (limits=Limits(items=...) in the API)"
    )


SQUARED = """game "squared"
players 2..2
param start = {start} "the number squared"
global {{ n: int = start }}
turn {{
  choose x in 1..2
  set n = n * n
}}
end when n < 0 {{ win players }}
"""


@pytest.mark.parametrize("optimised", [True, False])
def test_a_product_past_64_bits_is_a_runtime_error(optimised: bool) -> None:
    """A number squared on every step of a loop used to fill the memory (the squares
    of 3 took 30 s and growing at the 40th); a product of two computed numbers past 64
    bits is now R046, in the optimised code as in the plain."""
    from compile_support import with_optimised

    def first_move(start: int) -> rulelang.Game:
        text = SQUARED.format(start=start)
        ruleset = with_optimised(optimised, lambda: rulelang.compile_source(text, "s.rules"))
        game = ruleset.new_game(players=2, seed=1)
        game.apply(game.legal_actions()[0])
        return game

    assert first_move(3037000499).state is not None  # its square is 9223372030926249001
    with pytest.raises(GameRuntimeError) as info:
        first_move(3037000500)  # 9223372037000250000: past 2^63 - 1
    assert info.value.code == "R046"
    assert "s.rules:7:11" in str(info.value)
