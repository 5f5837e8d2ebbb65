"""Where a paragraph comes from, as the renderers write it."""

from __future__ import annotations

from pathlib import Path

from rulelang.diagnostics import Span


def file_label(file: str, main_file: str) -> str:
    """ "rules" for the main rule file, else the file's name (a base, a stdlib module)."""
    return "rules" if file == main_file else Path(file).name


def file_id(file: str, files: list[str]) -> str:
    """The HTML id prefix of a file's lines in the appendix: f0, f1, ..."""
    return f"f{files.index(file)}" if file in files else "f0"


def words(span: Span, main_file: str) -> str:
    return f"{file_label(span.file, main_file)} line {span.line}"
