"""Static diagnostics. tests/snippets/*.rules hold deliberately broken rule files, written
in the style of starlark-go's test data (go.starlark.net/internal/chunkedfile).

Cases. A snippet file holds several cases separated by lines `---`. Each case is a
complete small rule file, compiled on its own with `rulelang.compile_source` under the
snippet's own path: it `extends` and imports as if it were a file in tests/snippets/
(tests/snippets/bases/ holds the base files of the variant cases; they are not
snippets). The case's text is padded with blank lines in front, so every line and
column the compiler reports is the line and column in the snippet file.

Expectations. `### "regex"` at the end of a line (to the rule language, a comment) says:
compiling this case reports an error on this line whose message matches the regex
(`re.search`). Several on one line, `### "a" "b"`, mean as many errors on that line,
each matching a different one of them. A regex may be preceded by a code,
`### E101 "unknown variable"`, and then the error must also carry that code. Codes are
optional and the snippets leave them out: the message is what the user reads, and codes
are pinned where they are assigned (rulelang/errors.py). Inside the quotes the text is
the regex as written (no string escapes): `\\(` is a regex escape and `\\"` matches `"`.
The first `###` of a line starts its expectations, so a snippet may hold `###` for no
other purpose (not even inside a text).

The test of a case fails unless every expectation is matched by exactly one error on its
line, every error reported is matched by an expectation (a case without `###` must
compile), and every error is located in the snippet file. A failure names the file,
the case and the line. An error about the whole file (no `players` line, no turn, no end
rule) is placed at 1:1, which in any case but a file's first is padding: it is expected
on the first line of its case instead (a comment line serves).
Warnings are not checked here.

The old format (`# expect: CODE at LINE` lines at the top of a file) is refused.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import pytest

import rulelang
from rulelang.diagnostics import Diagnostic, RuleError

ROOT = Path(__file__).resolve().parent.parent
SNIPPETS = Path(__file__).resolve().parent / "snippets"
SNIPPET_FILES = sorted(SNIPPETS.glob("*.rules"))
SEPARATOR = "---"
MARK = "###"
ITEM = re.compile(r'\s*(?:(?P<code>[A-Z]\d{3})\s+)?"(?P<regex>(?:[^"\\]|\\.)*)"')
OLD_FORMAT = re.compile(r"#\s*expect:")
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


# --------------------------------------------------------------------------- the format
@dataclass(frozen=True)
class Expect:
    line: int
    code: str | None
    regex: re.Pattern[str]

    def matches(self, d: Diagnostic) -> bool:
        return (self.code is None or d.code == self.code) and bool(self.regex.search(d.message))

    def __str__(self) -> str:
        code = f"{self.code} " if self.code else ""
        return f'{code}"{self.regex.pattern}"'


@dataclass(frozen=True)
class Case:
    path: Path
    number: int  # 1, 2, ... in its file
    first: int  # its first and last line in the file
    last: int
    text: str  # padded: line n of the text is line n of the file
    expects: tuple[Expect, ...]
    problems: tuple[tuple[int, str], ...] = field(default=())  # (line, malformed expectation)

    @property
    def name(self) -> str:
        return f"{self.path.stem}-{self.number}"

    def where(self, line: int | None = None) -> str:
        """`tests/snippets/x.rules:12: case 3 (lines 10-20)`, for failure messages."""
        shown = self.path.relative_to(ROOT) if self.path.is_relative_to(ROOT) else self.path
        at = f":{line}" if line is not None else ""
        return f"{shown}{at}: case {self.number} (lines {self.first}-{self.last})"


def _expectations(rest: str, line: int) -> tuple[list[Expect], str]:
    """The expectations written after `###` on a line, or a description of what is wrong."""
    out: list[Expect] = []
    pos = 0
    while rest[pos:].strip():
        m = ITEM.match(rest, pos)
        if m is None:
            return out, f"not a quoted regex after {MARK}: {rest[pos:].strip()}"
        try:
            regex = re.compile(m["regex"])
        except re.error as exc:
            return out, f"bad regex {m['regex']!r}: {exc}"
        out.append(Expect(line, m["code"], regex))
        pos = m.end()
    return out, "" if out else f"nothing after {MARK}"


def read_cases(path: Path) -> list[Case]:
    lines = path.read_text(encoding="utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the final newline
    cases: list[Case] = []
    start = 0
    for end in [*(i for i, text in enumerate(lines) if text.rstrip() == SEPARATOR), len(lines)]:
        expects: list[Expect] = []
        problems: list[tuple[int, str]] = []
        for i in range(start, end):
            number = i + 1
            if OLD_FORMAT.search(lines[i]):
                problems.append((number, f"the old '# expect:' format; write {MARK} \"regex\""))
            _code, mark, rest = lines[i].partition(MARK)
            if mark:
                found, problem = _expectations(rest, number)
                expects.extend(found)
                if problem:
                    problems.append((number, problem))
        text = "\n" * start + "\n".join(lines[start:end]) + "\n"
        case = Case(path, len(cases) + 1, start + 1, end, text, tuple(expects), tuple(problems))
        cases.append(case)
        start = end + 1
    return cases


CASES = [case for path in SNIPPET_FILES for case in read_cases(path)]


@cache
def reported(case: Case) -> tuple[Diagnostic, ...]:
    """The diagnostics of compiling the case (none if it compiles)."""
    try:
        rulelang.compile_source(case.text, str(case.path))
    except RuleError as err:
        return tuple(err.diagnostics)
    return ()


def compile_case(case: Case) -> RuleError:
    with pytest.raises(RuleError) as info:
        rulelang.compile_source(case.text, str(case.path))
    return info.value


def find_case(file: str, text: str) -> Case:
    """The one case of tests/snippets/`file` whose text holds `text`."""
    found = [c for c in CASES if c.path.name == file and text in c.text]
    assert len(found) == 1, f"{len(found)} cases of {file} hold {text!r}"
    return found[0]


def line_of(case: Case, text: str) -> int:
    """The line of the case (and of its file) that holds `text`."""
    [line] = [n for n, s in enumerate(case.text.splitlines(), 1) if text in s]
    return line


def _pair(expects: list[Expect], found: list[Diagnostic]) -> dict[int, int]:
    """A largest one-to-one pairing of expectations (by index) with errors that match them."""
    owner: dict[int, int] = {}  # error index -> expectation index

    def place(e: int, seen: set[int]) -> bool:
        for j, d in enumerate(found):
            if j not in seen and expects[e].matches(d):
                seen.add(j)
                if j not in owner or place(owner[j], seen):
                    owner[j] = e
                    return True
        return False

    for e in range(len(expects)):
        place(e, set())
    return {e: j for j, e in owner.items()}


def check_case(case: Case, diagnostics: tuple[Diagnostic, ...]) -> list[str]:
    """What is wrong with the errors reported for a case: one sentence each."""
    wrong = [f"{case.where(line)}: {problem}" for line, problem in case.problems]
    errors = [d for d in diagnostics if d.severity == "error"]
    by_line: dict[int, list[Diagnostic]] = {}
    for d in errors:
        if d.span.file != str(case.path):
            wrong.append(
                f"{case.where()}: error[{d.code}] {d.message!r} is located in {d.span}, "
                "not in the snippet"
            )
            continue
        line = d.span.line
        if (line, d.span.col) == (1, 1):
            line = case.first  # about the whole file
        if not case.first <= line <= case.last:
            wrong.append(f"{case.where(line)}: error[{d.code}] {d.message!r} is outside the case")
            continue
        by_line.setdefault(line, []).append(d)
    expected: dict[int, list[Expect]] = {}
    for e in case.expects:
        expected.setdefault(e.line, []).append(e)
    for line in sorted(set(by_line) | set(expected)):
        want, got = expected.get(line, []), by_line.get(line, [])
        pairs = _pair(want, got)
        paired = set(pairs.values())
        shown = "; ".join(f"error[{d.code}] {d.message!r}" for d in got) or "no error"
        for i, e in enumerate(want):
            if i not in pairs:
                wrong.append(f"{case.where(line)}: expected an error matching {e}, got {shown}")
        if len(pairs) < len(want):
            continue  # the errors not paired are shown above
        for j, d in enumerate(got):
            if j not in paired:
                wrong.append(f"{case.where(line)}: unexpected error[{d.code}] {d.message!r}")
    return wrong


# --------------------------------------------------------------------------- snippets
def test_there_are_many_snippet_cases_in_few_files() -> None:
    with_errors = [c for c in CASES if c.expects]
    assert len(with_errors) >= 56
    assert len(SNIPPET_FILES) <= 20
    for path in SNIPPET_FILES:
        cases = [c for c in CASES if c.path == path]
        assert len(cases) >= 2 or path.name == "collect_all.rules", path.name


def test_no_snippet_is_in_the_old_format() -> None:
    old = [
        f"{path.name}:{n}"
        for path in SNIPPET_FILES
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if OLD_FORMAT.search(line)
    ]
    assert not old, f"'# expect:' lines (write ### \"regex\" on the line instead): {old}"


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_snippet_case_reports_exactly_the_expected_errors(case: Case) -> None:
    diagnostics = reported(case)
    wrong = check_case(case, diagnostics)
    assert not wrong, "\n".join(wrong)
    for d in diagnostics:
        assert d.span.col >= 1, d
        assert d.message, d


def test_snippets_cover_every_required_code() -> None:
    codes = {d.code for case in CASES for d in reported(case)}
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


# --------------------------------------------------------------------------- the harness
def _cases_of(text: str, tmp_path: Path) -> list[Case]:
    path = tmp_path / "t.rules"
    path.write_text(text, encoding="utf-8")
    return read_cases(path)


def test_harness_splits_cases_keeping_line_numbers(tmp_path: Path) -> None:
    text = '# one\ngame "a"\n---\n# two\n\ngame "b" ### "x" E101 "y\\"z"\n---\nend\n'
    one, two, three = _cases_of(text, tmp_path)
    assert (one.first, one.last, two.first, two.last, three.first, three.last) == (
        1, 2, 4, 6, 8, 8,
    )  # fmt: skip
    assert two.text.splitlines()[5] == 'game "b" ### "x" E101 "y\\"z"'
    assert two.text.startswith("\n\n\n# two")
    assert [(e.line, e.code, e.regex.pattern) for e in two.expects] == [
        (6, None, "x"),
        (6, "E101", 'y\\"z'),
    ]
    assert two.expects[1].regex.search('y"z')
    assert not one.expects and not one.problems


def test_harness_reports_malformed_and_old_expectations(tmp_path: Path) -> None:
    text = '# expect: E101 at 2\nx ###\n---\ny ### oops\n---\nz ### "(" \n'
    one, two, three = _cases_of(text, tmp_path)
    assert [(line, problem.split()[1]) for line, problem in one.problems] == [
        (1, "old"),
        (2, "after"),
    ]
    [(line, not_quoted)] = two.problems
    assert line == 4 and not_quoted.startswith("not a quoted regex after ###: oops")
    [(line, bad)] = three.problems
    assert line == 6 and bad.startswith("bad regex '('")
    assert check_case(three, ())[0].startswith(f"{three.where(6)}: bad regex")


def test_harness_finds_missing_unexpected_and_misplaced_errors(tmp_path: Path) -> None:
    path = tmp_path / "t.rules"
    text = 'first\n---\na ### "unknown .*x"\nb ### "p" "q"\nc\n'
    path.write_text(text, encoding="utf-8")
    _first, case = read_cases(path)
    name = str(path)

    def diag(line: int, message: str, file: str = name, col: int = 3) -> Diagnostic:
        return Diagnostic("E101", message, rulelang.diagnostics.Span(file, line, col))

    good = (diag(3, "unknown name x"), diag(4, "q"), diag(4, "p"))
    assert check_case(case, good) == []
    # the whole-file error at 1:1 belongs to the first line of the case
    assert check_case(case, (*good, diag(1, "whole", col=1))) == [
        f"{case.where(3)}: unexpected error[E101] 'whole'"
    ]
    [missing] = check_case(case, good[:2])
    assert missing.startswith(f'{case.where(4)}: expected an error matching "p"')
    assert ":4: case 2 (lines 3-5)" in missing
    [extra] = check_case(case, (*good, diag(5, "surprise")))
    assert extra == f"{case.where(5)}: unexpected error[E101] 'surprise'"
    [outside] = check_case(case, (*good, diag(1, "first", col=2)))
    assert "outside the case" in outside
    [elsewhere] = check_case(case, (*good, diag(2, "base", file="base.rules")))
    assert "not in the snippet" in elsewhere
    # one error cannot meet two expectations
    assert len(check_case(case, (good[0], diag(4, "p q")))) == 1
    # a code, when written, must match too
    assert Expect(1, "E102", re.compile("x")).matches(diag(1, "x")) is False


# --------------------------------------------------------------------------- hints
def test_unknown_name_has_did_you_mean_hint() -> None:
    case = find_case("unknown_names.rules", "set totl += x")
    err = compile_case(case)
    [diag] = err.diagnostics
    assert diag.code == "E101"
    assert "'totl'" in diag.message
    assert diag.hint == "did you mean 'total'?"
    assert (diag.span.line, diag.span.col) == (line_of(case, "set totl += x"), 7)
    assert "= hint: did you mean 'total'?" in str(err)


def test_unknown_name_inside_text_interpolation_has_hint_and_column() -> None:
    case = find_case("unknown_names.rules", "has {totl} points")
    first = compile_case(case).diagnostics[0]
    line = case.text.splitlines()[first.span.line - 1]
    assert first.hint == "did you mean 'total'?"
    assert line[first.span.col - 1 :].startswith("totl")


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("do scroe", "did you mean 'score'?"),
        ("leader: plyer", "did you mean 'player'?"),
        ("lenght([1, 2])", "did you mean 'len'?"),
        ("import dise", "did you mean 'dice'?"),
        ("track.pionts", "did you mean 'points'?"),
    ],
)
def test_did_you_mean_hints(text: str, hint: str) -> None:
    err = compile_case(find_case("unknown_names.rules", text))
    assert [d.hint for d in err.diagnostics] == [hint]


def test_every_misspelling_has_its_own_hint() -> None:
    err = compile_case(find_case("collect_all.rules", "do scroe"))
    assert [d.hint for d in err.diagnostics] == [
        "did you mean 'player'?",
        "did you mean 'total'?",
        "did you mean 'len'?",
        "did you mean 'score'?",
        "did you mean 'total'?",
    ]


def test_no_hint_when_nothing_is_close() -> None:
    err = compile_case(find_case("unknown_names.rules", "for i in 1..3"))
    assert [d.hint for d in err.diagnostics] == [""]
    assert "hint" not in str(err)


def test_variant_duplicate_suggests_override() -> None:
    err = compile_case(find_case("variants.rules", "already defined in the base"))
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
    case = find_case("unknown_names.rules", "set totl += x")
    err = compile_case(case)
    n = line_of(case, "set totl += x")
    lines = str(err).splitlines()
    assert lines[0] == f"{case.path}:{n}:7: error[E101]: unknown variable 'totl'"
    assert lines[1] == f"{n:>4} |   set totl += x ### \"unknown variable 'totl'\""
    assert lines[2] == " " * 13 + "^^^^"
    _check_rendering(err, str(case.path))


SYNTAX_CASES = [case for case in CASES if case.path.name == "syntax.rules"]


@pytest.mark.parametrize("case", SYNTAX_CASES, ids=lambda c: c.name)
def test_syntax_errors_render_without_lark_wording(case: Case) -> None:
    err = compile_case(case)
    assert [d.code[:2] for d in err.diagnostics] == ["E0"]  # one error, of the syntax family
    _check_rendering(err, str(case.path))


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
    case = find_case("collect_all.rules", "phase orphan")
    assert case.first == 1  # its error at 1:1 quotes the case's own first line
    err = compile_case(case)
    codes = [d.code for d in err.diagnostics]
    assert Counter(codes) == Counter(
        ["E302", "E201", "E101", "E108", "E202", "E303", "E304", "E301"]
    )
    # sorted by position, each rendered with its own header and caret
    positions = [(d.span.line, d.span.col) for d in err.diagnostics]
    assert positions == sorted(positions)
    _check_rendering(err, str(case.path))


def test_errors_from_several_passes_are_collected() -> None:
    # declare (E102), resolve (E101, E234), values (E241) and flow (E304) in one file
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
    assert got == [("E101", 10), ("E102", 5), ("E234", 11), ("E241", 3), ("E304", 8)]


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
    assert (diag.code, diag.span.line) == ("E112", 3)
    base = str((SNIPPETS / "bases" / "base.rules").resolve())
    assert f"{base}:4:1" in diag.message


def test_missing_rule_file_raises_file_not_found(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        rulelang.compile_file(tmp_path / "nope.rules")


@pytest.mark.parametrize(
    ("snippet", "marker"),
    [("duplicates.rules", "turn { set total += 2 }"), ("phases.rules", "(main-beside)")],
)
def test_a_turn_outside_phases_is_named_as_the_phase_main(snippet: str, marker: str) -> None:
    """A second top-level `turn`, or one beside phases, was reported as "'main' is
    defined twice" or "phase 'main' is never reached", a name the file never writes:
    the hint now says what 'main' is."""
    err = compile_case(find_case(snippet, marker))
    hints = [d.hint for d in err.diagnostics]
    assert len(hints) == 1 and "a 'turn' written outside any phase is the phase 'main'" in hints[0]
