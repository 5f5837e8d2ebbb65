"""The rulebook generated from a rule file (`rulelang rulebook`, rulelang/rulebook/).

Golden files: the Markdown rulebook of every shipped game, and the HTML page of two,
read by a person once. After an intended change (or after the shipped rule files are
reformatted: the rulebooks cite their lines), regenerate with:
    RULELANG_UPDATE_GOLDEN=1 python -m pytest tests/test_rulebook.py
"""

from __future__ import annotations

import difflib
import functools
import os
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest
from cli_support import cli, no_traceback

import rulelang
from rulelang.rulebook import build, markdown, page

ROOT = Path(__file__).resolve().parent.parent
RULESETS = ROOT / "rulesets"
GOLDEN = Path(__file__).resolve().parent / "golden" / "rulebook"
GAMES = sorted(
    [*RULESETS.glob("*.rules"), *(RULESETS / "examples").glob("*.rules")],
    key=lambda p: p.name,
)
HTML_GOLDEN = ["tictactoe.rules", "heimlich-quick.rules"]


@functools.cache
def compiled(path: Path) -> rulelang.Ruleset:
    """A shipped game compiled once for the module (a copy in tmp_path is new each time)."""
    return rulelang.compile_file(path)


def md(path: Path, options: dict[str, str] | None = None) -> str:
    ruleset = compiled(path)
    return markdown.render(build.build(ruleset, str(path), options))


def html(path: Path, highlight: bool = False) -> str:
    ruleset = compiled(path)
    return page.render(build.build(ruleset, str(path)), highlight=highlight)


def check_golden(name: str, text: str) -> None:
    golden = GOLDEN / name
    if os.environ.get("RULELANG_UPDATE_GOLDEN"):
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(text, encoding="utf-8")
    assert golden.exists(), f"no golden file {name}; run with RULELANG_UPDATE_GOLDEN=1"
    assert text == golden.read_text(encoding="utf-8")


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_the_markdown_rulebook_of_every_shipped_game_matches_its_golden_file(path: Path) -> None:
    check_golden(path.stem + ".md", md(path))


@pytest.mark.parametrize("name", HTML_GOLDEN)
def test_the_html_rulebook_matches_its_golden_file(name: str) -> None:
    path = next(p for p in GAMES if p.name == name)
    check_golden(path.stem + ".html", html(path))


def test_every_shipped_game_has_a_golden_rulebook_and_no_golden_is_stale() -> None:
    expected = {p.stem + ".md" for p in GAMES} | {Path(n).stem + ".html" for n in HTML_GOLDEN}
    assert {p.name for p in GOLDEN.iterdir()} == expected


# ---------------------------------------------------------------- a rule changed


def changed_lines(before: str, after: str) -> tuple[list[str], list[str]]:
    """The lines only `before` has, and those only `after` has."""
    diff = list(difflib.ndiff(before.splitlines(), after.splitlines()))
    return (
        [d[2:] for d in diff if d.startswith("- ")],
        [d[2:] for d in diff if d.startswith("+ ")],
    )


def copy_game(tmp_path: Path, name: str, pattern: str, replacement: str) -> Path:
    """A copy of a shipped game (with its data files) with one rule changed: the first
    match of `pattern` (a regex) replaced, wherever the line lies in the file."""
    for data in RULESETS.glob("*.yaml"):
        shutil.copy(data, tmp_path / data.name)
    text = (RULESETS / name).read_text(encoding="utf-8")
    new, n = re.subn(pattern, replacement, text, count=1)
    assert n == 1, f"{pattern!r} not found in {name}"
    copy = tmp_path / name
    copy.write_text(new, encoding="utf-8")
    return copy


def test_a_hand_size_changed_in_a_copy_of_saboteur_changes_that_row_of_the_setup_and_nothing_else(
    tmp_path: Path,
) -> None:
    """Seed 000: "Hand size: 3-5 players: 6 cards" -- played with 7 instead, the
    rulebook's table of what depends on the number of players says 7 for 3, 4 and 5
    players, and no other line of the rulebook changes."""
    base = tmp_path / "base"
    base.mkdir()
    same = copy_game(base, "saboteur.rules", r"(?<=table hand_size \{ 3\.\.5: )6", "6")
    changed = copy_game(tmp_path, "saboteur.rules", r"(?<=table hand_size \{ 3\.\.5: )6", "7")
    gone, added = changed_lines(md(same), md(changed))
    assert gone == ["| hand size | 6 | 6 | 6 | 5 | 5 | 4 | 4 | 4 |"]
    assert added == ["| hand size | 7 | 7 | 7 | 5 | 5 | 4 | 4 | 4 |"]


