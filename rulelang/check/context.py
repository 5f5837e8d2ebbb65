"""The checker's shared state: symbols found so far and the diagnostics collected."""

from __future__ import annotations

from rulelang import errors
from rulelang.check.symbols import (
    AttrSym,
    BotSym,
    EnumSym,
    EstimateSym,
    KindSym,
    LocalSym,
    MeasureSym,
    PhaseSym,
    Sym,
    ValueSym,
    ZoneSym,
)
from rulelang.check.types import T
from rulelang.diagnostics import Diagnostic, Span
from rulelang.limits import DEFAULT_LIMITS, Limits
from rulelang.syntax import ast as A


class Checker:
    def __init__(self, decls: list[A.Decl], main_file: str, limits: Limits = DEFAULT_LIMITS):
        self.decls = decls
        self.main_file = main_file
        self.limits = limits  # what the data files may make (the runtime checks the rest)
        self.diagnostics: list[Diagnostic] = []
        self.title = ""
        self.library = False  # a stdlib module: definitions only, no game of its own
        self.players: tuple[int, int] | None = None
        self.names: dict[str, Sym] = {}
        self.kinds: list[KindSym] = []
        self.kinds_by_name: dict[str, KindSym] = {}
        self.enums: dict[str, EnumSym] = {}
        self.player_attrs: dict[str, AttrSym] = {}
        self.global_attrs: dict[str, AttrSym] = {}
        self.zones: list[ZoneSym] = []
        self.phases: list[PhaseSym] = []
        self.setup: tuple[A.Stmt, ...] = ()
        self.ends: list[A.EndDecl] = []
        self.bots: dict[str, BotSym] = {}
        self.estimate: EstimateSym | None = None
        self.measures: dict[str, MeasureSym] = {}  # their own names: no rule reads them
        # board -> its state and edge attributes (docs/language.md, "Board state")
        self.board_attrs: dict[str, dict[str, AttrSym]] = {}
        self.indexed: set[int] = set()  # expressions written as the list of `x[i]`
        self.refs: dict[int, Sym] = {}
        self.types: dict[int, T] = {}
        self.locals_of: dict[int, LocalSym] = {}
        self.hidden: dict[int, int] = {}
        self.n_locals = 0
        self.calls: dict[str, set[str]] = {}  # proc/def name -> names of procs/defs it calls
        self.values_in_order: list[ValueSym] = []
        self.by_players: list[tuple[Sym, Span]] = []  # tables looked up by player count
        self.data_rows: dict[str, list[dict[str, object]]] = {}  # kind -> rows from YAML
        self.data_texts: dict[str, str] = {}  # data file path -> its text, as the loader read it

    def report(self, diag: Diagnostic) -> None:
        """Collect a diagnostic, made by a constructor of rulelang/errors.py."""
        self.diagnostics.append(diag)

    def duplicate(self, name: str, span: Span, first: Span) -> None:
        self.report(errors.defined_twice(name, span, first))

    def unknown(self, what: str, name: str, span: Span, candidates: list[str]) -> None:
        self.report(errors.unknown(what, name, span, candidates))

    def define(self, sym: Sym) -> None:
        if sym.name in self.names:
            self.duplicate(sym.name, sym.span, self.names[sym.name].span)
            return
        self.names[sym.name] = sym

    def new_local(self, name: str, span: Span, t: T) -> LocalSym:
        sym = LocalSym(name, span, t, slot=self.n_locals)
        self.n_locals += 1
        return sym

    def new_hidden(self) -> int:
        self.n_locals += 1
        return self.n_locals - 1

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]
