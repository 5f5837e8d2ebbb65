"""The language server's analysis, in process: what it reuses between edits."""

from __future__ import annotations

import os
from pathlib import Path

from rulelang.loader import shipped_games
from rulelang.lsp.analysis import Cache, analyse
from rulelang.syntax.parser_cache import _cache_dir


def test_an_unchanged_text_is_not_checked_again() -> None:
    path = shipped_games()["saboteur"]
    text = path.read_text(encoding="utf-8")
    cache = Cache()
    first = cache.get(text, str(path))
    assert cache.get(text, str(path)) is first
    assert first.checker is not None and first.diagnostics == []
    edited = cache.get(text + "\n# a comment\n", str(path))
    assert edited is not first and edited.checker is not first.checker


def test_the_text_being_edited_is_not_written_to_the_parse_cache(tmp_path: Path) -> None:
    """Each keystroke would leave a new AST file on disk: the edited text is parsed in
    memory; what it extends still comes from the cache on disk."""
    folder = _cache_dir()
    assert folder is not None
    main = tmp_path / "variant.rules"
    before = set(os.listdir(folder)) if folder.is_dir() else set()
    for n in range(3):
        result = analyse(f'extends "saboteur"\nconst extra = {n}\n', str(main))
        assert result.diagnostics == []
    made = {f for f in os.listdir(folder) if f.startswith("ast-")} - before
    assert len(made) <= 1  # the shipped game's parse at most, never the three texts


def test_a_base_that_cannot_be_read_is_said_and_the_file_still_checked(tmp_path: Path) -> None:
    result = analyse('extends "no-such-game"\nconst x = y\n', str(tmp_path / "v.rules"))
    assert [d.code for d in result.diagnostics] == ["E104"]
    assert result.checker is not None  # names are still known, for navigation
