"""`rulelang fmt` (rulelang/fmt.py): one layout, comments kept where they are, the same
program before and after, and every shipped rule file already in that layout (the CI
check). Long runs sample mutants of the fuzzer (tests/fuzz/fuzz.py)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from cli_support import cli
from conftest import sample
from test_fuzz import _fuzz

from rulelang.diagnostics import RuleError
from rulelang.fmt import WIDTH, format_source, strip_spans
from rulelang.syntax.parser import parse

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = sorted(
    [*ROOT.glob("rulesets/*.rules"), *ROOT.glob("rulesets/examples/*.rules")]
    + [*ROOT.glob("stdlib/*.rules")]
)


def program(text: str) -> object:
    return strip_spans(parse(text))


# ---------------------------------------------------------------- the shipped files


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_every_shipped_rule_file_is_formatted(path: Path) -> None:
    """The CI check: `rulelang fmt --check rulesets stdlib` would change nothing."""
    text = path.read_text(encoding="utf-8")
    assert format_source(text, str(path)) == text


TOKEN_GAP = re.compile(r"(?<=[^\s])[ ]+(?=[^\s#])")


def jumbled(text: str, rng: random.Random) -> str:
    """The text with its spacing made a mess: gaps between tokens widened or closed
    (where closing cannot join two words), lines indented anyhow, blank lines doubled."""

    def gap(m: re.Match[str]) -> str:
        before, after = m.string[m.start() - 1], m.string[m.end()]
        wordy = before.isalnum() or before in '_"' or after.isalnum() or after in '_"'
        return " " * rng.choice([1, 3] if wordy else [0, 1, 3])

    out = []
    for line in text.split("\n"):
        body, comment = line.lstrip(" "), ""
        if "#" in body:
            body, comment = body[: body.index("#")], body[body.index("#") :]
        if '"' not in line:  # leave texts alone: their spaces are their words
            body = TOKEN_GAP.sub(gap, body)
        body += comment
        out.append(" " * rng.choice([0, 1, 2, 5, 8]) + body + " " * rng.choice([0, 0, 2]))
        if not body and rng.random() < 0.5:
            out.append("")
    return "\n".join(out)


@pytest.mark.long
def test_a_jumbled_shipped_file_formats_to_the_same_program(full: bool) -> None:
    """Every shipped file with --full; by default those under 100 lines (each file costs
    four parses)."""
    short = [p for p in SHIPPED if len(p.read_text(encoding="utf-8").splitlines()) < 100]
    for path in SHIPPED if full else short:
        text = path.read_text(encoding="utf-8")
        messy = jumbled(text, random.Random(path.name))
        assert messy != text
        out = format_source(messy, str(path))
        assert program(out) == program(text), path
        assert format_source(out) == out, path  # idempotent
        assert comments(out) == comments(text), path
        assert len(out.splitlines()) == len(text.splitlines()), path


def comments(text: str) -> list[tuple[int, str]]:
    """(line, comment) of every comment: the text after a # outside a text."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        code = re.sub(r'"(?:[^"\\]|\\.)*"', lambda m: "x" * len(m[0]), line)
        if "#" in code:
            found.append((number, line[code.index("#") :]))
    return found


# ---------------------------------------------------------------- the layout


def test_spacing_indentation_and_blank_lines() -> None:
    messy = (
        '\n\ngame   "G"\nplayers 2..4\nconst xs=[1,2 ,-3]\ntable t {1:2,2..3:4}\n'
        "global {\n    n : int = 0\n}\n\n\n\ndef f(a:int,b:int)=a+b*-2\n"
        "setup{\n\n    add pieces( chip ) to pile\n  for i in 0..2{set n+=f(i,1)}\n\n}\n"
        "turn {\n    if n>3{ win [ current ] } elif n<0 {\n    draw players\n    } else {\n"
        "      set n = len(pile)-1\n    }\n}\n\n"
    )
    assert format_source(messy) == (
        'game "G"\nplayers 2..4\nconst xs = [1, 2, -3]\ntable t { 1: 2, 2..3: 4 }\n'
        "global {\n  n: int = 0\n}\n\ndef f(a: int, b: int) = a + b * -2\n"
        "setup {\n  add pieces(chip) to pile\n  for i in 0..2 { set n += f(i, 1) }\n}\n"
        "turn {\n  if n > 3 { win [current] } elif n < 0 {\n    draw players\n  } else {\n"
        "    set n = len(pile) - 1\n  }\n}\n"
    )


