"""The rulebook as Markdown: every paragraph, step and table cites its rule line
("(rules line 12)"); boards are listed, grids drawn as text."""

from __future__ import annotations

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
    return "\n".join(out).rstrip() + "\n"


def where(span: Span | None, book: Book) -> str:
    return f" ({cite.words(span, book.main_file)})" if span is not None else ""


def emph(text: str) -> str:
    return "*" + text.replace("*", "\\*") + "*"


def section(s: Section, book: Book) -> list[str]:
    mark = f" ({MARKS[s.mark]})" if s.mark else ""
    out = [f'{"#" * s.level} {s.title}{mark} <a id="{s.anchor}"></a>', ""]
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
