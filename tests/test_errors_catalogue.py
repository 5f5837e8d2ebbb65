"""The error catalogue (rulelang/errors.py) and its page (docs/errors.md) agree.

Every code of the catalogue has a section `### CODE title` on the page, under the
heading of its family, with the catalogue's title; every section is a code of the
catalogue. Each section's example really gives its code: a static example compiles
with errors all of that code, a runtime example compiles and, played with the fewest
players and the first legal action each time, stops with that code. The message shown
after the example (`→ message`) is the message given. No module of rulelang but
errors.py writes a code.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import rulelang
from rulelang.cli import errors as cli_errors
from rulelang.diagnostics import Diagnostic, GameRuntimeError, RuleError, render
from rulelang.errors import CATALOGUE, FAMILIES

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "errors.md"
HEADING = re.compile(r"^(#{2,3}) (.*)$", re.M)
SECTION = re.compile(r"([EWR]\d{3}) (.+)")
FENCE = re.compile(r"((?:<!--[^\n]*-->\n)*)```(\w+)\n(.*?)^```[ \t]*$", re.S | re.M)
FILE = re.compile(r"<!-- file: (\S+) -->")
GIVES = re.compile(r"^→ `(.*)`(?: \(hint: `(.*)`\))?$", re.M)
CODE_LITERAL = re.compile(r"""["'][ERW]\d{3}["']""")
MAX_MOVES = 50


@dataclass
class Section:
    code: str
    title: str
    family: str  # the family heading it is under
    line: int
    example: str = ""
    language: str = ""
    files: dict[str, str] = field(default_factory=dict)
    message: str | None = None
    hint: str | None = None

    @property
    def rules(self) -> str:
        """The rule file of the example."""
        if self.language == "python":
            namespace: dict[str, object] = {}
            exec(self.example, namespace)  # noqa: S102 - the page's own example
            rules = namespace["RULES"]
            assert isinstance(rules, str)
            return rules
        return skeleton(self.example)


def sections() -> list[Section]:
    text = DOC.read_text(encoding="utf-8")
    heads = list(HEADING.finditer(text))
    out: list[Section] = []
    family = ""
    for i, m in enumerate(heads):
        level, title = m.group(1), m.group(2)
        if level == "##":
            family = title
            continue
        found = SECTION.fullmatch(title)
        assert found, f"docs/errors.md: a section that is not '### CODE title': {title}"
        end = heads[i + 1].start() if i + 1 < len(heads) else len(text)
        body = text[m.end() : end]
        s = Section(found[1], found[2], family, text[: m.start()].count("\n") + 1)
        for block in FENCE.finditer(body):
            name = FILE.search(block.group(1))
            if name:
                s.files[name.group(1)] = block.group(3)
            else:
                assert not s.example, f"{s.code}: two examples"
                s.example, s.language = block.group(3), block.group(2)
        gives = GIVES.search(body)
        if gives:
            s.message, s.hint = gives.group(1), gives.group(2)
        out.append(s)
    return out


SECTIONS = sections()


def skeleton(src: str) -> str:
    """A part of a rule file made a whole one (appended: line numbers stay)."""
    if re.search(r"^game\b", src, re.M):
        return src
    out = src
    if not re.search(r"^players\s", src, re.M):
        out += "\nplayers 2..4\n"
    if not re.search(r"^(turn|phase)\b", src, re.M):
        out += "\nturn { choose skeleton_ok in [1] }\n"
    if not re.search(r"^end\s+when\b", src, re.M):
        out += "\nend when false { }\n"
    return out


# --------------------------------------------------------------------------- the two lists
def test_every_code_of_the_catalogue_is_on_the_page_and_the_other_way_round() -> None:
    on_page = [s.code for s in SECTIONS]
    assert len(on_page) == len(set(on_page)), "a code has two sections"
    assert set(on_page) == set(CATALOGUE), (
        f"missing on the page: {sorted(set(CATALOGUE) - set(on_page))}; "
        f"not in the catalogue: {sorted(set(on_page) - set(CATALOGUE))}"
    )
    assert on_page == sorted(on_page, key=lambda c: ("ERW".index(c[0]), c)), "out of order"


@pytest.mark.parametrize("section", SECTIONS, ids=lambda s: s.code)
def test_each_section_has_the_catalogues_title_family_and_an_example(section: Section) -> None:
    entry = CATALOGUE[section.code]
    assert section.title == entry.title, f"docs/errors.md:{section.line}"
    assert section.family.lower().startswith(entry.family), f"docs/errors.md:{section.line}"
    assert section.example, f"docs/errors.md:{section.line}: {section.code} has no example"
    assert section.language in ("rulelang", "python")
    if entry.severity == "error" and not entry.runtime:
        assert section.code[1] in "0123", section.code
    assert section.message is not None, f"docs/errors.md:{section.line}: no '→ `message`'"


def test_the_families_are_those_of_the_page() -> None:
    text = DOC.read_text(encoding="utf-8")
    for prefix, family in FAMILIES.items():
        assert f"| {prefix}xx" in text or f"| {prefix}xxx" in text, prefix
        assert f"| {family} |" in text, family


def test_the_exit_codes_are_on_the_page() -> None:
    text = DOC.read_text(encoding="utf-8")
    for name in dir(cli_errors):
        if name.startswith("EX_"):
            assert f"\n| {getattr(cli_errors, name)} |" in text, name


# --------------------------------------------------------------------------- the examples
def _normal(message: str, folder: Path) -> str:
    """A message as the page shows it: paths relative to the example's folder."""
    return message.replace(str(folder) + "/", "")


def _static(section: Section, folder: Path) -> list[Diagnostic]:
    path = folder / "example.rules"
    path.write_text(section.rules, encoding="utf-8")
    with pytest.raises(RuleError) as info:
        rulelang.compile_file(path)
    return [d for d in info.value.diagnostics if d.severity == "error"]


def _runtime(section: Section, folder: Path) -> GameRuntimeError:
    path = folder / "example.rules"
    path.write_text(section.rules, encoding="utf-8")
    rules = rulelang.compile_file(path)
    with pytest.raises(GameRuntimeError) as info:
        game = rules.new_game(rules.min_players, seed=1)
        for _ in range(MAX_MOVES):
            if game.is_over():
                break
            game.apply(game.legal_actions()[0])
    return info.value


@pytest.mark.parametrize("section", SECTIONS, ids=lambda s: s.code)
def test_each_example_gives_its_code_and_message(
    section: Section, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    for name, text in section.files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    where = f"docs/errors.md:{section.line}"
    if section.code in ("R010", "R031"):
        return  # played by rulelang simulate: see the tests below
    if CATALOGUE[section.code].runtime:
        err = _runtime(section, tmp_path)
        assert err.code == section.code, f"{where}: {err}"
        assert _normal(err.message, tmp_path) == section.message, where
        if section.hint is not None:
            assert err.hint == section.hint, where
        return
    found = _static(section, tmp_path)
    assert found, where
    assert {d.code for d in found} == {section.code}, f"{where}: " + "\n".join(
        render(d) for d in found
    )
    assert _normal(found[0].message, tmp_path) == section.message, where
    if section.hint is not None:
        assert found[0].hint == section.hint, where


def simulate_example(
    code: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], *options: str
) -> tuple[Section, int, str]:
    """The example of `code` simulated once (with options that keep it quick): its
    section, the exit code and what was printed on stderr."""
    from rulelang.cli.main import run

    [section] = [s for s in SECTIONS if s.code == code]
    path = tmp_path / "example.rules"
    path.write_text(section.rules, encoding="utf-8")
    exit_code = run(["simulate", str(path), "-p", "2", "-n", "1", *options])
    return section, exit_code, capsys.readouterr().err


def test_the_example_of_r010_never_ends_under_simulate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Played with fewer decisions than the default (--max-decisions), to stay quick."""
    section, code, err = simulate_example("R010", tmp_path, capsys, "--max-decisions", "200")
    assert code == cli_errors.EX_SOFTWARE
    assert "runtime error[R010]" in err
    assert section.message is not None
    said = section.message.partition(" did not end")[2].replace("100000", "200")
    assert said and said in err
    assert section.hint is not None and f"= hint: {section.hint}" in err


def test_the_example_of_r031_stops_a_bot_under_simulate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Played with a smaller step budget than the default (--max-steps), to stay quick."""
    section, code, err = simulate_example("R031", tmp_path, capsys, "--max-steps", "300")
    assert code == cli_errors.EX_SOFTWARE
    assert section.message is not None and section.hint is not None
    assert f"runtime error[R031]: {section.message.replace('100000', '300')}" in err
    assert f"= hint: {section.hint}" in err


# --------------------------------------------------------------------------- one place
def test_no_module_but_the_catalogue_writes_a_code() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in sorted((ROOT / "rulelang").rglob("*.py"))
        if path.name != "errors.py" or path.parent.name != "rulelang"
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if CODE_LITERAL.search(line)
    ]
    assert not found, "codes are written only in rulelang/errors.py:\n" + "\n".join(found)


