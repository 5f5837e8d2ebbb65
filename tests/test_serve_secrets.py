"""Secrets stay on the server (issue 23, item 3): every message each connection of a
served table receives is what `view(viewer)` and `history(viewer)` give its viewer
(the seat, the game master's None, the spectators' PUBLIC), checked against a replay
of the stored game made apart from the server; and changing only what a viewer cannot
see changes nothing that viewer is sent."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from conftest import sample
from serve_support import SHIPPED, Seen, new_table, play_out, served, settle
from test_noninterference import hidden_changed

import rulelang
from rulelang import PUBLIC
from rulelang.runtime import views
from rulelang.serve.tables import MASTER, SEAT, SPECTATOR, Table, Who
from rulelang.serve.web import Hub

KEYS = {
    "type", "seq", "role", "seat", "name", "title", "players", "bots", "view", "history",
    "to_play", "your_turn", "prompt", "options", "over", "result",
}  # fmt: skip


def plain(data: object) -> Any:
    """As the JSON the page receives (tuples become lists)."""
    return json.loads(json.dumps(data))


def seats_and_bots(rules: rulelang.Ruleset) -> tuple[int, dict[int, str | None]]:
    """The least players the rules take (at least 2), the last seat a bot's if 3 or more."""
    n = max(2, rules.min_players)
    return n, ({n - 1: None} if n >= 3 else {})


def viewer_of(message: dict[str, Any]) -> int | None:
    return {SEAT: message["seat"], MASTER: None, SPECTATOR: PUBLIC}[message["role"]]


def expected_views(hub: Hub, table: Table) -> dict[int, dict[object, Any]]:
    """Watch the table: at each move stored (seq), what each viewer's view, history
    and options are then, read from the game apart from the server's messages."""
    seen: dict[int, dict[object, Any]] = {}

    def watch(t: Table, _seconds: float) -> None:
        seen[t.seq] = snapshot(t.game)

    hub.on_move = watch
    seen[table.seq] = snapshot(table.game)
    return seen


def snapshot(game: rulelang.Game) -> dict[object, Any]:
    viewers: list[int | None] = [*range(game.players), None, PUBLIC]
    out: dict[object, Any] = {v: (plain(game.view(v)), plain(game.history(v))) for v in viewers}
    out["audience"] = [to for _, to in views.referee_lines(game)]
    over = game.is_over()
    out["deciding"] = None if over else game.current_player()
    out["legal"] = [a.text for a in game.legal_actions()] if not over else []
    return out


def check_all(expected: dict[int, dict[object, Any]], seen: dict[str, Seen]) -> int:
    """Every message every connection received is its viewer's state at its seq."""
    checked = 0
    for s in seen.values():
        for m in s.messages:
            assert m["type"] == "state", m
            check_one(expected[m["seq"]], m)
            checked += 1
    return checked


def check_one(then: dict[object, Any], m: dict[str, Any]) -> None:
    """One message: exactly the viewer's view and history, the options only for the seat
    that decides (the legal ones those of the game), nothing else."""
    viewer = viewer_of(m)
    assert set(m) <= KEYS | {"layout"} | ({"audience"} if m["role"] == MASTER else set())
    assert (m["view"], m["history"]) == then[viewer]
    if m["role"] == MASTER:  # whom each line was said to: the game master's alone
        assert m["audience"] == then["audience"]
    if m["your_turn"]:
        assert then["deciding"] == viewer and m["role"] == SEAT
        assert [o["text"] for o in m["options"] if o["legal"]] == then["legal"]
    else:
        assert m["options"] == [] and m["prompt"] is None


