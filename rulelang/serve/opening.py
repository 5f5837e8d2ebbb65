"""Opening a table: a new game recorded in the store with new links, or a stored table
resumed with the links it was given (so the links the players hold stay valid)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rulelang.diagnostics import GameRuntimeError, RuleError, UsageError
from rulelang.exits import EX_DATAERR, EX_IOERR, EX_USAGE, CliExit
from rulelang.limits import DEFAULT_LIMITS, Limits
from rulelang.serve.keeper import Keeper, Links, read_links, write_links
from rulelang.serve.tables import Table, hides_anything
from rulelang.storage import saves
from rulelang.storage.store import BadSetting, NoSuchGame, Store, StoreError, game_number

if TYPE_CHECKING:
    from rulelang import Game, Ruleset


def store_failure(exc: StoreError) -> CliExit:
    """A store's failure as the command line reports it (as `play` does)."""
    if isinstance(exc, NoSuchGame | BadSetting):
        return CliExit(EX_USAGE, f"error: {exc}")
    return CliExit(EX_IOERR if exc.io else EX_DATAERR, f"error: {exc}")


def record_of(
    path: Path, game: Game, bots: dict[int, str | None], options: dict[str, str]
) -> saves.Save:
    """What the store records of a new table (as `play` records a game)."""
    return saves.Save(
        str(path.resolve()),
        saves.fingerprint(path),
        game.players,
        game.seed,
        options,
        list(game.player_names),
        sorted(bots),
        bot_names={str(s): n for s, n in bots.items() if n is not None},
    )


def open_table(
    store: Store,
    ruleset: Ruleset,
    game: Game,
    bots: dict[int, str | None],
    record: saves.Save,
) -> Table:
    """A new table: the game recorded in the store, its links written beside it."""
    humans = [s for s in range(game.players) if s not in bots]
    links = Links.new(humans, hides_anything(ruleset))
    try:
        keeper = Keeper.start(store, ruleset, game, record)
    except StoreError as exc:
        raise store_failure(exc) from None
    try:
        write_links(keeper.id, links)
    except OSError as exc:
        raise CliExit(EX_IOERR, f"error: the table's links could not be saved: {exc}") from None
    return Table(ruleset, game, bots, links, keeper, Path(record.rules).name)


def resume_table(store: Store, game_id: str, limits: Limits = DEFAULT_LIMITS) -> Table:
    """The stored table `game_id`, replayed to where it was, with its links."""
    from rulelang import compile_file, replay

    what = f"saved game {game_id}"
    try:
        number = game_number(game_id)
        record = store.load(number)
    except StoreError as exc:
        raise store_failure(exc) from None
    try:
        links = read_links(number)
        if not set(links.seats) <= set(range(record.players)):  # a file edited by hand
            raise ValueError("a link names a seat the game has not")
    except (OSError, ValueError):
        raise CliExit(
            EX_USAGE,
            f"error: {what} is not a served table (or its links are lost); "
            f"continue it in the terminal with: rulelang resume {game_id}",
        ) from None
    try:
        path, sha256 = saves.rule_file(what, record, None)
    except saves.SaveError as exc:
        raise CliExit(
            EX_USAGE if isinstance(exc, saves.MissingRules) else EX_DATAERR, f"error: {exc}"
        ) from None
    if sha256 != record.rules_sha256:
        raise CliExit(
            EX_DATAERR,
            f"error: {path} changed since this table was played; "
            f"continue it in the terminal with: rulelang resume {game_id} --force",
        )
    try:
        ruleset = compile_file(path, limits=limits)
        game = replay(
            ruleset, record.players, record.seed, record.log, record.options, record.names
        )
    except (RuleError, UsageError, GameRuntimeError) as exc:
        raise CliExit(EX_DATAERR, f"error: {what} cannot be replayed with {path}: {exc}") from None
    game.auto_chance = True
    if game.is_over():
        raise CliExit(EX_DATAERR, f"error: {what} is already over")
    bots = {s: record.bot_names.get(str(s)) for s in record.bots}
    keeper = Keeper(store, number, game, record.log)
    return Table(ruleset, game, bots, links, keeper, path.name)
