"""The state's attributes read into Python locals once per chained op (issue 21).

`exprgen.prelude` reads `st.loc`, `st.cols`, `st.zones` and `st.cfg` once per op, def
or proc. A chained op (chaining.py, compiled where play runs on through it) runs a
whole playout of turns in one call, so the attributes it reads at every turn and
every decision are worth a local too (a `LOAD_FAST` instead of `LOAD_FAST st` and a
`LOAD_ATTR`, which is not specialised for `st.bot()`, a bound method kept in a slot).
Only there: in an op called once per decision (a maze game's), the reads at its start
cost what the locals save, or more (a maze game measured 1.5-4.5% slower;
docs/performance.md, "Seventh session").

- attributes no generated code rebinds while it runs: `st.vars` (a list changed in
  place, rebound only where a state is made or cloned), `st.quiet` and
  `st.bot` (set by Game.playout around its runs), and the table's fixed `cfg.n` and
  `cfg.players`;
- a column of the table of attributes (`cols[2]`, after the prelude's `cols = st.cols`)
  and a board's layer of tiles (`st.layers[0]`) at a constant index: changed in place,
  rebound only where a state is cloned, imagined or edited, never while generated code
  runs (a comprehension testing `cols[2][c]` for each item reads the column once);
- `st.current`, the turn player, which only an op's turn flow writes (codegen's phase
  steps; a def, a proc that never pauses, a helper never do): `current_`, every write
  written through (`st.current = current_ = ...`);
- `st.budget`, the decisions a playout may still take, which only the op taking them
  reads and writes (Game.playout reads it when the run returns): a local in an op that
  takes three or more decisions, written back before each `return`. An error raised
  out of the op leaves it unwritten, and Game.playout then returns nothing but the
  error.

Each only where the op reads it at least twice and never assigns it whole.

- the value a choice took (`loc[120] = value`, the choice's local in its slot), read
  again from a local (`loc[120] = chosen_120 = value`) in the lines known to run after
  that store and before any other write of the slot (`_chosen`): a card chosen is
  read by each test of its kind that follows."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from rulelang.runtime import cells

STATE_LOCALS = True  # off: a chained op reads only exprgen.prelude's four tables once
# (what the generated code writes, the local it becomes): read once before the body
FIXED = (
    (re.compile(r"\bst\.vars\["), "vars_[", "vars_ = st.vars"),
    (re.compile(r"\bst\.quiet\b"), "quiet", "quiet = st.quiet"),
    (re.compile(r"\bst\.bot\(\)"), "bot()", "bot = st.bot"),
    (re.compile(r"(?<![\w.])cfg\.n\b"), "cfg_n", "cfg_n = cfg.n"),
    (re.compile(r"(?<![\w.])cfg\.players\b"), "cfg_players", "cfg_players = cfg.players"),
)
# a column or a layer at a constant index: (pattern, local's name, what it reads)
INDEXED = (
    (re.compile(r"(?<![\w.])cols\[(\d+)\]"), "cols_{}", "cols[{}]"),
    (re.compile(r"\bst\.layers\[(\d+)\]"), "layers_{}", "st.layers[{}]"),
)
# a fixed def's kept value (exprgen.MEMO_INLINE: `(cfg.memo[0] if cfg.memo[0] is not
# _UNSET else _d_start(st))`) read once per chained op: where it is not kept yet when
# the op starts (a table's first game), the calls work it out as before, the same value
MEMO_LOCALS = True  # off: a chained op reads `cfg.memo[k]` twice at each use
MEMO = (re.compile(r"(?<![\w.])cfg\.memo\[(\d+)\]"), "memo_{}", "cfg.memo[{}]")
CURRENT = re.compile(r"\bst\.current\b")
WRITE_CURRENT = re.compile(r"^(\s*)st\.current = ")
BUDGET = re.compile(r"\bst\.budget\b")
TAKEN = "st.budget -= 1"  # a decision a playout takes where it is asked (codegen.choose)
RETURN = re.compile(r"^(\s*)return\b")


def assigned(text: str, attr: str) -> bool:
    """Does the code rebind st.<attr> (or cfg.<attr>) as a whole?"""
    return re.search(rf"\b(st|cfg)\.{attr}\s*(=[^=]|[-+*/]=)", text) is not None


def hoisted(lines: list[str]) -> list[str]:
    """lines (a chained op's body, after exprgen.prelude) reading the attributes above
    from locals."""
    head: list[str] = []
    text = "\n".join(lines)
    cfg_read = "cfg = st.cfg" in lines[:4]
    text = _fixed(text, cfg_read, head)
    text = _indexed(text, "cols = st.cols" in lines[:4], head)
    if MEMO_LOCALS and cfg_read:
        text = _indexed(text, True, head, (MEMO,), 4)  # two uses: each reads it twice
    body = text.split("\n")
    if len(CURRENT.findall(text)) >= 2 and _written_plainly(body):
        body = [_current(line) for line in body]
        head.append("current_ = st.current")
    if text.count(TAKEN) >= 3:
        body = _budgeted(body)
        head.append("budget = st.budget")
    if CHOSEN:
        body = _chosen(body)
    if not head and body == lines:
        return lines
    at = _after_prelude(body)
    return [*body[:at], *head, *body[at:]]


def _fixed(text: str, cfg_read: bool, head: list[str]) -> str:
    """text reading FIXED's attributes from locals, their reads added to head."""
    for pattern, local, read in FIXED:
        attr = read.rsplit(".", 1)[1]
        if read.endswith(("cfg.n", "cfg.players")) and not cfg_read:
            continue
        if len(pattern.findall(text)) >= 2 and not assigned(text, attr):
            text = pattern.sub(local, text)
            head.append(read)
    return text


def _indexed(
    text: str,
    cols_read: bool,
    head: list[str],
    indexed: tuple[tuple[Any, str, str], ...] = INDEXED,
    least: int = 2,
) -> str:
    """text reading INDEXED's columns and layers (or `indexed`'s) from locals, their
    reads added to head."""
    for pattern, name, read in indexed:
        if read.startswith("cols") and not cols_read:
            continue
        uses = Counter(pattern.findall(text))
        for index in sorted(k for k, n in uses.items() if n >= least):
            what = re.escape(read.format(index))
            if re.search(rf"{what}\s*=[^=]", text) is None:  # never rebound here
                text = re.sub(rf"(?<![\w.]){what}", name.format(index), text)
                head.append(f"{name.format(index)} = {read.format(index)}")
    return text


def _written_plainly(body: list[str]) -> bool:
    """Is every write of st.current a statement of its own (`st.current = ...`)?"""
    writes = sum(len(re.findall(r"\bst\.current\s*(=[^=]|[-+*/%]=)", line)) for line in body)
    return writes == sum(1 for line in body if WRITE_CURRENT.match(line))


def _current(line: str) -> str:
    """A line reading the local current_ and writing st.current through it."""
    m = WRITE_CURRENT.match(line)
    if m is None:
        return CURRENT.sub("current_", line)
    rest = CURRENT.sub("current_", line[m.end() :])
    return f"{m.group(1)}st.current = current_ = {rest}"


def _budgeted(body: list[str]) -> list[str]:
    """st.budget as the local `budget`, written back before each return."""
    out = []
    for line in body:
        line = BUDGET.sub("budget", line)
        m = RETURN.match(line)
        if m:
            out.append(f"{m.group(1)}st.budget = budget")
        out.append(line)
    return out


def _after_prelude(body: list[str]) -> int:
    """Where the prelude's reads (`loc = st.loc` ...) end: the new reads go after them,
    as `cfg_n = cfg.n` reads the local `cfg`."""
    at = 0
    while at < len(body) and re.match(r"^(loc|cols|zones|cfg) = st\.\1$", body[at]):
        at += 1
    return at


# The value a choice took, read again from a local (statelocals.CHOSEN): `loc[120] = value`
# is the choice's store; the op reads `loc[120]` again at each test of the card.
CHOSEN = True  # off: a chained op reads a choice's value back from st.loc
# a choice's store, or a copy of a value (a proc's argument): its statement's mark kept
STORE = re.compile(r"^(\s*)loc\[(\d+)\] = ([A-Za-z_]\w*)((?:  # @\d+)?)$")
LOOP = re.compile(r"^\s*(while|for) ")


def _chosen(body: list[str]) -> list[str]:
    """body with each choice's value (`loc[N] = value`) read from a local `chosen_N`
    where the store is known to have run and nothing wrote the slot since: the lines
    after it in its block (and the blocks inside), up to a write of the slot (or the
    loop holding that write, whose rounds come back above it)."""
    out = list(body)
    for at in range(len(body)):
        m = STORE.match(out[at])  # (`loc[12] = loc[120]` is `loc[12] = chosen_120` by now)
        if m is None:
            continue
        slot, name = m.group(2), f"chosen_{m.group(2)}"
        read = re.compile(rf"(?<![\w.])loc\[{slot}\](?!\s*=[^=])")
        end = _region(body, at, len(m.group(1)), slot)
        lines = range(at + 1, end)
        found = {i: _own_reads(out[i], read) for i in lines}
        if sum(map(len, found.values())) < 2 or re.search(rf"\b{name}\b", "\n".join(body)):
            continue
        through(out, at, m, name, found)
    return out


def through(out: list[str], at: int, store: re.Match[str], name: str, reads: Reads) -> None:
    """The store `loc[N] = value` at line `at` (matched by `store`: indent, slot, value,
    mark) written through the local `name`, and the reads of the slot at `reads` (spans
    by line) replaced by it (here, and forward.py's stores)."""
    indent, slot, value, mark = store.group(1, 2, 3, 4)
    out[at] = f"{indent}loc[{slot}] = {name} = {value}{mark}"
    for i, spans in reads.items():
        for start, end in reversed(spans):
            out[i] = out[i][:start] + name + out[i][end:]


# off: a line holding a comprehension, a generator or a lambda keeps its reads of the
# slot, those of its own scope too (the action test of a card reads the card by kind,
# around the `any(.. for p in players)` of one kind)
CHOSEN_SCOPED = True


Reads = dict[int, list[tuple[int, int]]]  # by line, the spans of a slot's reads


def _own_reads(line: str, read: re.Pattern[str]) -> list[tuple[int, int]]:
    """Where `read` matches in the line, but inside a comprehension, a generator or a
    lambda (whose own scope would make the local a cell), in order."""
    spans = [m.span() for m in read.finditer(line)]
    if not spans or _plain(line):
        return spans
    text = line.lstrip()
    tree = cells.statement(text) if CHOSEN_SCOPED else None
    if tree is None:
        return []
    pad = len(line) - len(text)
    outermost = cells.outermost_scopes(tree)
    scopes = [
        tuple(pad + at for at in cells.offsets(text, node.col_offset, node.end_col_offset))
        for node in outermost
        if node.end_col_offset is not None and node.lineno == node.end_lineno == 1
    ]
    if len(scopes) != len(outermost):
        return []  # (one that does not fit on the line: left as it is)
    return [(a, b) for a, b in spans if not any(lo <= a < hi for lo, hi in scopes)]


def _region(body: list[str], at: int, depth: int, slot: str) -> int:
    """The end (exclusive) of the lines after `at` that run after it, below it in its
    block, before anything writes the slot again."""
    write = re.compile(rf"(?<![\w.])loc\[{slot}\]\s*(=[^=]|[-+*/%]=)")
    loops: list[tuple[int, int]] = []  # (line, indent) of the loops opened since
    for i in range(at + 1, len(body)):
        line = body[i]
        indent = len(line) - len(line.lstrip())
        if line.strip() and indent < depth:
            return i
        loops = [(j, d) for j, d in loops if d < indent or not line.strip()]
        if write.search(line):
            return loops[0][0] if loops else i
        if LOOP.match(line):
            loops.append((i, indent))
    return len(body)


def _plain(line: str) -> bool:
    """May a line's reads become a local's? Not inside a comprehension, a generator or
    a lambda, whose own scope would make the local a cell."""
    return " for " not in line and "lambda" not in line
