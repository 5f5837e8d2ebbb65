"""The last pass: a bot reads only what its player may see.

A bot's `for` condition and rules, and every def they call (transitively), are walked
with the set of names known to hold the bot's own player: `me`, and in a def the
parameters that a call passed `me` (a def is walked once per such set of parameters).
Ownership is proven by the name alone: `me.hand_size` or `hand[me]` where `me` (or such
a parameter, unless the def's block sets it) is written, never through another
expression (`current`, `players[i]`, a local of a def's block), which may be someone
else.

Allowed: attributes `visible to all`; player attributes `visible to owner` of that
name; zones visible to all, and `ZONE[me]` of a per-player zone visible to its owner;
`len(ZONE)` / `len(ZONE[p])` of any zone (the size is shown to everyone); tiles only
through the functions that do not tell a face-down tile's identity (`face_up`,
`secret_at`, `fits`, `joins`, `reached`, `spots`, `touching`, `placed`, `open_side`).
Anything else is E247, naming what was read and why it is hidden, except inside
`known(me, EXPR)` (me proven as above): there each read is checked at run time against
what the bot's player sees now, `reveal ... to` included (runtime/seen.py), so the
proof leaves EXPR to that check. Attributes and zones `visible to others` are hidden
from the one player the proof knows, `me`, so outside `known` they are E247 on any
owner.
"""

from __future__ import annotations

from rulelang import errors
from rulelang.check.context import Checker
from rulelang.check.symbols import AttrSym, BotSym, DefSym, LocalSym, Sym, ZoneSym
from rulelang.syntax import ast as A

# tile functions that tell what lies face down
HIDDEN_TILE_FUNCS = {"tile", "turn_of"}