def test_comments_stay_on_their_lines() -> None:
    messy = (
        '# the game\ngame "G"   # its name\n  # players\nplayers 2..4\nturn {\n'
        'choose c in [1, 2]  # which\n      # the reason\n  require c > 0 else "no"\n'
        "# nothing left\n}\n"
    )
    out = format_source(messy)
    assert out == (
        '# the game\ngame "G"   # its name\n# players\nplayers 2..4\nturn {\n'
        '  choose c in [1, 2]  # which\n    # the reason\n    require c > 0 else "no"\n'
        "  # nothing left\n}\n"
    )
    assert comments(out) == comments(messy)


def test_a_trailing_comment_keeps_its_column_when_the_code_leaves_room() -> None:
    messy = "global {\n  a: int = 0          # first\n  bb:int=0             # second\n}\n"
    assert format_source(messy) == (
        "global {\n  a: int = 0          # first\n  bb: int = 0          # second\n}\n"
    )
    assert format_source("global {\n  long_name: int=0# tight\n}\n") == (
        "global {\n  long_name: int = 0  # tight\n}\n"
    )


def test_continuation_lines_keep_their_alignment() -> None:
    """Under the token they were aligned with, else at their offset from the statement;
    inside a bracket opened above, at least under its first item."""
    messy = (
        'turn {\n    choose c in [1, 2] require c>0 else "no"\n'
        '                       prompt "Which?"\n'
        "    choose d in [1,\n 2, 3]\n"
        '      require d > 0\n        else "no"\n}\n'
    )
    assert format_source(messy) == (
        'turn {\n  choose c in [1, 2] require c > 0 else "no"\n'
        '                     prompt "Which?"\n'
        "  choose d in [1,\n               2, 3]\n"
        '    require d > 0\n      else "no"\n}\n'
    )


def test_a_hanging_bracket_indents_its_items_one_step() -> None:
    text = "const lines = [\n[0, 1, 2],\n      [3, 4, 5]\n   ]\n"
    assert format_source(text) == "const lines = [\n  [0, 1, 2],\n      [3, 4, 5]\n]\n"


def test_a_long_list_is_broken_at_its_commas_to_fit_the_width() -> None:
    items = ", ".join(str(1000 + i) for i in range(30))
    out = format_source(f"const xs = [{items}]  # thirty\n")
    lines = out.splitlines()
    assert len(lines) > 1 and all(len(line) <= WIDTH for line in lines)
    assert lines[0].startswith("const xs = [1000, 1001,")
    assert all(line.startswith(" " * len("const xs = [") + "10") for line in lines[1:])
    assert lines[-1].endswith("]  # thirty")
    assert program(out) == program(f"const xs = [{items}]")
    assert format_source(out) == out


def test_long_parameters_are_broken_but_a_long_text_is_left_alone() -> None:
    params = ", ".join(f"parameter_{i}: int" for i in range(6))
    out = format_source(f"def f({params}) = 1\n")
    assert out.splitlines()[1].startswith(" " * len("def f(") + "parameter_")
    long_text = 'const greeting = "' + "x" * 120 + '"\n'
    assert format_source(long_text) == long_text


def test_keywords_written_like_calls_and_words_of_bot_rules_keep_their_space() -> None:
    text = (
        "def near(n: node(maze), s: list(int)) = n in nodes(maze) and (s == [])\n"
        "bot b {\n  when choosing c { prefer [c] least c }\n}\n"
    )
    assert format_source(text) == text


def test_a_file_that_does_not_parse_is_refused_with_the_syntax_error() -> None:
    with pytest.raises(RuleError) as err:
        format_source('game "x" set\n', "bad.rules")
    assert err.value.diagnostics[0].code == "E001"


# ---------------------------------------------------------------- fuzzed variants


@pytest.mark.long
def test_fuzzed_variants_format_to_the_same_program(full: bool) -> None:
    """Token mutations of the fuzzer that still parse, then jumbled: the formatted text
    is the mutant's program, and formatting it again changes nothing."""
    fuzz = _fuzz()
    rng = random.Random(7)
    texts = [p.read_text(encoding="utf-8") for p in SHIPPED]
    if not full:  # the short files: a mutant of the labyrinth costs a second to parse
        texts = [t for t in texts if len(t.splitlines()) < 100]
    tried = parsed = 0
    while parsed < sample(full, 400, 15):
        tried += 1
        mutant, _what = fuzz.m_token(rng, rng.choice(texts))
        try:
            before = program(mutant)
        except (RuleError, RecursionError):
            continue
        parsed += 1
        out = format_source(jumbled(mutant, rng))
        assert program(out) == before, _what
        assert format_source(out) == out, _what
    assert tried > parsed  # the mutations do break files; only those that parse count


# ---------------------------------------------------------------- the command


GAME = 'game "G"\nplayers 2..4\nturn {\n  pass\n}\nend when true {\n  draw players\n}\n'


