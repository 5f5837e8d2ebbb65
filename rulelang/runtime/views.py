"""What a player may see, derived from the rule file's visibility declarations; the log
as text and as a stable record; replaying a record."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Sequence
from typing import TYPE_CHECKING

from rulelang.check.symbols import BoardAttrSym
from rulelang.check.types import T
from rulelang.diagnostics import UsageError
from rulelang.runtime.boards import GridBoard
from rulelang.runtime.code import (
    PUBLIC,
    ChanceSpec,
    ChoiceSpec,
    Chose,
    Drew,
    Event,
    Ranked,
    Reaction,
    Said,
    Value,
)
from rulelang.runtime.helpers import sample
from rulelang.runtime.state import (
    Log,
    Place,
    State,
    events_of,
    known_places,
    private_first,
    typed,
)
from rulelang.runtime.values import Plain, plain, plainer
from rulelang.runtime.view_types import (
    BoardState,
    HiddenZone,
    PartialView,
    PieceRow,
    PlayerRow,
    Tile,
    ZoneContent,
    ZoneTile,
)

if TYPE_CHECKING:
    from rulelang.runtime.engine import Game
    from rulelang.runtime.ruleset import Ruleset
    from rulelang.runtime.tiles import TileOps

HIDDEN = "?"
# the types whose values are their own plain data: a column of them is shown as it is
AS_IS = frozenset({"int", "bool", "text"})
LOG_TAIL = 20  # events a view shows; Game.history gives them all


class ViewPlan:
    """What a view shows, worked out once per ruleset: each zone's slot, visibility and
    converter to plain data, and the zones that hold tiles."""

    def __init__(self, rules: Ruleset):
        p, layout, ex = rules.program, rules.layout, rules.ex
        # a tile's face can be kept when no rule changes its edges, joins or name
        self.fixed_faces = {
            ops.board: not {ops.edges_col, ops.joined_col, ex.name_cols.get(ops.kind)}
            & set(rules._changing)
            for ops in ex.tiles.values()
        }
        self.zones: list[tuple[str, int, bool, str, Plain]] = [
            (
                z.name,
                layout.zone_base[z.name],
                z.per_player,
                z.visibility,
                plainer(z.type.elem or T("any"), ex.name_cols),
            )
            for z in p.zones
        ]
        self.board_attrs = [a for a in p.columns if isinstance(a, BoardAttrSym)]
        by_kind = {ops.kind: ops for ops in ex.tiles.values()}
        self.tile_zones: list[tuple[str, int, bool, TileOps]] = [
            (z.name, layout.zone_base[z.name], z.per_player, by_kind[z.kind])
            for z in p.zones
            if z.kind in by_kind
        ]


def may_see(visibility: str, viewer: int | None, owner: int | None) -> bool:
    """viewer None is the omniscient view (a referee, or the end of the game). `others`:
    every player but the owner (a hand held facing the table)."""
    if viewer is None or visibility == "all":
        return True
    if visibility == "others":
        return owner is not None and owner != viewer
    return visibility == "owner" and owner == viewer


def view(game: Game, viewer: int | None, only: Collection[str] | None = None) -> PartialView:
    """Everything `viewer` may see, as plain data (None: everything). `only` names the
    parts wanted: globals, players, pieces, zones, boards, board_state, zone_tiles, log,
    private, decision, results (the header is always there); without it, every part is
    there as `View` says (view_types.py)."""
    rules, st = game.rules, game.state
    p = rules.program
    names = st.cfg.player_names
    out: PartialView = {
        "title": p.title,
        "viewer": viewer,
        "turn": st.turn,
        "round": game.round_number,
        "phase": game.phase,
        "current": names[st.current],
    }
    if st.reactor >= 0 and not st.over:
        out["reacting"] = names[st.reactor]  # a reaction round is on: who may react now

    def want(part: str) -> bool:
        return only is None or part in only

    if want("globals"):
        out["globals"] = {
            g.name: plain(game, g.type, st.vars[g.slot])
            for g in p.globals
            if may_see(g.visibility, viewer, None)
        }
    if want("players"):
        players: list[PlayerRow] = []
        for i in range(st.cfg.n):
            entry: PlayerRow = {"name": names[i], "seat": i}
            for a in p.player_attrs:
                if may_see(a.visibility, viewer, i):
                    entry[a.name] = plain(game, a.type, st.cols[a.slot][i])
            players.append(entry)
        out["players"] = players
    if want("pieces"):
        pieces: dict[str, list[PieceRow]] = {}
        for k in p.kinds:
            if k.decl.category != "piece":
                continue
            shown = [a for a in k.attrs.values() if may_see(a.visibility, viewer, None)]
            pieces[k.name] = [
                {a.name: plain(game, a.type, st.cols[a.slot][i]) for a in shown}
                for i in st.cfg.entities.get(k.name, ())
            ]
        out["pieces"] = pieces
    if want("zones") or want("zone_tiles"):
        zones = _zones(game, viewer)
        if want("zones"):
            out["zones"] = zones
        if want("zone_tiles"):
            out["zone_tiles"] = _zone_tiles(game, zones)
    if want("boards"):
        out["boards"] = tiles_of(game, viewer)
    if want("board_state") and rules.view_plan.board_attrs:
        out["board_state"] = board_state(game, viewer)
    if want("log"):
        out["log"] = log_lines(game, viewer, LOG_TAIL)
    if want("private"):
        told(st)
        said = [
            e
            for e in private_first(st.private)
            if e.audience is not None
            and (viewer is None or viewer in e.audience)  # the referee knows them all
        ]
        said.reverse()
        out["private"] = [e.text for e in said]
        if viewer is None:  # the referee's view also says whom each message was for
            out["private_to"] = [[names[p] for p in e.audience or ()] for e in said]
    spec = st.pending
    if want("decision") and spec is not None and not st.over and isinstance(spec, ChoiceSpec):
        out["to_act"] = names[st.who]
        if viewer is None or viewer == st.who:
            out["prompt"] = spec.prompt(st)
            out["options"] = [a.text for a in game.legal_actions()]
    if st.over and want("results"):
        out["results"] = dict(zip(names, st.outcome or [], strict=False))
    return out


def board_state(game: Game, viewer: int | None) -> BoardState:
    """The state and edge attributes of boards that `viewer` may see: per board, per
    attribute, the value of each node (by name) or of each side (as "3,0 south")."""
    st = game.state
    out: BoardState = {}
    for a in game.rules.view_plan.board_attrs:
        board = st.cfg.boards[a.board]
        entry = out.setdefault(a.board, {})
        if not may_see(a.visibility, viewer, None):
            continue
        col = st.cols[a.slot]
        if a.edge:
            assert isinstance(board, GridBoard)  # edge attributes are a grid's (the checker)
            entry[a.name] = {
                board.side_name(s): plain(game, a.type, col[s]) for s in board.all_sides
            }
        elif a.type.name in AS_IS:  # its values are plain already (values.plain)
            entry[a.name] = dict(zip(board.names, col, strict=True))
        else:
            entry[a.name] = {
                n: plain(game, a.type, v) for n, v in zip(board.names, col, strict=True)
            }
    return out


def tiles_of(game: Game, viewer: int | None) -> dict[str, dict[str, Tile]]:
    """Tiles on grid boards: face-up tiles for all to see; face-down ones as '?', except
    in the omniscient view, which shows them with `secret` set."""
    rules, st = game.rules, game.state
    out: dict[str, dict[str, Tile]] = {}
    known = known_places(st, viewer) if st.shown is not None and viewer is not None else set()
    for name, ops in rules.ex.tiles.items():
        board = st.cfg.boards[name]
        cells: dict[str, Tile] = {}
        for node in sorted(st.layers[ops.layer]):
            cells[board.names[node]] = tile_cell(game, ops, node, viewer, known)
        out[name] = cells
    return out


def tile_cell(
    game: Game,
    ops: TileOps,
    node: int,
    viewer: int | None,
    known: set[tuple[Place, Value]] | None = None,
) -> Tile:
    """One tile as `viewer` sees it; the omniscient view also gives the item itself. A
    face-down tile `reveal ... to` showed the viewer is shown to them (`secret` set);
    `known` is what was shown to the viewer, when the caller already has it."""
    st = game.state
    tile, turn, secret = st.layers[ops.layer][node]
    if secret and viewer is not None:
        if known is None:
            known = known_places(st, viewer) if st.shown is not None else set()
        if (("tile", ops.layer, node), tile) not in known:
            return {"tile": HIDDEN, "secret": True}
    name, sides, joined = face(game, ops, tile, turn)
    cell: Tile = {
        "tile": name,
        "turn": turn,
        "open": list(sides),
        "joined": joined,
        "secret": secret,
    }
    if viewer is None:
        cell["item"] = tile
    return cell


def _zone_tiles(game: Game, zones: dict[str, ZoneContent]) -> dict[str, list[ZoneTile]]:
    """For zones the viewer sees that hold tiles: each item's open sides (to draw it)."""
    st = game.state
    out: dict[str, list[ZoneTile]] = {}
    for name, base, per_player, ops in game.rules.view_plan.tile_zones:
        for owner in range(st.cfg.n) if per_player else (None,):
            label = name if owner is None else f"{name}[{st.cfg.player_names[owner]}]"
            if isinstance(zones.get(label), list):
                faces = [face(game, ops, item, 0) for item in st.zones[base + (owner or 0)]]
                out[label] = [
                    {"open": list(sides), "joined": joined} for _n, sides, joined in faces
                ]
    return out


