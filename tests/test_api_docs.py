"""Keep docs/api.md honest: its ```python blocks run, in order, in one shared namespace,
with the repository root as the working directory; each block shows what it claims with
asserts. Blocks fenced as ```text or ```sh are not run. The reference must also name
every exported name and every public member of Game, Editor and Ruleset."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import rulelang
from rulelang import Editor, Game, Ruleset

ROOT = Path(__file__).resolve().parent.parent
API = ROOT / "docs" / "api.md"
FENCE = re.compile(r"^```([\w-]*)\n(.*?)^```[ \t]*$", re.S | re.M)
LANGUAGES = {"python", "text", "sh"}  # only python blocks are run


def blocks(text: str) -> list[tuple[int, str, str]]:
    """(line of the first line of code, language, code) for every fenced block."""
    return [
        (text[: m.start(2)].count("\n") + 1, m.group(1), m.group(2)) for m in FENCE.finditer(text)
    ]


@pytest.fixture(scope="module")
def text() -> str:
    return API.read_text(encoding="utf-8")


def test_every_block_is_fenced_with_a_known_language(text: str) -> None:
    found = blocks(text)
    fences = [line for line in text.splitlines() if line.startswith("```")]
    assert len(fences) == 2 * len(found), "a fence is not closed"
    for line, lang, _code in found:
        assert lang in LANGUAGES, f"docs/api.md:{line - 1}: a block fenced as {lang!r}"
    assert sum(lang == "python" for _line, lang, _code in found) >= 15


def test_the_python_examples_run_in_order(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # the examples open rulesets/... by relative paths
    namespace: dict[str, object] = {"__name__": "docs_api"}
    for line, lang, code in blocks(text):
        if lang != "python":
            continue
        # padded so that a failing assert is reported at its line of docs/api.md
        compiled = compile("\n" * (line - 1) + code, str(API), "exec")
        exec(compiled, namespace)


def public(cls: type) -> list[str]:
    """Public members, inherited ones too (Game takes its queries from a mixin)."""
    return [n for n in dir(cls) if not n.startswith("_")]


@pytest.mark.parametrize("name", rulelang.__all__)
def test_every_exported_name_is_described(text: str, name: str) -> None:
    assert f"`{name}" in text or re.search(rf"`[^`\n]*\b{name}\b[^`\n]*`", text), name


@pytest.mark.parametrize(
    "member",
    [
        *(f"Game.{n}" for n in public(Game)),
        *(f"Editor.{n}" for n in public(Editor)),
        "Ruleset.new_game",
        "Ruleset.table_for",
        "Ruleset.title",
        "Ruleset.min_players",
        "Ruleset.max_players",
        "Ruleset.is_library",
        "Ruleset.params",
        "Ruleset.kinds",
        "Ruleset.pieces",
        "Ruleset.globals",
        "Ruleset.limits",
    ],
)
def test_every_public_member_is_described(text: str, member: str) -> None:
    name = member.split(".")[1]
    assert re.search(rf"`[^`\n]*\b{name}\b[^`\n]*`", text), member


def test_ruleset_has_no_public_method_but_new_game_and_table_for() -> None:
    """The other public members of Ruleset are attributes set in __init__ (listed above);
    a new method needs its place in docs/api.md and in the list above."""
    assert public(Ruleset) == ["new_game", "table_for"]
