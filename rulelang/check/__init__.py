"""The checker: an ordered list of named passes that collect every error."""

from __future__ import annotations

from collections.abc import Callable

from rulelang import errors
from rulelang.check import data, declare, flow, hidden, layout, nesting, resolve, values
from rulelang.check.context import Checker
from rulelang.check.symbols import DefSym, ProcSym, Program
from rulelang.diagnostics import Diagnostic, RuleError, Span
from rulelang.limits import DEFAULT_LIMITS, Limits
from rulelang.loader import Loaded
from rulelang.syntax import ast as A

PASSES: list[tuple[str, Callable[[Checker], None]]] = [
    ("declare", declare.run),
    ("resolve", resolve.run),
    ("data", data.run),
    ("values", values.run),
    ("flow", flow.run),
    ("hidden", hidden.run),  # what bots read: only what their player may see
]


def run_passes(loaded: Loaded, main_file: str, limits: Limits = DEFAULT_LIMITS) -> Checker:
    """The checker after every pass, errors or not: what each name means so far and
    every diagnostic (the language server reads both, also from a file with errors)."""
    c = Checker(loaded.decls, main_file, limits)
    c.data_texts = loaded.data
    nesting.run(c)  # first, and alone if it fails: the other passes recurse over the tree
    try:
        for _name, run in PASSES if not c.errors else []:
            run(c)
    except RecursionError:  # a chain of thousands of defs, each calling the next
        c.report(errors.too_deep_to_check(Span(main_file, 1, 1)))
    return c


def in_file_order(diagnostics: list[Diagnostic], main_file: str) -> list[Diagnostic]:
    """The main file's diagnostics first, then those of the files it reads, by place."""
    return sorted(
        diagnostics,
        key=lambda d: (d.span.file != main_file, d.span.file, d.span.line, d.span.col),
    )


def check(
    loaded: Loaded, main_file: str, limits: Limits = DEFAULT_LIMITS
) -> tuple[Program, list[Diagnostic]]:
    """Run every pass; raise RuleError with all errors, else return the program.
    `limits`: what the data files may make (the counts of their entries)."""
    c = run_passes(loaded, main_file, limits)
    if c.errors:
        raise RuleError(in_file_order(c.diagnostics, main_file), loaded.sources)
    low, high = c.players or (0, 0)
    boards = [v.decl for v in c.values_in_order if isinstance(v.decl, A.BoardDecl)]
    storage = layout.build(
        list(c.player_attrs.values()),
        c.kinds,
        list(c.global_attrs.values()),
        c.zones,
        boards,
        c.n_locals,
        high,
        [a for attrs in c.board_attrs.values() for a in attrs.values()],
    )
    program = Program(
        title=c.title or main_file,
        library=c.library,
        min_players=low,
        max_players=high,
        decls=c.decls,
        values=c.values_in_order,
        kinds=c.kinds,
        zones=c.zones,
        enums=c.enums,
        player_attrs=list(c.player_attrs.values()),
        globals=list(c.global_attrs.values()),
        columns=list(storage.columns),
        defs={n: s for n, s in c.names.items() if isinstance(s, DefSym)},
        procs={n: s for n, s in c.names.items() if isinstance(s, ProcSym)},
        phases=c.phases,
        setup=c.setup,
        ends=c.ends,
        n_locals=c.n_locals,
        refs=c.refs,
        types=c.types,
        locals_of=c.locals_of,
        hidden=c.hidden,
        sources=loaded.sources,
        files=loaded.files,
        data_rows=c.data_rows,
        layout=storage,
        bots=list(c.bots.values()),
        estimate=c.estimate,
        measures=list(c.measures.values()),
    )
    return program, c.diagnostics
