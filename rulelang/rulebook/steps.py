"""Statements as the steps of a procedure, in plain sentences: every `choose` with the
conditions that make an option legal, in the rule file's own words (`else "..."`,
`prompt`, `log`, comments) and in generated ones."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import assert_never, cast

from rulelang.diagnostics import Span
from rulelang.rulebook import comments
from rulelang.rulebook.english import English, words
from rulelang.rulebook.model import Step
from rulelang.syntax import ast as A

OUTCOMES = {
    "win": "{who}: they win.",
    "draw": "{who}: it is a draw between them.",
    "rank": "The players are ranked in the order {who}.",
}


def said(log: A.TextLit | None) -> bool:
    """A log text that says something (`log ""` keeps a step out of the log)."""
    return log is not None and any(p != "" for p in log.parts)


class Steps:
    """Writes the statements of one program; `called` is told of every proc a step
    names, so that the book describes it."""

    def __init__(self, english: English, called: Callable[[str], str]) -> None:
        self.en = english
        self.called = called  # proc name -> the anchor of its section
        self.sources = english.program.sources
        self.noted: set[tuple[str, int]] = set()  # lines whose comments were given

    def note(self, span: Span) -> str:
        """The comments of a line, given once: two statements written on one line
        (`if c { s }  # why`) do not both repeat them."""
        key = (span.file, span.line)
        if key in self.noted:
            return ""
        self.noted.add(key)
        return comments.doc(self.sources, span)

    def block(self, stmts: Sequence[A.Stmt]) -> list[Step]:
        if not stmts:
            return [Step("Nothing happens here.")]
        return [self.step(s) for s in stmts]

    def step(self, s: A.Stmt) -> Step:
        note = self.note(s.span)
        made = self.sentence(s)
        made.cite = s.span
        made.note = note
        return made

    def sentence(self, stmt: A.Stmt) -> Step:
        s = cast(A.AnyStmt, stmt)
        e = self.en
        match s:
            case A.Let():
                return Step(f"Let {words(s.name)} be {e(s.value)}.")
            case A.Set():
                return Step(self.assign(s))
            case A.If():
                return self.branches(s)
            case A.While():
                return Step(f"As long as {e(s.cond)}:", children=self.block(s.body))
            case A.For():
                where = f" where {e(s.where)}" if s.where is not None else ""
                head = f"For each {words(s.var)} in {e(s.source)}{where}:"
                return Step(head, children=self.block(s.body))
            case A.Repeat():
                return Step(f"Repeat {e(s.count)} times:", children=self.block(s.body))
            case A.React():
                head = (
                    f"Each player in turn, starting with {e(s.first)}, may react "
                    f"(as {words(s.var)}):"
                )
                return Step(head, children=self.block(s.body))
            case A.Pass():
                return Step("The reacting player passes.")
            case A.Break():
                return Step("Stop repeating.")
            case A.Continue():
                return Step("Go on with the next round.")
            case A.Choose():
                return self.choose(s)
            case A.Roll():
                return Step(
                    f"Roll {words(s.die)}{self.secret(s.secret, s.secret_to)}; "
                    f"call the result {words(s.var)}."
                    f"{self.logged(s.log, s.log_hidden if s.secret or s.secret_to else None)}"
                )
            case A.ShuffleLet():
                return Step(
                    f"Shuffle {e(s.source)}; call them, in that order, "
                    f"{words(s.var)}.{self.logged(s.log)}"
                )
            case A.ShuffleZone():
                return Step(f"Shuffle {words(s.zone)}.{self.logged(s.log)}")
            case A.Generate():
                return Step(self.generate(s) + self.logged(s.log))
            case A.Pick():
                return Step(
                    f"Draw one of {e(s.source)} at random{self.secret(s.secret, s.secret_to)}; "
                    f"call it {words(s.var)}."
                    f"{self.logged(s.log, s.log_hidden, s.secret or s.secret_to is not None)}"
                )
            case A.Deal():
                return Step(
                    f"Deal {e(s.count)} from {words(s.source)} to each player's {words(s.dest)}."
                )
            case A.MoveItem():
                return Step(f"Move {e(s.item)} from {self.zone(s.source)} to {self.zone(s.dest)}.")
            case A.AddItems():
                return Step(f"Put {e(s.items)} into {self.zone(s.dest)}.")
            case A.Place():
                turned = f", turned {e(s.turn)} quarter turns clockwise" if s.turn else ""
                down = ", face down" if s.secret else ""
                return Step(f"Place {e(s.tile)} on {words(s.board)} at {e(s.at)}{turned}{down}.")
            case A.Clear():
                return Step(f"Take the tile at {e(s.at)} off {words(s.board)}.")
            case A.Reveal():
                turned = f", turned {e(s.turn)} quarter turns" if s.turn is not None else ""
                return Step(f"Turn the tile at {e(s.at)} on {words(s.board)} face up{turned}.")
            case A.RevealTo():
                return Step(f"Show {e(s.to)}, privately, where {e(s.item)} lies now.")
            case A.Do():
                return Step(self.do(s))
            case A.Say():
                to = f" to {e(s.to)} only" if s.to is not None else ""
                return Step(f"Announce{to}: {e(s.message)}.")
            case A.Outcome():
                return Step(OUTCOMES[s.kind].format(who=e(s.players)).capitalize())
            case A.Return():
                return Step(f"The result is {e(s.value)}.")
            case _:
                assert_never(s)

    def assign(self, s: A.Set) -> str:
        target, value = self.en(s.target), self.en(s.value)
        if s.op == "+=":
            return f"Add {value} to {target}."
        if s.op == "-=":
            return f"Take {value} from {target}."
        if self.en.is_condition(s.value):
            return f"Set {target} to whether {value}."
        return f"Set {target} to {value}."

    def branches(self, s: A.If) -> Step:
        """`if`/`elif`/`else` as one step whose children are the cases."""
        cases = [
            Step(
                f"{'If' if i == 0 else 'Otherwise, if'} {self.en(cond)}:",
                cond.span,
                self.note(cond.span),
                self.block(body),
            )
            for i, (cond, body) in enumerate(s.branches)
        ]
        if s.otherwise:
            cases.append(Step("Otherwise:", None, "", self.block(s.otherwise)))
        if len(cases) == 1:
            return cases[0]
        return Step("Depending on the case:", children=cases)

    def choose(self, s: A.Choose) -> Step:
        who = "The current player" if s.by is None else self.en(s.by)
        who = who[:1].upper() + who[1:]
        how = " secretly" if s.secret or s.secret_to is not None else ""
        text = f"{who}{how} chooses {words(s.var)} from {self.domain(s.domain)}"
        if s.prompt is not None:
            text += f", asked {self.en.text(s.prompt)}"
        if s.allow_pass:
            text += "; they may pass instead"
        children = [self.require(r) for r in s.requires]
        if s.complete:
            why = f": {self.en.text(s.unfinished)}" if s.unfinished else ""
            children.append(
                Step(f"Only options whose whole effect can be carried out are offered{why}.")
            )
        told = self.logged(s.log, s.log_hidden).strip()
        if told:
            children.append(Step(told))
        return Step(text + ".", children=children, choice=True)

    def require(self, r: A.Require) -> Step:
        reason = self.en.text(r.reason)
        return Step(f"Allowed only if {self.en(r.cond)}; otherwise: {reason}", r.span)

    def domain(self, d: A.Expr) -> str:
        if isinstance(d, A.Binary) and d.op == "..":
            return f"the numbers {self.en(d.left)} to {self.en(d.right)}"
        return self.en(d)

    def zone(self, z: A.ZoneRef) -> str:
        if z.owner is None:
            return words(z.zone)
        return f"{self.en(z.owner)}'s {words(z.zone)}"

    def secret(self, secret: bool, to: A.Expr | None) -> str:
        if to is not None:
            return f", seen only by {self.en(to)}"
        return ", seen only by the current player" if secret else ""

    def logged(
        self, log: A.TextLit | None, hidden: A.TextLit | None = None, seen: bool = True
    ) -> str:
        """The log's line, and the `else` line read by those who may not see the value
        (by every player, where `seen` is False: a pick that is not secret)."""
        out = f" The log says {self.en.text(log)}." if log is not None and said(log) else ""
        if hidden is None or not said(hidden):
            return out
        if not seen:
            master = f" The game master's log says {self.en.text(log)};" if log and out else ""
            return f"{master} the players read {self.en.text(hidden)}."
        others = f"those who may not see it read {self.en.text(hidden)}."
        return f"{out[:-1]}; {others}" if out else f" {others[:1].upper()}{others[1:]}"

    def do(self, s: A.Do) -> str:
        if s.proc == "base":
            return "Do what the base game does here."
        anchor = self.called(s.proc)
        args = f" with {', '.join(self.en(a) for a in s.args)}" if s.args else ""
        return f"Do {words(s.proc)}{args} (see [{s.proc}](#{anchor}))."

    def generate(self, s: A.Generate) -> str:
        names = ", ".join(words(n) for n in s.names)
        where = f" where {self.en(s.where)}" if s.where is not None else ""
        if s.what == "path":
            bends = f", bending at most {self.en(s.bends)} times" if s.bends else ""
            return (
                f"Draw at random a path of {self.en(s.count)} cells on {words(s.board)}"
                f"{bends}; call its cells and directions {names}."
            )
        keep = ", keeping the board connected" if s.keep else ""
        return (
            f"Draw at random {self.en(s.count)} {s.what} of {words(s.board)}{where}{keep}; "
            f"call them {names}."
        )