def test_fmt_rewrites_a_file_and_check_then_passes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "g.rules"
    path.write_text(GAME.replace("  pass", "      pass"), encoding="utf-8")
    code, _out, err = cli(capsys, "fmt", "--check", path)
    assert code == 2 and f"would reformat {path}" in err
    assert "      pass" in path.read_text(encoding="utf-8")  # --check changes nothing
    code, out, err = cli(capsys, "fmt", "--diff", path)
    assert code == 0 and "-      pass\n+  pass\n" in out
    code, _out, err = cli(capsys, "fmt", path)
    assert code == 0 and f"reformatted {path}" in err
    assert path.read_text(encoding="utf-8") == GAME
    code, _out, err = cli(capsys, "fmt", "--check", path)
    assert code == 0 and "1 file already formatted" in err


def test_fmt_refuses_a_file_with_a_syntax_error_and_a_missing_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.rules"
    bad.write_text('game "x" set\n', encoding="utf-8")
    code, _out, err = cli(capsys, "fmt", bad)
    assert code == 65 and f"{bad}:1:10: error[E001]" in err and "Traceback" not in err
    assert bad.read_text(encoding="utf-8") == 'game "x" set\n'
    code, _out, err = cli(capsys, "fmt", tmp_path / "nowhere.rules")
    assert code == 64 and "no such rule file" in err


def test_a_layout_that_would_join_two_words_is_a_bug_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The safety net: were the layout to drop a needed space (`pass` `}` is fine, `end`
    `when` is not), the command stops as a bug in rulelang and leaves the file alone."""
    path = tmp_path / "g.rules"
    path.write_text(GAME.replace("  pass", "pass"), encoding="utf-8")
    monkeypatch.setattr("rulelang.fmt._gap", lambda prev, cur: "")
    code, _out, err = cli(capsys, "fmt", path)
    assert code == 1 and "formatting would change the rule text" in err
    assert path.read_text(encoding="utf-8") == GAME.replace("  pass", "pass")


def test_fmt_takes_a_folder_for_every_rule_file_in_it_and_below(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "sub").mkdir()
    for name in ("a.rules", "sub/b.rules"):
        (tmp_path / name).write_text(GAME.replace("  pass", "pass"), encoding="utf-8")
    (tmp_path / "notes.txt").write_text("  not a rule file\n", encoding="utf-8")
    code, _out, err = cli(capsys, "fmt", tmp_path)
    assert code == 0 and "2 files reformatted" in err
    assert (tmp_path / "sub/b.rules").read_text(encoding="utf-8") == GAME
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "  not a rule file\n"


def test_fmt_dash_formats_standard_input_to_standard_output(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO(GAME.replace("players 2..4", "players  2 .. 4")))
    code, out, _err = cli(capsys, "fmt", "-")
    assert code == 0 and out == GAME


def test_fmt_of_a_folder_without_rule_files_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`fmt --check` of a folder holding no rule file (a mistyped or emptied one)
    printed nothing and passed (exit 0), as if every file were formatted."""
    (tmp_path / "notes.txt").write_text("no rules here\n", encoding="utf-8")
    code, out, err = cli(capsys, "fmt", "--check", tmp_path)
    assert (code, out, err.strip()) == (64, "", f"error: no rule files (*.rules) in {tmp_path}")


def test_a_write_that_fails_half_way_leaves_the_rule_file_as_it_was(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """fmt rewrote a file in place: a disk that filled up half way through left the
    designer's rules cut in half. Now the new text goes to a file beside it, which
    replaces it once written whole; a link is followed, not replaced."""
    import os

    mine = GAME.replace("  pass", "pass")
    path = tmp_path / "g.rules"
    path.write_text(mine, encoding="utf-8")
    link = tmp_path / "link.rules"
    link.symlink_to(path)
    real_write = Path.write_text

    def disk_full(self: Path, data: str, *args: object, **kwargs: object) -> int:
        real_write(self, data[: len(data) // 2], encoding="utf-8")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Path, "write_text", disk_full)
    code, _out, err = cli(capsys, "fmt", path)
    assert code == 74 and "No space left on device" in err
    assert path.read_text(encoding="utf-8") == mine
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.rules", "link.rules"]
    monkeypatch.undo()
    os.chmod(path, 0o640)
    code, _out, err = cli(capsys, "fmt", link)
    assert code == 0, err
    assert link.is_symlink() and path.read_text(encoding="utf-8") == GAME
    assert os.stat(path).st_mode & 0o777 == 0o640


def test_a_file_named_twice_is_formatted_and_counted_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`rulelang fmt g.rules .` formatted g.rules twice: "1 file reformatted, 1 file
    already formatted" of one file."""
    (tmp_path / "g.rules").write_text(GAME.replace("  pass", "pass"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, _out, err = cli(capsys, "fmt", "g.rules", ".", "./g.rules")
    assert (code, err) == (0, "reformatted g.rules\n1 file reformatted.\n")
