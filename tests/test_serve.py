"""`rulelang serve` (issue 23): the links, the protocol's refusals (a seat cannot act for
another, out of turn, or replay a stale move; bad or oversized messages change
nothing), a dropped connection rejoining where it was, a move stored before it is
acknowledged, the lobby, and the command's usage errors."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest
from cli_support import cli, no_traceback
from serve_support import HEIMLICH, ROOT, new_table, served, settle
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from rulelang.serve.tables import MAX_MESSAGE, Table
from rulelang.serve.web import CLOSE_UNKNOWN, Hub, make_app
from rulelang.storage.store import Store, StoreError

TICTACTOE = ROOT / "rulesets" / "examples" / "tictactoe.rules"


def stored(table: Table) -> int:
    """The events of the table's game in the store, read through a connection of its own."""
    with Store() as store:
        return len(store.load(table.id).log)


@pytest.fixture
def heimlich() -> tuple[Hub, Table]:
    """Heimlich for three: seats 1 and 2 human, seat 3 a bot."""
    return new_table(HEIMLICH, 3, {2: None}, seed=2)


def first(ws: Any) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(ws.receive_text())
    return message


def ask(ws: Any, data: object) -> dict[str, Any]:
    ws.send_text(data if isinstance(data, str) else json.dumps(data))
    return first(ws)


def test_each_link_is_one_viewer_and_only_the_deciding_seat_gets_options(
    heimlich: tuple[Hub, Table],
) -> None:
    hub, table = heimlich
    assert sorted(table.links.seats) == [0, 1] and table.links.master is not None
    with served(hub) as client:
        settle(hub, table)
        now = table.deciding()
        assert now is not None
        for seat, token in table.links.seats.items():
            with client.websocket_connect(f"/ws/{token}") as ws:
                m = first(ws)
                assert (m["role"], m["seat"], m["view"]["viewer"]) == ("seat", seat, seat)
                assert m["your_turn"] == (seat == now) and bool(m["options"]) == (seat == now)
        with client.websocket_connect(f"/ws/{table.links.master}") as ws:
            m = first(ws)
            assert (m["role"], m["seat"], m["options"]) == ("master", None, [])
            assert m["view"] == json.loads(json.dumps(table.game.view(None)))
        with client.websocket_connect(f"/ws/{table.links.spectator}") as ws:
            assert first(ws)["role"] == "spectator"


def test_a_game_that_hides_nothing_has_no_game_master_link() -> None:
    _hub, table = new_table(TICTACTOE, 2, {})
    assert table.links.master is None and len(table.who) == 3


def test_a_seat_cannot_act_for_another_out_of_turn_or_as_a_watcher(
    heimlich: tuple[Hub, Table],
) -> None:
    hub, table = heimlich
    with served(hub) as client:
        settle(hub, table)
        now = table.deciding()
        assert now is not None
        other = table.links.seats[1 - now]
        before, events = table.seq, stored(table)
        for token, why in [
            (other, "it is not your turn"),
            (table.links.spectator, "a spectator's link cannot play"),
            (table.links.master, "a master's link cannot play"),
        ]:
            with client.websocket_connect(f"/ws/{token}") as ws:
                seq = first(ws)["seq"]
                reply = ask(ws, {"type": "move", "seq": seq, "option": 0})
                assert reply["type"] == "refused" and reply["reason"].startswith(why)
        assert (table.seq, stored(table)) == (before, events)


def test_a_stale_or_replayed_move_is_refused(heimlich: tuple[Hub, Table]) -> None:
    hub, table = heimlich
    with served(hub) as client:
        settle(hub, table)
        token = table.links.seats[table.deciding() or 0]
        with client.websocket_connect(f"/ws/{token}") as ws:
            seq = first(ws)["seq"]
            move = {"type": "move", "seq": seq, "option": 0}
            assert ask(ws, move)["seq"] > seq  # the new state: the move was made
            settle(hub, table)
            after, events = table.seq, stored(table)
            reply = ask(ws, move)  # the same message again
            assert reply["type"] == "refused" and reply["reason"].startswith("stale move")
            assert first(ws)["seq"] >= after  # and the state as it is now follows
            assert (table.seq, stored(table)) == (after, events)


BAD = [
    ("not json{", "not JSON"),
    ("[1, 2]", "a message is a JSON object"),
    ('{"type": "shout"}', "unknown message type"),
    (json.dumps({"type": "move", "seq": 0, "pad": "x" * MAX_MESSAGE}), "message too long"),
    ('{"type": "move", "seq": "SEQ", "option": "first"}', "'option' must be a whole number"),
    ('{"type": "move", "seq": "SEQ", "option": 999}', "there is no option 999"),
    ('{"type": "move", "seq": "SEQ", "text": "fly to the moon"}', "not allowed: "),
    ('{"type": "move", "seq": "SEQ"}', "a move names an 'option'"),
]


