"""The language server's analysis, in process: what it reuses between edits."""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import sample

from rulelang.diagnostics import Diagnostic, RuleError
from rulelang.loader import shipped_games
from rulelang.lsp.analysis import Cache, analyse
from rulelang.lsp.chunks import Pieces
from rulelang.syntax.parser import parse
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


SHIPPED = sorted(
    [
        *shipped_games().values(),
        *(shipped_games()["saboteur"].parents[1] / "stdlib").glob("*.rules"),
    ]
)
BREAKS = [
    lambda line: line + " = = (",  # a stray operator
    lambda line: line.replace("}", ""),  # a block never closed
    lambda line: line.replace('"', "", 1),  # a text never closed
    lambda line: "  x" + line,  # a word where a statement starts
]


def _problems(parse_fn: Callable[[str, str], object], text: str, name: str) -> list[Diagnostic]:
    try:
        parse_fn(text, name)
    except RuleError as err:
        return err.diagnostics
    return []


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_a_file_parsed_by_pieces_is_the_file_parsed_whole(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert Pieces().parse(text, str(path)) == parse(text, str(path))


@pytest.mark.long
def test_syntax_errors_found_by_pieces_are_those_of_the_whole_file(full: bool) -> None:
    """Every shipped file with a line broken, each of 4 ways: the same diagnostics
    (codes, places, messages, hints) from the pieces as from the whole text."""
    rng = random.Random(22)
    cases = [
        (p, n, b) for p in SHIPPED for n in range(0, p.read_text().count("\n"), 9) for b in BREAKS
    ]
    for path, n, brk in rng.sample(cases, sample(full, len(cases), 4)):
        lines = path.read_text(encoding="utf-8").split("\n")
        lines[n] = brk(lines[n])
        text, name = "\n".join(lines), str(path)
        pieces = Pieces()
        pieces.parse(path.read_text(encoding="utf-8"), name)  # the file before the edit
        assert _problems(pieces.parse, text, name) == _problems(parse, text, name), (name, n)
