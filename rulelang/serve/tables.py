"""A served table without the web: its game, its links, what each viewer is sent, and
a move checked and applied. The web layer (web.py) only carries these messages.

What a connection is sent is built from `Game.view(viewer)` and `Game.history(viewer)`
of its own viewer, and nothing else of the game: a seat's viewer is its seat, the game
master's is None (omniscient), a spectator's is PUBLIC. The options of a decision (with
the refusal reason of an illegal one) go only to the seat that decides."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rulelang.runtime import views
from rulelang.runtime.code import ChoiceSpec
from rulelang.runtime.engine import CHANCE, PUBLIC, Action, Game
from rulelang.serve.keeper import Keeper, Links

if TYPE_CHECKING:
    from rulelang import Ruleset

MAX_MESSAGE = 4096  # bytes of one message from a client: a move needs far less
MAX_LISTED = 60  # a choice's candidates listed with the illegal ones up to this many

SEAT, MASTER, SPECTATOR = "seat", "master", "spectator"


@dataclass(frozen=True)
class Who:
    """Whom a token stands for: a role, and the seat for a seat's token."""

    role: str
    seat: int | None = None

    @property
    def viewer(self) -> int | None:
        """The viewer of `Game.view`: the seat, None (everything) or PUBLIC."""
        if self.role == SEAT:
            return self.seat
        return None if self.role == MASTER else PUBLIC


class Refused(Exception):
    """A client's message that changes nothing: the reason is sent back to it alone."""


def hides_anything(ruleset: Ruleset) -> bool:
    """Whether the rules keep anything from some player: then the table has a game
    master, who sees it all (as `play --omniscient`)."""
    p = ruleset.program
    declared: list[Any] = [*p.player_attrs, *p.globals, *p.zones]
    declared += [a for k in p.kinds for a in k.attrs.values()]
    if any(a.visibility != "all" for a in declared) or ruleset.ex.tiles:
        return True
    code = ruleset.code
    return (
        any(c.secret for c in code.choices.values())
        or any(c.audience is not None for c in code.chances.values())
        or _says_in_private(p.decls)
    )


def _says_in_private(decls: list[Any]) -> bool:
    """Whether any rule tells something to some players only (`say ... to`)."""
    from rulelang.syntax import ast as A
    from rulelang.syntax.node import nodes

    return any(isinstance(n, A.Say) and n.to is not None for n in nodes(decls))


