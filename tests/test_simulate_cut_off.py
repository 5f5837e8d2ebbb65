"""`rulelang simulate` and games the bots do not end: a game cut off by --max-decisions
is counted apart with its seed, never as a game without a winner; the rates are over
the finished games; the run fails (R010, exit 70) only when every game is cut off."""

from __future__ import annotations

import json
import multiprocessing
import signal
import sys
from multiprocessing.pool import Pool
from pathlib import Path

import pytest
from cli_support import cli, interrupt_on_a_terminal, no_traceback

from rulelang.simulation import run
from rulelang.simulation import worker as simulate

# a third of the tables (drawn in setup) can never end
SOMETIMES = """game "sometimes"
players 2..2
global { total: int = 0  endless: bool = false }
setup {
  pick e in [true, false, false]
  set endless = e
}
turn {
  choose x in 1..2
  set total += x
}
end when not endless and total > 10 { win [current] }
"""


@pytest.fixture
def rules(tmp_path: Path) -> Path:
    path = tmp_path / "sometimes.rules"
    path.write_text(SOMETIMES, encoding="utf-8")
    return path


def endless_seeds(n: int) -> list[int]:
    """The seeds among 0..n-1 whose table never ends, found by playing them."""
    import rulelang

    game_rules = rulelang.compile_source(SOMETIMES)
    out = []
    for seed in range(n):
        g = game_rules.new_game(2, seed)
        g.playout(simulate.bot_rng(seed), max_decisions=200)
        if not g.is_over():
            out.append(seed)
    return out


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_cut_off_games_are_counted_apart(
    rules: Path, capsys: pytest.CaptureFixture[str], jobs: str
) -> None:
    code, out, err = cli(
        capsys, "simulate", rules, "-p", "2", "-n", "30", "--max-decisions", "200", "--json",
        "--jobs", jobs,
    )  # fmt: skip
    assert code == 0, err
    no_traceback(out, err)
    data = json.loads(out)
    seeds = endless_seeds(30)
    assert 0 < len(seeds) < 30
    assert data["cut_off"] == {"games": len(seeds), "max_decisions": 200, "seeds": seeds}
    assert data["games"] == 30 - len(seeds) and data["games_run"] == 30
    assert data["games_without_winner"] == 0  # a cut-off game is not a game without winner
    assert sum(s["wins"] for s in data["seats"]) == data["games"]
    assert sum(s["win_rate"] for s in data["seats"]) == pytest.approx(1.0)
    assert err.strip() == (
        f"warning: {len(seeds)} of 30 games were cut off by --max-decisions 200 "
        f"(first seed {seeds[0]}); the win rates are over the {30 - len(seeds)} games "
        "that finished"
    )


