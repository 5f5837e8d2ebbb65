"""Tables survive (issue 23, item 4): a real server process, played over real
WebSockets, killed with SIGKILL right after a move was acknowledged, has that move
(and every one before it) in the store; `rulelang serve --resume ID` serves the table
again with the same links, where it was; Ctrl-C stops the server cleanly (exit 0)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

from serve_support import HEIMLICH
from websockets.sync.client import connect

from rulelang.storage.store import Store

LINK = re.compile(r"^  (seat \d+|game master|spectators).*?: (http://\S+)$")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start(port: int, *args: str) -> tuple[subprocess.Popen[str], dict[str, str], str]:
    """A server process; its links by whom they are for, and its first lines."""
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "rulelang.cli.main",
            "serve",
            "--port",
            str(port),
            "--delay",
            "0",
            *args,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert proc.stdout is not None
    links, lines = {}, []
    for line in proc.stdout:
        lines.append(line)
        found = LINK.match(line.rstrip("\n"))
        if found:
            links[found.group(1)] = found.group(2)
        if line.startswith("Serving"):
            return proc, links, "".join(lines)
    raise AssertionError(f"the server did not start: {''.join(lines)} {proc.stderr.read()}")  # type: ignore[union-attr]


def socket_of(link: str) -> str:
    return link.replace("http://", "ws://").replace("/t/", "/ws/")


def receive(ws: Any) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(ws.recv(timeout=20))
    return message


def play_until_acknowledged(links: dict[str, str], moves: int) -> dict[str, Any]:
    """The humans (seats 1 and 2) make `moves` moves; the last state acknowledged."""
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(connect(socket_of(links[f"seat {n}"]))) for n in (1, 2)]
        last = [receive(ws) for ws in sockets]
        made = 0
        while made < moves:
            for i, ws in enumerate(sockets):
                while not last[i]["your_turn"] and not last[i]["over"]:
                    if any(m["your_turn"] for m in last):
                        break
                    last[i] = receive(ws)
            mover = next(i for i, m in enumerate(last) if m["your_turn"])
            ws = sockets[mover]
            ws.send(json.dumps({"type": "move", "seq": last[mover]["seq"], "option": 0}))
            last[mover] = receive(ws)
            assert last[mover]["type"] == "state"
            made += 1
            # the other seat's socket catches up with the states sent meanwhile
            other = 1 - mover
            while last[other]["seq"] < last[mover]["seq"]:
                last[other] = receive(sockets[other])
        return last[mover]


def test_a_killed_server_loses_no_acknowledged_move_and_resumes_with_its_links(
    tmp_path: Path,
) -> None:
    port = free_port()  # the same port again: the links stay the same
    proc, links, shown = start(port, str(HEIMLICH), "-p", "3", "--bots", "3", "--seed", "4")
    game_id = int(re.search(r"Table (\d+)", shown).group(1))  # type: ignore[union-attr]
    try:
        acknowledged = play_until_acknowledged(links, 5)
    finally:
        proc.send_signal(signal.SIGKILL)  # no chance to write anything more
        proc.communicate(timeout=10)
    with Store() as store:
        assert len(store.load(game_id).log) >= acknowledged["seq"]
    again, same_links, _shown = start(port, "--resume", str(game_id))
    try:
        assert same_links == links
        with connect(socket_of(links["seat 1"])) as ws:
            state = receive(ws)
        assert state["seq"] >= acknowledged["seq"]
        assert state["history"][: len(acknowledged["history"])] == acknowledged["history"]
        with connect(socket_of(links["seat 1"])) as ws:  # and the game goes on
            assert receive(ws)["type"] == "state"
    finally:
        again.send_signal(signal.SIGINT)
        out, err = again.communicate(timeout=20)
    assert again.returncode == 0, err
    assert f"Table {game_id} resumes with: rulelang serve --resume {game_id}" in out
    assert "Traceback" not in err
