"""`rulelang serve`: one game table played from many devices, over WebSockets.

The game runs on the server only; each connection is told what its viewer may see
(`Game.view(seat)` and `Game.history(seat)`, the game master's omniscient view, or the
public view), nothing more. Every move is committed to the store of saved games before
anyone is told of it. The protocol is in docs/serve.md.

Layout: tables.py (a table: its game, its links, the messages for each viewer, a move
checked and applied; no web), keeper.py (the store and the links' file), web.py (the
Starlette app), lobby.py (the page that starts tables), server.py (uvicorn, the links
printed, a clean stop)."""

from __future__ import annotations

from rulelang.exits import EX_UNAVAILABLE, CliExit

# the optional extra that brings the web stack (pip install 'rulelang[serve]')
NEEDS = ("starlette", "uvicorn", "websockets")


def require_web_stack() -> None:
    """Stop with one line (exit 69) if the web stack is not installed."""
    import importlib.util

    missing = [m for m in NEEDS if importlib.util.find_spec(m) is None]
    if missing:
        raise CliExit(
            EX_UNAVAILABLE,
            f"error: 'rulelang serve' needs {', '.join(missing)}: install them with "
            "pip install 'rulelang[serve]'",
        )