def test_the_table_says_how_many_were_cut_off_and_their_seeds(
    rules: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = cli(capsys, "simulate", rules, "-p", "2", "-n", "30", "--max-decisions", "200")
    assert code == 0, err
    seeds = endless_seeds(30)
    k = len(seeds)
    assert out.startswith("30 games, 2 players, ")
    assert f"the rates are over the {30 - k} games that finished" in out.splitlines()[0]
    shown = ", ".join(str(s) for s in seeds[:5])
    more = f" and {k - 5} more" if k > 5 else ""
    line = f"cut off by --max-decisions 200: {k} games ({k / 30:.1%}), seeds {shown}{more}"
    assert line in out.splitlines()
    assert "games without a winner: 0 (0.0%)" in out
    assert "mean game length (finished games):" in out


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_every_game_cut_off_is_an_error(
    rules: Path, capsys: pytest.CaptureFixture[str], jobs: str
) -> None:
    seeds = endless_seeds(10)[:1]
    code, out, err = cli(
        capsys, "simulate", rules, "-p", "2", "-n", "1", "--seed", seeds[0],
        "--max-decisions", "200", "--jobs", jobs,
    )  # fmt: skip
    assert code == 70 and out == ""
    no_traceback(out, err)
    assert f"runtime error[R010]: the game with seed {seeds[0]} did not end after 200" in err
    assert "hint: if the game is meant to last this long, raise it with --max-decisions" in err


def test_all_of_several_cut_off(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "never.rules"
    path.write_text(SOMETIMES.replace("not endless and total > 10", "total < 0"), "utf-8")
    code, out, err = cli(capsys, "simulate", path, "-p", "2", "-n", "4", "--max-decisions", "50")
    assert code == 70
    assert "all 4 games were cut off: the game with seed 0 did not end after 50" in err


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_stops_a_simulation_cleanly(tmp_path: Path, jobs: str) -> None:
    path = tmp_path / "long.rules"
    path.write_text(SOMETIMES.replace("not endless and total > 10", "total < 0"), "utf-8")
    # stderr is a terminal, so the progress bar shows once the games are being played
    code, out, err = interrupt_on_a_terminal(
        ["simulate", str(path), "-p", "2", "-n", "100000", "--jobs", jobs]
    )
    assert code == 130, err
    assert "Simulation stopped." in err
    no_traceback(out, err)


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="no signal masks")
def test_ctrl_c_while_the_pool_starts_stops_every_worker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C landing inside Pool(), its workers forked and its threads not started
    (on a loaded machine, the moment after the progress shows): the pool was never
    terminated, so the command hung at exit or left a worker running."""
    path = tmp_path / "long.rules"
    path.write_text(SOMETIMES.replace("not endless and total > 10", "total < 0"), "utf-8")
    pools: list[Pool] = []

    class CtrlCWhileStarting(Pool):
        def _repopulate_pool(self) -> None:
            pools.append(self)
            super()._repopulate_pool()  # type: ignore[misc]
            signal.raise_signal(signal.SIGINT)  # to this thread, as Ctrl-C would come

    before = set(multiprocessing.active_children())
    monkeypatch.setattr(run, "Pool", CtrlCWhileStarting)
    handler = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):  # the Ctrl-C is not lost
            for _ in run.run_games(str(path), 2, 1000, 0, {}, 2):
                pass
        assert len(pools) == 1 and len(pools[0]._pool) == 2  # type: ignore[attr-defined]
        assert set(multiprocessing.active_children()) - before == set()  # none left running
    finally:
        signal.signal(signal.SIGINT, handler)
        for worker in pools[0]._pool if pools else []:  # type: ignore[attr-defined]
            worker.kill()
            worker.join()


@pytest.mark.parametrize("as_json", [False, True])
def test_ctrl_c_keeps_the_figures_of_the_games_played(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, as_json: bool
) -> None:
    """Ctrl-C in a long simulation printed only 'Simulation stopped.': the games played
    so far were thrown away. Now their figures are printed, and said to be partial."""
    chunks = []

    def two_chunks_then_ctrl_c(chunk: object) -> list[object]:
        if len(chunks) == 2:
            raise KeyboardInterrupt
        chunks.append(chunk)
        return real(chunk)

    real = run.play_chunk
    monkeypatch.setattr(run, "play_chunk", two_chunks_then_ctrl_c)
    args = ["--json"] if as_json else []
    code, out, err = cli(capsys, "simulate", "tictactoe", "-n", "1000", "--seed", "5", *args)
    assert code == 130
    no_traceback(out, err)
    played = 2 * run.CHUNK
    assert err.strip() == (
        f"Simulation stopped after {played} of 1000 games: the figures are of those {played}."
    )
    if as_json:
        assert json.loads(out)["games_run"] == played
        asked = json.loads(out)["run"]
        assert (asked["games_asked"], asked["games_played"]) == (1000, played)
    else:
        assert out.startswith(f"{played} games, 2 players")
    # the same figures as those games played to the end
    monkeypatch.undo()
    code, whole, _ = cli(capsys, "simulate", "tictactoe", "-n", str(played), "--seed", "5", *args)
    drop = ("seconds", "games_per_second", "run")  # run: 1000 games asked
    if as_json:
        assert {k: v for k, v in json.loads(out).items() if k not in drop} == {
            k: v for k, v in json.loads(whole).items() if k not in drop
        }
    else:
        assert out.splitlines()[1:] == whole.splitlines()[1:]
