"""Shared by every test: the saved games live in a fresh folder of each test's own, so
that no test reads or writes the store in the real home folder; and the small Duel of
the interop tests, compiled once per module."""

from __future__ import annotations

from pathlib import Path

import pytest

import rulelang


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
