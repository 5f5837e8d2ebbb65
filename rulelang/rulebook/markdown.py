"""The rulebook as Markdown: every paragraph, step and table cites its rule line
("(rules line 12)"); boards are listed, grids drawn as text.

Pure Markdown, no HTML: a link to a section leads to the id the Markdown viewers
(GitHub, GitLab, VS Code, Python-Markdown's toc) give its heading, made from its text
(`slug`), rather than to an `<a id>` of its own, which some viewers strip or escape."""

from __future__ import annotations

import re
from collections.abc import Iterable

from rulelang.diagnostics import Span
from rulelang.rulebook import cite
from rulelang.rulebook.model import (
    MARKS,
    Block,
    Book,
    Drawing,
    Para,
    Section,
    Step,
    Steps,
    Table,
)


def render(book: Book) -> str:
    out = [f"# {book.title}", ""]
    for p in book.intro:
        out += [para(p, book), ""]
    for s in book.sections:
        out += section(s, book)
    text = no_html("\n".join(out).rstrip() + "\n")
    ids = heading_ids(book.title, [(heading(s), s.anchor) for s in book.sections])
    return _LINK.sub(lambda m: f"](#{ids.get(m[1], m[1])})", text)


_CODE = re.compile(r"(`[^`]*`)")


def no_html(text: str) -> str:
    """`<` escaped outside code (spans and fenced blocks): a rule file's comment that
    reads `<b>` or `<script>` is shown as written, never taken as HTML."""
    out, fenced = [], False
    for line in text.split("\n"):
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and "<" in line:
            parts = _CODE.split(line)
            line = "".join(x if i % 2 else x.replace("<", "\\<") for i, x in enumerate(parts))
        out.append(line)
    return "\n".join(out)


# a link to a section of the page, as the builder writes it: [label](#anchor)
_LINK = re.compile(r"\]\(#([A-Za-z0-9_.-]+)\)")
# what a heading's id leaves out: all but letters, digits, `_`, `-` and spaces
_NOT_IN_ID = re.compile(r"[^\w\- ]")


def slug(text: str) -> str:
    """The id a Markdown viewer gives a heading: its text in lower case, without
    punctuation, spaces made `-` (GitHub's rule, which the others follow)."""
    return _NOT_IN_ID.sub("", text.strip().lower()).replace(" ", "-")


def heading_ids(title: str, headings: Iterable[tuple[str, str]]) -> dict[str, str]:
    """The viewer's id of each section's heading, by the section's anchor: in the
    order of the page, a text met again gets `-1`, `-2`, ... (`Deal`, then `deal`)."""
    taken = {slug(title)}
    ids = {}
    for text, anchor in headings:
        base = candidate = slug(text)
        n = 0
        while candidate in taken:
            n += 1
            candidate = f"{base}-{n}"
        taken.add(candidate)
        ids[anchor] = candidate
    return ids


def where(span: Span | None, book: Book) -> str:
    return f" ({cite.words(span, book.main_file)})" if span is not None else ""


def emph(text: str) -> str:
    return "*" + text.replace("*", "\\*") + "*"


def heading(s: Section) -> str:
    return s.title + (f" ({MARKS[s.mark]})" if s.mark else "")


def section(s: Section, book: Book) -> list[str]:
    out = [f"{'#' * s.level} {heading(s)}", ""]
    for b in s.blocks:
        out += [block(b, book), ""]
    return out


def block(b: Block, book: Book) -> str:
    if isinstance(b, Para):
        return para(b, book)
    if isinstance(b, Steps):
        return "\n".join(steps(b.steps, book, 0))
    if isinstance(b, Table):
        return table(b, book)
    return drawing(b)


def para(p: Para, book: Book) -> str:
    mark = f"**{MARKS[p.mark].capitalize()}:** " if p.mark else ""
    note = emph(p.note) + " " if p.note else ""
    return f"{mark}{note}{p.text}{where(p.cite, book)}"


def steps(items: list[Step], book: Book, depth: int) -> list[str]:
    out = []
    for i, s in enumerate(items, 1):
        lead = "    " * depth + (f"{i}. " if depth == 0 else "- ")
        choice = "**Choice:** " if s.choice else ""
        note = emph(s.note) + " " if s.note else ""
        out.append(f"{lead}{note}{choice}{s.text}{where(s.cite, book)}")
        out += steps(s.children, book, depth + 1)
    return out


def cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def table(t: Table, book: Book) -> str:
    head = "| " + " | ".join(cell(h) or " " for h in t.head) + " |"
    rule = "|" + "|".join("---" for _ in t.head) + "|"
    rows = ["| " + " | ".join(cell(c) for c in r) + " |" for r in t.rows]
    return "\n".join([f"{t.caption}{where(t.cite, book)}:", "", head, rule, *rows])


def drawing(d: Drawing) -> str:
    """A grid as rows of its cells' names; a ring or a line needs no picture in text
    (its spaces are listed in order)."""
    if d.shape != "grid":
        return f"(The board {d.name} is drawn in the HTML rulebook.)"
    width = max(len(label) for label in d.labels)
    rows: list[list[str]] = [[""] * d.width for _ in range(d.height)]
    for label, (x, y) in zip(d.labels, d.places, strict=True):
        rows[int(y)][int(x)] = label.ljust(width)
    return "```\n" + "\n".join(" ".join(r).rstrip() for r in rows) + "\n```"
