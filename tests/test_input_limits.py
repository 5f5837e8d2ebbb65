"""Inputs that once broke rulelang, refused up front (issue 24, item 5): a data file's
counts and tile shapes, and numbers on the command line that are too large. Each ends
with one clear line and its documented exit code, quickly and in little memory."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_support import cli, no_traceback

import rulelang
from rulelang.diagnostics import RuleError
from rulelang.limits import Limits

ROOT = Path(__file__).resolve().parent.parent
RULESETS = ROOT / "rulesets"
HEIMLICH = RULESETS / "heimlich.rules"
MEMORY = 2 * 1024**3  # the address space each child may use: a blow-up fails fast

CARDS = """game "data"
players 2..2
card thing from "cards.yaml" { name: text }
turn { choose t in pieces(thing) }
end when turn_number > 2 { win [current] }
"""


def run_limited(*argv: str, timeout: float = 30) -> tuple[int, str, float]:
    """`rulelang ARGV` in a child with at most MEMORY of address space: its exit code,
    stderr and seconds taken."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))

    start = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", "from rulelang.cli.main import main; main()", *argv],
        capture_output=True,
        text=True,
        timeout=timeout,
        preexec_fn=limit,
    )
    return done.returncode, done.stderr, time.monotonic() - start


def data_rules(tmp_path: Path, yaml_text: str) -> Path:
    (tmp_path / "cards.yaml").write_text(yaml_text, encoding="utf-8")
    path = tmp_path / "d.rules"
    path.write_text(CARDS, encoding="utf-8")
    return path


# ------------------------------------------------------------------ data-file counts


def test_a_huge_count_is_refused_at_once_in_little_memory(tmp_path: Path) -> None:
    """`- {name: "x", count: 100000000}` made validate copy the entry 10^8 times."""
    path = data_rules(tmp_path, '- {name: "x", count: 100000000}\n')
    code, err, seconds = run_limited("validate", str(path))
    assert code == 65, err
    assert "error[E123]" in err
    assert "cards.yaml, entry 1: count 100000000 is more than the 1000000 " in err
    assert seconds < 15
    no_traceback(err)


def test_counts_that_add_up_past_the_limit_are_refused(tmp_path: Path) -> None:
    path = data_rules(tmp_path, "- {name: a, count: 600}\n- {name: b, count: 600}\n")
    with pytest.raises(RuleError) as info:
        rulelang.compile_file(path, limits=Limits(items=1000))
    [diag] = info.value.diagnostics
    assert diag.code == "E123"
    assert diag.message == (
        "cards.yaml, entry 2: the entries so far make 1200 things, more than the 1000 "
        "pieces or cards a kind may have"
    )


def test_counts_follow_the_limits_the_rules_are_compiled_with(tmp_path: Path) -> None:
    path = data_rules(tmp_path, "- {name: a, count: 11}\n")
    assert len(rulelang.compile_file(path).new_game(2).legal_actions()) == 11
    with pytest.raises(RuleError) as info:
        rulelang.compile_file(path, limits=Limits(items=10))
    assert [d.code for d in info.value.diagnostics] == ["E123"]


def test_simulate_with_a_lower_max_items_refuses_the_data_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = data_rules(tmp_path, "- {name: a, count: 11}\n")
    code, _out, err = cli(capsys, "simulate", path, "-p", "2", "-n", "2", "--max-items", "10")
    assert code == 65 and "error[E123]" in err and "--max-items" in err


def test_a_value_made_huge_by_yaml_aliases_is_refused_in_a_short_line(tmp_path: Path) -> None:
    """Eleven lines of aliases make a list of 9^11 items (a 'billion laughs'): the wrong
    type is reported with the value cut short, not printed whole (MemoryError)."""
    lines = ["- {name: a, count: 1, x: &a0 [1, 1, 1, 1, 1, 1, 1, 1, 1]}"]
    for k in range(1, 12):
        lines.append(f"- {{name: b, x: &a{k} [" + ", ".join([f"*a{k - 1}"] * 9) + "]}")
    lines.append("- {name: *a11}")
    path = data_rules(tmp_path, "\n".join(lines) + "\n")
    code, err, seconds = run_limited("validate", str(path))
    assert code == 65, err[-500:]
    assert "cards.yaml, entry 13: 'name' must be text, not [[[[" in err
    assert len(err) < 50_000 and seconds < 15  # 13 short diagnostics, not 9^11 items
    no_traceback(err)