@pytest.mark.long
@pytest.mark.parametrize("path", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_every_message_is_the_viewers_view_in_whole_games(path: Path, full: bool) -> None:
    """A whole game of each shipped ruleset (with --full; else its first 25 human
    moves) with every link connected: each message any connection received is its
    viewer's view and history at that point, and no connection missed a move."""
    rules = rulelang.compile_file(path)
    n, bots = seats_and_bots(rules)
    hub, table = new_table(path, n, bots, seed=3)
    expected = expected_views(hub, table)
    with served(hub) as client:
        seen = play_out(hub, table, client, random.Random(3), most=sample(full, 10_000, 25))
    assert table.game.is_over() or not full
    assert check_all(expected, seen) >= len(seen) * 2
    for s in seen.values():  # a state for every move, in order, from the connection on
        seqs = [m["seq"] for m in s.messages]
        assert seqs == sorted(k for k in expected if k >= seqs[0])


ADVERSARY = ["heimlich", "labyrinth", "saboteur", "hanabi", "liars-dice"]


@pytest.mark.parametrize("stem", ADVERSARY)
def test_changing_what_a_viewer_cannot_see_changes_nothing_it_is_sent(stem: str) -> None:
    """At decision points of a game, everything a viewer may not see is changed (as the
    non-interference test of the search does, with Game.edit()); the state that viewer
    then receives on asking again ("sync") is the same, options and reasons included."""
    path = next(p for p in SHIPPED if p.stem == stem)
    rules = rulelang.compile_file(path)
    n, bots = seats_and_bots(rules)
    hub, table = new_table(path, n, bots, seed=5)
    rng = random.Random(5)
    compared = 0
    with served(hub) as client:
        settle(hub, table)
        links = {Who(SEAT, s): t for s, t in table.links.seats.items()}
        links[Who(SPECTATOR)] = table.links.spectator
        for _ in range(12):
            if table.deciding() is None:
                break
            compared += same_after_change(table, client, links)
            seat = table.deciding()
            actions = table.game.legal_actions()
            with client.websocket_connect(f"/ws/{table.links.seats[seat]}") as ws:
                ws.receive_text()
                i = rng.randrange(len(actions))
                ws.send_text(json.dumps({"type": "move", "seq": table.seq, "option": i}))
                assert json.loads(ws.receive_text())["type"] == "state"
            settle(hub, table)
    assert compared >= 10


def same_after_change(table: Table, client: Any, links: dict[Who, str]) -> int:
    """For each viewer: the state it is sent, then with its hidden part changed; equal."""
    compared = 0
    real = table.game
    for who, token in links.items():
        twin = hidden_changed(real, who.viewer if who.viewer is not None else PUBLIC)
        if twin is None:
            continue
        with client.websocket_connect(f"/ws/{token}") as ws:
            first = json.loads(ws.receive_text())
            table.game = twin
            try:
                ws.send_text(json.dumps({"type": "sync"}))
                again = json.loads(ws.receive_text())
            finally:
                table.game = real
        assert again == first
        compared += twin.view(None) != real.view(None)  # a secret was changed
    return compared


SECRET_ROLLS = (
    (Path(__file__).parent / "games" / "whisper.rules")
    .read_text("utf-8")
    .replace(
        "  set moves += 1\n",
        "  if n > 5 { roll r = d6 secret }\n  set moves += 1\n",
    )
)


def spectator_sees(tmp_path: Path, option: int) -> list[dict[str, Any]]:
    """What a spectator is sent while both seats choose option `option` at each turn."""
    path = tmp_path / "whisper-rolls.rules"
    path.write_text("import dice\n" + SECRET_ROLLS, encoding="utf-8")
    hub, table = new_table(path, 2, {}, seed=7)
    with served(hub) as client, client.websocket_connect(f"/ws/{table.links.spectator}") as ws:
        spectator = Seen(table.links.spectator, ws)
        spectator.upto(table.seq)
        while (seat := table.deciding()) is not None:
            with client.websocket_connect(f"/ws/{table.links.seats[seat]}") as mine:
                mover = Seen(table.links.seats[seat], mine)
                state = mover.upto(table.seq)
                moved = mover.send({"type": "move", "seq": state["seq"], "option": option})
                assert moved["type"] == "state", moved
            spectator.upto(moved["seq"])
    return spectator.messages


def test_a_spectator_cannot_count_secret_chance_events(tmp_path: Path) -> None:
    """A roll made only when a secret number is high, told to its player alone: `seq`
    counted the record's events, chance events included, so a spectator's seq jumped by
    2 after a high secret number and by 1 after a low one."""
    low, high = spectator_sees(tmp_path, 0), spectator_sees(tmp_path, 8)
    assert len(low) == 7 and [m["seq"] for m in low] == list(range(7))
    assert high == low
