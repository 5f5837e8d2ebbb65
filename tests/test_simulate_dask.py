"""`rulelang simulate --dask`: the games on a Dask cluster give the summary of
`--jobs 1`, workers read no file of the user's, and a cluster that cannot be used is
one line and exit code 69. One local cluster of 2 worker processes serves the module."""

from __future__ import annotations

import builtins
import json
import os
import shutil
import socket
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import distributed
import pytest
from cli_support import cli, interrupt_on_a_terminal, no_traceback
from test_cli import ENDLESS_AFTER_CHOICE, ENDLESS_LOOP_LINE
from test_simulate_cut_off import SOMETIMES

from rulelang.limits import DEFAULT_LIMITS
from rulelang.simulation import on_dask as dask_games
from rulelang.simulation.run import CHUNK
from rulelang.simulation.worker import Chunk, play_chunk

ROOT = Path(__file__).resolve().parents[1]
RULESETS = ROOT / "rulesets"


@pytest.fixture(scope="module")
def address() -> Iterator[str]:
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as cluster:
        yield cluster.scheduler_address


def summary(capsys: pytest.CaptureFixture[str], *argv: object) -> dict[str, Any]:
    code, out, err = cli(capsys, "simulate", *argv, "--json")
    assert code == 0, err
    no_traceback(out, err)
    data: dict[str, Any] = json.loads(out)
    del data["seconds"], data["games_per_second"]
    return data


@pytest.mark.parametrize(
    "argv",
    [
        # extends heimlich.rules, imports a stdlib module and reads a data file
        [RULESETS / "heimlich-topsecret.rules", "-p", "4", "-n", "60", "--seed", "7"],
        [RULESETS / "saboteur.rules", "-p", "5", "-n", "30", "--bots", "2:random"],
    ],
    ids=["heimlich-topsecret", "saboteur"],
)
def test_a_cluster_gives_the_results_of_one_process(
    capsys: pytest.CaptureFixture[str], address: str, argv: list[object]
) -> None:
    one = summary(capsys, *argv, "--jobs", "1")
    assert one["games_run"] == int(str(argv[argv.index("-n") + 1]))
    assert summary(capsys, *argv, "--dask", address) == one


def test_cut_off_games_and_their_seeds_are_the_same(
    capsys: pytest.CaptureFixture[str], address: str, tmp_path: Path
) -> None:
    path = tmp_path / "sometimes.rules"
    path.write_text(SOMETIMES, encoding="utf-8")
    argv = [path, "-p", "2", "-n", str(3 * CHUNK), "--max-decisions", "200"]
    one = summary(capsys, *argv)
    assert 0 < one["cut_off"]["games"] < one["games_run"]
    assert summary(capsys, *argv, "--dask", address) == one