def test_one_long_list_shared_by_aliases_is_converted_once(tmp_path: Path) -> None:
    """A list of 50,000 numbers, written once and named by 3,000 entries through a YAML
    alias (a 300 KB file), was converted anew for each: 150 million items, gigabytes."""
    lines = ["- {name: a, xs: &big [" + ", ".join(["0"] * 50_000) + "]}"]
    lines += ["- {name: b, xs: *big}"] * 3_000
    (tmp_path / "cards.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    path = tmp_path / "d.rules"
    path.write_text(CARDS.replace("{ name: text }", "{ name: text  xs: list(int) = [] }"))
    code, err, seconds = run_limited("validate", str(path), timeout=60)
    assert code == 0, err
    assert seconds < 20


# ------------------------------------------------------------------ tile shapes


def saboteur_copy(tmp_path: Path, old: str, new: str) -> Path:
    """A copy of the Saboteur rules whose cards file has `old` replaced by `new`."""
    for name in ("saboteur.rules", "saboteur-cards.yaml"):
        (tmp_path / name).write_text((RULESETS / name).read_text(encoding="utf-8"))
    cards = tmp_path / "saboteur-cards.yaml"
    text = cards.read_text(encoding="utf-8")
    assert old in text
    cards.write_text(text.replace(old, new, 1), encoding="utf-8")
    return tmp_path / "saboteur.rules"


W_E = "edges: [false, true, false, true], joined: true, count: 3"


@pytest.mark.parametrize("edges", ["[false, false, true]", "[true, true, true, true, false]", "[]"])
def test_a_tile_with_the_wrong_number_of_sides_is_refused_by_validate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], edges: str
) -> None:
    """A tile whose `edges` list is short validated, then simulate exited 1."""
    path = saboteur_copy(tmp_path, W_E, W_E.replace("[false, true, false, true]", edges))
    code, _out, err = cli(capsys, "validate", path)
    assert code == 65, err
    assert "error[E124]" in err
    assert "saboteur-cards.yaml, entry 1: 'edges' of a tile on board 'maze' needs 4 sides" in err
    code, _out, err = cli(capsys, "simulate", path, "-p", "4", "-n", "2")
    assert code == 65 and "error[E124]" in err
    no_traceback(err)


@pytest.mark.parametrize(
    "old, new, code",
    [
        (W_E, W_E.replace("[false, true, false, true]", "[0, 1, 0, 1]"), "E120"),
        (W_E, W_E.replace("joined: true", "joined: 1"), "E120"),
        (W_E, W_E.replace("[false, true, false, true]", "true"), "E120"),
    ],
)
def test_tile_fields_of_the_wrong_type_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], old: str, new: str, code: str
) -> None:
    path = saboteur_copy(tmp_path, old, new)
    exit_code, _out, err = cli(capsys, "validate", path)
    assert exit_code == 65 and f"error[{code}]" in err


COMPUTED = """game "t"
players 2..2
card tunnel count 4 {
  name: text = "tunnel {index}"
  edges: list(bool) = EDGES
}
zone pile: tunnel visible to none
board maze = grid(-2, 2, -2, 2) tiles tunnel
setup {
  add pieces(tunnel) to pile
  place first(pile) on maze at cell(maze, 0, 0)
}
turn {
  choose t in pile require fits(maze, cell(maze, 1, 0), t, 0) else "no" allow pass
  if t != none { set t.edges = CHANGED }
}
end when turn_number > 3 { win [current] }
"""


@pytest.mark.parametrize(
    "edges, changed",
    [("[true, true]", "[true, true, true, true]"), ("[true, true, true, true]", "[true]")],
)
def test_tile_edges_computed_in_play_are_checked_when_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], edges: str, changed: str
) -> None:
    """Edges a rule computes (a default, a `set`) cannot be checked before the game: the
    game stops with a runtime error there, not an internal one."""
    path = tmp_path / "t.rules"
    path.write_text(COMPUTED.replace("CHANGED", changed).replace("EDGES", edges))
    code, _out, err = cli(capsys, "simulate", path, "-p", "2", "-n", "3")
    assert code == 70, err
    assert "error[R026]" in err and "needs 4 sides" in err
    no_traceback(err)


