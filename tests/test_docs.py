"""Keep the docs honest: every ```rulelang block of docs/language.md and docs/design.md
is checked as the `<!-- check: ... -->` comments just before it say.

Directives (one HTML comment each, on the lines right before the fence):
  full          compile the block as it is (otherwise it is a fragment: a `players`
                line, a `turn` and an `end when` rule are added when it lacks them)
  run N[,M..] [param=EXPR..]
                play random games with N (M...) players; in a group, the games must
                reach their end (EXPR may use n, the player count: bots=n-1)
  file NAME     write the block to NAME (so that a later block may extend it), compile it
  lib NAME      write the block to stdlib/NAME (importable), compile it as a library
  group NAME    the blocks of one group, in order, are one rule file NAME
  needs PATH    copy PATH of the repository next to the group's file (for extends)
  excerpt PATH  the block is a verbatim excerpt of PATH
  planned       planned syntax (fenced ```rulelang-planned): must NOT compile
  runerr CODE   compiles; starting a game stops with runtime error CODE
  fails CODE    must not compile, with diagnostic CODE
  nocompile     (with file) only written, not compiled
Blocks without directives are fragments that must compile.
"""

from __future__ import annotations

import random
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from rulelang import CHANCE, Game, Ruleset
from rulelang.api import compile_file
from rulelang.diagnostics import GameRuntimeError, RuleError

ROOT = Path(__file__).resolve().parent.parent
DOCS = {"language.md": ROOT / "docs" / "language.md", "design.md": ROOT / "docs" / "design.md"}
FENCE = re.compile(r"((?:<!--[^\n]*-->\n)*)```(rulelang(?:-planned)?)\n(.*?)^```", re.S | re.M)
DIRECTIVE = re.compile(r"<!-- check: (.*?) -->")
KNOWN = {
    "full",
    "run",
    "file",
    "lib",
    "group",
    "needs",
    "excerpt",
    "planned",
    "runerr",
    "fails",
    "nocompile",
}
SINGLE_SEEDS = 2  # random games per player count for a single block
SINGLE_MOVES = 300  # moves per game for a fragment (whose skeleton never ends)
END_MOVES = 20_000  # a game with its own end rules must end within this many moves


@dataclass(frozen=True)
class Block:
    doc: str
    line: int
    lang: str
    directives: tuple[tuple[str, str], ...]
    src: str

    @property
    def id(self) -> str:
        return f"{self.doc}:{self.line}"

    def get(self, key: str) -> str | None:
        for k, v in self.directives:
            if k == key:
                return v
        return None

    def has(self, key: str) -> bool:
        return any(k == key for k, _ in self.directives)


def parse(doc: str) -> list[Block]:
    text = DOCS[doc].read_text(encoding="utf-8")
    blocks = []
    for m in FENCE.finditer(text):
        line = text[: m.start(2)].count("\n") + 1
        directives = []
        for d in DIRECTIVE.findall(m.group(1)):
            key, _, value = d.strip().partition(" ")
            directives.append((key, value.strip()))
        blocks.append(Block(doc, line, m.group(2), tuple(directives), m.group(3)))
    return blocks


BLOCKS = [b for doc in DOCS for b in parse(doc)]
SINGLE = [b for b in BLOCKS if not b.has("group")]
GROUPS: dict[tuple[str, str], list[Block]] = {}
for _b in BLOCKS:
    if _b.has("group"):
        GROUPS.setdefault((_b.doc, _b.get("group") or ""), []).append(_b)


def skeleton(src: str) -> str:
    """A fragment made into a game: add what it lacks of players, turn and end rule."""
    if re.search(r"^\s*(library|extends)\b", src, re.M):
        return src
    out = src
    if not re.search(r"^\s*players\s+\d", src, re.M):
        out = "players 2..4\n" + out
    if not re.search(r"^(override\s+)?(turn|phase)\b", src, re.M):
        out += "\nturn { choose skeleton_ok in [1] }\n"
    if not re.search(r"^end\s+when\b", src, re.M):
        out += "\nend when false { }\n"
    return out


