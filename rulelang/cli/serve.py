"""`rulelang serve`: the command's body (the server itself is rulelang/serve/)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rulelang.cli.errors import EX_USAGE, CliExit, usage
from rulelang.cli.options import check_number, check_players, parse_bots, parse_options
from rulelang.limits import SEED_MAX, SEED_MIN, Limits

if TYPE_CHECKING:
    from rulelang.serve.tables import Table
    from rulelang.storage.store import Store


def serve_command(
    file: Path | None,
    players: int | None,
    bots: str,
    option: list[str],
    seed: int | None,
    host: str,
    port: int,
    resume: str | None,
    delay: float,
    allow_path: list[Path] | None,
    limits: Limits,
    names: str = "",
) -> None:
    from rulelang import serve

    serve.require_web_stack()
    check_number("--port", port, 0, 65535)
    if not delay >= 0 or delay > 60:  # also refuses nan
        raise usage(f"--delay must be between 0 and 60 seconds, not {delay}")
    from rulelang.serve.lobby import Lobby
    from rulelang.serve.opening import resume_table, store_failure
    from rulelang.serve.server import serve as run_server
    from rulelang.serve.web import Hub
    from rulelang.storage.store import Store, StoreError

    if resume is not None and file is not None:
        raise usage("give a rule FILE to start a table, or --resume ID, not both")
    try:
        store = Store(create=True, any_thread=True)
    except StoreError as exc:
        raise store_failure(exc) from None
    hub = Hub(bot_delay=delay, max_decisions=limits.decisions)
    lobby = None
    if resume is not None:
        hub.add(resume_table(store, resume, limits))
    elif file is not None:
        table = _new_table(store, file, players, bots, option, seed, allow_path, limits, names)
        hub.add(table)
    else:
        lobby = Lobby(hub, store)
    try:
        run_server(hub, lobby, host, port)
    finally:
        store.close()


def _new_table(
    store: Store,
    file: Path,
    players: int | None,
    bots: str,
    option: list[str],
    seed: int | None,
    allow_path: list[Path] | None,
    limits: Limits,
    names: str = "",
) -> Table:
    import secrets

    from rulelang.cli.loading import load, start_game
    from rulelang.loader import rules_path
    from rulelang.serve.opening import open_table, record_of

    file = rules_path(file)
    ruleset = load(file, allow_path, limits)
    count = check_players(ruleset, players)
    if seed is None:
        seed = secrets.randbelow(2**31)
    check_number("--seed", seed, SEED_MIN, SEED_MAX)
    options = parse_options(option)
    game = start_game(ruleset, count, seed, options, names)
    chosen = parse_bots(bots, count, ruleset)
    if len(chosen) == count:
        raise CliExit(EX_USAGE, "error: every seat is a bot's: leave a seat to a human")
    return open_table(store, ruleset, game, chosen, record_of(file, game, chosen, options))
