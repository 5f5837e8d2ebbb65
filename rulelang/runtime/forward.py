"""A value stored in a local's slot read again from a Python local (issue 21).

The locals of a rule block that may pause live in the state's slots (`st.loc`, read
as `loc` after exprgen.prelude), so that a paused game can resume: an op stores
`loc[235] = ...` and each later read is `loc[235]` again, three bytecodes (the list,
the index, the subscript) where a Python local is one. A move tested against the walls
reads the direction chosen and the tile stood on at every test. Here a store whose
slot the lines after it read twice or more is written through a Python local
(`loc[235] = fw_235 = ...`), and those reads take the local: only in the lines known
to run after the store and before anything writes the slot again (statelocals.py's
`_region`: below the store in its block, up to a write of the slot or the loop that
holds it), and not inside a comprehension or a lambda, whose scope would make the
local a cell. The slot is still written: a pause, a resume and the other ops read it
there. What else writes a slot while an op runs is a helper given the state (a chance
drawn, a map generated: `WRITER`), where the lines read from the local end; a def
reads its arguments, a proc called as a function has slots of its own, and no proc
calls itself (E-recursion), so none writes the slots of the one whose code the op runs.

statelocals.CHOSEN does this for a choice's value in a chained op; this is every
store of a value on one line, in every op.
"""

from __future__ import annotations

import re

from rulelang.runtime.statelocals import _after_prelude, _plain, _region, through

FORWARD = True  # off: every read of a local in an op is read from its slot
# a store of a whole value in a slot, on one line: its statement's mark kept
STORE = re.compile(r"^(\s*)loc\[(\d+)\] = (.+?)((?:  # @\d+)?)$")
OPENS, CLOSES = "([{", ")]}"
# a call given the state that may write a slot: a chance drawn, a map generated (not a
# def's, a proc's function or the end's test, which write none)
WRITER = re.compile(r"(?<![\w.])(?!(?:_d_|_p_|_P_)\w|_check_end\b)[A-Za-z_][\w.]*\(st[,)]")


def forwarded(lines: list[str]) -> list[str]:
    """lines (a body after exprgen.prelude, reading `loc`) with each store's later
    reads taken from a local where there are two or more (see the docstring)."""
    if not FORWARD or "loc = st.loc" not in lines[:4]:
        return lines
    writers = [i for i, line in enumerate(lines) if WRITER.search(line)]
    out = _read_once(lines) if READ_ONCE and not writers else list(lines)
    text = "\n".join(lines)
    for at in range(len(lines)):
        m = STORE.match(out[at])
        if m is None or not _whole(m.group(3)):
            continue
        slot, name = m.group(2), f"fw_{m.group(2)}"
        read = re.compile(rf"(?<![\w.])loc\[{slot}\](?!\s*=[^=])")
        end = min([_region(out, at, len(m.group(1)), slot), *(i for i in writers if i > at)])
        reads = {
            i: [r.span() for r in read.finditer(out[i])]
            for i in range(at + 1, end)
            if _plain(out[i])
        }
        if sum(map(len, reads.values())) < 2 or re.search(rf"\b{name}\b", text):
            continue
        through(out, at, m, name, reads)
    return out


def _whole(value: str) -> bool:
    """Is the value a whole expression on its line: its brackets closed outside its
    texts, no other assignment chained (`=` but in `:=` or a comparison), not continued
    on the next line?"""
    if value.endswith("\\"):
        return False
    depth, quote, bare = 0, "", []
    chars = iter(value)
    for ch in chars:
        if quote:
            if ch == "\\":
                next(chars, None)
            elif ch == quote:
                quote = ""
            continue
        if ch in "'\"":
            quote = ch
            continue
        bare.append(ch)
        depth += (ch in OPENS) - (ch in CLOSES)
        if depth < 0:
            return False
    code = "".join(bare)
    if depth or quote or "#" in code:
        return False
    return re.search(r"(?<![=!<>:])=(?!=)", code) is None


# A board read from the table's boards once per function (forward.BOARDS): `cfg.boards`
# is filled when the table is made and never changed while a game runs.
BOARDS = True  # off: each read of a board looks it up in cfg.boards
BOARD = re.compile(r"(?<![\w.])cfg\.boards\[('[A-Za-z_0-9\\x]*')\]")


def boards(text: str) -> tuple[str, list[str]]:
    """text (a body after exprgen.prelude's `cfg = st.cfg`) reading each board it reads
    twice or more from a local (`board_0`), and the lines that read them."""
    if not BOARDS:
        return text, []
    head: list[str] = []
    seen = sorted(set(BOARD.findall(text)))
    for name in seen:
        read = re.compile(rf"(?<![\w.])cfg\.boards\[{re.escape(name)}\]")
        local = f"board_{len(head)}"
        if len(read.findall(text)) < 2 or re.search(rf"\b{local}\b", text):
            continue
        text = read.sub(local, text)
        head.append(f"{local} = cfg.boards[{name}]")
    return text, head


# A slot the function reads three times or more and never writes, read into a local
# where it starts (forward.READ_ONCE): a read of `loc` cannot fail, and nothing else
# writes the slot while the function runs (see the docstring).
READ_ONCE = True  # off: a slot an op never writes is read from `loc` at each read
READ = re.compile(r"(?<![\w.])loc\[(\d+)\](?!\s*=[^=])")


def _read_once(lines: list[str]) -> list[str]:
    text = "\n".join(lines)
    head: list[str] = []
    out = list(lines)
    counts: dict[str, int] = {}
    for line in lines:
        if _plain(line):
            for slot in READ.findall(line):
                counts[slot] = counts.get(slot, 0) + 1
    for slot, n in sorted(counts.items(), key=lambda kv: int(kv[0])):
        written = re.search(rf"(?<![\w.])loc\[{slot}\]\s*(=[^=]|[-+*/%]=)", text)
        if n < 3 or written or re.search(rf"\bfw_{slot}\b", text):
            continue
        read = re.compile(rf"(?<![\w.])loc\[{slot}\](?!\s*=[^=])")
        out = [read.sub(f"fw_{slot}", line) if _plain(line) else line for line in out]
        head.append(f"fw_{slot} = loc[{slot}]")
    at = _after_prelude(out)
    return [*out[:at], *head, *out[at:]]