class Table:
    """One game at one table. `seq` numbers the states the table shows (Keeper.shown): a
    move names the `seq` of the state it answers, so a stale or replayed move is refused."""

    def __init__(
        self,
        ruleset: Ruleset,
        game: Game,
        bots: dict[int, str | None],
        links: Links,
        keeper: Keeper,
        rules_name: str = "",
    ):
        self.ruleset = ruleset
        self.game = game
        self.bots = bots
        self.links = links
        self.keeper = keeper
        self.rules_name = rules_name  # the rule file's name, for the host's page
        self.error: str | None = None  # a rule's runtime error stopped the table
        self.who: dict[str, Who] = {t: Who(SEAT, s) for s, t in links.seats.items()}
        if links.master is not None:
            self.who[links.master] = Who(MASTER)
        self.who[links.spectator] = Who(SPECTATOR)
        self._layout = _layout(game)

    @property
    def id(self) -> int:
        return self.keeper.id

    @property
    def seq(self) -> int:
        return self.keeper.shown

    # -- what a viewer is sent --------------------------------------------------

    def message(self, who: Who) -> dict[str, Any]:
        """The state as `who` may see it, for the JSON of a "state" message."""
        game, viewer = self.game, who.viewer
        view = game.view(viewer)
        mine = self.deciding() == who.seat and who.role == SEAT and who.seat is not None
        out: dict[str, Any] = {
            "type": "state",
            "seq": self.seq,
            "role": who.role,
            "seat": who.seat,
            "name": game.player_names[who.seat] if who.seat is not None else None,
            "title": game.rules.title,
            "players": list(game.player_names),
            "bots": sorted(self.bots),
            "view": view,
            "history": game.history(viewer),
            "to_play": view.get("to_act"),
            "your_turn": mine,
            "prompt": game.prompt() if mine else None,
            "options": self.options() if mine else [],
            "over": game.is_over(),
            "result": view.get("results") if game.is_over() else None,
        }
        if who.role == MASTER:
            # whom each line was said to, as `play`'s referee screen marks it
            marked = views.referee_lines(game)
            out["history"] = [line for line, _ in marked]
            out["audience"] = [to for _, to in marked]
        if self._layout is not None:
            out["layout"] = self._layout
        return out

    def deciding(self) -> int | None:
        """The seat a human decision waits for, or None (a bot's, chance, over, error)."""
        game = self.game
        if game.is_over() or self.error is not None:
            return None
        who = game.current_player()
        return None if who == CHANCE or who in self.bots else who

    def options(self) -> list[dict[str, Any]]:
        """The options of the pending choice, in the order `legal_actions` gives; when
        the choice has few candidates, the illegal ones too, each with the reason the
        rule file gives (as `play` says when one is typed)."""
        game = self.game
        legal = game.legal_actions()
        out: list[dict[str, Any]] = [
            {"i": i, "text": a.text, "legal": True, "why": None} for i, a in enumerate(legal)
        ]
        for text in self._illegal(legal):
            out.append(
                {"i": len(out), "text": text, "legal": False, "why": game.why_not(text).reason}
            )
        return out

    def _illegal(self, legal: list[Action]) -> list[str]:
        """The texts of the pending choice's candidates that are not legal, if few."""
        st = self.game.state
        spec = st.pending
        if not isinstance(spec, ChoiceSpec):
            return []
        domain = list(spec.domain(st))
        if len(domain) > MAX_LISTED:
            return []
        shown = {a.text for a in legal}
        out: list[str] = []
        for v in domain:
            text = spec.show(st, v)
            if text not in shown:
                shown.add(text)
                out.append(text)
        return out

    # -- a move --------------------------------------------------------------------

    def action_for(self, who: Who, data: dict[str, Any]) -> Action:
        """The legal action a client's "move" names, or Refused saying why not."""
        if self.error is not None:
            raise Refused(f"the table stopped: {self.error}")
        if self.game.is_over():
            raise Refused("the game is over")
        if who.role != SEAT:
            raise Refused(f"a {who.role}'s link cannot play: it only watches")
        seq = data.get("seq")
        if type(seq) is not int or seq != self.seq:
            raise Refused(f"stale move: the game moved on (it is at seq {self.seq}, not {seq!r})")
        if self.deciding() != who.seat:
            raise Refused("it is not your turn")
        return self._named(data)

    def _named(self, data: dict[str, Any]) -> Action:
        legal = self.game.legal_actions()
        if "option" in data:
            i = data["option"]
            if type(i) is not int:
                raise Refused("'option' must be a whole number: the 'i' of an option")
            listed = self.options()
            if not 0 <= i < len(listed):
                raise Refused(f"there is no option {i}")
            if not listed[i]["legal"]:
                raise Refused(f"not allowed: {listed[i]['why']}")
            return legal[i]
        text = data.get("text")
        if not isinstance(text, str):
            raise Refused("a move names an 'option' (its number) or a 'text'")
        found = self.game.find(text)
        if found is None:
            raise Refused(f"not allowed: {self.game.why_not(text).reason}")
        return found


def _layout(game: Game) -> Any:
    """The boards' shapes for the page (rulelang.render.layout, where it exists): the
    same for every viewer, read from the rules only."""
    import importlib

    try:
        module = importlib.import_module("rulelang.render.layout")
    except ImportError:
        return None
    return module.layout(game)


def encode(message: dict[str, Any]) -> str:
    """A message as JSON text: rule texts are sent as they are, never as HTML (the page
    escapes them)."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


def decode(text: str | bytes) -> dict[str, Any]:
    """A client's message, or Refused: too long, not JSON, not an object."""
    size = len(text.encode("utf-8")) if isinstance(text, str) else len(text)
    if size > MAX_MESSAGE:
        raise Refused(f"message too long: {size} bytes (at most {MAX_MESSAGE})")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise Refused('not JSON: a message is a JSON object such as {"type": "sync"}') from None
    if not isinstance(data, dict):
        raise Refused("a message is a JSON object, with a 'type'")
    if data.get("type") not in ("move", "sync"):
        raise Refused(f"unknown message type {str(data.get('type'))[:40]!r}: 'move' or 'sync'")
    return data
