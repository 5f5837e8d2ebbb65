"""Parse a file being edited one top-level declaration at a time, keeping each
declaration's parse while its text (and the line it starts on) stays the same: an
edit inside one declaration parses that declaration again, not the file.

A file is cut before each line that starts, at its first column, with a keyword that
begins a declaration. The declarations are the whole text's parse, and so are the
syntax errors: the parser reports them declaration by declaration already (checked on
every shipped file, with errors put in, by tests/test_lsp_analysis.py). Where a piece's
error would say "at the end of the file" (a brace never closed) and the file goes on,
and where the file has a top-level `order` or `skip when` (which fold into the file's
`turn`, across pieces), the whole text is parsed instead, as `rulelang validate` parses it."""

from __future__ import annotations

import hashlib
import re
from collections import OrderedDict

from rulelang.diagnostics import Diagnostic, RuleError
from rulelang.syntax import ast as A
from rulelang.syntax.parser import parse

STARTS = (
    "library|game|players|import|extends|param|const|table|die|board|piece|card|player|"
    "global|zone|def|proc|setup|turn|phase|end|enum|bot|estimate|imagine|measure"
)
DECL_LINE = re.compile(rf"^(?:override[ \t]+)?(?:{STARTS})\b")
ORDER_LINE = re.compile(r"^(?:order|skip)\b", re.M)
END_OF_FILE = "end of the file"  # a hint that, for a piece, would mean its end
MAX_PIECES = 4096  # parsed pieces kept, over every file


def pieces(text: str) -> list[tuple[int, str]]:
    """(index of its first line, its text) of each piece of `text`, in order."""
    lines = text.split("\n")
    starts = [n for n, line in enumerate(lines) if n == 0 or DECL_LINE.match(line)]
    ends = [*starts[1:], len(lines)]
    return [(a, "\n".join(lines[a:b])) for a, b in zip(starts, ends, strict=True)]


class Pieces:
    """The parses of pieces, by file, first line and text: their declarations, or the
    syntax errors of a piece that does not parse."""

    def __init__(self) -> None:
        self.parsed: OrderedDict[str, tuple[A.Decl, ...] | RuleError] = OrderedDict()

    def _piece(self, name: str, first: int, text: str) -> tuple[A.Decl, ...] | RuleError:
        key = hashlib.sha256(
            f"{name}\0{first}\0{text}".encode("utf-8", "surrogatepass")
        ).hexdigest()
        if key in self.parsed:
            self.parsed.move_to_end(key)
            return self.parsed[key]
        try:  # the lines before it kept as empty ones: its spans are the file's
            found: tuple[A.Decl, ...] | RuleError = parse("\n" * first + text, name).decls
        except RuleError as err:
            found = err
        self.parsed[key] = found
        while len(self.parsed) > MAX_PIECES:
            self.parsed.popitem(last=False)
        return found

    def parse(self, text: str, name: str) -> A.Module:
        """The module of `text`, as `parser.parse` gives it; RuleError likewise, with
        the syntax errors of each piece that does not parse (as the whole text's)."""
        if ORDER_LINE.search(text):
            return parse(text, name)
        decls: list[A.Decl] = []
        problems: list[Diagnostic] = []
        cut = pieces(text)
        for n, (first, piece) in enumerate(cut):
            got = self._piece(name, first, piece)
            if isinstance(got, RuleError):
                if n < len(cut) - 1 and any(END_OF_FILE in d.hint for d in got.diagnostics):
                    return parse(text, name)  # the whole text says where to close
                problems.extend(got.diagnostics)
            else:
                decls.extend(got)
        if problems:
            raise RuleError(problems)
        return A.Module(name, tuple(decls))
