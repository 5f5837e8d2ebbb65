"""Static diagnostics: every snippet in tests/snippets/ is a deliberately broken rule file.

Each snippet starts with one or more lines `# expect: CODE at LINE`; compiling it must
raise RuleError carrying exactly those (code, line) errors, all located in the snippet.
tests/snippets/bases/ holds the base files of the variant snippets and is not a snippet.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

import rulelang
from rulelang.diagnostics import RuleError

SNIPPETS = Path(__file__).resolve().parent / "snippets"
SNIPPET_FILES = sorted(SNIPPETS.glob("*.rules"))
EXPECT = re.compile(r"#\s*expect:\s*(E\d{3})\s+at\s+(\d+)\s*$")
LARK_WORDING = (
    "Unexpected token",
    "Expected one of",
    "UnexpectedToken",
    "UnexpectedCharacters",
    "UnexpectedEOF",
    "No terminal matches",
    "VisitError",
    "lark",
)
HEADER = re.compile(
    r"^(?P<file>.+):(?P<line>\d+):(?P<col>\d+): error\[(?P<code>E\d{3})\]: (?P<msg>.+)$"
)


def expectations(path: Path) -> list[tuple[str, int]]:
    """The `# expect:` lines at the top of a snippet (the first line must be one)."""
    out: list[tuple[str, int]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        m = EXPECT.match(line)
        if not m:
            break
        out.append((m.group(1), int(m.group(2))))
    return out


def compile_error(path: Path) -> RuleError:
    with pytest.raises(RuleError) as info:
        rulelang.compile_file(path)
    return info.value


def errors(err: RuleError) -> list[tuple[str, int]]:
    return sorted((d.code, d.span.line) for d in err.diagnostics if d.severity == "error")


def snippet(name: str) -> Path:
    path = SNIPPETS / name
    assert path.is_file(), path
    return path


# --------------------------------------------------------------------------- snippets
def test_there_are_many_snippets_each_with_expectations() -> None:
    assert len(SNIPPET_FILES) >= 40
    for path in SNIPPET_FILES:
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert EXPECT.match(first), f"{path.name}: first line must be '# expect: CODE at LINE'"


def test_snippets_cover_every_required_code() -> None:
    codes = {code for path in SNIPPET_FILES for code, _line in expectations(path)}
    required = {
        "E001",
        "E101",
        "E102",
        "E103",
        "E104",
        "E105",
        "E107",
        "E108",
        "E201",
        "E202",
        "E301",
        "E302",
        "E303",
        "E304",
        "E305",
    }
    assert required <= codes, required - codes


def test_base_files_are_not_snippets() -> None:
    assert (SNIPPETS / "bases" / "base.rules").is_file()
    assert all(p.parent == SNIPPETS for p in SNIPPET_FILES)
    # the base of the variant snippets is itself a valid game
    rules = rulelang.compile_file(SNIPPETS / "bases" / "base.rules")
    assert rules.title == "base"


@pytest.mark.parametrize("path", SNIPPET_FILES, ids=lambda p: p.stem)
def test_snippet_reports_exactly_the_expected_errors(path: Path) -> None:
    expected = expectations(path)
    assert expected, f"{path.name} has no '# expect:' line"
    err = compile_error(path)
    assert errors(err) == sorted(expected), str(err)
    for d in err.diagnostics:
        assert d.span.file == str(path), f"{d.code} reported in {d.span.file}"
        assert d.span.col >= 1
        assert d.message


# --------------------------------------------------------------------------- hints
def test_unknown_name_has_did_you_mean_hint() -> None:
    err = compile_error(snippet("unknown_variable.rules"))
    [diag] = err.diagnostics
    assert diag.code == "E101"
    assert "'totl'" in diag.message
    assert diag.hint == "did you mean 'total'?"
    assert (diag.span.line, diag.span.col) == (9, 7)
    assert "= hint: did you mean 'total'?" in str(err)


def test_unknown_name_inside_text_interpolation_has_hint_and_column() -> None:
    err = compile_error(snippet("unknown_name_in_expression.rules"))
    first = err.diagnostics[0]
    line = snippet("unknown_name_in_expression.rules").read_text().splitlines()[8]
    assert first.hint == "did you mean 'total'?"
    assert line[first.span.col - 1 :].startswith("totl")


@pytest.mark.parametrize(
    ("name", "hint"),
    [
        ("unknown_proc.rules", "did you mean 'score'?"),
        ("unknown_type.rules", "did you mean 'player'?"),
        ("unknown_function.rules", "did you mean 'len'?"),
        ("unknown_import.rules", "did you mean 'dice'?"),
        ("unknown_board_attribute.rules", "did you mean 'points'?"),
    ],
)
def test_did_you_mean_hints(name: str, hint: str) -> None:
    err = compile_error(snippet(name))
    assert [d.hint for d in err.diagnostics] == [hint]


def test_no_hint_when_nothing_is_close() -> None:
    err = compile_error(snippet("unknown_loop_variable_outside_loop.rules"))
    assert [d.hint for d in err.diagnostics] == [""]
    assert "hint" not in str(err)


def test_variant_duplicate_suggests_override() -> None:
    err = compile_error(snippet("variant_without_override.rules"))
    assert all("override" in d.hint for d in err.diagnostics)
    base = str((SNIPPETS / "bases" / "base.rules").resolve())
    assert f"{base}:4:1" in err.diagnostics[0].message  # where 'limit' is in the base
    assert f"{base}:8:1" in err.diagnostics[1].message  # where 'add' is in the base


# --------------------------------------------------------------------------- rendering
def _check_rendering(err: RuleError, path: str) -> None:
    text = str(err)
    lines = text.splitlines()
    for word in LARK_WORDING:
        assert word not in text
    source = Path(path).read_text(encoding="utf-8").splitlines() if Path(path).is_file() else None
    headers = [i for i, line in enumerate(lines) if HEADER.match(line)]
    assert len(headers) == len(err.diagnostics)
    for i, diag in zip(headers, err.diagnostics, strict=True):
        m = HEADER.match(lines[i])
        assert m is not None
        assert (m["file"], int(m["line"]), int(m["col"]), m["code"], m["msg"]) == (
            path,
            diag.span.line,
            diag.span.col,
            diag.code,
            diag.message,
        )
        quoted, caret = lines[i + 1], lines[i + 2]
        gutter = f"{diag.span.line:>4} | "
        assert quoted.startswith(gutter)
        if source is not None:
            assert quoted[len(gutter) :] == source[diag.span.line - 1]
        assert set(caret.strip()) == {"^"}
        assert caret.index("^") == len(gutter) + diag.span.col - 1


def test_rendered_text_has_location_source_line_and_caret() -> None:
    path = snippet("unknown_variable.rules")
    err = compile_error(path)
    lines = str(err).splitlines()
    assert lines[0] == f"{path}:9:7: error[E101]: unknown variable 'totl'"
    assert lines[1] == "   9 |   set totl += x"
    assert lines[2] == " " * 13 + "^^^^"
    _check_rendering(err, str(path))


SYNTAX_SNIPPETS = [p for p in SNIPPET_FILES if any(c == "E001" for c, _ in expectations(p))]


@pytest.mark.parametrize("path", SYNTAX_SNIPPETS, ids=lambda p: p.stem)
def test_syntax_errors_render_without_lark_wording(path: Path) -> None:
    err = compile_error(path)
    assert [d.code for d in err.diagnostics] == ["E001"]
    _check_rendering(err, str(path))
    assert err.diagnostics[0].message.startswith("unexpected")


def test_syntax_error_from_compile_source_is_rendered_with_given_name() -> None:
    text = (
        'game "t"\nplayers 2..4\nturn {\n  choose x in 1..3 )\n}\nend when true { win [current] }\n'
    )
    with pytest.raises(RuleError) as info:
        rulelang.compile_source(text, "snippet.rules")
    err = info.value
    assert [(d.code, d.span.line, d.span.col) for d in err.diagnostics] == [("E001", 4, 20)]
    lines = str(err).splitlines()
    assert lines[0] == "snippet.rules:4:20: error[E001]: unexpected ')'"
    assert lines[1] == "   4 |   choose x in 1..3 )"
    assert lines[2].index("^") == len("   4 | ") + 19
    for word in LARK_WORDING:
        assert word not in str(err)


def test_syntax_error_inside_interpolated_text_is_a_rule_error() -> None:
    text = (
        'game "t"\nplayers 2..4\nglobal { total: int = 0 }\n'
        'turn {\n  choose x in 1..3 prompt "pick {x +}"\n  set total += x\n}\n'
        "end when total > 3 { win [current] }\n"
    )
    with pytest.raises(RuleError) as info:
        rulelang.compile_source(text, "interp.rules")
    assert [(d.code, d.span.line) for d in info.value.diagnostics] == [("E001", 5)]
    for word in LARK_WORDING:
        assert word not in str(info.value)


def test_semantic_error_from_compile_source_quotes_the_line() -> None:
    text = (
        'game "t"\nplayers 2..4\nglobal { total: int = 0 }\n'
        "turn {\n  set total += bogus\n}\nend when total > 3 { win [current] }\n"
    )
    with pytest.raises(RuleError) as info:
        rulelang.compile_source(text, "inline.rules")
    lines = str(info.value).splitlines()
    assert lines[0] == "inline.rules:5:16: error[E101]: unknown name 'bogus'"
    assert lines[1] == "   5 |   set total += bogus"
    assert lines[2] == " " * (7 + 15) + "^^^^^"


# --------------------------------------------------------------------------- collect-all
def test_every_error_in_one_file_is_reported() -> None:
    path = snippet("collect_all.rules")
    err = compile_error(path)
    codes = [d.code for d in err.diagnostics]
    assert Counter(codes) == Counter(
        ["E302", "E201", "E101", "E108", "E202", "E303", "E304", "E301"]
    )
    # sorted by position, each rendered with its own header and caret
    positions = [(d.span.line, d.span.col) for d in err.diagnostics]
    assert positions == sorted(positions)
    _check_rendering(err, str(path))


def test_errors_from_several_passes_are_collected() -> None:
    # declare (E102), resolve (E101, E201), values (E107) and flow (E304) in one file
    text = """game "t"