class Proof:
    def __init__(self, c: Checker, bot: BotSym):
        self.c = c
        self.bot = bot
        self.done: set[tuple[str, frozenset[int]]] = set()
        self.reported: set[int] = set()
        self.inside = ""  # what a hidden read inside known(P, ...) of another P adds

    def hidden(self, e: A.Expr, what: str, why: str, via: str) -> None:
        if id(e) in self.reported:
            return
        self.reported.add(id(e))
        why += self.inside
        self.c.report(errors.bot_reads_hidden(self.bot.name, what, why, via, e.span))

    def is_me(self, e: A.Expr, me: frozenset[int]) -> bool:
        sym = self.c.refs.get(id(e))
        return isinstance(e, A.Name) and isinstance(sym, LocalSym) and id(sym) in me

    def walk(self, node: object, me: frozenset[int], via: str) -> None:
        """Check every expression within node (statements of a def's block too)."""
        stack: list[object] = [node]
        while stack:
            e = stack.pop()
            if isinstance(e, tuple | list):
                stack.extend(e)
                continue
            if isinstance(e, A.Stmt):
                stack.extend(getattr(e, f) for f in e.__dataclass_fields__)
                continue
            if not isinstance(e, A.Expr):
                continue
            stack.extend(self.expr(e, me, via))

    def expr(self, e: A.Expr, me: frozenset[int], via: str) -> list[object]:
        """Check one node; return the nodes within it still to check."""
        c = self.c
        sym: Sym | None = c.refs.get(id(e))
        inner: list[object] = [getattr(e, f) for f in e.__dataclass_fields__ if f != "span"]
        if isinstance(e, A.Call) and e.func == "known" and sym is None and len(e.args) == 2:
            if self.is_me(e.args[0], me):
                return []  # its reads are checked at run time (runtime/seen.py)
            # another's view: it must be proven readable by me as ever; a designer who
            # wrote known(current, ...) for the bot's own player is told why
            saved, self.inside = (
                self.inside,
                (
                    f"; this is inside known({_text(e.args[0])}, ...), which is proven like "
                    "any read: only known(me, ...) is checked as the bot runs"
                ),
            )
            try:
                self.walk(e.args[1], me, via)
            finally:
                self.inside = saved
            return [e.args[0]]
        if isinstance(e, A.Attr) and isinstance(sym, AttrSym):
            if sym.visibility == "others":
                self.hidden(
                    e,
                    f"'{_text(e)}'",
                    f"'{sym.name}' is visible to every player but its owner, and the proof "
                    f"cannot tell '{_text(e.obj)}' from the bot's own player "
                    f"(write known(me, {_text(e)}))",
                    via,
                )
            elif sym.visibility == "none":
                owner = "a player" if sym.owner == "player" else sym.owner
                self.hidden(e, f"'{_text(e)}'", f"'{sym.name}' of {owner} is visible to none", via)
            elif sym.visibility == "owner" and not self.is_me(e.obj, me):
                self.hidden(
                    e,
                    f"'{_text(e)}'",
                    f"'{sym.name}' is visible to its owner only, and '{_text(e.obj)}' "
                    "is not known to be the bot's own player (write me.ATTR)",
                    via,
                )
        elif isinstance(e, A.Name) and isinstance(sym, AttrSym) and sym.visibility != "all":
            self.hidden(e, f"global '{e.id}'", f"it is visible to {sym.visibility}", via)
        elif isinstance(e, A.Name) and isinstance(sym, ZoneSym):
            self.zone(e, sym, None, me, via)
        elif isinstance(e, A.Index) and isinstance(c.refs.get(id(e.obj)), ZoneSym):
            zone = c.refs[id(e.obj)]
            assert isinstance(zone, ZoneSym)
            self.zone(e, zone, e.index, me, via)
            return [e.index]
        elif isinstance(e, A.Call) and e.func in ("len", "count") and len(e.args) == 1:
            arg = e.args[0]
            if isinstance(arg, A.Name) and isinstance(c.refs.get(id(arg)), ZoneSym):
                return []  # the size of any zone is shown to everyone
            if isinstance(arg, A.Index) and isinstance(c.refs.get(id(arg.obj)), ZoneSym):
                return [arg.index]
        elif isinstance(e, A.Call) and isinstance(sym, DefSym):
            self.call(e, sym, me)
        elif isinstance(e, A.Call) and e.func in HIDDEN_TILE_FUNCS and sym is None:
            self.hidden(
                e,
                f"'{e.func}(...)'",
                "it tells what lies on a cell even when the tile is face down "
                "(use face_up(board, cell): the tile if it lies face up, else none)",
                via,
            )
        return inner

    def zone(
        self, e: A.Expr, zone: ZoneSym, owner: A.Expr | None, me: frozenset[int], via: str
    ) -> None:
        if zone.visibility == "all":
            return
        if zone.visibility == "owner" and owner is not None and self.is_me(owner, me):
            return
        if zone.visibility == "others":
            why = (
                f"'{zone.name}' is visible to every player but its owner, and the proof "
                f"cannot tell whose it is (write known(me, {_text(e)}): none for what "
                "the bot's player does not see)"
            )
        elif zone.visibility == "owner" and zone.per_player:
            why = (
                f"'{zone.name}' is visible to its owner only, and '{_text(owner)}' is not "
                "known to be the bot's own player (write {zone}[me])".replace("{zone}", zone.name)
                if owner is not None
                else f"'{zone.name}' is visible to its owner only"
            )
        else:
            why = f"zone '{zone.name}' is visible to nobody (len({zone.name}) is allowed)"
        self.hidden(e, f"zone '{_text(e)}'", why, via)

    def call(self, e: A.Call, sym: DefSym, me: frozenset[int]) -> None:
        """Walk the def's body, knowing which of its parameters hold the bot's player."""
        changed = _set_names(sym.decl.body)  # a parameter set in the block: not proven
        given = frozenset(
            id(p)
            for p, a in zip(sym.params, e.args, strict=False)
            if self.is_me(a, me) and p.name not in changed
        )
        key = (sym.name, given)
        if key in self.done:
            return
        self.done.add(key)
        self.walk(sym.decl.body, given, f" (in def {sym.name}, called at {e.span})")


def _set_names(body: object) -> set[str]:
    """The names that `set NAME = ...` changes anywhere in a def's block."""
    names: set[str] = set()
    stack: list[object] = [body]
    while stack:
        node = stack.pop()
        if isinstance(node, tuple | list):
            stack.extend(node)
        elif isinstance(node, A.Set) and isinstance(node.target, A.Name):
            names.add(node.target.id)
        elif isinstance(node, A.Stmt):
            stack.extend(getattr(node, f) for f in node.__dataclass_fields__)
    return names


def _text(e: A.Expr | None) -> str:
    if isinstance(e, A.Name):
        return e.id
    if isinstance(e, A.Attr):
        return f"{_text(e.obj)}.{e.name}"
    if isinstance(e, A.Index):
        return f"{_text(e.obj)}[{_text(e.index)}]"
    if isinstance(e, A.Call):
        return f"{e.func}(...)"
    return "..."


def run(c: Checker) -> None:
    for bot in c.bots.values():
        if bot.me is None:
            continue
        proof = Proof(c, bot)
        me = frozenset({id(bot.me)})
        d = bot.decl
        if d.cond is not None:
            proof.walk(d.cond, me, "")
        for ch in d.choices:
            for rule in ch.rules:
                proof.walk(rule.exprs, me, "")