@pytest.mark.parametrize(("text", "why"), BAD, ids=[why for _t, why in BAD])
def test_a_bad_message_gets_a_clear_refusal_and_changes_nothing(
    heimlich: tuple[Hub, Table], text: str, why: str
) -> None:
    hub, table = heimlich
    with served(hub) as client:
        settle(hub, table)
        token = table.links.seats[table.deciding() or 0]
        with client.websocket_connect(f"/ws/{token}") as ws:
            state = first(ws)
            reply = ask(ws, text.replace('"SEQ"', str(state["seq"])))
            assert reply["type"] == "refused" and reply["reason"].startswith(why), reply
            assert ask(ws, {"type": "sync"}) == state  # nothing changed, still connected


def test_a_binary_frame_is_refused(heimlich: tuple[Hub, Table]) -> None:
    hub, table = heimlich
    with served(hub) as client, client.websocket_connect(f"/ws/{table.links.spectator}") as ws:
        first(ws)
        ws.send_bytes(b'{"type": "sync"}')
        assert first(ws)["reason"] == "send JSON as a text message"


# each player picks a number no one picked before: a number taken is not legal
PICKS = """game "Picks"
players 2..2
global {
  taken: list(int) = []
  moves: int = 0
}
turn {
  choose n in 1..4 prompt "Pick a number"
    require not (n in taken) else "{n} is taken"
  set taken = taken + [n]
  set moves += 1
}
end when moves >= 4 { draw players }
"""


def test_an_illegal_option_is_listed_with_its_reason_and_refused(tmp_path: Path) -> None:
    """A number taken is listed as not legal, with the rule's reason, and choosing it is
    refused with that reason."""
    path = tmp_path / "picks.rules"
    path.write_text(PICKS, encoding="utf-8")
    hub, table = new_table(path, 2, {})
    with served(hub) as client:
        with client.websocket_connect(f"/ws/{table.links.seats[0]}") as ws:
            m = first(ws)
            assert all(o["legal"] for o in m["options"])
            assert ask(ws, {"type": "move", "seq": m["seq"], "option": 1})["type"] == "state"
        with client.websocket_connect(f"/ws/{table.links.seats[1]}") as ws:
            m = first(ws)
            (taken,) = [o for o in m["options"] if not o["legal"]]
            assert (taken["text"], taken["why"]) == ("2", "2 is taken")
            reply = ask(ws, {"type": "move", "seq": m["seq"], "option": taken["i"]})
            assert reply["reason"] == "not allowed: 2 is taken"
            reply = ask(ws, {"type": "move", "seq": m["seq"], "text": "2"})
            assert reply["reason"] == "not allowed: 2 is taken"


def test_a_wrong_link_is_no_table() -> None:
    hub, table = new_table(TICTACTOE, 2, {})
    with served(hub) as client:
        page = client.get(f"/t/{table.links.seats[0]}")
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        assert client.get("/t/not-a-token").status_code == 404
        assert client.get("/links/not-a-token").status_code == 404
        with client.websocket_connect("/ws/not-a-token") as ws:
            assert first(ws) == {
                "type": "error",
                "reason": "this link is not a table's (wrong or old link)",
            }
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_text()
        assert closed.value.code == CLOSE_UNKNOWN


def test_a_dropped_connection_rejoins_where_it_was(heimlich: tuple[Hub, Table]) -> None:
    hub, table = heimlich
    with served(hub) as client:
        settle(hub, table)
        token = table.links.seats[table.deciding() or 0]
        with client.websocket_connect(f"/ws/{token}") as ws:
            state = ask(ws, {"type": "move", "seq": first(ws)["seq"], "option": 0})
        settle(hub, table)
        with client.websocket_connect(f"/ws/{token}") as ws:
            again = first(ws)
        assert again["seq"] >= state["seq"]
        assert again == json.loads(json.dumps(table.message(table.who[token])))


def test_a_move_is_stored_before_anyone_is_told(heimlich: tuple[Hub, Table]) -> None:
    """When a state reaches a connection, the store already holds every event it shows."""
    hub, table = heimlich
    seen: list[tuple[int, int]] = []
    hub.on_move = lambda t, _s: seen.append((t.seq, stored(t)))
    with served(hub) as client:
        settle(hub, table)
        for _ in range(6):
            seat = table.deciding()
            assert seat is not None
            with client.websocket_connect(f"/ws/{table.links.seats[seat]}") as ws:
                m = ask(ws, {"type": "move", "seq": first(ws)["seq"], "option": 0})
                assert stored(table) >= m["seq"]
            settle(hub, table)
    assert len(seen) >= 6 and all(n <= events for n, events in seen)


