"""A proc's return address pushed only where the op leaves before the proc returns
(issue 21, item 1).

A chained op (chaining.py) runs a proc's call and its return in one Python function:
`st.stack.append(6)` where the turn's proc starts, `st.stack.pop()` where it ends,
and between them the paths that leave the op (a pause, the game's end, a jump to
another op), which need the address on the stack. `sunk` carries each push down its
block instead of running it: past statements that neither leave, nor touch the stack,
nor call anything that might read it; into an `if` whose block ends by leaving (the
push written again after it for the other path); and a `st.stack.pop()` reached with
pushes carried takes the last of them, so that neither runs. Anywhere else (before a
statement that leaves, at the end of a block that falls through, before a loop, an
`else`, a call not known) the pushes carried are written out, in order: every path
that leaves, or reads the stack, finds it as it was.

Raised errors are the exception: an error raised between a push carried and its pop
leaves the stack without it. A game that raised is over (its state is what the
failing statement left), and nothing reads its stack again.
"""

from __future__ import annotations

import re

SUNK = True  # off: every push and pop of a chained op runs where it is written
PUSH = re.compile(r"^st\.stack\.append\((\d+)\)(  # @\d+)?$")
POP = re.compile(r"^st\.stack\.pop\(\)(  # @\d+)?$")
LEAVES = re.compile(r"^(return|raise|continue|break)\b")
CALL = re.compile(r"([A-Za-z_][\w.]*)\(")
# calls that read nothing of the stack: the rules' defs, procs that never pause (Python
# functions), loops, the end's test, tile questions, helpers that move or check items
SAFE = re.compile(
    r"^(_d_\w+|_p_\w+|_loop\d+|_check_end|_fmt\d+|_t\d+\.\w+|bot|len|int|bool|tuple|min|max|any|all"
    r"|sorted|range|sum|set|([\w.]+\.)?(get|isdisjoint)|_h\.(move|move_top|add|add_from|place"
    r"|first|last|index|zone_slot|lookup|face_up|reveal_to|modulo|divide|multiply|upto"
    r"|neighbour|extreme))$"
)


def sunk(lines: list[str]) -> list[str]:
    """A chained op's lines with its pushes carried down to where they are needed."""
    if not SUNK:
        return lines
    return _block(lines, 0, [])


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _statements(lines: list[str], depth: int) -> list[tuple[int, int]]:
    """(start, end) of each statement of a block at `depth`, its nested lines with it."""
    starts = [i for i, line in enumerate(lines) if line.strip() and _indent(line) == depth]
    return list(zip(starts, [*starts[1:], len(lines)], strict=True))


def _block(lines: list[str], depth: int, carried: list[str]) -> list[str]:
    """The block's lines (at `depth`), the pushes `carried` into it carried on down."""
    out: list[str] = []
    pad = " " * depth
    spans = _statements(lines, depth)
    for n, (start, end) in enumerate(spans):
        head = lines[start].strip()
        push, pop = PUSH.match(head), POP.match(head)
        if push is not None and end == start + 1:
            carried.append(push.group(1))
            continue
        if pop is not None and end == start + 1 and carried:
            carried.pop()
            continue
        whole = lines[start:end]
        following = lines[spans[n + 1][0]].strip() if n + 1 < len(spans) else ""
        if _passes(whole, following):
            out += whole
            continue
        if carried and _leaving_if(whole, following):
            inner = _indent(whole[1])
            out += [whole[0], *_block(whole[1:], inner, list(carried))]
            continue
        out += [f"{pad}st.stack.append({k})" for k in carried]
        carried.clear()
        out.append(lines[start])
        if end > start + 1:  # a compound statement: its blocks on their own
            out += _block(lines[start + 1 : end], _indent(lines[start + 1]), [])
    if carried and not (spans and LEAVES.match(lines[spans[-1][0]].strip())):
        out += [f"{pad}st.stack.append({k})" for k in carried]  # the block falls through
    return out


def _passes(whole: list[str], following: str) -> bool:
    """May pushes be carried past this statement (and its nested lines)? Not an `if`
    with an `elif` or `else` after it (nothing may be written between them)."""
    text = "\n".join(whole)
    if following.startswith(("elif", "else")):
        return False
    if "st.stack" in text:
        return False
    if any(LEAVES.match(line.strip()) for line in whole):
        return False
    if re.match(r"^(while|for|try|with|def|class|elif|else|except|finally)\b", whole[0].strip()):
        return False
    return all(SAFE.match(name) for name in CALL.findall(text))


def _leaving_if(whole: list[str], following: str) -> bool:
    """Is this `if` (no `elif`/`else` after it) one whose block ends by leaving, its
    test calling nothing unknown?"""
    head = whole[0].strip()
    if not head.startswith("if ") or len(whole) < 2 or following.startswith(("elif", "else")):
        return False
    if "st.stack" in head or not all(SAFE.match(name) for name in CALL.findall(head)):
        return False
    inner = _indent(whole[1])
    last = [line for line in whole[1:] if line.strip() and _indent(line) == inner][-1]
    return LEAVES.match(last.strip()) is not None
