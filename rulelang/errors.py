"""The catalogue of every error and warning rulelang reports: one code per kind of
message, each with a short title and one constructor.

A constructor takes the message's variable parts and a span. Static ones (E and W
codes) return a `Diagnostic`; runtime ones (R codes) return a `GameRuntimeError`, for
the caller to raise. No other module writes a code: they call a constructor here.
docs/errors.md lists every code with an example that produces it (tests/
test_errors_catalogue.py checks both ways).

Families:
  E0xx  syntax: the text does not follow the grammar
  E1xx  names and files: unknown or duplicate names, files and data that cannot be read
  E2xx  meaning and types: values of the wrong type or size, wrong calls, limits
  E3xx  flow: a game that cannot be played as written (no end, unreachable, recursion)
  Rxxx  runtime: a rule failed while a game ran
  Wxxx  warnings: compiled, but probably not what was meant
"""

from __future__ import annotations

from dataclasses import dataclass

from rulelang.diagnostics import Diagnostic, GameRuntimeError, Span

FAMILIES = {
    "E0": "syntax",
    "E1": "names and files",
    "E2": "meaning and types",
    "E3": "flow",
    "R": "runtime",
    "W": "warnings",
}


@dataclass(frozen=True, slots=True)
class Entry:
    """One kind of message: its code and a short title."""

    code: str
    title: str

    @property
    def family(self) -> str:
        return FAMILIES.get(self.code[:2]) or FAMILIES[self.code[0]]

    @property
    def severity(self) -> str:
        return "warning" if self.code.startswith("W") else "error"

    @property
    def runtime(self) -> bool:
        return self.code.startswith("R")

    def at(self, span: Span, message: str, hint: str = "") -> Diagnostic:
        """A static diagnostic of this kind."""
        assert not self.runtime, self.code
        return Diagnostic(self.code, message, span, self.severity, hint)

    def fail(self, span: Span, message: str) -> GameRuntimeError:
        """A runtime error of this kind, for the caller to raise."""
        assert self.runtime, self.code
        return GameRuntimeError(self.code, message, span)


CATALOGUE: dict[str, Entry] = {}


def _entry(code: str, title: str) -> Entry:
    assert code not in CATALOGUE, f"{code} is in the catalogue twice"
    entry = Entry(code, title)
    CATALOGUE[code] = entry
    return entry


# ======================================================================= syntax (E0xx)
# Worded by the parser (rulelang/syntax/parser.py).

E001 = _entry("E001", "syntax error")


def syntax_error(message: str, span: Span, hint: str = "") -> Diagnostic:
    """E001: the text does not follow the grammar."""
    return E001.at(span, message, hint)


# ============================================================== names and files (E1xx)

# ============================================================ meaning and types (E2xx)

# ========================================================================= flow (E3xx)

# ====================================================================== runtime (Rxxx)