# ------------------------------------------------------------------ numbers on the command line

HUGE = "99999999999999999999"


@pytest.mark.parametrize(
    "argv, says",
    [
        (["simulate", HEIMLICH, "-p", "3", "-n", HUGE], "-n must be between 1 and 1000000000"),
        (["simulate", HEIMLICH, "-p", "3", "-n", "1000000001"], "-n must be between 1 and"),
        (["simulate", HEIMLICH, "-p", "3", "-n", "5", "-j", "100000"], "--jobs must be between"),
        (["simulate", HEIMLICH, "-p", "3", "-n", "5", "--seed", HUGE], "--seed must be between"),
        (["simulate", HEIMLICH, "-p", HUGE, "-n", "5"], f"is for 2 to 7 players, not {HUGE}"),
        (["simulate", HEIMLICH, "-p", "3", "--max-decisions", HUGE], "--max-decisions must be"),
        (["simulate", HEIMLICH, "-p", "3", "--max-items", HUGE], "--max-items must be at most"),
        (["simulate", HEIMLICH, "-p", "3", "--bots", f"1:mcts:{HUGE}"], "iterations per decision"),
        (["compare", HEIMLICH, "-p", "3", "-n", HUGE, "--b-option", "x=1"], "-n must be between"),
        (["compare", HEIMLICH, "-p", "3", "-n", "5", "-j", "100000"], "--jobs must be between"),
        (["compare", HEIMLICH, "-p", HUGE, "-n", "5", "--b-bots", "1:mcts"], "players, not"),
        (["play", HEIMLICH, "-p", "3", "--bots", "all", "--seed", HUGE], "--seed must be between"),
        (["play", HEIMLICH, "-p", "3", "--seed", f"-{HUGE}"], "--seed must be between"),
        (["play", HEIMLICH, "-p", "3", "--max-steps", HUGE], "--max-steps must be at most"),
        (["resume", HEIMLICH, "--max-completion", HUGE], "--max-completion must be at most"),
    ],
)
def test_huge_numbers_are_usage_errors(
    argv: list[object], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Too large, they were internal errors (OverflowError), a hang building a dict of
    10^20 seats, or 100,000 worker processes: now one line and exit 64, at once. Those
    that hung or blew up run in a child limited in memory and time, the others here."""
    pairs = set(zip(argv, argv[1:], strict=False))
    if pairs & {("-n", HUGE), ("-p", HUGE), ("-j", "100000")}:
        code, err, seconds = run_limited(*map(str, argv), timeout=60)
    else:
        start = time.monotonic()
        code, _out, err = cli(capsys, *argv)
        seconds = time.monotonic() - start
    assert code == 64, err
    assert err.startswith("error: ") and says in err, err
    assert len(err.strip().splitlines()) <= 2  # the line, perhaps "Try 'rulelang --help'."
    assert seconds < 20


def test_jobs_above_the_games_start_no_idle_workers(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """-j 200 -n 5 plays its one chunk of games without 200 processes."""
    import rulelang.simulation.run as simulate

    asked: list[int] = []
    real = simulate.Pool

    def pool(processes: int, **kwargs: object) -> object:
        asked.append(processes)
        return real(processes, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(simulate, "Pool", pool)
    code, out, err = cli(capsys, "simulate", HEIMLICH, "-p", "3", "-n", "60", "-j", "200")
    assert code == 0, err
    assert out.startswith("60 games")
    assert asked == [] or max(asked) <= 3  # 60 games are 3 chunks of 25


def test_ctrl_c_stops_a_billion_games_at_once_in_little_memory() -> None:
    """`simulate -n 1000000000` built every seed first: 24 GB in 40 s, deaf to Ctrl-C.
    Now the seeds come as they are played: Ctrl-C a second in stops it at once."""
    import pty
    import select
    import signal

    def child() -> None:
        signal.signal(signal.SIGINT, signal.SIG_DFL)  # as a foreground command
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))

    master, slave = pty.openpty()
    argv = ["simulate", str(HEIMLICH), "-p", "3", "-n", "1000000000"]
    proc = subprocess.Popen(
        [sys.executable, "-c", "from rulelang.cli.main import main; main()", *argv],
        stdout=subprocess.DEVNULL,
        stderr=slave,
        preexec_fn=child,
    )
    os.close(slave)
    seen, deadline = b"", time.monotonic() + 30
    try:
        while b"simulating" not in seen and time.monotonic() < deadline:
            if select.select([master], [], [], 0.2)[0]:
                try:
                    seen += os.read(master, 4096)
                except OSError:
                    break
            if proc.poll() is not None:
                break
        assert b"simulating" in seen, seen  # the progress shows: the games have begun
        time.sleep(1)
        proc.send_signal(signal.SIGINT)
        sent = time.monotonic()
        _pid, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        stopped = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    assert proc.returncode == 130
    assert stopped < 3
    assert usage.ru_maxrss < 400 * 1024  # kilobytes: a few hundred MB at most


@pytest.mark.parametrize("bot", ["mcts:1e308s", "ismcts:" + "9" * 30, "no-such-bot"])
def test_a_save_naming_a_bot_the_rules_cannot_play_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, bot: str
) -> None:
    """A save's checksum is a plain sha256 anyone can recompute: a bot it names that the
    rules cannot play is refused before play (exit 65), not an internal error (exit 1)
    when the bot's turn comes."""
    import io

    from rulelang.storage import saves

    rules = tmp_path / "tictactoe.rules"
    rules.write_text((RULESETS / "examples" / "tictactoe.rules").read_text(encoding="utf-8"))
    game = rulelang.compile_file(rules).new_game(2, 7)
    game.apply(game.legal_actions()[0])
    record = saves.Save(str(rules), saves.fingerprint(rules), 2, 7, log=game.record(), bots=[0, 1])
    record.bot_names = {"1": bot}  # by seat from 0: the second player
    saves.write(tmp_path / "s.json", record)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    code, _out, err = cli(capsys, "resume", tmp_path / "s.json")
    assert code == 65, err
    assert f"the bot of seat 2, {bot!r}, is not one Tic-tac-toe can play" in err
    no_traceback(err)


def test_the_api_refuses_tile_edges_of_the_wrong_length(tmp_path: Path) -> None:
    """`Game.edit().set` checks a value's type; for a tile's edges, its length too."""
    path = tmp_path / "t.rules"
    path.write_text(COMPUTED.replace("EDGES", "[true, true, true, true]").replace("CHANGED", "[]"))
    game = rulelang.compile_file(path).new_game(2)
    edit = game.edit()
    with pytest.raises(
        rulelang.UsageError, match=r"'edges' of a tile holds 4 sides .* not \(True,\)"
    ):
        edit.set("edges", [True], of=1, kind="tunnel")
    edit.set("edges", [False, True, False, True], of=1, kind="tunnel")
    assert game.attribute("edges", of=1, kind="tunnel") == [False, True, False, True]


BIG_DECK = """game "big"
players 2..2
card c count 100000 { }
zone deck: c visible to none
zone pile: c visible to all
setup {
  add pieces(c) to deck
  add pieces(c) to pile
}
turn { choose x in [1, 2] }
end when turn_number > 2 { win [current] }
"""


def test_adding_a_whole_kind_of_many_cards_is_not_quadratic(tmp_path: Path) -> None:
    """A data file may make up to a million cards (the items limit): `add pieces(c) to
    deck` took each card out of every zone and copied the deck once per card, so
    500,000 cards never got past setup (the fuzzer's hang)."""
    path = tmp_path / "big.rules"
    path.write_text(BIG_DECK)
    code, err, seconds = run_limited("simulate", str(path), "-p", "2", "-n", "1", timeout=40)
    assert code == 0, err
    assert seconds < 20


def test_validate_checks_counts_against_its_max_items_as_its_hint_says(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """E123's hint says "raise it with --max-items": validate takes it too, and checks
    with it, so that what validate accepts is what simulate with the same limit plays."""
    path = data_rules(tmp_path, "- {name: a, count: 11}\n")
    code, _out, err = cli(capsys, "validate", path, "--max-items", "10")
    assert code == 65 and "error[E123]" in err
    code, out, _err = cli(capsys, "validate", path, "--max-items", "11")
    assert code == 0 and out.startswith("ok:")
