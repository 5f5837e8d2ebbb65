"""The rulebook as one self-contained HTML page: a contents list, the sections, boards
drawn as inline SVG, and an appendix listing every rule file read with its line
numbers, which each paragraph links to. Every text from a rule file is escaped; no
script, nothing outside the page."""

from __future__ import annotations

import re
from html import escape
from typing import Any

from rulelang.diagnostics import Span
from rulelang.report.html import STYLE
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
from rulelang.rulebook.svg import board_svg

MORE_STYLE = """
nav ol { columns: 2; font-size: .92rem; }
a.cite { font-size: .78rem; color: #777; text-decoration: none; white-space: nowrap; }
a.cite:hover { text-decoration: underline; }
.note-own { font-style: italic; color: #333; }
.choice > .what { font-weight: 600; color: #0b4f8a; }
ol.steps, ol.steps ul { padding-left: 1.6rem; }
ol.steps li { margin: .2rem 0; }
code { font-size: .92em; background: #f3f3f3; padding: 0 .2em; border-radius: 3px; }
.mark { font-size: .75rem; font-weight: 600; padding: .05rem .4rem; border-radius: .6rem;
        margin-left: .4rem; vertical-align: middle; }
.mark.new { background: #dff3df; color: #1d5e1d; }
.mark.changed { background: #fde8c8; color: #7a4300; }
section.new, p.new, section.changed, p.changed { border-left: 4px solid #e0a040;
        padding-left: .6rem; }
section.new, p.new { border-left-color: #4caf50; }
table th, table td { white-space: normal; text-align: left; }
figure.board svg { width: auto; max-width: 100%; height: auto; }
pre.source { font-size: .82rem; line-height: 1.35; background: #fafafa; padding: .6rem;
             overflow-x: auto; border: 1px solid #e2e2e2; }
pre.source .ln { display: inline-block; width: 3.2em; color: #999; text-align: right;
                 margin-right: .8em; user-select: none; text-decoration: none; }
pre.source span.line:target { background: #fff3b0; }
"""
CODE = re.compile(r"`([^`]+)`")
LINK = re.compile(r"\[([^\]]+)\]\(#([a-z0-9.-]+)\)")
EMPH = re.compile(r"\*(new|changed)\*")


def inline(text: str) -> str:
    """Escaped text with the builder's few marks: `code`, [label](#anchor), *new*."""
    out = escape(text)
    out = LINK.sub(r"<a href='#\2'>\1</a>", out)
    out = CODE.sub(r"<code>\1</code>", out)
    return EMPH.sub(r"<em>\1</em>", out)