def test_a_winning_score_changed_in_a_copy_of_heimlich_changes_the_options_and_the_end_rule(
    tmp_path: Path,
) -> None:
    """Seed 003: the game ends when an agent reaches 42 points. With 50 written in the
    rule file, the options table and the end rule say 50, and nothing else changes."""
    changed = copy_game(tmp_path, "heimlich.rules", r"(?<=param win_score = )42", "50")
    base = tmp_path / "base"
    base.mkdir()
    same = copy_game(base, "heimlich.rules", r"(?<=param win_score = )42", "42")
    gone, added = changed_lines(md(same), md(changed))
    assert len(gone) == len(added) == 2
    assert [line.replace("42", "50") for line in gone] == added
    assert any(line.startswith("| win_score | 50 |") for line in added)
    assert any("The game ends when" in line and "`win_score` (50)" in line for line in added)


def test_an_option_given_changes_the_rulebook_as_the_rule_file_would() -> None:
    """`-o win_score=50` gives the rulebook of the game played with that option: the
    value is used wherever the rules read it, and the options table says it was set."""
    path = RULESETS / "heimlich.rules"
    gone, added = changed_lines(md(path), md(path, {"win_score": "50"}))
    assert len(added) == 2
    assert "| win_score | 50 (set with -o) |" in added[0]
    assert "`win_score` (50)" in added[1]


def test_the_track_of_heimlich_is_listed_and_drawn_from_the_board_declaration(
    tmp_path: Path,
) -> None:
    """Seed 003: twelve buildings in a ring, from the church to the ruin. A ring of one
    more building in a copy gives a list (and a drawing) of thirteen spaces."""
    changed = copy_game(
        tmp_path,
        "heimlich.rules",
        r'"building 10", "ruin"\]\)(\s*)\{(\s*)points = \[([^\]]*), -3\]',
        r'"building 10", "annex", "ruin"])\1{\2points = [\3, 11, -3]',
    )
    text = md(changed)
    assert "is a ring of 13 spaces, in order: church, building 1," in text
    assert "building 10, annex, ruin; after the last comes the first again." in text
    assert "| annex | 11 |" in text
    svg = page.render(build.build(rulelang.compile_file(changed), str(changed)), highlight=False)
    assert svg.count("<circle cx=") == 13 + 1  # the spaces, and the ring they lie on
    assert "annex" not in md(RULESETS / "heimlich.rules")


# ---------------------------------------------------------------- what it says


def test_a_choice_lists_the_conditions_that_make_it_legal_in_the_rule_files_words() -> None:
    """Every `require ... else "reason"` of a choice is under it, with its reason."""
    text = md(RULESETS / "heimlich.rules")
    choice = text.index("chooses `target` from every space of `town`")
    rest = text[choice : text.index("\n", text.index("\n", choice) + 1)]
    assert "Allowed only if `target` is not `safe`; otherwise: “the safe must move" in rest


def test_a_variant_marks_what_it_changes_and_adds_against_its_base() -> None:
    text = md(RULESETS / "saboteur-official.rules")
    assert "A variant of saboteur.rules" in text
    assert "### round roles (changed in this variant)" in text
    assert "### repair (c, patient) (changed in this variant)" in text
    assert "\n### play path (c)\n" in text  # as in the base: no mark
    assert "(saboteur.rules line " in text  # what comes from the base cites the base
    added = md(RULESETS / "saboteur-stoneseekers.rules")
    assert "### finish (how) (new in this variant)" in added
    plain = md(RULESETS / "saboteur.rules")
    assert "in this variant" not in plain and "A variant of" not in plain


def test_every_paragraph_cites_its_rule_line_and_the_line_is_that_rule() -> None:
    """Each "(rules line N)" of the choices points at the line that holds the `choose`."""
    path = RULESETS / "heimlich.rules"
    lines = path.read_text(encoding="utf-8").splitlines()
    text = md(path)
    cited = re.findall(r"chooses `(\w+)` .*\(rules line (\d+)\)", text)
    assert len(cited) == sum(line.lstrip().startswith("choose ") for line in lines) > 0
    for var, line in cited:
        assert f"choose {var} in" in lines[int(line) - 1]


# ---------------------------------------------------------------- the HTML page

EVIL = """# A <script>alert(1)</script> game & "friends"
game "<b>Bold</b> & <i>co</i>"
players 2..2
param n = 3 "<img src=x onerror=alert(1)>"
global { x: int = 0 }  # <iframe>
turn {
  choose k in 1..n require k != 2 else "not </p><script>2</script>"
    prompt "pick <u>one</u>"
  set x = k
}
end when x == 3 { win players }
"""


class Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.ids: set[str] = set()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        found = dict(attrs)
        if found.get("id"):
            self.ids.add(str(found["id"]))
        if (found.get("href") or "").startswith("#"):
            self.hrefs.append(str(found["href"])[1:])


def test_every_text_from_the_rule_file_is_escaped_in_the_page(tmp_path: Path) -> None:
    path = tmp_path / "evil.rules"
    path.write_text(EVIL, encoding="utf-8")
    text = html(path, highlight=True)
    parser = Tags()
    parser.feed(text)
    assert not {"script", "img", "iframe", "b", "i", "u"} & set(parser.tags)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert "not &lt;/p&gt;&lt;script&gt;2&lt;/script&gt;" in text


@pytest.mark.parametrize(
    "name", ["saboteur-official.rules", "labyrinth.rules", "heimlich-topsecret.rules"]
)
def test_every_link_of_the_page_leads_to_an_anchor_of_the_page(name: str) -> None:
    parser = Tags()
    parser.feed(html(RULESETS / name))
    assert parser.hrefs
    assert not set(parser.hrefs) - parser.ids
    assert sum(bool(re.fullmatch(r"f\d+-\d+", h)) for h in parser.hrefs) > 50  # lines cited


# ---------------------------------------------------------------- the command


def test_the_command_writes_markdown_or_html_by_the_file_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = RULESETS / "heimlich.rules"
    code, out, _err = cli(capsys, "rulebook", game)
    assert code == 0 and out.startswith("# Heimlich & Co\n")
    code, out, _err = cli(
        capsys, "rulebook", game, "--out", tmp_path / "r.html", "-o", "win_score=50"
    )
    assert code == 0
    written = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert written.startswith("<!DOCTYPE html>") and "50 (set with -o)" in written
    code, _out, _err = cli(capsys, "rulebook", game, "--out", tmp_path / "r.md")
    assert code == 0 and (tmp_path / "r.md").read_text(encoding="utf-8") == md(game)


@pytest.mark.parametrize(
    "args, code, message",
    [
        (["--out", "rules.txt"], 64, "name a .html or a .md file"),
        (["-o", "nope=1"], 64, "unknown option 'nope'"),
        (["-o", "win_score=many"], 64, "needs a whole number"),
        (["--out", "no/such/folder/r.md"], 64, "there is no folder"),
        (["--out", "/proc/r.md"], 64, "the folder /proc cannot be written to"),
    ],
)
def test_the_command_refuses_bad_usage_with_one_line_and_exit_64(
    capsys: pytest.CaptureFixture[str], args: list[str], code: int, message: str
) -> None:
    got, out, err = cli(capsys, "rulebook", RULESETS / "heimlich.rules", *args)
    assert got == code and message in err and out == ""
    no_traceback(out, err)


def test_the_command_on_a_library_or_an_invalid_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _out, err = cli(capsys, "rulebook", ROOT / "stdlib" / "turns.rules")
    assert code == 64 and "library" in err
    bad = tmp_path / "bad.rules"
    bad.write_text('game "x"\nplayers 2..2\nturn { set y = 1 }\n', encoding="utf-8")
    code, _out, err = cli(capsys, "rulebook", bad)
    assert code == 65 and "bad.rules:3" in err
    no_traceback(err)
    negative = tmp_path / "negative.rules"  # valid, but a count the table cannot hold
    negative.write_text(
        'game "x"\nplayers 2..2\nparam n = 3 "n"\npiece p count n - 5 { v: int = 0 }\n'
        "global { k: int = 0 }\nturn { set k = 1 }\nend when k == 1 { win players }\n",
        encoding="utf-8",
    )
    code, _out, err = cli(capsys, "rulebook", negative)
    assert code == 70 and "R020" in err and "negative.rules:4" in err
    no_traceback(err)


