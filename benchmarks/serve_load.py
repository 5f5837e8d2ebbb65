"""Load test of `rulelang serve` on the loopback address: many tables played at once by
scripted players over real WebSockets, every move's latency recorded, nothing lost.

    python benchmarks/serve_load.py --tables 50 --game heimlich --players 3 --bots 3

It starts `rulelang serve` (the lobby, --delay 0) in a temporary data folder, opens
the tables through the lobby (POST /new), connects one WebSocket client per human
seat, and lets each client pick a random legal option whenever its seat decides. A
move's latency is the time from sending it to receiving the state that acknowledges
it (the server has stored the move, and sent every connection its state, by then).
At the end the store is read: every table's stored events must number at least the
last `seq` its players saw acknowledged. Prints p50/p95/max and moves per second.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_server(port: int, data: str) -> subprocess.Popen[str]:
    env = {**os.environ, "RULELANG_DATA_DIR": data, "PYTHONUNBUFFERED": "1"}
    args = [sys.executable, "-m", "rulelang.cli.main", "serve", "--port", str(port)]
    proc = subprocess.Popen(
        [*args, "--delay", "0"], stdout=subprocess.PIPE, text=True, env=env, cwd=data
    )
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("Serving"):
            return proc
    raise SystemExit("the server did not start")


def open_tables(base: str, game: str, players: int, bots: str, count: int) -> list[dict]:
    """Open `count` tables through the lobby: each one's id and seats' tokens."""
    lobby = urllib.request.urlopen(base).read().decode()
    index = re.search(
        rf"<b>{re.escape(game)}</b> <input type=hidden name=game value=\"(\d+)\"", lobby
    )
    if index is None:
        raise SystemExit(f"the lobby offers no game {game!r}")
    tables = []
    for _ in range(count):
        body = f"game={index.group(1)}&players={players}&bots={bots}".encode()
        page = urllib.request.urlopen(urllib.request.Request(base + "new", data=body)).read()
        text = page.decode()
        table = int(re.search(r"<h1>Table (\d+)", text).group(1))  # type: ignore[union-attr]
        seats = re.findall(r"<li>seat \d+: [^<]*<br><a href=\"[^\"]*/t/([\w-]+)\"", text)
        tables.append({"id": table, "seats": seats})
    return tables


async def player(url: str, rng: random.Random, latencies: list[float], acked: dict) -> None:
    """One human seat: a random legal option at each of its decisions, until the end."""
    async with connect(url, max_size=2**24) as ws:
        while True:
            state = json.loads(await ws.recv())
            if state["type"] == "state":
                acked["seq"] = max(acked["seq"], state["seq"])
            if state.get("over"):
                return
            if state["type"] != "state" or not state["your_turn"]:
                continue
            legal = [o["i"] for o in state["options"] if o["legal"]]
            sent = time.perf_counter()
            await ws.send(
                json.dumps({"type": "move", "seq": state["seq"], "option": rng.choice(legal)})
            )
            while True:  # the acknowledgement: the state after this move
                reply = json.loads(await ws.recv())
                if reply["type"] != "state" or reply["seq"] > state["seq"]:
                    break
            latencies.append(time.perf_counter() - sent)
            if reply["type"] == "state":
                acked["seq"] = max(acked["seq"], reply["seq"])
                if reply["over"]:
                    return
                if reply["your_turn"]:  # decide again at once: put it back in the loop
                    await ws.send(json.dumps({"type": "sync"}))


async def play_all(base: str, tables: list[dict], seed: int) -> tuple[list[float], list[dict]]:
    latencies: list[float] = []
    acked = [{"seq": 0} for _ in tables]
    ws_base = base.replace("http://", "ws://")
    jobs = [
        player(
            f"{ws_base}ws/{token}", random.Random(f"{seed} {t['id']} {token}"), latencies, acked[i]
        )
        for i, t in enumerate(tables)
        for token in t["seats"]
    ]
    await asyncio.gather(*jobs)
    return latencies, acked


def stored_events(data: str, tables: list[dict]) -> list[int]:
    os.environ["RULELANG_DATA_DIR"] = data
    from rulelang.storage.store import Store

    with Store() as store:
        return [len(store.load(t["id"]).log) for t in tables]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--game", default="heimlich")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--bots", default="3", help="seat numbers played by bots, e.g. 3")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    port = free_port()
    base = f"http://127.0.0.1:{port}/"
    with tempfile.TemporaryDirectory(prefix="rulelang-serve-load-") as data:
        server = start_server(port, data)
        try:
            tables = open_tables(base, args.game, args.players, args.bots, args.tables)
            began = time.perf_counter()
            latencies, acked = asyncio.run(play_all(base, tables, args.seed))
            took = time.perf_counter() - began
        finally:
            server.send_signal(signal.SIGINT)
            server.communicate(timeout=30)
        stored = stored_events(data, tables)
    lost = sum(1 for s, a in zip(stored, acked, strict=True) if s < a["seq"])
    ms = sorted(x * 1000 for x in latencies)
    p95 = ms[int(0.95 * (len(ms) - 1))]
    print(
        f"{args.tables} tables of {args.game} ({args.players} players, bots at {args.bots}), "
        f"{len(tables) * len(tables[0]['seats'])} WebSocket clients, {took:.1f} s"
    )
    print(f"human moves: {len(ms)}; events stored: {sum(stored)} ({sum(stored) / took:.0f}/s)")
    print(f"latency ms: p50 {statistics.median(ms):.1f}  p95 {p95:.1f}  max {ms[-1]:.1f}")
    print(f"tables with an acknowledged move missing from the store: {lost}")
    if lost:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
