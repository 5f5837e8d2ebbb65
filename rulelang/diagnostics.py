"""One span type, one diagnostic type, one renderer, one base exception.

Every diagnostic and runtime error is made by a constructor of the catalogue
(rulelang/errors.py) and rendered by `render`: static ones (E and W codes) and runtime
errors (R codes) alike."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Span:
    file: str
    line: int
    col: int
    end_line: int = 0
    end_col: int = 0

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


NO_SPAN = Span("<builtin>", 0, 0)
RUNTIME = "runtime error"  # the severity of a runtime error, rendered as a diagnostic


@dataclass(frozen=True, slots=True)
class Diagnostic:
    code: str
    message: str
    span: Span
    severity: str = "error"
    hint: str = ""


@dataclass
class Sources:
    """The text of every file read, so that diagnostics can quote the line."""

    texts: dict[str, str] = field(default_factory=dict)

    def line(self, file: str, line: int) -> str | None:
        text = self.texts.get(file)
        if text is None or line < 1:
            return None
        lines = text.splitlines()
        return lines[line - 1] if line <= len(lines) else None


def did_you_mean(name: str, candidates: Iterable[str]) -> str:
    """A close candidate, never `name` itself (a name refused is no suggestion)."""
    close = difflib.get_close_matches(name, [c for c in candidates if c != name], n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else ""


def render(diag: Diagnostic, sources: Sources | None = None) -> str:
    """`file:line:col: severity[CODE]: message`, then the source line under a gutter with
    carets under the span, then `= hint: ...`, each when known."""
    out = [f"{diag.span}: {diag.severity}[{diag.code}]: {diag.message}"]
    src = sources.line(diag.span.file, diag.span.line) if sources else None
    if src is not None:
        width = 1
        if diag.span.end_line == diag.span.line and diag.span.end_col > diag.span.col:
            width = diag.span.end_col - diag.span.col
        gutter = f"{diag.span.line:>4} | "
        out.append(gutter + src)
        out.append(" " * (len(gutter) + diag.span.col - 1) + "^" * width)
    if diag.hint:
        out.append(f"     = hint: {diag.hint}")
    return "\n".join(out)


class RulelangError(Exception):
    """The base of every error rulelang raises on purpose: a rule file that does not
    compile, a request the rules cannot serve, a rule failing while a game runs."""


class RuleError(RulelangError):
    """Static errors of a rule file: carries every diagnostic found."""

    def __init__(self, diagnostics: list[Diagnostic], sources: Sources | None = None):
        self.diagnostics = diagnostics
        self.sources = sources
        super().__init__("\n".join(render(d, sources) for d in diagnostics))


class UsageError(RulelangError):
    """A request the rules cannot serve: wrong player count, unknown option or move."""


class GameRuntimeError(RulelangError):
    """A rule failed while running (budget exceeded, no option, bad index). Made by a
    runtime constructor of rulelang/errors.py; `render(err.diagnostic, sources)` quotes
    the line."""

    def __init__(self, code: str, message: str, span: Span, hint: str = ""):
        self.code = code
        self.span = span
        self.message = message
        self.hint = hint
        super().__init__(render(self.diagnostic))

    @property
    def diagnostic(self) -> Diagnostic:
        """The error as a diagnostic of severity "runtime error", for `render`."""
        return Diagnostic(self.code, self.message, self.span, RUNTIME, self.hint)

    def __reduce__(self) -> tuple[object, ...]:
        return (GameRuntimeError, (self.code, self.message, self.span, self.hint))
