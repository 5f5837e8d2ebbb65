"""Run a server: bind the address, print the join links, serve until Ctrl-C.

Ctrl-C (or SIGTERM) is the way a server is stopped: a deliberate stop, exit 0, with
the line that resumes each open table. Every move is already in the store then."""

from __future__ import annotations

import errno
import socket
from typing import TYPE_CHECKING

from rulelang.exits import EX_IOERR, CliExit

if TYPE_CHECKING:
    from rulelang.serve.lobby import Lobby
    from rulelang.serve.tables import Table
    from rulelang.serve.web import Hub


def bind(host: str, port: int) -> socket.socket:
    """A listening socket, or exit 74 with one line (the port is taken, the host is not
    this machine's)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        family, kind, proto, _name, address = infos[0]
        sock = socket.socket(family, kind, proto)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError as exc:
        why = "the port is in use" if exc.errno == errno.EADDRINUSE else (exc.strerror or str(exc))
        raise CliExit(EX_IOERR, f"error: cannot serve on {host}:{port}: {why}") from None
    sock.listen(128)
    sock.setblocking(False)
    return sock


def base_url(host: str, sock: socket.socket) -> str:
    """The links' address: the host given, or this machine's address on the network
    for a server that listens on every interface (0.0.0.0)."""
    port = sock.getsockname()[1]
    shown = host
    if host in ("0.0.0.0", "::", ""):
        shown = lan_address()
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


def lan_address() -> str:
    """This machine's address on its local network (no packet is sent)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: only picks the outgoing interface
        return str(probe.getsockname()[0])
    except OSError:
        return socket.gethostname()
    finally:
        probe.close()


def print_links(table: Table, base: str) -> None:
    from rulelang.serve.lobby import links_of

    print(f"Table {table.id} (game {table.id} of the saved games): {table.rules_name}")
    for who, url in links_of(table.links, table.game.player_names, base):
        print(f"  {who}: {url}")
    print(f"  all these links, for the host: {base}links/{table.links.host}", flush=True)


def serve(hub: Hub, lobby: Lobby | None, host: str, port: int) -> None:
    """Serve the hub's tables (and the lobby) until stopped."""
    import uvicorn

    from rulelang.serve.web import make_app

    sock = bind(host, port)
    base = base_url(host, sock)
    for table in hub.tables.values():
        print_links(table, base)
    if lobby is not None:
        print(f"Lobby: {base}", flush=True)
    print("Serving; Ctrl-C stops the server (every move is saved).", flush=True)
    config = uvicorn.Config(
        make_app(hub, lobby),
        log_level="warning",
        ws_max_size=64 * 1024,  # a bigger frame is cut by uvicorn; the app refuses > 4 KiB
        timeout_graceful_shutdown=2,
        lifespan="on",
    )
    uvicorn.Server(config).run(sockets=[sock])
    open_tables = [t for t in hub.tables.values() if not t.game.is_over()]
    print("\nStopped.", flush=True)
    for table in open_tables:
        print(f"Table {table.id} resumes with: rulelang serve --resume {table.id}", flush=True)
