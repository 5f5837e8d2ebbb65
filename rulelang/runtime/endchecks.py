"""An end test left out where the one before it is known to have run (issue 21).

Before each choice, and at each turn, the generated code asks the end rules if
something they read changed: `if st.dirty and _check_end(st):` (codegen.choose). Past
that line `st.dirty` is false: it was, or `_check_end` cleared it and found the game
going on (where it ends, the op returns). Only the generated code sets it again during
play (`st.dirty = True` after a write the end rules read, or inside a proc it calls: a
def reads and never writes; the runtime's helpers never set it), so a second test with
no such line between the two, on every way from the first to it, finds it false and
does nothing: a chained turn asks it again before the action after the card, before the
spot after the action, and so on (three bytecodes each).

A second test is left out where every way to it from the first passes no line that
may set the flag: the lines after the first in its block (and the blocks inside), but
those after a line that sets it, to the end of its block and on after that block
unless it leaves (`return`, `raise`, a `continue` to a loop above the first test), all
of a loop holding one (its next round comes back), and all after one in a `try`, an
`else` or an `elif` (kept simple)."""

from __future__ import annotations

import re

ONCE = True  # off: every end test the code generator writes is kept
CHECK = re.compile(r"^(\s*)if st\.dirty and _check_end\(st\):((?:  # @\d+)?)$")
# a line that may set the flag: a write of it, or a call of a proc (which may write one)
SETS = re.compile(r"\bst\.dirty\s*=(?!=)|\b_p_\w+\(")
MARK = re.compile(r"  # @\d+$")
LOOP_HEAD = re.compile(r"(while|for) ")


def once(body: list[str]) -> list[str]:
    """body without the end tests that a test before them makes idle (with their
    blocks); a test's mark moves to the line after its block if that line has none, so
    that the line table places what follows as before (lines.py)."""
    dropped: set[int] = set()
    for at, line in enumerate(body):
        m = CHECK.match(line)
        if m is None or at in dropped:
            continue
        end = _end(body, at, len(m.group(1)))
        touched = _touched(body, at, end)
        for i in range(at + 1, end):
            if i not in dropped and i not in touched and CHECK.match(body[i]):
                dropped.update(_block(body, i))
    if not dropped:
        return body
    return _without(body, dropped)


def _end(body: list[str], at: int, depth: int) -> int:
    """The end (exclusive) of the block holding line `at` (at indent `depth`)."""
    i = at + 1
    while i < len(body) and (not body[i].strip() or _indent(body[i]) >= depth):
        i += 1
    return i


def _touched(body: list[str], at: int, end: int) -> set[int]:
    """The lines of at+1..end that some way from `at` reaches through a line that may
    set the flag: from such a line to the end of its block; past it unless the block
    leaves (`return`, `raise`, or `continue` to a loop above `at`); all of a loop
    holding one (its next round); everything after one inside a `try`."""
    touched: set[int] = set()
    for i in range(at + 1, end):
        if i not in touched and SETS.search(body[i]):
            _spread(body, at, end, i, touched)
    return touched


def _spread(body: list[str], at: int, end: int, i: int, touched: set[int]) -> None:
    """Mark what line i (which may set the flag) reaches, climbing out block by block."""
    line = i
    while True:
        head = _head(body, line)
        if head is None or head <= at:  # the test's own block: all that follows
            touched.update(range(i, end))
            return
        stop = _end(body, head + 1, _indent(body[head + 1]))
        touched.update(range(i, stop))
        opener = body[head].strip()
        if LOOP_HEAD.match(opener):
            touched.update(range(head, stop))  # the next round
        elif opener.startswith(("try", "except", "finally", "else", "elif")):
            touched.update(range(head, end))  # (a handler, or the other ways: kept simple)
            return
        elif _leaves(body, head, stop, at):
            return
        i, line = stop, head
        while i < end and body[i].strip().startswith(("elif ", "else:")):
            i = _end(body, i + 1, _indent(body[i + 1]))  # the other ways of the `if`


def _head(body: list[str], i: int) -> int | None:
    """The line that opens the block holding line i."""
    depth = _indent(body[i])
    for j in range(i - 1, -1, -1):
        if body[j].strip() and _indent(body[j]) < depth:
            return j
    return None


def _leaves(body: list[str], head: int, stop: int, at: int) -> bool:
    """Does the block of the `if` at `head` (lines head+1..stop) end by leaving: a
    `return` or `raise`, or a `continue` to a loop opened above `at`?"""
    depth = _indent(body[head + 1])
    last = [line.strip() for line in body[head + 1 : stop] if _indent(line) == depth][-1]
    if last.startswith(("return", "raise")):
        return True
    loops = [j for j in range(at, head) if LOOP_HEAD.match(body[j].strip())]
    inside = any(_end(body, j + 1, _indent(body[j + 1])) > head for j in loops)
    return last == "continue" and not inside


def _block(body: list[str], at: int) -> range:
    """The lines of the `if` at `at` and of the block below it."""
    depth = _indent(body[at])
    end = at + 1
    while end < len(body) and (not body[end].strip() or _indent(body[end]) > depth):
        end += 1
    return range(at, end)


def _without(body: list[str], dropped: set[int]) -> list[str]:
    """body less the dropped lines; each dropped test's mark carried to the next line
    kept (at its depth: `pass` where the test ended its block)."""
    out: list[str] = []
    carried: tuple[int, str] | None = None  # (depth, mark) of a test just dropped
    for i, line in enumerate(body):
        if i in dropped:
            m = CHECK.match(line)
            if m is not None and m.group(2):
                carried = (len(m.group(1)), m.group(2))
            continue
        if carried is not None:
            depth, mark = carried
            carried = None
            if _indent(line) < depth or not line.strip():
                out.append(" " * depth + "pass" + mark)
            elif not MARK.search(line):
                line += mark
        out.append(line)
    if carried is not None:
        out.append(" " * carried[0] + "pass" + carried[1])
    return out


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())