class Page:
    def __init__(self, book: Book, highlight: bool = True) -> None:
        self.book = book
        self.files = [f for f, _text in book.files]
        self.highlight = highlight

    def link(self, span: Span | None) -> str:
        if span is None:
            return ""
        where = cite.words(span, self.book.main_file)
        target = f"{cite.file_id(span.file, self.files)}-{span.line}"
        title = escape(f"{cite.file_label(span.file, self.book.main_file)}:{span.line}")
        return f" <a class='cite' href='#{target}' title='{title}'>[{escape(where)}]</a>"

    def render(self) -> str:
        b = self.book
        toc = "".join(
            f"<li><a href='#{s.anchor}'>{escape(s.title)}</a></li>"
            for s in b.sections
            if s.level == 2
        )
        body = [
            f"<h1>{escape(b.title)}</h1>",
            *(self.para(p) for p in b.intro),
            f"<nav aria-label='Contents'><h2>Contents</h2><ol>{toc}"
            "<li><a href='#source'>The rule files</a></li></ol></nav>",
            *(self.section(s) for s in b.sections),
            self.appendix(),
        ]
        return (
            "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>{escape(b.title)}: rulebook</title>"
            f"<style>{STYLE}{MORE_STYLE}{self.source_style()}</style></head><body>"
            + "\n".join(body)
            + "\n</body></html>\n"
        )

    def badge(self, mark: str) -> str:
        return f"<span class='mark {mark}'>{MARKS[mark]}</span>" if mark else ""

    def section(self, s: Section) -> str:
        h = f"h{s.level}"
        cls = f" class='{s.mark}'" if s.mark else ""
        head = f"<{h}>{escape(s.title)}{self.badge(s.mark)}</{h}>"
        inner = "".join(self.block(b) for b in s.blocks)
        return f"<section id='{s.anchor}'{cls}>{head}{inner}</section>"

    def block(self, b: Block) -> str:
        if isinstance(b, Para):
            return self.para(b)
        if isinstance(b, Steps):
            return f"<ol class='steps'>{''.join(self.step(s) for s in b.steps)}</ol>"
        if isinstance(b, Table):
            return self.table(b)
        return self.drawing(b)

    def para(self, p: Para) -> str:
        cls = f" class='{p.mark}'" if p.mark else ""
        note = f"<span class='note-own'>{escape(p.note)}</span> " if p.note else ""
        return f"<p{cls}>{self.badge(p.mark)} {note}{inline(p.text)}{self.link(p.cite)}</p>"

    def step(self, s: Step) -> str:
        note = f"<span class='note-own'>{escape(s.note)}</span> " if s.note else ""
        what = "<span class='what'>Choice:</span> " if s.choice else ""
        inner = "".join(self.step(c) for c in s.children)
        kids = f"<ul>{inner}</ul>" if inner else ""
        cls = " class='choice'" if s.choice else ""
        return f"<li{cls}>{note}{what}{inline(s.text)}{self.link(s.cite)}{kids}</li>"

    def table(self, t: Table) -> str:
        th = "".join(f"<th scope='col'>{escape(h)}</th>" for h in t.head)
        rows = "".join(
            "<tr>" + "".join(f"<td>{inline(c)}</td>" for c in row) + "</tr>" for row in t.rows
        )
        caption = f"<caption class='note'>{escape(t.caption)}{self.link(t.cite)}</caption>"
        return f"<table>{caption}<thead><tr>{th}</tr></thead><tbody>{rows}</tbody></table>"

    def drawing(self, d: Drawing) -> str:
        caption = f"The board {d.name}"
        svg = board_svg(d, caption)
        return f"<figure class='board'>{svg}<figcaption>{escape(caption)}</figcaption></figure>"

    def appendix(self) -> str:
        parts = [
            "<section id='source'><h2>The rule files</h2>",
            "<p class='note'>Every paragraph above links to the line it comes from.</p>",
        ]
        for i, (file, text) in enumerate(self.book.files):
            label = cite.file_label(file, self.book.main_file)
            name = escape(file.rsplit("/", 1)[-1])
            parts.append(f"<h3>{name}{' (this file)' if label == 'rules' else ''}</h3>")
            parts.append(f"<pre class='source'>{self.lines(f'f{i}', text)}</pre>")
        parts.append("</section>")
        return "".join(parts)

    def lines(self, fid: str, text: str) -> str:
        shown = self.highlighted(text) or [escape(line) for line in text.splitlines()]
        return "\n".join(
            f"<span class='line' id='{fid}-{n}'>"
            f"<a class='ln' href='#{fid}-{n}'>{n}</a>{line}</span>"
            for n, line in enumerate(shown, 1)
        )

    def highlighted(self, text: str) -> list[str] | None:
        """The lines as the rulelang Pygments lexer colours them, if one is installed."""
        lexer = self.lexer()
        if lexer is None:
            return None
        from pygments import format as pformat
        from pygments.formatters import HtmlFormatter

        lines: list[str] = []
        for line in text.splitlines():  # tokens end at a line's end: a comment, a text
            html = pformat(lexer.get_tokens(line), HtmlFormatter(nowrap=True))
            lines.append(html.rstrip("\n"))
        return lines

    def lexer(self) -> Any:
        """The rulelang Pygments lexer (the `editors` extra registers it), or None."""
        if not self.highlight:
            return None
        try:
            from pygments.lexers import get_lexer_by_name
            from pygments.util import ClassNotFound
        except ImportError:
            return None
        try:
            return get_lexer_by_name("rulelang")
        except ClassNotFound:
            return None

    def source_style(self) -> str:
        if self.lexer() is None:
            return ""
        from pygments.formatters import HtmlFormatter

        return str(HtmlFormatter().get_style_defs("pre.source"))


def render(book: Book, highlight: bool = True) -> str:
    return Page(book, highlight).render()