def face(game: Game, ops: TileOps, tile: int, turn: int) -> tuple[str, tuple[bool, ...], bool]:
    """A tile's name, open sides when lying turned by `turn`, and whether it joins."""
    st = game.state
    key = (tile, turn)
    kept = st.cfg.faces.get(key) if game.rules.view_plan.fixed_faces[ops.board] else None
    if kept is None:
        name = str(plain(game, T("entity", ops.kind), tile))
        kept = (name, tuple(ops.sides(st, tile, turn)), ops.joined(st, tile))
        if game.rules.view_plan.fixed_faces[ops.board]:
            st.cfg.faces[key] = kept
    return kept


def _zones(game: Game, viewer: int | None) -> dict[str, ZoneContent]:
    st = game.state
    names = st.cfg.player_names
    out: dict[str, ZoneContent] = {}
    known = known_places(st, viewer) if st.shown is not None and viewer is not None else set()
    for name, base, per_player, visibility, convert in game.rules.view_plan.zones:
        labels = st.cfg.labels.get(name)
        if labels is None:
            labels = st.cfg.labels[name] = (
                [f"{name}[{who}]" for who in names] if per_player else [name]
            )
        for owner in range(st.cfg.n) if per_player else (None,):
            items = st.zones[base + (owner or 0)]
            label = labels[owner or 0]
            if may_see(visibility, viewer, owner):
                out[label] = [convert(st, c) for c in items]
            else:
                hidden: HiddenZone = {"size": len(items)}
                out[label] = hidden
                slot = base + (owner or 0)
                shown = [c for c in items if (("zone", slot), c) in known]
                if shown:  # what `reveal ... to` showed the viewer there
                    hidden["known"] = [convert(st, c) for c in shown]
    return out