players 2..3
table n { 2: 1 }
const a = 1
const a = 2
global { total: int = 0 }
piece p count n[player_count] { at: int = 0 }
proc loop { do loop }
turn {
  set total += nope
  set total += "x"
}
end when total > 3 { win [current] }
"""
    with pytest.raises(RuleError) as info:
        rulelang.compile_source(text, "many.rules")
    got = sorted((d.code, d.span.line) for d in info.value.diagnostics)
    assert got == [("E101", 10), ("E102", 5), ("E107", 3), ("E201", 11), ("E304", 8)]


# --------------------------------------------------------------------------- valid programs
BASE_TEXT_GAME = """game "t"
players 2..4
global {
  total: int = 0
}
def twice(n: int) = half(n) * 4
def half(n: int) = n / 2
turn {
  choose x in 1..3
  set total += twice(4) + x
}
end when total > 100 { win [current] }
"""


def test_def_may_call_a_def_defined_later() -> None:
    rules = rulelang.compile_source(BASE_TEXT_GAME, "forward.rules")
    g = rules.new_game(2)
    g.apply("1")
    assert g.view(None)["globals"]["total"] == 9


def _variant(text: str) -> rulelang.api.Ruleset:
    # compile_source resolves `extends` next to the given name: the snippets folder
    return rulelang.compile_source(text, str(SNIPPETS / "inline_variant.rules"))


def _turns_until_over(rules: rulelang.api.Ruleset, choice: str, limit: int = 50) -> int:
    g = rules.new_game(2)
    for turn in range(1, limit):
        g.apply(choice)
        if g.is_over():
            return turn
    raise AssertionError("the game did not end")


def test_variant_override_replaces_the_base_definition() -> None:
    base = rulelang.compile_file(SNIPPETS / "bases" / "base.rules")
    assert _turns_until_over(base, "3") == 4  # total 12 > 10
    variant = _variant('extends "bases/base.rules"\noverride const limit = 20\n')
    assert _turns_until_over(variant, "3") == 7  # total 21 > 20


def test_variant_override_of_a_proc() -> None:
    variant = _variant(
        'extends "bases/base.rules"\noverride proc add(n: int) {\n  set total += 2 * n\n}\n'
    )
    g = variant.new_game(2)
    g.apply("3")
    assert g.view(None)["globals"]["total"] == 6


def test_variant_with_its_own_title_can_override() -> None:
    variant = _variant('extends "bases/base.rules"\ngame "variant"\noverride const limit = 20\n')
    assert variant.title == "variant"
    assert _turns_until_over(variant, "3") == 7


def test_variant_with_its_own_title_reports_the_right_base_line() -> None:
    with pytest.raises(RuleError) as info:
        _variant('extends "bases/base.rules"\ngame "variant"\nconst limit = 20\n')
    [diag] = info.value.diagnostics
    assert (diag.code, diag.span.line) == ("E102", 3)
    base = str((SNIPPETS / "bases" / "base.rules").resolve())
    assert f"{base}:4:1" in diag.message


def test_missing_rule_file_raises_file_not_found(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        rulelang.compile_file(tmp_path / "nope.rules")
