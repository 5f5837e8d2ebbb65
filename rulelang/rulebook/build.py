"""The rulebook of a checked program, section by section: the game, its options, the
components, the setup per player count, the turn and its phases, the procedures they
use, the end and the scoring, and the words the rules define. A variant's parts are
marked against its base (`extends`): new, or changed by `override`."""

from __future__ import annotations

from pathlib import Path
from typing import TypeVar

from rulelang.check.symbols import AttrSym, Program
from rulelang.diagnostics import Span
from rulelang.rulebook import comments
from rulelang.rulebook.components import Components, show
from rulelang.rulebook.english import English, plain, words
from rulelang.rulebook.model import CHANGED, NEW, Block, Book, Para, Section, Steps, Table
from rulelang.rulebook.steps import Steps as StepWriter
from rulelang.runtime.ruleset import Ruleset, TableFacts
from rulelang.syntax import ast as A
from rulelang.syntax.node import nodes
from rulelang.words import player_range

D = TypeVar("D", bound=A.Decl)
ORDER = {
    "clockwise": "Players take turns clockwise",
    "counterclockwise": "Players take turns counterclockwise",
    "random": "The order of turns is drawn at random once; players then take turns in it",
}


def anchor(kind: str, name: str) -> str:
    """The id of a name's section, lower case; a name with capitals has the mask of
    their places after the kind (`Deal`: proc-1-deal), a digit no name starts with, so
    that `Deal` and `deal` have sections of their own. The base version of a block
    (`base setup`) has its space as `.`, which no name holds: an id has no space, or
    the links to it were left as text."""
    capitals = sum(1 << i for i, c in enumerate(name) if c.isupper())
    mask = f"{capitals}-" if capitals else ""
    return f"{kind}-{mask}{name.replace('_', '-').replace(' ', '.').lower()}"


