"""What a player may see, derived from the rule file's visibility declarations."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulelang.check.types import T
from rulelang.runtime.codegen import ChanceSpec, ChoiceSpec

if TYPE_CHECKING:
    from rulelang.runtime.engine import Game

HIDDEN = "?"


def _may_see(visibility: str, viewer: int | None, owner: int | None) -> bool:
    """viewer None is the omniscient view (a referee, or the end of the game)."""
    if viewer is None or visibility == "all":
        return True
    return visibility == "owner" and owner == viewer


def view(game: Game, viewer: int | None) -> dict[str, Any]:
    """Everything `viewer` may see, as plain data (None: everything)."""
    rules, st = game.rules, game.state
    p, ec = rules.program, rules.ec
    out: dict[str, Any] = {"title": p.title, "viewer": viewer, "turn": st.turn,
                           "phase": p.phases[st.phase].name if p.phases else "",
                           "current": st.cfg.player_names[st.current]}
    out["globals"] = {g.name: ec.fmt(g.type)(st, st.vars[g.slot]) for g in p.globals
                      if _may_see(g.visibility, viewer, None)}
    players = []
    for i in range(st.cfg.n):
        entry: dict[str, Any] = {"name": st.cfg.player_names[i]}
        for a in p.player_attrs:
            if _may_see(a.visibility, viewer, i):
                entry[a.name] = ec.fmt(a.type)(st, st.cols[a.slot][i])
        players.append(entry)
    out["players"] = players
    pieces: dict[str, list[dict[str, Any]]] = {}
    for k in p.kinds:
        rows = []
        for i in st.cfg.entities.get(k.name, ()):
            row = {a.name: ec.fmt(a.type)(st, st.cols[a.slot][i]) for a in k.attrs.values()
                   if _may_see(a.visibility, viewer, None)}
            rows.append(row)
        if k.decl.category == "piece":
            pieces[k.name] = rows
    out["pieces"] = pieces
    out["zones"] = _zones(game, viewer)
    out["boards"] = _tiles(game)
    out["zone_tiles"] = _zone_tiles(game, out["zones"])
    out["log"] = log_lines(game, viewer)
    out["private"] = [text for kind, audience, text in (e for e in st.log if e[0] == "say")
                      if audience is not None and viewer is not None and viewer in audience]
    if st.pending is not None and not st.over:
        spec, who, _opts = st.pending
        if isinstance(spec, ChoiceSpec):
            out["to_act"] = st.cfg.player_names[who]
            if viewer is None or viewer == who:
                out["prompt"] = spec.prompt(st)
                out["options"] = [a.text for a in game.legal_actions()]
    if st.over:
        out["results"] = dict(zip(st.cfg.player_names, st.outcome or [], strict=False))
    return out


def _tiles(game: Game) -> dict[str, Any]:
    """Tiles on grid boards: face-up tiles for all to see, face-down ones as '?'."""
    rules, st = game.rules, game.state
    out: dict[str, Any] = {}
    for name, ops in rules.ec.tiles.items():
        board = st.cfg.boards[name]
        name_of = rules.ec.fmt(T("entity", rules.ec.tile_kinds[name]))
        cells: dict[str, Any] = {}
        tiles, turns, secret = (st.layers[ops.layer + i] for i in range(3))
        for node, tile in enumerate(tiles):
            if tile is None:
                continue
            if secret[node]:
                cells[board.names[node]] = {"tile": HIDDEN}
                continue
            cells[board.names[node]] = {
                "tile": name_of(st, tile), "turn": turns[node],
                "open": [ops.open_side(st, node, d) for d in range(4)],
                "joined": ops.joined(st, tile)}
        out[name] = cells
    return out


def _tile_faces(game: Game) -> dict[str, Any]:
    """kind -> a function (state, item) -> the tile's face, for kinds that are tiles."""
    rules = game.rules
    faces: dict[str, Any] = {}
    for name, ops in rules.ec.tiles.items():
        kind = rules.ec.tile_kinds[name]
        faces[kind] = lambda st, item, ops=ops: {
            "open": [ops.tile_open(st, item, 0, d) for d in range(4)],
            "joined": ops.joined(st, item)}
    return faces


def _zone_tiles(game: Game, zones: dict[str, Any]) -> dict[str, list[Any]]:
    """For zones the viewer sees that hold tiles: each item's open sides (to draw it)."""
    rules, st = game.rules, game.state
    faces = _tile_faces(game)
    out: dict[str, list[Any]] = {}
    for z in rules.program.zones:
        face = faces.get(z.kind)
        if face is None:
            continue
        base = rules.ec.zone_base[z.name]
        owners = range(st.cfg.n) if z.per_player else [None]
        for owner in owners:
            label = z.name if owner is None else f"{z.name}[{st.cfg.player_names[owner]}]"
            if isinstance(zones.get(label), list):
                out[label] = [face(st, item) for item in st.zones[base + (owner or 0)]]
    return out


def _zones(game: Game, viewer: int | None) -> dict[str, Any]:
    rules, st = game.rules, game.state
    p, ec = rules.program, rules.ec
    out: dict[str, Any] = {}
    for z in p.zones:
        base = ec.zone_base[z.name]
        show = ec.fmt(z.type.elem) if z.type.elem else (lambda s, v: str(v))
        owners = range(st.cfg.n) if z.per_player else [None]
        for owner in owners:
            cards = st.zones[base + (owner or 0)]
            label = z.name if owner is None else f"{z.name}[{st.cfg.player_names[owner]}]"
            if _may_see(z.visibility, viewer, owner):
                out[label] = [show(st, c) for c in cards]
            else:
                out[label] = {"size": len(cards)}
    return out


def log_lines(game: Game, viewer: int | None) -> list[str]:
    """The event log as text, each event shown only as far as `viewer` may see it."""
    rules, st = game.rules, game.state
    code = rules.code
    names = st.cfg.player_names
    lines: list[str] = []
    for event in st.log:
        kind = event[0]
        if kind == "choose":
            _k, who, pc, value = event
            spec = code.choices[pc]
            shown = "pass" if value is None else spec.show(st, value)
            if spec.secret and viewer is not None and viewer != who:
                shown = HIDDEN
            lines.append(f"{names[who]}: {spec.var} {shown}")
        elif kind == "chance":
            _k, pc, outcome = event
            cspec: ChanceSpec = code.chances[pc]
            if cspec.kind in ("roll", "pick"):
                value = cspec.source(st)[outcome] if cspec.kind == "roll" else None
                text = cspec.show(st, value) if value is not None else "(picked)"
                if cspec.kind == "pick" and viewer is None:
                    text = f"item {outcome}"
                lines.append(f"{cspec.kind} {cspec.var}: {text}")
            else:
                lines.append(f"shuffled {cspec.var}")
        elif kind == "say":
            _k, audience, text = event
            if audience is None or viewer is None or viewer in audience:
                lines.append(text)
        elif kind == "rank":
            lines.append("ranking: " + ", ".join(names[p] for p in event[1]))
    return lines
