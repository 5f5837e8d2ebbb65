"""A pytest plugin: a test run that leaves anything in the user's real rulelang folders
(the saved games' store and the parse cache, wherever the environment puts them when
the run starts), or in the folders Chromium and matplotlib keep in ~/.config, fails,
naming what changed. The tests themselves must use temporary
folders (conftest.py points $RULELANG_DATA_DIR and $XDG_CACHE_HOME at them)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


def real_folders() -> list[Path]:
    """The store's and the cache's folders as the user's environment names them, and
    the browser's and the plots' settings folders."""
    home = Path.home()
    given = os.environ.get("RULELANG_DATA_DIR", "").strip()
    xdg_data = os.environ.get("XDG_DATA_HOME", "")
    data = Path(given) if given else (Path(xdg_data) if xdg_data else home / ".local/share")
    xdg_cache = os.environ.get("XDG_CACHE_HOME", "")
    cache = Path(xdg_cache) if os.path.isabs(xdg_cache) else home / ".cache"
    xdg_config = os.environ.get("XDG_CONFIG_HOME", "")
    config = Path(xdg_config) if os.path.isabs(xdg_config) else home / ".config"
    # and what the tools the tests drive keep there: Chromium's crash reports (even
    # headless), matplotlib's settings (the balance reports)
    tools = [config / "chromium", config / "matplotlib"]
    return [data if given else data / "rulelang", cache / "rulelang", *tools]


def snapshot(folders: list[Path]) -> dict[str, tuple[int, int]]:
    """Every file and folder under `folders`: its modification time and size."""
    seen = {}
    for folder in folders:
        if not folder.exists():
            continue
        for path in [folder, *folder.rglob("*")]:
            try:
                info = path.stat()
            except OSError:  # gone while we looked
                continue
            seen[str(path)] = (info.st_mtime_ns, info.st_size)
    return seen


FOLDERS = real_folders()  # when the plugin loads: before conftest changes the environment
BEFORE = snapshot(FOLDERS)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    after = snapshot(FOLDERS)
    changed = sorted(p for p in after.keys() | BEFORE.keys() if after.get(p) != BEFORE.get(p))
    if not changed:
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    lines = [f"the test run changed the user's real rulelang folders ({len(changed)}):"]
    lines += [f"  {p}" for p in changed[:20]]
    lines.append("(a rulelang run by hand during the tests writes there too: then run them again)")
    if reporter is not None:
        reporter.write_line("\n".join(lines), red=True)
    session.exitstatus = pytest.ExitCode.TESTS_FAILED
