"""Ops that run on into the ops that follow them (issue 21): a turn in fewer calls.

An op returns the pc of the next op, and the run loop (code.run) calls it: a call, a
trip through the loop and the next op's prelude between two pieces of straight-line
code. codegen copies small ops into the jumps to them (`_inline`); this goes further
for a game's hot path:

- the op after a choice is copied into the jumps to it whatever its size (the
  choice's playout branch, `if st.budget:` ... `return N`, is one), so that a playout
  taking one decision after another runs on in the same call;
- a return from a pausing proc (`return st.stack.pop()`) whose push lies before it in
  the same op, on every path that reaches it, returns to a known pc: the pop stays
  (the stack is the same at every point), but the jump is written out (`st.stack.pop()`
  then `return N`), and op N is copied there in turn, or becomes the `continue` of an
  op that loops (codegen's `_looping`).

An op grows to at most `MAX_LINES` lines by these copies; copying stops there. Such
an op costs compiling (a few milliseconds) and pays only where play runs on through it
for long: with codegen.LAZY, an op runs as codegen writes it for its first HOT calls,
which show where it goes, and its chained version is compiled only if play would run
on through the copies back to it (Codegen.chained). A card game's turn of a few
choices then runs in one call of an op that loops; ops that jump to ops too long to
copy (a maze game's long moves) stay as they are (docs/performance.md, "Sixth
session").

A generated resume (a game played through the API) runs on in the same way to the
next pause, once its first calls showed it runs on (`resumed`; docs/performance.md,
"Resumes that run on to the next pause").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

# off: only codegen's small ops are copied into their jumps. With codegen.LAZY (the
# default) an op's chained version is compiled only once its first calls showed that
# play would run on through it (Codegen.chained): long, it costs compiling.
CHAIN = True
# off: a generated resume (codegen.Codegen.resumes) stops where the op after its choice
# stops, and Game.apply runs the ops after it one call each (see `resumed`)
RUN_ON = True
MAX_LINES = 400  # an op copies no more ops into itself beyond this many lines
RESUME_DEPTH = 12  # small ops copied one into the other in a resume (`resumed`)
POPPED_DEPTH = 3  # ops copied one into the other where a resume pops (`resumed`)
JUMP = re.compile(r"^(\s*)return (\d+)$")
PUSH = re.compile(r"^(\s*)st\.stack\.append\((\d+)\)(  # @\d+)?$")
POP = re.compile(r"^(\s*)return st\.stack\.pop\(\)(  # @\d+)?$")
DROP = re.compile(r"^(\s*)st\.stack\.pop\(\)(  # @\d+)?$")  # a pop written out by known_returns
ENDS = ("return", "raise ")  # a statement after which its block runs no further


def known_returns(body: list[str]) -> list[str]:
    """`return st.stack.pop()` written as `st.stack.pop()` and `return N` where the
    value on top of the stack is N on every path to it: the push of N lies before it,
    in a block that holds it, and no push or pop since then is left open on the way.

    Scans the lines in order keeping what is known of the stack's top: per block (by
    indentation), the pushes and pops it made. A block that ends without returning or
    raising (its paths fall out into the code after it) makes the rest unknown."""
    if not any(POP.match(line) for line in body):
        return body
    out: list[str] = []
    open_: list[list[Any]] = []  # [indent, pushed pc or None (a pop), last statement at indent]
    for i, line in enumerate(body):
        text = line.lstrip()
        if not text:
            out.append(line)
            continue
        depth = len(line) - len(text)
        while open_ and depth < open_[-1][0]:
            if not open_.pop()[2].startswith(ENDS):  # a path may fall out of its block
                return [*out, *body[i:]]  # the rest unknown
        for entry in reversed(open_):
            if entry[0] != depth:
                break
            entry[2] = text
        pop = POP.match(line)
        top = _top(open_) if pop else None
        if pop and top is not None:
            pad = pop.group(1)
            out += [f"{pad}st.stack.pop(){pop.group(2) or ''}", f"{pad}return {top}"]
            open_.append([depth, None, f"return {top}"])
            continue
        push = PUSH.match(line)
        if push:
            open_.append([depth, int(push.group(2)), text])
        elif DROP.match(line):
            open_.append([depth, None, text])
        out.append(line)
    return out


def _top(open_: list[list[Any]]) -> int | None:
    """The pc on top of the stack after the open pushes and pops, None if unknown."""
    known: list[int] = []
    for _indent, pushed, _last in open_:
        if pushed is not None:
            known.append(pushed)
        elif known:
            known.pop()
    return known[-1] if known else None  # none left: what was there before the op


def chained(
    bodies: list[list[str]],
    me: int,
    follow: frozenset[int],
    small: int,
    depth: int,
    copied: set[int] | None = None,
) -> list[str]:
    """Op `me`'s body with jumps replaced by the ops they jump to: a small op (at most
    `small` lines, up to `depth` deep, as codegen's `_inline`) or an op in `follow`
    (after a choice, or where a proc returns) while the op stays within MAX_LINES;
    then the returns known_returns resolves, copied in the same way, until nothing
    changes. Never an op into a copy of itself: a jump back to `me` is the op's loop.
    The ops copied are added to `copied`."""
    into = set() if copied is None else copied
    lines = _copied(bodies, bodies[me], (me,), follow, small, depth, depth, MAX_LINES, into)
    for _round in range(8):
        resolved = known_returns(lines)
        if resolved == lines:
            break
        lines = _copied(bodies, resolved, (me,), follow, small, depth, depth, MAX_LINES, into)
    return lines


def _copied(
    bodies: list[list[str]],
    body: list[str],
    path: tuple[int, ...],
    follow: frozenset[int],
    small: int,
    depth: int,
    full: int,
    room: int,
    copied: set[int],
) -> list[str]:
    """body with its jumps replaced (see chained), each copy only where the lines
    come to at most `room`; the ops copied added to `copied`."""
    out: list[str] = []
    for i, line in enumerate(body):
        m = JUMP.match(line)
        target = int(m.group(2)) if m else -1
        if m is None or target in path:
            out.append(line)
            continue
        spare = room - len(out) - (len(body) - i - 1)  # lines left for this jump's copy
        is_small = depth > 0 and len(bodies[target]) <= small
        if not is_small and (target not in follow or len(bodies[target]) > spare):
            out.append(line)
            continue
        # a followed op is copied as it would be run, with its own small ops in it
        deeper = depth - 1 if is_small else full
        inner: set[int] = set()
        path_on = (*path, target)
        copy = _copied(bodies, bodies[target], path_on, follow, small, deeper, full, spare, inner)
        if len(copy) <= spare:
            out.extend(m.group(1) + x for x in copy)
            copied |= inner | {target}
        else:
            out.append(line)
    return out


def resumed(
    bodies: list[list[str]],
    me: int,
    to: list[int],
    follow: frozenset[int],
    small: int,
    depth: int,
    where: Callable[[int], list[int]],
) -> list[str]:
    """Op `me`'s body as a resume runs on with it to the next pause, in one call as a
    chained op runs (codegen's resumes). `bodies`: the ops as a game played through the
    API runs them, without their playout branches (codegen's `_unbudgeted`), so that a
    copy costs only the lines the API runs. `to`: the ops play was seen to go on to
    after the resume's first calls (the most frequent first); `where(N)`: those op N
    was seen to go on to in its own first calls.

    Chained as an op is (`chained`), copying `to` as well as `follow`; then a return
    from a pausing proc whose push lies in an earlier call (`return st.stack.pop()`,
    not known here: a player's turn pushed where it began, the decision that ends it
    pops) runs on into the ops of `to` it may return to: `_popped = st.stack.pop()`,
    each op copied under `if _popped == N:` (its own such returns in turn running on
    into the ops of `where(N)`), then `return _popped` for any other value. The stack
    is popped as before, so it is the same at every point."""
    follow = follow | frozenset(to)
    lines = chained(bodies, me, follow, small, depth)
    copies: dict[int, list[str]] = {}  # each op chained once, wherever it is copied

    def copy(pc: int) -> list[str]:
        found = copies.get(pc)
        if found is None:
            found = copies[pc] = chained(bodies, pc, follow, small, depth)
        return found

    return _run_on(lines, to, (me,), (copy, where), MAX_LINES)


def _run_on(
    lines: list[str],
    to: list[int],
    path: tuple[int, ...],
    how: tuple[Callable[[int], list[str]], Callable[[int], list[int]]],
    room: int,
) -> list[str]:
    """lines with their unknown pops running on into copies of the ops of `to` (not
    those of `path`, the ops copied so far on the way: a jump back to the first is
    the resume's loop, codegen's _looping), within `room` lines. `how`: an op's
    chained lines, and the ops it was seen to go on to."""
    if len(path) > POPPED_DEPTH or not any(POP.match(line) for line in lines):
        return lines
    chained_op, where = how
    copies = []
    for target in to:
        if target not in path:
            inner = room - len(lines) - 2
            copy = _run_on(chained_op(target), where(target), (*path, target), how, inner)
            copies.append((target, copy))
    return _popped_into(lines, copies, room) if copies else lines


def _popped_into(lines: list[str], copies: list[tuple[int, list[str]]], room: int) -> list[str]:
    """lines with each unknown `return st.stack.pop()` running on into the copy of
    the op it returns to, for the ops of `copies` (pc, lines), each while the lines
    stay within `room`."""
    out: list[str] = []
    for i, line in enumerate(lines):
        m = POP.match(line)
        if m is None:
            out.append(line)
            continue
        pad = m.group(1)
        out.append(f"{pad}_popped = st.stack.pop(){m.group(2) or ''}")
        for target, copy in copies:
            if len(out) + len(copy) + 2 + (len(lines) - i) <= room:
                out.append(f"{pad}if _popped == {target}:")
                out.extend(f"{pad}    {x}" for x in copy)
        out.append(f"{pad}return _popped")
    return out