def event_line(game: Game, event: Event, viewer: int | None) -> str | None:
    """One event as text, as far as `viewer` may see it (None: not seen at all)."""
    st = game.state
    if isinstance(event, Chose):
        spec, value = event.decision, event.value
        name = st.cfg.player_names[event.who]
        if value is None:
            return f"{name} passes"
        seen = (
            not spec.secret
            or viewer is None
            or viewer == event.who
            or (event.audience is not None and viewer in event.audience)
        )
        # an empty `log ""` without an else text: no line for anyone
        if event.text is not None and (seen or event.hidden is not None or not event.text):
            line = event.text if seen else event.hidden
            return line or None  # an empty `log ""`: no line
        verb = "reacts with" if spec.reaction else "chooses"
        if not seen:
            return f"{name} {'reacts' if spec.reaction else 'chooses'} in secret"
        return f"{name} {verb} {spec.show(st, value)}"
    if isinstance(event, Reaction):
        if event.step == "begin":
            return f"reaction round, starting with {st.cfg.player_names[event.who or 0]}"
        if event.step == "pass":
            return f"{st.cfg.player_names[event.who or 0]} passes"
        return "the reaction round is over"
    if isinstance(event, Said):
        audience = event.audience
        return event.text if audience is None or viewer is None or viewer in audience else None
    if isinstance(event, Drew):
        chance = event.decision
        if event.audience is not None:  # a secret roll or pick: its audience sees it,
            # the others read the `else` text or nothing
            if viewer is None or viewer in event.audience:
                if event.text is not None:  # `log ""`: no line, as for everything else
                    return event.text or None
                return f"{chance.kind}: {chance.show(st, event.value)}"
            return event.hidden or None
        # a pick is seen by the referee, or by all when its `log` has no `else` text
        seen = chance.kind != "pick" or viewer is None or event.hidden is None
        if event.text is not None and (seen or event.hidden is not None):
            line = event.text if seen else event.hidden
            return line or None  # an empty `log ""`: no line
        if not seen:
            return "something is picked at random"
        if event.text is not None:
            return event.text
        # a record without its line (made in a playout): a sentence from the event
        if not isinstance(event.outcome, int):
            return "a shuffle"
        return f"{chance.kind}: {chance.show(st, event.value)}"
    return "ranking: " + ", ".join(st.cfg.player_names[p] for p in event.players)


