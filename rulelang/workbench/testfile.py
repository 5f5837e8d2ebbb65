"""Reading a rule test file (`*.rulestest`, docs/testing.md): cases of lines, each
line a keyword and its text, checked here so that a malformed file is refused whole,
with its file and line, before anything runs."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from rulelang.diagnostics import RulelangError, did_you_mean
from rulelang.words import digits

SUFFIX = ".rulestest"
MAX_TEST_BYTES = 1024 * 1024  # a test file is read whole, as a rule file is

SETUP = {"players", "seed", "option"}
CHANCE = {"roll", "pick", "shuffle", "generate"}
EDITS = {"set", "move", "place", "reveal", "clear"}
CHECKS = {
    "play",
    "refuse",
    "options",
    "prompt",
    "to act",
    "expect",
    "log",
    "screen",
    "winners",
    "results",
    "over",
    "not over",
    "bot keeps",
    "ended by",
    "measure",
}
# the keywords a line may start with, longest first so "not over" wins over a name
KEYWORDS = sorted(SETUP | CHANCE | EDITS | CHECKS, key=len, reverse=True)
# the words a test writes where a player's name could stand (a viewer, the player to
# act, a value): no player may be named so
RESERVED = {"table", "the table", "nobody", "none", "hidden"}
SEES = re.compile(r"(?P<who>[^=:]+?) sees (?P<rest>.+)")
LOG = re.compile(
    r"(?P<what>log|screen)(?: to (?P<who>[^:]+?))?(?: (?P<how>includes|never))?:(?P<rest>.*)"
)


class Malformed(RulelangError):
    """A test file that cannot be read as one: where, and what is wrong."""

    def __init__(self, path: Path | str, line: int, message: str) -> None:
        super().__init__(f"{path}:{line}: {message}")
        self.path, self.line, self.message = str(path), line, message


@dataclass
class Line:
    """One line of a case: its number in the file, keyword, and the rest of it; `block`
    holds the `| ...` lines written under a line that ends with a colon."""

    number: int
    keyword: str
    rest: str
    text: str
    block: list[str] | None = None
    who: str = ""  # the viewer of `sees` and `log to`: a name, "table" or ""
    how: str = ""  # `log includes` / `log never`; `options include` / `options exclude`


@dataclass
class Case:
    name: str
    number: int
    lines: list[Line] = field(default_factory=list)


@dataclass
class TestFile:
    path: Path
    rules: str  # the rule file: a path relative to the test file, or a shipped game
    rules_line: int
    cases: list[Case]


def read(path: Path) -> TestFile:
    """The test file at `path`, or Malformed (also for a file that cannot be read)."""
    try:
        data = path.read_bytes()[: MAX_TEST_BYTES + 1]
    except OSError as exc:
        raise Malformed(path, 0, f"cannot read it: {exc.strerror}") from None
    if len(data) > MAX_TEST_BYTES:
        raise Malformed(path, 0, "it is larger than 1 MiB")
    try:
        text = data.decode("utf-8-sig")  # a byte order mark at the start is no line
    except UnicodeDecodeError:
        raise Malformed(path, 0, "it is not UTF-8 text") from None
    return parse(text, path)


def _quoted(rest: str, path: Path, number: int, what: str) -> str:
    found = re.fullmatch(r'"([^"]+)"', rest.strip())
    if found is None:
        raise Malformed(path, number, f'{what} needs a name in quotes: {what} "..."')
    return found.group(1)


def parse(text: str, path: Path) -> TestFile:
    """Cases of lines; the lines before the first case are the background, which every
    case begins with (as a Gherkin Background)."""
    rules, rules_line = "", 0
    background: list[Line] = []
    cases: list[Case] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        number, raw = i + 1, lines[i].strip()
        i += 1
        if not raw or raw.startswith("#"):
            continue
        if raw.startswith("|"):
            raise Malformed(path, number, "a '| ...' line must follow a line ending with ':'")
        if raw.startswith("case ") or raw == "case":
            cases.append(_case(_quoted(raw[4:], path, number, "case"), number, cases, path))
            continue
        if raw.startswith("rules ") or raw == "rules":
            if cases or background or rules:
                raise Malformed(path, number, "'rules' comes once, first in the file")
            rules, rules_line = _quoted(raw[5:], path, number, "rules"), number
            continue
        line = _line(raw, number, path)
        if raw.endswith(":") and (line.rest == "" or line.keyword in CHANCE):
            # a chance line names its event before the colon: `shuffle deck top:`
            line.block, i = _block(lines, i)
        (cases[-1].lines if cases else background).append(line)
    if not cases:
        raise Malformed(path, 1, 'no cases: write one as case "what it shows"')
    for case in cases:
        case.lines = _with_background(background, case.lines, path)
    if not rules:
        rules = path.name[: -len(SUFFIX)] + ".rules" if path.name.endswith(SUFFIX) else ""
    return TestFile(path, rules, rules_line, cases)


def _case(name: str, number: int, cases: list[Case], path: Path) -> Case:
    """A new case; its name is its id (pytest's, `-v`'s), so no two cases share one."""
    first = next((case.number for case in cases if case.name == name), None)
    if first is not None:
        raise Malformed(path, number, f"a case '{name}' is at line {first}: name each its own")
    return Case(name, number)


def _with_background(background: list[Line], own: list[Line], path: Path) -> list[Line]:
    """The lines a case runs: the table first (the background's `players`, `seed` and
    `option` lines, then the case's own, which come before its other lines), then the
    background's other lines, then the case's."""
    for earlier, later in zip(own, own[1:], strict=False):
        if later.keyword in SETUP and earlier.keyword not in SETUP:
            what = f"'{later.keyword}' sets up the table: it comes before the case's first move"
            raise Malformed(path, later.number, what)
    lines = [*background, *own]
    table = [line for line in lines if line.keyword in SETUP]
    return [*table, *(line for line in lines if line.keyword not in SETUP)]


def _block(lines: list[str], i: int) -> tuple[list[str], int]:
    block = []
    while i < len(lines) and lines[i].strip().startswith("|"):
        block.append(lines[i].strip()[1:].strip())
        i += 1
    return block, i


def _line(raw: str, number: int, path: Path) -> Line:
    logged = LOG.fullmatch(raw)
    if logged and (logged["what"] == "log" or logged["how"]):
        who = (logged["who"] or "").strip()
        rest = logged["rest"].strip()
        return Line(number, logged["what"], rest, raw, who=who, how=logged["how"] or "")
    if raw.split(" ")[0].rstrip(":") in ("log", "screen"):
        raise Malformed(
            path,
            number,
            "write log: TEXT, log includes: TEXT, log never: TEXT, screen includes: LINE or "
            "screen never: TEXT, with 'to NAME' or 'to table' before the colon for what one sees",
        )
    for keyword in KEYWORDS:
        if raw == keyword or raw.startswith(keyword + " ") or raw.startswith(keyword + ":"):
            rest = raw[len(keyword) :].strip()
            line = Line(number, keyword, rest, raw)
            _check(line, path)
            return line
    seen = SEES.fullmatch(raw)
    if seen:
        rest = seen.group("rest").strip()
        if " = " not in rest:
            raise Malformed(path, number, "write NAME sees WHAT = VALUE")
        return Line(number, "sees", rest, raw, who=seen.group("who").strip())
    word = raw.split()[0].rstrip(":")
    hint = did_you_mean(word, KEYWORDS)
    raise Malformed(
        path, number, f"'{word}' is not a step of a rule test" + (f"; {hint}" if hint else "")
    )


def _check(line: Line, path: Path) -> None:
    """The shape of a line's rest, checked before anything runs."""
    k, rest = line.keyword, line.rest
    if k in ("options", "prompt", "to act", "winners", "results", "bot keeps", "ended by"):
        head, colon, tail = rest.partition(":")
        if not colon:
            raise Malformed(path, line.number, f"write {k}: ... (a colon after '{k}')")
        if k == "options" and head.strip() not in ("", "include", "exclude"):
            raise Malformed(
                path, line.number, "write options:, options include: or options exclude:"
            )
        line.how, line.rest = head.strip(), tail.strip()
    elif k in ("over", "not over") and rest:
        raise Malformed(path, line.number, f"'{k}' takes nothing after it")
    elif k in CHANCE and ":" not in rest:
        raise Malformed(path, line.number, f"write {k} NAME: OUTCOME (the chance event's name)")
    elif k in ("expect", "measure") and " = " not in rest:
        what = "NAME" if k == "measure" else "WHAT"
        raise Malformed(path, line.number, f"write {k} {what} = VALUE")
    elif k == "refuse" and ": " not in rest:
        raise Malformed(path, line.number, "write refuse MOVE: REASON")
    elif (
        k in ("play", "players", "seed", "option", "set", "move", "place", "reveal", "clear")
        and not rest
    ):
        raise Malformed(path, line.number, f"'{k}' needs something after it")
    elif k == "players" and not digits(rest):
        _names(split_list(rest), path, line.number)


def _names(names: list[str], path: Path, number: int) -> None:
    """Players' names as `play --names` takes them: a test names a player by their
    name, in any case, so of two named alike the second could never be told apart; and
    a player named as a word of the tests (`log to table`, `to act: nobody`) would be
    read as that word: `log to table never: ...` passed when the player saw it."""
    for i, name in enumerate(names):
        if not name:
            raise Malformed(path, number, f"the name of player {i + 1} is empty")
        if name.lower() in (n.lower() for n in names[:i]):
            raise Malformed(path, number, f"two players are named '{name}'; each needs their own")
        if name.lower() in RESERVED:
            words = ", ".join(sorted(RESERVED))
            raise Malformed(path, number, f"'{name}' is a word of rule tests ({words}), not a name")


def split_list(text: str) -> list[str]:
    """Items separated by a comma and a space (so a cell "3,0" stays one item)."""
    text = text.strip()
    return [] if not text else [item.strip() for item in re.split(r",\s+", text)]


def find(paths: list[Path]) -> list[Path]:
    """The test files given, and those in the folders given (and below), in order;
    FileNotFoundError for a path that is neither."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found += sorted(
                p
                for p in path.rglob(f"*{SUFFIX}")
                if p.is_file() and not any(_skipped(part) for part in p.relative_to(path).parts)
            )
        elif path.is_file() and path.suffix == ".rules":
            found += tests_of(path)
        elif path.is_file():
            found.append(path)
        else:
            raise FileNotFoundError(str(path))
    unique: dict[Path, Path] = {}  # a file named twice (itself and its folder) runs once
    for p in found:
        unique.setdefault(p.resolve(), p)
    return list(unique.values())


def tests_of(rules: Path) -> list[Path]:
    """The test files beside a rule file that test it (by their `rules` line, else by
    name: `game.rulestest` tests `game.rules`): a designer types the file they edit."""
    mine = []
    for candidate in sorted(rules.parent.glob(f"*{SUFFIX}")):
        try:
            named = read(candidate).rules
        except (Malformed, OSError):
            named = candidate.name[: -len(SUFFIX)] + ".rules"  # let the run say what is wrong
        if (candidate.parent / named).resolve() == rules.resolve():
            mine.append(candidate)
    return mine


def _skipped(folder: str) -> bool:
    """Folders not searched for tests, as pytest does not: hidden ones (.venv, .git) and
    installed packages (a virtual environment's copy of the shipped games' tests)."""
    return folder.startswith(".") or folder in ("venv", "site-packages", "node_modules")