def test_each_code_is_one_kind_of_message() -> None:
    assert all(re.fullmatch(r"[ERW]\d{3}", code) for code in CATALOGUE)
    titles = [e.title for e in CATALOGUE.values()]
    assert len(titles) == len(set(titles)), "two codes with one title"


# --------------------------------------------------------------------------- one renderer


def test_runtime_and_static_errors_render_the_same_way() -> None:
    text = 'game "t"\nplayers 2..2\nglobal { x: int = 0 }\nturn {\n  choose n in [0]\n'
    text += "  set x = 12 / n\n}\nend when false { }\n"
    rules = rulelang.compile_source(text, "r.rules")
    game = rules.new_game(2)
    with pytest.raises(GameRuntimeError) as info:
        game.apply("0")
    err = info.value
    shown = render(err.diagnostic, rules.program.sources)
    assert shown.splitlines() == [
        "r.rules:6:11: runtime error[R005]: division by zero",
        "   6 |   set x = 12 / n",
        "                 ^^^^^^",
    ]
    assert str(err) == shown.splitlines()[0]
    assert cli_errors.runtime_error(err, rules.program.sources).message == shown


def test_every_error_rulelang_raises_is_a_rulelang_error() -> None:
    from rulelang.loader import Refused
    from rulelang.storage.saves import SaveError

    for cls in (
        rulelang.RuleError,
        rulelang.UsageError,
        rulelang.GameRuntimeError,
        rulelang.ReplayError,
        Refused,
        SaveError,
    ):
        assert issubclass(cls, rulelang.RulelangError), cls