def record_line(
    game: Game, record: tuple[object, Value, Value, Log], viewer: int | None
) -> str | None:
    """One log record as text for `viewer` (None: not shown). A pass right after the
    passing player's choice of `pass` in the round is not shown again."""
    if record[0] == "reaction" and record[2] == "pass":
        before = record[3]
        if (
            before is not None
            and type(before[0]) is ChoiceSpec
            and before[0].reaction
            and before[1] == record[1]
            and before[2] is None
        ):
            return None
    return event_line(game, typed(record, game.state), viewer)


def audiences(game: Game, since: object = None) -> dict[str, str]:
    """For the referee: the line of each secret roll, pick or `choose ... secret to`
    since the mark `since`, and the names of the players who saw it (the chooser
    first); a line nobody but the referee saw is left out."""
    st = game.state
    names = st.cfg.player_names
    out: dict[str, str] = {}
    record = st.log
    while record is not None and record is not since:
        # (a record told when read holds its line's values there: never an audience)
        if len(record) > 6 and record[6] and record[0].plain is None:
            seen = (record[1], *record[6]) if type(record[0]) is ChoiceSpec else record[6]
            line = record_line(game, record, None)
            if line:
                out[line] = ", ".join(names[p] for p in dict.fromkeys(seen))
        record = record[3]
    return out


def referee_lines(game: Game, since: object = None) -> list[tuple[str, str | None]]:
    """For the referee: every line since the mark `since`, each with whom it was said
    to: None for a line everyone saw, the names of those who saw it ("Ann, Bob") for a
    `say ... to`, a secret roll, pick or choice, and "" for a line nobody but the
    referee saw."""
    public = Counter(game.history(PUBLIC, since=since))
    said = game.view(None, only=("private",))
    to = {
        line: ", ".join(names)
        for line, names in zip(said["private"], said["private_to"], strict=True)
    }
    to.update(audiences(game, since))
    out: list[tuple[str, str | None]] = []
    for line in game.history(None, since=since):
        if public[line] > 0:
            public[line] -= 1
            out.append((line, None))
        else:
            out.append((line, to.get(line, "")))
    return out


def told(st: State) -> None:
    """Refuse to read a log with holes: a quiet playout kept no message and no record
    of its decisions and dice (Game.playout)."""
    if st.hushed:
        raise UsageError(
            "this game's log lacks the events of a quiet playout (Game.playout(quiet=True)):"
            " its history, events and record are not kept"
        )


def log_lines(
    game: Game, viewer: int | None, tail: int | None = None, since: object = None
) -> list[str]:
    """The event log as text, each event shown only as far as `viewer` may see it; with
    tail, only the last `tail` lines (found from the end, without reading it all); with
    since (a log record, see Game.mark), only the events after it."""
    st = game.state
    told(st)
    if since is not None:
        news: list[str] = []
        record = st.log
        while record is not None and record is not since:
            line = record_line(game, record, viewer)
            if line is not None:
                news.append(line)
            record = record[3]
        return news[::-1]
    lines: list[str] = []
    kept = st.cfg.lines
    record = st.log
    while record is not None and (tail is None or len(lines) < tail):
        what = record[0]
        if type(what) is ChoiceSpec and game._keep and not (what.secret and viewer is not None):
            # the same text for every viewer: keep it (the record is kept too, so that
            # its id is not reused)
            hit = kept.get(id(record))
            if hit is None or hit[0] is not record:
                hit = kept[id(record)] = (
                    record,
                    event_line(game, typed(record, st), None) or "",
                )
            if hit[1]:
                lines.append(hit[1])
        else:
            line = record_line(game, record, viewer)
            if line is not None:
                lines.append(line)
        record = record[3]
    return lines[::-1]


