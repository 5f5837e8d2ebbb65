"""The line table of the generated code: which rule statement each generated line comes
from, recorded when the code is compiled, so that an error raised while it runs is
placed on the rule line that caused it, at no cost while nothing fails.

The code generator ends the first line it writes for a statement with a mark
(`Lines.mark`); `Lines.compile` takes the marks out of a function's source into its
table (the lines where statements start: every line belongs to the statement that
starts last at or before it), and the source that linecache keeps has a comment naming
the rule line in their place. The sources are registered in `linecache`, so that a
rulelang developer's traceback through generated code shows its lines.
"""

from __future__ import annotations

import ast
import bisect
import itertools
import linecache
import threading
import weakref
from collections.abc import Callable, Mapping
from types import CodeType, TracebackType
from typing import TypeVar

from rulelang import errors
from rulelang.diagnostics import RulelangError, Span

TABLE = "__rulelang_lines__"  # the name of the Lines in the generated code's globals
_MARK = "  # @"  # a mark: this, then the number of its span (at the end of a line)
T = TypeVar("T")
_NAMESPACES = itertools.count(1)  # file names of generated code are unique per process
# CPython 3.11 counts the depth of the AST objects it builds in one counter for all
# threads: two threads parsing at once (the threads of a Dask cluster, each compiling
# the rules) may raise "SystemError: AST constructor recursion depth mismatch"
# (python/cpython#106905); the code generator's passes parse one at a time. Code that
# runs in the middle of a parse in the same thread (a gc callback, a finalizer, that
# formats a traceback: Python 3.11's tracebacks parse their lines) or a parse of
# another library's thread can still upset the counter, which the next parse resets:
# such a parse is tried once more
_PARSING = threading.Lock()
_MISMATCH = "AST constructor recursion depth mismatch"


def _parsed(parse_: Callable[[], T]) -> T:
    with _PARSING:
        try:
            return parse_()
        except SystemError as err:
            if _MISMATCH not in str(err):
                raise
            return parse_()


def parse(text: str) -> ast.Module:
    """`ast.parse(text)`, one thread at a time (see _PARSING)."""
    return _parsed(lambda: ast.parse(text))


def literal(text: str) -> object:
    """`ast.literal_eval(text)` (which parses it), one thread at a time (see _PARSING)."""
    return _parsed(lambda: ast.literal_eval(text))


def parse_expr(text: str) -> ast.expr:
    """The expression `text` as parsed by `ast.parse(text, mode="eval")`, one thread at
    a time (see _PARSING)."""
    return _parsed(lambda: ast.parse(text, mode="eval").body)


class Lines:
    """The line tables of one compiled ruleset's generated functions."""

    def __init__(self) -> None:
        self.prefix = f"<rulelang {next(_NAMESPACES)}"
        self.spans: list[Span] = []  # the spans that marks refer to
        # file -> (the lines where a statement starts, in order; their statements)
        self.tables: dict[str, tuple[tuple[int, ...], tuple[Span, ...]]] = {}
        # the sources leave linecache with the ruleset (generated code has no file)
        weakref.finalize(self, _forget, self.tables)

    def mark(self, span: Span) -> str:
        """The mark that ends the first generated line of the statement at span."""
        self.spans.append(span)
        return f"  # @{len(self.spans) - 1}"

    def compile(self, name: str, params: str, body: list[str]) -> CodeType:
        """Compile `def name(params): body` without its marks, recording its line table;
        the source that linecache shows has a comment naming the rule line instead."""
        lines = [f"def {name}({params}):", *("    " + line for line in body)]
        starts: list[int] = []  # the line numbers where a statement starts (def: 1)
        spans: list[Span] = []
        for i in [i for i, line in enumerate(lines) if _MARK in line]:
            line = lines[i]
            at = line.rfind(_MARK)
            if line[at + len(_MARK) :].isdigit():
                lines[i] = line[:at]
                starts.append(i + 1)
                spans.append(self.spans[int(line[at + len(_MARK) :])])
        file = f"{self.prefix} {name}>"
        self.tables[file] = (tuple(starts), tuple(spans))
        shown = [line + "\n" for line in lines]
        for at, span in zip(starts, spans, strict=True):
            shown[at - 1] = f"{lines[at - 1]}  # {_printable(span.file)}:{span.line}\n"
        linecache.cache[file] = (sum(map(len, shown)), None, shown, file)
        return compile("\n".join(lines), file, "exec")

    def span_at(self, file: str, line: int) -> Span | None:
        """The statement that line of file belongs to: the one marked last before it."""
        table = self.tables.get(file)
        if table is None:
            return None
        starts, spans = table
        at = bisect.bisect_right(starts, line) - 1
        return spans[at] if at >= 0 else None


def _printable(file: str) -> str:
    """A file name fit for a comment of generated code: a line break in it would end
    the comment and make the rest code."""
    if file.isprintable():
        return file
    return "".join(c if c.isprintable() else "?" for c in file)


def _forget(files: Mapping[str, object]) -> None:
    for file in files:
        linecache.cache.pop(file, None)


def rule_span(tb: TracebackType | None) -> Span | None:
    """The rule statement the innermost generated code of a traceback was running (a
    def or a condition compiled on its own belongs to the statement that called it);
    None when the traceback passes through no generated statement."""
    span = None
    while tb is not None:
        lines = tb.tb_frame.f_globals.get(TABLE)
        if isinstance(lines, Lines):
            span = lines.span_at(tb.tb_frame.f_code.co_filename, tb.tb_lineno) or span
        tb = tb.tb_next
    return span


def placed(exc: Exception, fallback: Span) -> Exception:
    """What to raise for an exception that escaped generated code, placed through the
    line table (at `fallback`, the statement running, when no line of it is known):

    - an error rulelang raised on purpose (R-codes, with their own place): itself;
    - a TypeError: `none` used as a value (R030). The checker gives every value its
      type, and `none` is the one value a variable of any type may hold, so an
      operation of the rules that meets a value of the wrong type has met none;
    - a RecursionError: rules nested too deeply for the interpreter (R011);
    - anything else: a bug in rulelang, given back with a note naming the rule line.

    An exception not raised through generated code is given back as it is (but for
    a RecursionError: the rules are what nests)."""
    if isinstance(exc, RulelangError):
        return exc
    span = rule_span(exc.__traceback__) or fallback
    if isinstance(exc, RecursionError):
        return errors.nests_too_deeply_at_runtime(span)
    if not _through_generated(exc.__traceback__):
        return exc
    if isinstance(exc, TypeError):
        return errors.none_used(span)
    note = f"(raised by the generated code of {span.file}:{span.line})"
    if note not in getattr(exc, "__notes__", ()):
        exc.add_note(note)
    return exc


def _through_generated(tb: TracebackType | None) -> bool:
    while tb is not None:
        if isinstance(tb.tb_frame.f_globals.get(TABLE), Lines):
            return True
        tb = tb.tb_next
    return False