def test_a_node_computed_in_play_is_checked_not_wrapped() -> None:
    """R007: -1 is not the last node, and a node past the end is not a crash."""
    text = """game "t"
players 2..2
board town = ring(["church", "inn", "mill", "ruin"])
board track = line(4)
global { here: node(town) = 0  at: node(track) = 0 }
proc go(to: node(town)) { set here = to }
turn {
  choose k in -1..5
  if k == 0 { set here = step(town, k - 1, 1) }
  if k == 1 { say "{distance(town, k * 10, 0)}" }
  if k == 2 { do go(k + 2) }
  if k == 3 { set at += k * 2 }
  if k == 4 { let n: node(town) = k }
  if k == 5 { set here = step(town, here, k) }
}
end when false { }
"""
    rules = rulelang.compile_source(text, "nodes.rules")
    for k, line in [(0, 9), (1, 10), (2, 11), (3, 12), (4, 13)]:
        game = rules.new_game(2, seed=1)
        with pytest.raises(GameRuntimeError) as info:
            game.apply(str(k))
        assert (info.value.code, info.value.span.line) == ("R007", line), info.value
    game = rules.new_game(2, seed=1)
    game.apply("5")  # a node stepped from a node: no check, no wrap needed
    assert game.view(None)["globals"]["here"] == "inn"
