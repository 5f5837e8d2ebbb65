"""The suite's guard (tests/leak_check.py): a test run that writes into the user's real
store or cache folder fails, and one that keeps to temporary folders passes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent

WRITES = """
import os
from pathlib import Path

def test_writes() -> None:
    folder = Path(os.environ["HOME"]) / ".local" / "share" / "rulelang"
    folder.mkdir(parents=True)
    (folder / "games.sqlite3").write_text("x")
"""
KEEPS = """
def test_keeps(tmp_path) -> None:
    (tmp_path / "games.sqlite3").write_text("x")
"""


def _run(tmp_path: Path, test: str) -> subprocess.CompletedProcess[str]:
    home = tmp_path / "home"
    home.mkdir()
    (tmp_path / "test_it.py").write_text(test)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "RULELANG_"))}
    env.update(HOME=str(home), PYTHONPATH=str(TESTS))
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "leak_check", "-p", "no:cacheprovider",
         "--rootdir", str(tmp_path), str(tmp_path / "test_it.py")],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120,
    )  # fmt: skip


def test_a_run_that_writes_the_real_store_fails(tmp_path: Path) -> None:
    run = _run(tmp_path, WRITES)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "changed the user's real rulelang folders" in run.stdout
    assert ".local/share/rulelang/games.sqlite3" in run.stdout


def test_a_run_that_keeps_to_temporary_folders_passes(tmp_path: Path) -> None:
    run = _run(tmp_path, KEEPS)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "real rulelang folders" not in run.stdout
