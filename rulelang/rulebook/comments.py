"""The rule file's own words kept in its comments: the comment lines right above a
declaration or a statement, and the comment at the end of its line. The parser drops
comments, so they are read again here from the source text the program keeps."""

from __future__ import annotations

from rulelang.diagnostics import Sources, Span


def _lines(sources: Sources | None, file: str) -> list[str]:
    if sources is None:
        return []
    return sources.texts.get(file, "").splitlines()


def code_end(line: str) -> int:
    """Where the comment of a line starts (a `#` outside a "text"), or its length."""
    quoted = False
    for i, ch in enumerate(line):
        if ch == '"':
            quoted = not quoted
        elif ch == "#" and not quoted:
            return i
    return len(line)


def _comment(line: str) -> str | None:
    """The text of a line that holds only a comment; None for any other line. A rule
    of dashes (a section divider) gives its title, if any, as no text: "". So does a
    line indented past the `#` (`#   rulelang play ...`): an example or a command, as
    Markdown reads an indented line, not words for the players."""
    stripped = line.strip()
    if not stripped.startswith("#"):
        return None
    after = stripped.lstrip("#")
    text = after.strip()
    return "" if text.startswith("---") or after.startswith("  ") else text


def above(sources: Sources | None, span: Span) -> str:
    """The comment lines right above `span`'s line, joined; "" if there are none."""
    lines = _lines(sources, span.file)
    found: list[str] = []
    i = span.line - 2
    while i >= 0:
        text = _comment(lines[i])
        if text is None or text == "":
            break
        found.append(text)
        i -= 1
    return " ".join(reversed(found))


def trailing(sources: Sources | None, span: Span) -> str:
    """The comment at the end of `span`'s first line, after code; "" if none."""
    lines = _lines(sources, span.file)
    if not 0 < span.line <= len(lines):
        return ""
    line = lines[span.line - 1]
    cut = code_end(line)
    if cut == len(line) or not line[:cut].strip():
        return ""
    return line[cut:].lstrip("#").strip()


def header(sources: Sources | None, file: str) -> tuple[str, int]:
    """The comment at the top of a file, before its first declaration, and its line."""
    found: list[str] = []
    for line in _lines(sources, file):
        text = _comment(line)
        if text is None:
            break
        if text:
            found.append(text)
    return " ".join(found), 1


def doc(sources: Sources | None, span: Span) -> str:
    """What the rule file says of a declaration or statement in its comments."""
    return " ".join(sentence(t) for t in (above(sources, span), trailing(sources, span)) if t)


def sentence(text: str) -> str:
    """A comment as a sentence: with a full stop if it has no end of its own."""
    return text if text.endswith((".", "!", "?", ":", ";", ")")) else text + "."
