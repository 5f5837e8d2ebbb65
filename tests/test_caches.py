"""The parser and AST caches are shortcuts only: same results, never a failure."""

from __future__ import annotations

import hashlib
import pickle
from pathlib import Path

import pytest

from rulelang.diagnostics import RuleError
from rulelang.syntax import ast as A
from rulelang.syntax.ast_cache import parse_cached
from rulelang.syntax.node import replace
from rulelang.syntax.parser import parse

ROOT = Path(__file__).resolve().parent.parent
SABOTEUR = (ROOT / "rulesets" / "saboteur.rules").read_text(encoding="utf-8")


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return tmp_path / "rulelang"


def test_a_cached_ast_equals_a_fresh_parse(cache: Path) -> None:
    first = parse_cached(SABOTEUR, "saboteur.rules")
    files = sorted(cache.glob("ast-*.pickle"))
    assert len(files) == 1
    again = parse_cached(SABOTEUR, "saboteur.rules")  # read back from the file
    assert again is not first and again == first == parse(SABOTEUR, "saboteur.rules")
    # spans and file names come back too
    assert again.decls[0].span == first.decls[0].span


def test_another_text_or_name_is_another_entry(cache: Path) -> None:
    a = parse_cached(SABOTEUR, "a.rules")
    b = parse_cached(SABOTEUR + "\n# changed\n", "a.rules")
    c = parse_cached(SABOTEUR, "b.rules")
    assert len(list(cache.glob("ast-*.pickle"))) == 3
    assert (
        a.file == "a.rules"
        and c.file == "b.rules"
        and b == parse(SABOTEUR + "\n# changed\n", "a.rules")
    )


@pytest.mark.parametrize("damage", [b"", b"garbage\n", None])
def test_a_damaged_entry_is_parsed_again_and_rewritten(cache: Path, damage: bytes | None) -> None:
    good = parse_cached(SABOTEUR, "s.rules")
    path = next(cache.glob("ast-*.pickle"))
    data = path.read_bytes()
    if damage is None:  # a flipped byte in the pickle: the checksum catches it
        i = len(data) - 10
        path.write_bytes(data[:i] + bytes([data[i] ^ 0xFF]) + data[i + 1 :])
    else:
        path.write_bytes(damage)
    assert parse_cached(SABOTEUR, "s.rules") == good
    assert path.read_bytes() == data  # rewritten whole


def test_a_foreign_pickle_is_not_taken(cache: Path) -> None:
    parse_cached(SABOTEUR, "s.rules")
    path = next(cache.glob("ast-*.pickle"))
    key, _digest, _payload = path.read_bytes().split(b"\n", 2)
    payload = pickle.dumps(["not", "an", "ast"])
    path.write_bytes(key + b"\n" + hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload)
    assert isinstance(parse_cached(SABOTEUR, "s.rules"), A.Module)


def test_syntax_errors_are_never_cached(cache: Path) -> None:
    for _ in range(2):
        with pytest.raises(RuleError, match="E001"):
            parse_cached('game "x"\nplayers 2..\n', "bad.rules")
    assert not list(cache.glob("ast-*.pickle"))


def test_no_writable_cache_folder_means_no_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    assert parse_cached(SABOTEUR, "s.rules") == parse(SABOTEUR, "s.rules")


def test_nodes_are_frozen_and_compare_by_value() -> None:
    node = parse('game "x"\n', "x.rules").decls[0]
    assert isinstance(node, A.GameDecl) and node.title == "x"
    with pytest.raises(AttributeError, match="frozen"):
        node.title = "y"  # type: ignore[misc]
    other = replace(node, title="y")
    assert other.title == "y" and node.title == "x" and other != node
    assert replace(other, title="x") == node and hash(replace(other, title="x")) == hash(node)
    assert "GameDecl(span=" in repr(node)


def test_an_unchanged_file_is_checked_without_lark_or_yaml(cache: Path, tmp_path: Path) -> None:
    """A file whose AST is cached needs no parser, and yaml is read only for data
    files: `validate` of an unchanged file loads neither (docs/performance.md)."""
    import os
    import subprocess
    import sys

    rules = tmp_path / "tiny.rules"
    rules.write_text((ROOT / "rulesets" / "heimlich.rules").read_text(encoding="utf-8"))
    code = (
        "import sys\n"
        "from rulelang.cli.main import run\n"
        f"assert run(['validate', {str(rules)!r}]) == 0\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'lark', 'yaml'}))"
    )
    env = dict(os.environ, XDG_CACHE_HOME=str(cache.parent))
    for _ in range(2):  # the first run parses and keeps the AST; the second reads it
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
        )
    assert out.stdout.strip().splitlines()[-1] == "[]"
