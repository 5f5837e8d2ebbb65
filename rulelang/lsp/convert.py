"""Spans and places as the protocol's ranges and locations, and back."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types as T

from rulelang.diagnostics import Diagnostic, Span
from rulelang.lsp.text import Lines, Place


def uri_of(file: str) -> str:
    """The URI of a file the loader read (its real path: a shipped game's too)."""
    try:
        return Path(file).resolve().as_uri()
    except (OSError, ValueError):
        return Path(file).absolute().as_uri()


def position(lines: Lines, line: int, col: int) -> T.Position:
    line = max(line, 1)
    return T.Position(line=line - 1, character=lines.to_utf16(line, max(col, 1)))


def span_range(lines: Lines, span: Span) -> T.Range:
    """The range of a span; one without an end covers the word it starts at (or the
    rest of its line, if no word starts there)."""
    start = position(lines, span.line, span.col)
    if span.end_line >= span.line and (span.end_line, span.end_col) > (span.line, span.col):
        return T.Range(start, position(lines, span.end_line, span.end_col))
    word, at = lines.word_at(span.line, span.col)
    end = at + len(word) if word and at == span.col else len(lines.get(span.line)) + 1
    return T.Range(start, position(lines, span.line, max(end, span.col + 1)))


def place_range(lines: Lines, place: Place) -> T.Range:
    return T.Range(
        position(lines, place.line, place.col), position(lines, place.line, place.end_col)
    )


def diagnostic(lines: Lines, diag: Diagnostic, main: str, here: Span | None) -> T.Diagnostic:
    """A checker's diagnostic for the editor: its code, range, message and hint. One in
    another file (a base, a module) is shown at `here`, the line that reads that file,
    saying where it is."""
    message = diag.message
    span = diag.span
    if span.file != main:
        message = f"{Path(span.file).name}:{span.line}:{span.col}: {message}"
        span = here or Span(main, 1, 1)
    if diag.hint:
        message += f"\nhint: {diag.hint}"
    severity = T.DiagnosticSeverity.Warning if diag.severity == "warning" else None
    return T.Diagnostic(
        range=span_range(lines, span),
        message=message,
        severity=severity or T.DiagnosticSeverity.Error,
        code=diag.code,
        source="rulelang",
    )
