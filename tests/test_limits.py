"""Limits: rule files that nest too deeply, numbers too long, and sizes that would
exhaust memory end in a diagnostic (65) or a rule's runtime error (70), never in a
Python exception or a machine out of memory."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulelang.cli.main import run
from rulelang.runtime.code import MAX_ITEMS
from rulelang.syntax.limits import MAX_NESTING

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


def rules(tmp_path: Path, body: str = "", decls: str = "") -> Path:
    path = tmp_path / "limits.rules"
    path.write_text(SKELETON.format(body=body, decls=decls), encoding="utf-8")
    return path


def cli(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str]:
    code = run([str(a) for a in argv])
    out, err = capsys.readouterr()
    text = out + err
    assert "Traceback" not in text and "internal error" not in text, text
    return code, text


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
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    command: str,
) -> None:
    import rulelang.cli.play
    import rulelang.cli.simulate

    monkeypatch.setattr(rulelang.cli.play, "BOT_DECISIONS", 300)
    monkeypatch.setattr(rulelang.cli.simulate, "BOT_DECISIONS", 300)
    path = tmp_path / "forever.rules"
    path.write_text(NEVER_ENDS, encoding="utf-8")
    argv = ["-p", "2", "--bots", "all"] if command == "play" else ["-p", "2", "-n", "2"]
    code, text = cli(capsys, command, path, *argv)
    assert code == 70
    assert "runtime error[R010]" in text and "300 decisions" in text
    assert "do its end rules ever hold?" in text


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