def test_commands_in_a_comment_are_not_read_to_the_players(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A comment line indented past its `#` (`#   rulelang play ...`, as `rulelang new`
    writes them) is an example for the designer: the rulebook leaves it out and keeps
    the words around it."""
    monkeypatch.chdir(tmp_path)
    code, _out, err = cli(capsys, "new", "short", "--from", "saboteur")
    assert code == 0, err
    assert "#   rulelang play" in (tmp_path / "short.rules").read_text()
    text = md(tmp_path / "short.rules")
    assert "rulelang play short.rules" not in text and "rulelang validate" not in text
    assert 'a variant of the shipped game "saboteur"' in text


def test_names_differing_only_in_case_have_sections_of_their_own(tmp_path: Path) -> None:
    """Before, procs `Deal` and `deal` both had the id proc-deal: the link to `deal`
    led to `Deal`'s section, in Markdown and HTML."""
    path = tmp_path / "case.rules"
    path.write_text(
        'game "case"\nplayers 2..2\nglobal { n: int = 0 }\n'
        "proc Deal { set n += 1 }\nproc deal { set n += 2 }\n"
        "turn { choose x in [1, 2]\n  if x == 1 { do Deal } else { do deal } }\n"
        "end when n > 3 { win players }\n",
        encoding="utf-8",
    )
    text = md(path)  # the viewer's ids of the headings: the second "deal" is deal-1
    assert "see [Deal](#deal)" in text and "see [deal](#deal-1)" in text
    assert "\n### Deal\n" in text and "\n### deal\n" in text
    ids = re.findall(r" id='([^']+)'", html(path))
    assert len(ids) == len(set(ids))


def test_items_numbered_one_after_the_other_are_one_row(tmp_path: Path) -> None:
    """A card of each value from 1 to 30 is one row ("1 each", "1 to 30"), not thirty;
    a value apart from its run, a run shorter than three, and a count that changes
    keep their rows."""
    path = tmp_path / "lots.rules"
    path.write_text(
        'game "Lots"\nplayers 2..4\n'
        "card house count 30 { value: int = index + 1 }\n"
        "card cheque count 12 { worth: int = if index < 2 then 0 else index / 2 + 1 }\n"
        "card odd count 4 { pips: int = [1, 2, 7, 9][index] }\n"
        "turn { choose n in 1..2 }\nend when turn_number > 3 { draw players }\n",
        encoding="utf-8",
    )
    text = md(path)
    assert "| 1 each | 1 to 30 |" in text
    assert "| 2 | 0 |\n| 2 each | 2 to 6 |" in text  # 0, 0, then 2, 2, 3, 3, ... 6, 6
    assert "| 1 | 1 |\n| 1 | 2 |\n| 1 | 7 |\n| 1 | 9 |" in text  # no run of three


def test_the_line_others_read_of_a_secret_is_said(tmp_path: Path) -> None:
    """A `log ... else ...` gives two lines; the rulebook says both and who reads the
    second: the others for a secret choice or roll, every player for a pick that is not
    secret (the game master reads the first)."""
    path = tmp_path / "told.rules"
    path.write_text(
        'game "Told"\nplayers 2..3\ndie d6 = [1, 2, 3, 4, 5, 6]\n'
        "turn {\n"
        '  choose n in 1..2 secret log "{current} lays {n}" else "{current} lays a card"\n'
        '  roll r = d6 secret log "{current} rolls {r}" else "{current} rolls in secret"\n'
        '  pick q in [1, 2] log "{q} is drawn" else "a number is drawn"\n'
        '  roll s = d6 log "{s} shows"\n'
        "}\nend when turn_number > 3 { draw players }\n",
        encoding="utf-8",
    )
    text = md(path)
    others = "; those who may not see it read"
    assert f"The log says “{{current}} lays {{n}}”{others} “{{current}} lays a card”." in text
    assert f"The log says “{{current}} rolls {{r}}”{others} “{{current}} rolls in secret”." in text
    master = "The game master's log says “{q} is drawn”;"
    assert f"{master} the players read “a number is drawn”." in text
    assert "call the result `s`. The log says “{s} shows”." in text


def test_the_size_of_a_zone_counts_its_cards_or_pieces(tmp_path: Path) -> None:
    path = tmp_path / "sizes.rules"
    path.write_text(
        'game "Sizes"\nplayers 2..3\ncard c count 6 { }\npiece pawn count 2 { }\n'
        "zone pile: c\nzone hand: c per player\nzone box: pawn\n"
        "player { seen: list(int) = [] }\n"
        "turn {\n  let pile2 = [1, 2]\n"
        "  choose n in 1..len(hand[current]) + len(box) + len(pile2) + len(current.seen)\n}\n"
        "end when len(pile) == 0 { draw players }\n",
        encoding="utf-8",
    )
    text = md(path)
    assert "the number of cards in the current player's `hand`" in text
    assert "the number of pieces in `box`" in text
    assert "the number of cards in `pile` is 0" in text
    assert "the number of `pile2`" in text  # a list, not a zone: no cards to count
    assert "the number of the current player's seen" in text