def test_a_move_that_cannot_be_stored_is_not_made(
    heimlich: tuple[Hub, Table], monkeypatch: pytest.MonkeyPatch
) -> None:
    hub, table = heimlich

    def full_disk(game: object) -> None:
        raise StoreError("no space left on device", io=True)

    with served(hub) as client:
        settle(hub, table)
        token = table.links.seats[table.deciding() or 0]
        with client.websocket_connect(f"/ws/{token}") as ws:
            state = first(ws)
            monkeypatch.setattr(table.keeper, "keep", full_disk)
            error = ask(ws, {"type": "move", "seq": state["seq"], "option": 0})
            assert error["type"] == "error" and "could not be saved" in error["reason"]
            assert first(ws)["reason"] == "the move could not be saved; it was not made"
        assert table.seq == state["seq"] and table.deciding() is None  # the table stopped
        with client.websocket_connect(f"/ws/{token}") as ws:
            again = first(ws)  # the game as it was before the move
        assert (again["view"], again["history"]) == (state["view"], state["history"])


def test_the_lobby_starts_a_table_and_shows_its_links(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rulelang.serve.lobby import Lobby

    (tmp_path / "mine.rules").write_text(TICTACTOE.read_text("utf-8"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    hub = Hub(bot_delay=0)
    lobby = Lobby(hub, Store(create=True, any_thread=True))
    with TestClient(make_app(hub, lobby)) as client:
        page = client.get("/").text
        assert "heimlich" in page and "mine" in page
        mine = [p.stem for p in lobby.games].index("mine")
        made = client.post("/new", content=f"game={mine}&players=2&bots=2", follow_redirects=False)
        assert made.status_code == 303 and made.headers["location"].startswith("/links/")
        (table,) = hub.tables.values()
        assert table.bots == {1: None} and list(table.links.seats) == [0]
        links = client.get(made.headers["location"]).text
        assert f"/t/{table.links.seats[0]}" in links and f"/t/{table.links.spectator}" in links
        refused = client.post("/new", content="game=999&players=2")
        assert refused.status_code == 400 and refused.text == "pick a game from the list"
        refused = client.post("/new", content=f"game={mine}&players=2&bots=7")
        assert refused.status_code == 400 and "seat numbers 1..2" in refused.text


def test_the_lobby_refuses_numbers_in_other_digits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A form's '²' (%C2%B2: str.isdigit holds, int() refuses it) as the game, the
    players or a bot's seat was a 500 Internal Server Error; it is a 400 that says why."""
    from rulelang.serve.lobby import Lobby

    (tmp_path / "mine.rules").write_text(TICTACTOE.read_text("utf-8"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    hub = Hub(bot_delay=0)
    lobby = Lobby(hub, Store(create=True, any_thread=True))
    mine = [p.stem for p in lobby.games].index("mine")
    with TestClient(make_app(hub, lobby), raise_server_exceptions=False) as client:
        for form in ("game=%C2%B2", f"game={mine}&players=%C2%B2", f"game={mine}&bots=%C2%B2"):
            refused = client.post("/new", content=form)
            assert refused.status_code == 400, (form, refused.text)
        # a table of bots alone, as `serve --bots all` refuses it (the lobby took it)
        refused = client.post("/new", content=f"game={mine}&players=2&bots=1,2")
        assert (refused.status_code, refused.text) == (
            400,
            "every seat is a bot's: leave a seat to a human",
        )
        assert not hub.tables


def test_links_edited_to_a_seat_the_game_has_not_are_refused_on_resume(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A links file (serve/ID.json) edited to give a token to seat 7 of a 2-player
    game was served: that link's page failed (an IndexError) on every connection."""
    from rulelang.serve.keeper import links_path

    _hub, table = new_table(TICTACTOE, 2, {})
    path = links_path(table.id)
    data = json.loads(path.read_text("utf-8"))
    data["seats"]["7"] = data["seats"].pop("1")
    path.write_text(json.dumps(data), "utf-8")
    code, out, err = cli(capsys, "serve", "--resume", str(table.id), "--port", "0")
    assert code == 64 and "not a served table (or its links are lost)" in err, err
    no_traceback(out, err)


@pytest.mark.parametrize(
    ("args", "code", "says"),
    [
        ([TICTACTOE, "--resume", "1"], 64, "not both"),
        ([TICTACTOE, "--port", "70000"], 64, "--port must be between 0 and 65535"),
        ([ROOT / "nosuch.rules"], 64, "no such rule file"),
        (["--resume", "99"], 64, "no saved game 99"),
        ([TICTACTOE, "--bots", "all"], 64, "leave a seat to a human"),
        ([TICTACTOE, "-p", "9"], 64, "Tic-tac-toe is for 2 players, not 9"),
        ([TICTACTOE, "--delay", "-1"], 64, "--delay must be between"),
        ([TICTACTOE, "--bots", "\u00b2"], 64, "seat numbers 1..2"),  # was an internal error
    ],
)
def test_usage_errors_are_one_line(
    capsys: pytest.CaptureFixture[str], args: list[object], code: int, says: str
) -> None:
    got, out, err = cli(capsys, "serve", *args)
    assert got == code and says in err and len(err.strip().splitlines()) == 1, err
    no_traceback(out, err)


def test_without_the_web_stack_serve_says_how_to_install_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "uvicorn" else real(name, *a)
    )
    code, _out, err = cli(capsys, "serve", TICTACTOE)
    assert code == 69 and "pip install 'rulelang[serve]'" in err


def test_a_port_in_use_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        code, _out, err = cli(capsys, "serve", TICTACTOE, "--port", port)
    assert (
        code == 74 and err.strip() == f"error: cannot serve on 127.0.0.1:{port}: the port is in use"
    )


def test_a_table_takes_the_players_names(capsys: pytest.CaptureFixture[str]) -> None:
    """`--names Ann,Bob` names the seats as `play --names` does; a name with a control
    character, or a count of names that is not the players', is one line, exit 64."""
    from rulelang.cli.serve import _new_table
    from rulelang.limits import DEFAULT_LIMITS

    store = Store(create=True, any_thread=True)
    table = _new_table(store, TICTACTOE, None, "none", [], 1, None, DEFAULT_LIMITS, "Ann, Bob")
    assert list(table.game.player_names) == ["Ann", "Bob"]
    for names, says in [("Ann,B\x1bob", "control characters"), ("Ann", "2 players")]:
        got, out, err = cli(capsys, "serve", TICTACTOE, "--names", names, "--port", "0")
        assert got == 64 and says in err and len(err.strip().splitlines()) == 1, err
        no_traceback(out, err)


def test_a_game_whose_only_secret_is_a_private_message_has_a_game_master(tmp_path: Path) -> None:
    """`say ... to` keeps a line from the others: the table then has a game master link."""
    import rulelang
    from rulelang.serve.tables import hides_anything

    path = tmp_path / "whisper.rules"
    body = 'turn {\n  choose n in 1..2\n  say "{current} thinks of {n}" to current\n}\n'
    path.write_text(f'game "W"\nplayers 2..2\n{body}end when turn_number > 4 {{ draw players }}\n')
    assert hides_anything(rulelang.compile_file(path))
    path.write_text(path.read_text().replace(" to current", ""))
    assert not hides_anything(rulelang.compile_file(path))


def test_the_game_master_log_says_whom_each_secret_line_was_for() -> None:
    """As `play --omniscient` marks "(to Ann) ...": the master's log carries each line's
    audience (a `say ... to`, a secret choice), the seats' logs carry none."""
    whisper = ROOT / "tests" / "games" / "whisper.rules"
    hub, table = new_table(whisper, 2, {}, seed=1)
    for option in ("4", "8"):
        table.game.apply(option)
    with served(hub) as client:
        with client.websocket_connect(f"/ws/{table.links.master}") as ws:
            m = first(ws)
        with client.websocket_connect(f"/ws/{table.links.seats[0]}") as ws:
            seat = first(ws)
    marks = dict(zip(m["history"], m["audience"], strict=True))
    assert marks["You chose 4."] == "P1" and marks["You chose 8."] == "P2"
    assert marks["P1 has chosen."] is None and marks["P2 has chosen."] is None
    assert "audience" not in seat and "You chose 8." not in seat["history"]


def test_deleting_a_served_game_removes_its_links(capsys: pytest.CaptureFixture[str]) -> None:
    """`games delete` left serve/ID.json behind: a store made anew numbers its games from 1
    again, and `serve --resume` of a later game under that number gave the deleted table's
    link holders its seats."""
    from rulelang.serve.keeper import links_path

    tables = [new_table(TICTACTOE, 2, {})[1] for _ in range(3)]
    paths = [links_path(t.id) for t in tables]
    assert all(p.exists() for p in paths)
    assert cli(capsys, "games", "delete", str(tables[0].id))[0] == 0
    assert [p.exists() for p in paths] == [False, True, True]
    assert cli(capsys, "games", "delete", "--all", "--yes")[0] == 0
    assert not any(p.exists() for p in paths)
    assert not list(paths[0].parent.glob("*.json"))