def test_a_local_cluster_of_2_workers(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [RULESETS / "heimlich.rules", "-p", "3", "-n", "50", "--seed", "3"]
    assert summary(capsys, *argv, "--dask", "local", "--jobs", "2") == summary(capsys, *argv)


def test_a_runtime_error_on_a_worker_points_at_the_users_file(
    capsys: pytest.CaptureFixture[str], address: str, tmp_path: Path
) -> None:
    path = tmp_path / "endless.rules"
    path.write_text(ENDLESS_AFTER_CHOICE, encoding="utf-8")
    code, out, err = cli(capsys, "simulate", path, "-p", "2", "-n", "3", "--dask", address)
    assert code == 70
    no_traceback(out, err)
    assert f"{path}:{ENDLESS_LOOP_LINE}:3: runtime error[R001]:" in err
    assert f"{ENDLESS_LOOP_LINE:>4} |   while true {{" in err


def test_a_worker_reads_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What is shipped holds the rule file, its base, its stdlib imports and its data
    file: the games are the same when none of them can be read any more."""
    folder = tmp_path / "game"
    folder.mkdir()
    for name in ("heimlich.rules", "heimlich-topsecret.rules", "heimlich-topsecret-cards.yaml"):
        shutil.copy(RULESETS / name, folder / name)
    path = str(folder / "heimlich-topsecret.rules")
    chunk = Chunk(path, 4, tuple(range(5)), {}, DEFAULT_LIMITS)
    expected = play_chunk(chunk)
    name, payload = dask_games.ship(path)
    shutil.rmtree(folder)
    monkeypatch.setenv("RULELANG_PATH", str(tmp_path / "nowhere"))
    monkeypatch.setattr(dask_games, "_compile", _no_reading(dask_games._compile))
    assert dask_games.play_shipped(name, payload, chunk) == expected
    assert dask_games.play_shipped(name, payload, chunk) == expected  # compiled once


def _no_reading(compile_: Any) -> Any:
    """`compile_`, failing the test if it is called twice or opens a file."""
    compiled = []

    # the patch is the whole process's: only this thread's reads are refused (another
    # test's Dask cluster, still closing, reads /proc from its own threads)
    me = threading.get_ident()
    real = {"os": os.open, "builtins": builtins.open}

    def refusing(which: str) -> Any:
        def refuse(path: object, *args: Any, **kwargs: Any) -> Any:
            # /proc: the process's own statistics, read by Dask's gc callback
            # (distributed.gc.GCDiagnosis: /proc/PID/statm), which runs in whichever
            # thread collects, this one too when a collection falls in the compile
            if threading.get_ident() != me or str(path).startswith("/proc/"):
                return real[which](path, *args, **kwargs)
            raise AssertionError(f"a worker read {path}")

        return refuse

    def guarded(*args: Any) -> Any:
        assert not compiled, "compiled twice"
        compiled.append(1)
        with pytest.MonkeyPatch.context() as m:
            m.setattr(os, "open", refusing("os"))
            m.setattr(builtins, "open", refusing("builtins"))
            return compile_(*args)

    return guarded


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def test_an_unreachable_scheduler_is_one_line_and_exit_69(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import dask.config

    where = f"tcp://127.0.0.1:{free_port()}"
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        code, out, err = cli(
            capsys, "simulate", RULESETS / "heimlich.rules", "-p", "3", "-n", "5", "--dask", where
        )
    assert code == 69
    no_traceback(out, err)
    assert out == ""
    assert err.startswith(f"error: cannot reach the Dask scheduler at {where}: ")
    assert err.count("\n") == 1


@pytest.mark.parametrize(
    ("extra", "needle"),
    [
        (["--dask", "no-port-here"], "--dask: "),
        (["--dask", "tcp://127.0.0.1:1", "--jobs", "2"], "--jobs sets the workers of --dask local"),
    ],
)
def test_usage_errors_exit_64(
    capsys: pytest.CaptureFixture[str], extra: list[str], needle: str
) -> None:
    code, out, err = cli(capsys, "simulate", RULESETS / "heimlich.rules", "-p", "3", *extra)
    assert code == 64
    no_traceback(out, err)
    assert err.startswith("error: ") and needle in err and err.count("\n") == 1


def test_without_dask_installed(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    heimlich = RULESETS / "heimlich.rules"
    code, out, err = cli(capsys, "simulate", heimlich, "-p", "3", "--dask", "local")
    assert code == 69
    no_traceback(out, err)
    assert err == (
        "error: --dask needs Dask distributed: install it with pip install 'rulelang[dask]'\n"
    )


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process")
def test_ctrl_c_stops_the_games_on_the_cluster(tmp_path: Path, address: str) -> None:
    path = tmp_path / "long.rules"
    path.write_text(SOMETIMES.replace("not endless and total > 10", "total < 0"), "utf-8")
    # stderr is a terminal, so the progress bar shows once the simulation has begun;
    # Ctrl-C a second later, when the games are on the workers
    code, out, err = interrupt_on_a_terminal(
        ["simulate", str(path), "-p", "2", "-n", "100000", "--dask", address], pause=1.0
    )
    assert code == 130, err
    assert "Simulation stopped." in err
    assert "distributed" not in err  # no log of Dask's
    no_traceback(out, err)
    with distributed.Client(address) as client:  # the cluster let go of the games
        deadline = time.monotonic() + 10
        while client.run_on_scheduler(_tasks) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert client.run_on_scheduler(_tasks) == 0


def _tasks(dask_scheduler: Any) -> int:
    return len(dask_scheduler.tasks)