def own_end_rule(src: str) -> bool:
    return any(
        not re.match(r"end\s+when\s+false\b", m.group(0))
        for m in re.finditer(r"^end\s+when\b.*$", src, re.M)
    )


def run_spec(spec: str) -> tuple[list[int], dict[str, str]]:
    """'3,5,8 bots=n-1' -> player counts and option expressions."""
    counts, *pairs = spec.split()
    options = {}
    for pair in pairs:
        key, sep, expr = pair.partition("=")
        assert sep and key and re.fullmatch(r"n([+-]\d+)?|\d+", expr), f"bad run option {pair}"
        options[key] = expr
    return [int(n) for n in counts.split(",")], options


def option_values(options: dict[str, str], n: int) -> dict[str, str]:
    out = {}
    for key, expr in options.items():
        m = re.fullmatch(r"n([+-]\d+)?", expr)
        out[key] = str(n + int(m.group(1) or 0)) if m else expr
    return out


def play(rules: Ruleset, players: int, seed: int, options: dict[str, str], moves: int) -> Game:
    """Random legal moves through the public API; stops at the end or after `moves`."""
    g = rules.new_game(players, seed=seed, options=options)
    rng = random.Random(seed)
    for _ in range(moves):
        if g.is_over():
            break
        assert g.current_player() != CHANCE  # auto_chance: no stops for dice
        actions = g.legal_actions()
        assert actions, "a game that is not over must offer an action"
        g.apply(rng.choice(actions))
    if g.is_over():
        results = g.results()
        assert len(results) == players
        assert set(results) <= {"win", "draw", "loss"}
    return g


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One folder per document holding its `file`, `lib`, `needs` and group files."""
    out = {}
    for doc in DOCS:
        base = tmp_path_factory.mktemp(doc.replace(".", "_"))
        (base / "stdlib").mkdir()
        for b in parse(doc):
            if b.has("file"):
                (base / str(b.get("file"))).write_text(b.src, encoding="utf-8")
            if b.has("lib"):
                (base / "stdlib" / str(b.get("lib"))).write_text(b.src, encoding="utf-8")
            if b.has("needs"):
                need = ROOT / str(b.get("needs"))
                shutil.copy(need, base / need.name)
        for (gdoc, name), blocks in GROUPS.items():
            if gdoc == doc:
                (base / name).write_text("\n".join(b.src for b in blocks), encoding="utf-8")
        out[doc] = base
    return out


def is_library(rules: Ruleset) -> bool:
    return rules.is_library


def compile_in(base: Path, name: str, src: str) -> Ruleset:
    path = base / name
    path.write_text(src, encoding="utf-8")
    return compile_file(path)


# --------------------------------------------------------------------------- the blocks
@pytest.mark.parametrize("doc", list(DOCS))
def test_every_block_is_found_and_marked_sensibly(doc: str) -> None:
    text = DOCS[doc].read_text(encoding="utf-8")
    blocks = [b for b in BLOCKS if b.doc == doc]
    assert len(blocks) == len(re.findall(r"^```rulelang", text, re.M))
    assert len(blocks) >= 20
    for b in blocks:
        keys = [k for k, _ in b.directives]
        assert set(keys) <= KNOWN, f"{b.id}: unknown check {set(keys) - KNOWN}"
        assert len(keys) == len(set(keys)), f"{b.id}: a check is given twice"
        # planned syntax is fenced as such, and only planned syntax is
        assert (b.lang == "rulelang-planned") == b.has("planned"), b.id
        for key in ("file", "lib", "group", "needs", "excerpt", "runerr", "fails"):
            if b.has(key):
                assert b.get(key), f"{b.id}: '{key}' needs a value"
        if b.has("run"):
            run_spec(str(b.get("run")))
    # every check comment stands right before a rulelang block (not a text block)
    lines = text.splitlines()
    orphans = []
    for i, line in enumerate(lines):
        if re.fullmatch(r"<!-- check: .* -->", line.strip()):
            j = i
            while j < len(lines) and re.fullmatch(r"<!--.*-->", lines[j].strip()):
                j += 1
            if j == len(lines) or not lines[j].startswith("```rulelang"):
                orphans.append(f"{doc}:{i + 1}: {line.strip()}")
    assert orphans == [], "check comments that are not before a rulelang block"
    assert sum(len(b.directives) for b in blocks) == len(
        [line for line in lines if re.fullmatch(r"<!-- check: .* -->", line.strip())]
    )


def test_design_has_complete_games() -> None:
    names = {name for doc, name in GROUPS if doc == "design.md"}
    assert names
    assert all(name.endswith(".rules") for name in names)


def test_design_planned_blocks_are_under_a_planned_heading() -> None:
    text = DOCS["design.md"].read_text(encoding="utf-8").splitlines()
    for b in BLOCKS:
        if b.doc == "design.md" and b.lang == "rulelang-planned":
            headings = [line for line in text[: b.line] if line.startswith("#")]
            assert "(planned)" in headings[-1], f"{b.id} is under {headings[-1]!r}"


@pytest.mark.parametrize("block", SINGLE, ids=lambda b: b.id)
def test_block(block: Block, workspace: dict[str, Path]) -> None:
    base = workspace[block.doc]
    name = f"block{block.line}.rules"
    src = block.src

    if block.has("planned"):
        with pytest.raises(RuleError):
            compile_in(base, name, skeleton(src))
        return
    if block.has("excerpt"):
        whole = (ROOT / str(block.get("excerpt"))).read_text(encoding="utf-8")
        assert src.strip() in whole, f"{block.id} is not an excerpt of {block.get('excerpt')}"
        return
    if block.has("fails"):
        with pytest.raises(RuleError) as info:
            if block.has("file"):
                compile_file(base / str(block.get("file")))
            else:
                compile_in(base, name, src if block.has("full") else skeleton(src))
        assert block.get("fails") in [d.code for d in info.value.diagnostics]
        return
    if block.has("lib"):
        rules = compile_file(base / "stdlib" / str(block.get("lib")))
        assert is_library(rules)
        return
    if block.has("file"):
        if block.has("nocompile"):
            return
        rules = compile_file(base / str(block.get("file")))
    else:
        rules = compile_in(base, name, src if block.has("full") else skeleton(src))
    assert not is_library(rules)

    if block.has("runerr"):
        with pytest.raises(GameRuntimeError) as err:
            play(rules, rules.min_players, 0, {}, SINGLE_MOVES)
        assert err.value.code == block.get("runerr")
        return
    if block.has("run"):
        counts, options = run_spec(str(block.get("run")))
        must_end = own_end_rule(src)
        for n in counts:
            for seed in range(SINGLE_SEEDS):
                g = play(
                    rules,
                    n,
                    seed,
                    option_values(options, n),
                    END_MOVES if must_end else SINGLE_MOVES,
                )
                if must_end:
                    assert g.is_over(), f"{block.id}: no end with {n} players, seed {seed}"


@pytest.mark.parametrize("group", list(GROUPS), ids=lambda g: f"{g[0]}:{g[1]}")
def test_group(group: tuple[str, str], workspace: dict[str, Path]) -> None:
    doc, name = group
    blocks = GROUPS[group]
    rules = compile_file(workspace[doc] / name)
    assert not is_library(rules)
    assert rules.title
    runs = [str(b.get("run")) for b in blocks if b.has("run")]
    assert runs, f"group {name} of {doc} is never played"
    for spec in runs:
        counts, options = run_spec(spec)
        for n in counts:
            assert rules.min_players <= n <= rules.max_players
            g = play(rules, n, seed=n, options=option_values(options, n), moves=END_MOVES)
            assert g.is_over(), f"{name}: no end after {END_MOVES} moves with {n} players"
