"""Shared by every test: the saved games live in a fresh folder of each test's own, so
that no test reads or writes the store in the real home folder; the parse caches live
in one temporary folder for the session (never the user's ~/.cache/rulelang); and the
small Duel of the interop tests, compiled once per module."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

import rulelang

# a run that leaves anything in the user's real store or cache fails (leak_check.py)
pytest_plugins = ["leak_check"]

_CACHE = tempfile.mkdtemp(prefix="rulelang-test-cache-")

# the rule tests in tests/ run once, in test_ruletests.py, not again through the
# pytest plugin rulelang installs
collect_ignore_glob = ["*.rulestest"]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--full",
        action="store_true",
        help="run the long checks (tests marked `long`) in full: the 10,000 labyrinth "
        "maps, the big fuzz, the MCTS tournament; by default each runs a sample "
        "(.ci/run runs them in full after the suite)",
    )


@pytest.fixture(scope="session")
def full(request: pytest.FixtureRequest) -> bool:
    """Run the long checks in full (--full), or a sample of each (the default)."""
    return bool(request.config.getoption("--full"))


def sample(full: bool, everything: int, some: int) -> int:
    """How many cases a long check runs: all of them with --full, else a sample."""
    return everything if full else some


def pytest_configure(config: pytest.Config) -> None:
    """Every test and the commands it starts write their parse caches ($XDG_CACHE_HOME)
    in a folder of the session's own: shared, so the grammar is compiled once. The
    report's matplotlib keeps its settings there too, not in ~/.config/matplotlib."""
    os.environ["XDG_CACHE_HOME"] = _CACHE
    os.environ["MPLCONFIGDIR"] = os.path.join(_CACHE, "matplotlib")


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(_CACHE, ignore_errors=True)


@pytest.fixture(autouse=True)
def data_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """$RULELANG_DATA_DIR for this test (subprocesses inherit it)."""
    folder = tmp_path_factory.mktemp("data")
    monkeypatch.setenv("RULELANG_DATA_DIR", str(folder))
    return folder


@pytest.fixture(scope="module")
def duel() -> rulelang.Ruleset:
    from interop_support import DUEL

    return rulelang.compile_source(DUEL, "duel.rules")