class Builder:
    def __init__(self, ruleset: Ruleset, options: dict[str, str], main_file: str) -> None:
        self.ruleset = ruleset
        self.program: Program = ruleset.program
        self.main = main_file
        low, high = self.program.min_players, self.program.max_players
        self.counts = {n: ruleset.table_for(n, options) for n in range(low, high + 1)}
        self.facts: TableFacts = self.counts[low]
        self.options = options
        self.en = English(self.program, self.facts.values)
        self.procs: list[str] = []  # procs to describe, in the order first named
        self.steps = StepWriter(self.en, self.call)
        self.variant = any(self.other_file(d) for d in self.program.decls if isinstance(d, A.Named))
        self._used: set[str] | None = None
        self.parts = Components(self.program, self.counts, self.mark)

    # ---------------------------------------------------------------- helpers
    def other_file(self, d: A.Decl) -> bool:
        return d.span.file != self.main and not self.stdlib(d.span.file)

    def stdlib(self, file: str) -> bool:
        return Path(file).parent.name == "stdlib"

    def mark(self, d: A.Decl | A.AttrDecl | AttrSym) -> str:
        """How a declaration (or an attribute) of a variant differs from its base."""
        if not self.variant or d.span.file != self.main or isinstance(d, A.GameDecl):
            return ""
        return CHANGED if isinstance(d, A.Named) and d.override else NEW

    def call(self, proc: str) -> str:
        if proc not in self.procs:
            self.procs.append(proc)
        return anchor("proc", proc)

    def used(self) -> set[str]:
        """The names the game's own files use (not the stdlib modules it imports)."""
        if self._used is None:
            own = [d for d in self.program.decls if not self.stdlib(d.span.file)]
            self._used = {n.id for n in nodes(own) if isinstance(n, A.Name)}
            self._used |= {n.die for n in nodes(own) if isinstance(n, A.Roll)}
        return self._used

    def decls(self, cls: type[D]) -> list[D]:
        return [d for d in self.program.decls if isinstance(d, cls)]

    # ---------------------------------------------------------------- the book
    def book(self) -> Book:
        p = self.program
        # written in reading order, so that the procedures come in the order named;
        # they are put before the end, whose rules they lead to
        first = [self.options_section(), self.components_section(), self.setup_section()]
        play = self.play_sections()
        end = self.end_section()
        sections = [
            *first,
            *play,
            *self.proc_sections(),
            end,
            self.terms_section(),
            self.bots_section(),
        ]
        files = [(f, (p.sources.texts.get(f, "") if p.sources else "")) for f in p.files]
        return Book(p.title, self.main, [s for s in sections if s.blocks], files, self.intro())

    def intro(self) -> list[Para]:
        p = self.program
        text, line = comments.header(p.sources, self.main)
        paras = [Para(text, Span(self.main, line, 1))] if text else []
        count = f"For {player_range(p.min_players, p.max_players)}."
        players = self.decls(A.PlayersDecl)
        paras.append(Para(count, players[0].span if players else None))
        if self.variant:
            bases = sorted({Path(d.span.file).name for d in p.decls if self.other_file(d)})
            paras.append(
                Para(
                    f"A variant of {', '.join(bases)}: what it adds is marked *new*, what it "
                    "changes is marked *changed*; everything else is as in the base game."
                )
            )
        return paras

    def options_section(self) -> Section:
        s = Section("Options", "options")
        rows = []
        for d in self.decls(A.ParamDecl):
            value = show(self.facts.values[d.name])
            given = " (set with -o)" if d.name in self.options else ""
            mark = {NEW: " (*new*)", CHANGED: " (*changed*)"}.get(self.mark(d), "")
            rows.append([d.name, value + given, d.doc + mark])
        if rows:
            s.blocks.append(
                Para(
                    "The rules can be played with other values of these "
                    "(`rulelang play FILE -o name=value`)."
                )
            )
            s.blocks.append(
                Table(
                    "The options and the values in this rulebook",
                    ["option", "value", "what it is"],
                    rows,
                )
            )
        return s

    def components_section(self) -> Section:
        s = Section("Components", "components")
        for d in self.program.decls:
            s.blocks.extend(self.component(d))
        zones = self.parts.zones()
        if zones.rows:
            s.blocks.append(zones)
        p = self.program
        if p.player_attrs:
            decls = [a for d in self.decls(A.PlayerDecl) for a in d.attrs]
            s.blocks.append(self.parts.keeps(p.player_attrs, decls, "What each player has"))
        if p.globals:
            decls = [a for d in self.decls(A.GlobalDecl) for a in d.attrs]
            s.blocks.append(self.parts.keeps(p.globals, decls, "What the game keeps track of"))
        return s

    def component(self, d: A.Decl) -> list[Block]:
        if isinstance(d, A.BoardDecl):
            return self.parts.board(d)
        if isinstance(d, A.KindDecl):
            return self.parts.kind(d)
        if isinstance(d, A.DieDecl) and self.stdlib(d.span.file) and d.name not in self.used():
            return []  # a die of an imported module the rules never roll
        if isinstance(d, A.DieDecl):
            faces = show(self.facts.values[d.name])
            return [
                Para(
                    f"{words(d.name)}: a die with the faces {faces}.",
                    d.span,
                    comments.doc(self.program.sources, d.span),
                    self.mark(d),
                )
            ]
        return []

    def setup_section(self) -> Section:
        s = Section("Setup", "setup")
        per, other = self.split_tables()
        kinds = [d for d in self.decls(A.KindDecl) if isinstance(d, A.KindDecl)]
        table = self.parts.per_players(per, kinds, self.counts)
        if table is not None:
            table.cite = per[0].span if per else None
            s.blocks.append(table)
            s.blocks.extend(
                Para(
                    f"{plain(t.name)}: see the table.",
                    t.span,
                    comments.doc(self.program.sources, t.span),
                    self.mark(t),
                )
                for t in per
                if comments.doc(self.program.sources, t.span) or self.mark(t)
            )
        for t in other:
            values = self.facts.values[t.name]
            rows = [[str(k), show(v)] for k, v in values.items()]
            s.blocks.append(
                Para(
                    f"The table {words(t.name)}:",
                    t.span,
                    comments.doc(self.program.sources, t.span),
                    self.mark(t),
                )
            )
            s.blocks.append(Table(plain(t.name), ["for", "value"], rows, t.span))
        for d in self.decls(A.SetupDecl):
            s.blocks.append(
                Para(
                    "To set up the game:",
                    d.span,
                    comments.doc(self.program.sources, d.span),
                    self.mark(d),
                )
            )
            s.blocks.append(Steps(self.steps.block(d.body)))
        phases = self.program.phases
        if phases:
            first = phases[0].decl
            title = (
                "a turn" if first.name == "main" and len(phases) == 1 else f"the phase {first.name}"
            )
            s.blocks.append(
                Para(f"Then play begins: see [{title}](#{anchor('phase', first.name)}).")
            )
        return s

    def split_tables(self) -> tuple[list[A.TableDecl], list[A.TableDecl]]:
        """The tables by number of players, and the others (keyed by something else)."""
        players = set(self.counts)
        per: list[A.TableDecl] = []
        other: list[A.TableDecl] = []
        for t in self.decls(A.TableDecl):
            keys = set(self.facts.values[t.name])
            (per if players <= keys else other).append(t)
        return per, other

    def play_sections(self) -> list[Section]:
        out = []
        phases = self.program.phases
        for ph in phases:
            d = ph.decl
            title = "A turn" if d.name == "main" and len(phases) == 1 else f"The phase {d.name}"
            s = Section(title, anchor("phase", d.name), cite=d.span, mark=self.mark(d))
            order = ORDER.get(d.order, d.order)
            start = f", starting with {self.en(d.order_from)}" if d.order_from is not None else ""
            s.blocks.append(
                Para(
                    f"{order}{start}.",
                    d.order_span or d.span,
                    comments.doc(self.program.sources, d.span),
                    self.mark(d),
                )
            )
            if d.skip_when is not None:
                s.blocks.append(
                    Para(
                        f"A player whose turn it would be takes none when "
                        f"{self.en(d.skip_when)}: the turn passes to the next.",
                        d.skip_when.span,
                    )
                )
            if d.begin:
                s.blocks.append(Para("When the phase begins:", d.begin[0].span))
                s.blocks.append(Steps(self.steps.block(d.begin)))
            s.blocks.append(Para("On a player's turn:", d.turn[0].span if d.turn else d.span))
            s.blocks.append(Steps(self.steps.block(d.turn)))
            if d.end_when is not None:
                s.blocks.append(
                    Para(
                        f"The phase ends after a turn when {self.en(d.end_when)}.", d.end_when.span
                    )
                )
            if d.next:
                again = " again" if d.next == d.name else ""
                s.blocks.append(Para(f"Then the phase {words(d.next)} begins{again}.", d.next_span))
            out.append(s)
        return out

    def end_section(self) -> Section:
        s = Section("End of the game and scoring", "end")
        ends = [d for d in self.decls(A.EndDecl) if isinstance(d, A.EndDecl)]
        if ends:
            s.blocks.append(
                Para(
                    "The end rules are checked after every step, before anyone "
                    "is asked to act; the first that holds ends the game."
                )
            )
        for d in ends:
            s.blocks.append(
                Para(
                    f"The game ends when {self.en(d.cond)}. Then:",
                    d.span,
                    comments.doc(self.program.sources, d.span),
                    self.mark(d),
                )
            )
            s.blocks.append(Steps(self.steps.block(d.body)))
        return s

    def proc_sections(self) -> list[Section]:
        out = []
        i = 0
        while i < len(self.procs):  # describing a procedure can name more
            sym = self.program.procs.get(self.procs[i])
            i += 1
            if sym is None:
                continue
            d = sym.decl
            params = ", ".join(p.name for p in d.params)
            title = f"{plain(d.name)}" + (f" ({params})" if params else "")
            s = Section(title, anchor("proc", d.name), cite=d.span, mark=self.mark(d), level=3)
            note = comments.doc(self.program.sources, d.span)
            s.blocks.append(Para(f"The steps of {words(d.name)}:", d.span, note, self.mark(d)))
            s.blocks.append(Steps(self.steps.block(d.body)))
            out.append(s)
        if out:
            out.insert(
                0,
                Section(
                    "Procedures",
                    "procedures",
                    [
                        Para(
                            "The steps the turn, the setup and the end name, in the order "
                            "they are first named."
                        )
                    ],
                ),
            )
        return out

    def terms_section(self) -> Section:
        s = Section("Words the rules define", "terms")
        used = self.defs_used()
        for d in self.program.decls:
            if isinstance(d, A.DefDecl) and d.name in used:
                s.blocks.extend(self.term(d))
            elif isinstance(d, A.EnumDecl):
                s.blocks.append(
                    Para(
                        f"{words(d.name)}: one of {', '.join(d.values)}.",
                        d.span,
                        comments.doc(self.program.sources, d.span),
                        self.mark(d),
                    )
                )
            elif isinstance(d, A.ConstDecl) and not self.stdlib(d.span.file):
                value = show(self.facts.values[d.name])
                s.blocks.append(
                    Para(
                        f"{words(d.name)} = {value}.",
                        d.span,
                        comments.doc(self.program.sources, d.span),
                        self.mark(d),
                    )
                )
        return s

    def term(self, d: A.DefDecl) -> list[Block]:
        params = ", ".join(p.name for p in d.params)
        head = f"{words(d.name)}({params})" if params else words(d.name)
        note = comments.doc(self.program.sources, d.span)
        if isinstance(d.body, tuple):
            return [
                Para(f"{head} is worked out so:", d.span, note, self.mark(d)),
                Steps(self.steps.block(d.body)),
            ]
        return [Para(f"{head}: {self.en(d.body)}.", d.span, note, self.mark(d))]

    def defs_used(self) -> set[str]:
        """The defs the described parts use, and those the defs they use use."""
        roots: list[object] = [
            d for d in self.program.decls if isinstance(d, A.SetupDecl | A.PhaseDecl | A.EndDecl)
        ]
        roots += [self.program.procs[n].decl for n in self.procs if n in self.program.procs]
        used: set[str] = set()
        while roots:
            for node in nodes(roots.pop()):
                if (
                    isinstance(node, A.Call)
                    and node.func in self.program.defs
                    and node.func not in used
                ):
                    used.add(node.func)
                    roots.append(self.program.defs[node.func].decl)
        return used

    def bots_section(self) -> Section:
        s = Section("Computer players", "bots")
        for d in self.decls(A.BotDecl):
            for_ = f", for {self.en(d.cond)}" if d.cond is not None else ""
            s.blocks.append(
                Para(
                    f"{words(d.name)}{for_}.",
                    d.span,
                    comments.doc(self.program.sources, d.span),
                    self.mark(d),
                )
            )
        if s.blocks:
            s.blocks.insert(0, Para("The rules name these computer players (`--bots NAME`)."))
        return s


def build(ruleset: Ruleset, main_file: str, options: dict[str, str] | None = None) -> Book:
    """The rulebook of a compiled rule file, with these options (-o name=value)."""
    return Builder(ruleset, options or {}, main_file).book()
