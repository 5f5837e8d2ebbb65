"""The rulebook as a document: sections of paragraphs, steps, tables and boards, each
citing the rule line it comes from. Built once (build.py), written as Markdown
(markdown.py) or HTML (page.py)."""

from __future__ import annotations

from dataclasses import dataclass, field

from rulelang.diagnostics import Span

# how a variant's part differs from its base: "" (as in the base, or no base), "new"
# (the variant adds it) or "changed" (the variant overrides it)
NEW, CHANGED = "new", "changed"
# how a mark reads in the rulebook, in either format
MARKS = {NEW: "new in this variant", CHANGED: "changed in this variant"}


@dataclass
class Para:
    text: str
    cite: Span | None = None
    note: str = ""  # the rule file's own words (its comments), shown before the text
    mark: str = ""


@dataclass
class Step:
    """One step of a procedure; a choice lists the conditions that make an option legal."""

    text: str
    cite: Span | None = None
    note: str = ""
    children: list[Step] = field(default_factory=list)
    choice: bool = False


@dataclass
class Steps:
    steps: list[Step]


@dataclass
class Table:
    caption: str
    head: list[str]
    rows: list[list[str]]
    cite: Span | None = None


@dataclass
class Drawing:
    """A board to draw: its shape, its spaces' names, and where each lies (x, y)."""

    name: str
    shape: str  # ring, line, grid
    labels: list[str]
    places: list[tuple[float, float]]
    width: int = 0  # a grid's columns and rows
    height: int = 0


Block = Para | Steps | Table | Drawing


@dataclass
class Section:
    title: str
    anchor: str
    blocks: list[Block] = field(default_factory=list)
    cite: Span | None = None
    mark: str = ""
    level: int = 2


@dataclass
class Book:
    title: str
    main_file: str
    sections: list[Section]
    files: list[tuple[str, str]]  # every rule file read: (its path, its text)
    intro: list[Para] = field(default_factory=list)
