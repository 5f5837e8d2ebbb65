"""Places in a rule file's text: lines, words, and the columns editors count in.

Spans count lines and columns from 1 in characters; the protocol counts from 0 and
columns in UTF-16 code units, which differ from characters only beyond the BMP."""

from __future__ import annotations

import re
from dataclasses import dataclass

WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
KEYWORD_BEFORE_NAME = (
    "for|let|choose|roll|pick|shuffle|as|const|param|table|die|board|piece|card|zone|def|"
    "proc|enum|phase|measure|bot|state|edge|choosing"
)


@dataclass(frozen=True, slots=True)
class Place:
    """A stretch of one line of a file: 1-based line, 1-based columns, end exclusive."""

    file: str
    line: int
    col: int
    end_col: int

    def holds(self, line: int, col: int) -> bool:
        return self.line == line and self.col <= col <= self.end_col


class Lines:
    """A text cut into lines, for quick lookups by line."""

    def __init__(self, text: str) -> None:
        self.lines = text.split("\n")

    def get(self, line: int) -> str:
        return self.lines[line - 1] if 1 <= line <= len(self.lines) else ""

    def to_utf16(self, line: int, col: int) -> int:
        """The protocol's 0-based column of the 1-based character column `col`."""
        before = self.get(line)[: max(col - 1, 0)]
        return len(before) + sum(1 for ch in before if ord(ch) > 0xFFFF)

    def from_utf16(self, line: int, character: int) -> int:
        """The 1-based character column of the protocol's column `character`."""
        units = 0
        for i, ch in enumerate(self.get(line)):
            if units >= character:
                return i + 1
            units += 2 if ord(ch) > 0xFFFF else 1
        return len(self.get(line)) + 1

    def word_at(self, line: int, col: int) -> tuple[str, int]:
        """The word (name, keyword or code) under or just before column `col`, and the
        column it starts at; ("", col) if there is none."""
        text = self.get(line)
        for m in WORD.finditer(text):
            if m.start() + 1 <= col <= m.end() + 1:
                return m.group(), m.start() + 1
        return "", col

    def find_word(
        self, word: str, line: int, col: int, end_line: int = 0, end_col: int = 0
    ) -> tuple[int, int] | None:
        """Where `word` is first written as a whole word from (line, col), before
        (end_line, end_col) if given, else on that line: (line, col) or None. A name
        written after a keyword that declares it (`for x in ...`) wins over an earlier
        use of the same word on its line (`[p.score for p in players]`)."""
        last = end_line if end_line >= line else line
        pattern = re.compile(rf"(?<![A-Za-z0-9_]){re.escape(word)}(?![A-Za-z0-9_])")
        declared = re.compile(rf"\b(?:{KEYWORD_BEFORE_NAME})\s+{re.escape(word)}\b")
        for n in range(line, min(last, len(self.lines)) + 1):
            text = self.get(n)
            start = col - 1 if n == line else 0
            stop = max(end_col - 1 if n == end_line and end_col > 0 else len(text), start)
            d = declared.search(text, start, stop)
            if d:
                return n, d.end() - len(word) + 1
            m = pattern.search(text, start, stop)
            if m:
                return n, m.start() + 1
        return None