def record(game: Game, since: object = None, upto: object = None) -> list[dict[str, Value]]:
    """Decisions by name and chosen text, chance events by name and outcome: a record
    that replays with any version of the compiler. With marks (Game.mark), only the
    events after `since` and up to `upto` (by default, up to now): a game recorded
    move by move reads only its new events."""
    st = game.state
    told(st)
    out: list[dict[str, Value]] = []
    if since is None and upto is None:
        events = events_of(st)
    else:
        events, link = [], st.log if upto is None else upto
        while link is not None and link is not since:
            events.append(typed(link, st))  # type: ignore[arg-type]
            link = link[3]  # type: ignore[index]
        events.reverse()
    seen: dict[str, set[str]] = {}

    def alike(kind: str, show: Callable[[State, Value], str]) -> set[str]:
        """The texts that more than one item of the kind reads as."""
        if kind not in seen:
            texts = Counter(show(st, i) for i in st.cfg.entities.get(kind, ()))
            seen[kind] = {t for t, n in texts.items() if n > 1}
        return seen[kind]

    for event in events:
        if type(event) is Chose:
            spec = event.decision
            text = "pass" if event.value is None else spec.show(st, event.value)
            entry: dict[str, Value] = {"choose": spec.name, "by": event.who, "option": text}
            if spec.kind is not None and text in alike(spec.kind, spec.show):
                # which of the items that read alike (two cards of the same design in a hand): the
                # text alone would replay the first of them, and a hand's order differ
                entry["item"] = event.value
            out.append(entry)
        elif type(event) is Drew:
            outcome = event.outcome
            out.append(
                {
                    "chance": event.decision.name,
                    "outcome": outcome if isinstance(outcome, int) else list(outcome),
                }
            )
    return out


class ReplayError(UsageError):
    """A log or record that does not fit the rules it is replayed with."""


def replay_into(game: Game, log: Sequence[object]) -> None:
    """Apply recorded decisions and chance outcomes to a game started with scripted
    chance (auto_chance=False), in order; raise ReplayError where they do not fit."""
    for number, event in enumerate(log, 1):
        try:
            _replay_one(game, event)
        except ReplayError as exc:
            raise ReplayError(f"event {number}: {exc}") from None


def _replay_one(game: Game, event: object) -> None:
    st = game.state
    spec = st.pending
    if isinstance(event, Said | Ranked | Reaction):
        return
    if isinstance(event, Chose | Drew):
        event = (
            {"choose": event.decision.name, "value": event.value}
            if isinstance(event, Chose)
            else {"chance": event.decision.name, "outcome": event.outcome}
        )
    if not isinstance(event, dict):
        raise ReplayError("not an event")
    if st.over or spec is None:
        raise ReplayError("the game is already over")
    if "choose" in event:
        if not isinstance(spec, ChoiceSpec) or spec.name != event["choose"]:
            raise ReplayError(
                f"the rules now ask for {_asked(spec)}, not a choice of '{event['choose']}'"
            )
        if "by" in event and event["by"] != st.who:
            raise ReplayError(
                f"'{spec.name}' is chosen by seat {st.who + 1} now, not by seat {event['by'] + 1}"
                if isinstance(event["by"], int)
                else "the seat of a decision is not a number"
            )
        if "value" in event:
            value = event["value"]
        else:
            alike = [a for a in game.legal_actions() if a.text == event.get("option")]
            if not alike:
                raise ReplayError(f"'{event.get('option')}' is not an option of '{spec.name}' now")
            # the very item chosen, where the record names it; else the first that reads so
            same = [a for a in alike if "item" in event and a.value == event["item"]]
            value = (same or alike)[0].value
        if value not in st.options:
            raise ReplayError(f"{value!r} is not an option of '{spec.name}' now")
        game.choose(value)
    elif "chance" in event:
        if not isinstance(spec, ChanceSpec) or spec.name != event["chance"]:
            raise ReplayError(
                f"the rules now ask for {_asked(spec)}, not the chance event '{event['chance']}'"
            )
        outcome = event.get("outcome")
        if isinstance(outcome, list):
            outcome = tuple(outcome)
        if not (isinstance(outcome, int) and not isinstance(outcome, bool)) and not (
            isinstance(outcome, tuple) and all(isinstance(i, int) for i in outcome)
        ):
            raise ReplayError("a chance outcome must be a position or an order of positions")
        # draw as the game did, so that the generator goes on as it would have
        sample(st, spec)
        try:
            game.chance_index(outcome)
        except UsageError as exc:
            raise ReplayError(str(exc)) from None
    else:
        raise ReplayError("not an event")


def _asked(spec: ChoiceSpec | ChanceSpec) -> str:
    if isinstance(spec, ChoiceSpec):
        return f"a choice of '{spec.name}'"
    return f"the chance event '{spec.name}'"
