"""Loading what a command plays: a rule file compiled (its problems shown, exit 65),
and a saved game's rule file found, checked against its checksum and replayed."""

from __future__ import annotations

from pathlib import Path

from rulelang import Game, Ruleset, UsageError, replay, search
from rulelang.api import compile_file_with_warnings
from rulelang.cli.errors import EX_DATAERR, CliExit, runtime_error, say_err, usage
from rulelang.cli.terminal import CONTROL
from rulelang.diagnostics import GameRuntimeError, RuleError, render
from rulelang.limits import DEFAULT_LIMITS, Limits
from rulelang.loader import no_rule_file
from rulelang.runtime.bots import RANDOM
from rulelang.storage import saves


def start_game(
    ruleset: Ruleset, players: int, seed: int, options: dict[str, str], names: str
) -> Game:
    """A new game at a table of `players` named by `--names` (commas between them);
    a bad name, count or option is a usage error, a rule failing in the setup exit 70."""
    name_list = [n.strip() for n in names.split(",")] if names else []
    for i, name in enumerate(name_list):
        if CONTROL.search(name):
            raise usage(f"--names: a name may not hold control characters ({ascii(name)})")
        # a move names a player by their name (`play Ann`): of two players named alike
        # the second could never be chosen (a saved game keeps its names as they were)
        if not name:
            raise usage(f"--names: the name of player {i + 1} is empty")
        if name in name_list[:i]:
            raise usage(f"--names: two players are named {name!r}; each needs their own")
    try:
        return ruleset.new_game(players, seed, options, name_list or None)
    except UsageError as exc:
        raise usage(str(exc)) from None
    except GameRuntimeError as err:
        raise runtime_error(err, ruleset.program.sources) from None


def load(
    path: Path,
    allow: list[Path] | None = None,
    limits: Limits = DEFAULT_LIMITS,
    quote: bool = True,
) -> Ruleset:
    """The rule file compiled, or exit 65 with its problems. Not `quote`: a save's rule
    file that is not the one it was saved with (--force): its problems are counted,
    nothing of it is shown (the user may look with `rulelang validate`)."""
    from rulelang.cli.validate import allowed_folders

    folders = allowed_folders(allow)
    if not path.is_file():
        raise usage(no_rule_file(path))
    try:
        ruleset, warnings = compile_file_with_warnings(path, allow=folders, limits=limits)
    except RuleError as err:
        problems = f"{len(err.diagnostics)} problem(s) in {path}"
        if not quote:
            raise CliExit(
                EX_DATAERR, f"error: {problems}; see them with: rulelang validate {path}"
            ) from None
        shown = [render(d, err.sources) for d in err.diagnostics]
        raise CliExit(EX_DATAERR, "\n".join([*shown, problems])) from None
    for w in warnings if quote else ():
        say_err(render(w, ruleset.program.sources))
    return ruleset


def check_saved_bots(record: saves.Save, rules: Ruleset, what: str) -> None:
    """The bots a save names (its checksum can be recomputed by anyone) are bots these
    rules can play: refused before play (exit 65), not when the bot's turn comes."""
    known = [RANDOM, *rules.bots]
    for seat, name in sorted(record.bot_names.items()):
        try:
            if search.is_search(name):
                search.parse(name)
                search.refuse_hidden(rules)
            elif name not in known:
                raise UsageError("not a bot of these rules")
        except UsageError:
            raise CliExit(
                EX_DATAERR,
                f"error: {what} is damaged: the bot of seat {int(seat) + 1}, {name!r}, is "
                f"not one {rules.title} can play",
            ) from None


def saved_rules(
    record: saves.Save, what: str, save_file: Path | None, allow: list[Path] | None
) -> tuple[Path, str]:
    """The rule file a save names (saves.rule_file), and "" if its sha256 is the one
    recorded, else the line saying it changed. Exit 65 for a refused path, 64 for a
    missing file."""
    try:
        path, now = saves.rule_file(what, record, save_file, allow or [])
    except saves.MissingRules as exc:
        raise usage(str(exc)) from None
    except saves.SaveError as exc:
        raise CliExit(EX_DATAERR, f"error: {exc}") from None
    if now == record.rules_sha256:
        return path, ""
    return path, (
        f"{path} changed since this game was saved (sha256 "
        f"{record.rules_sha256[:12]}... then, {now[:12]}... now)"
    )


def replay_saved(
    record: saves.Save,
    what: str,
    allow_path: list[Path] | None,
    limits: Limits,
    force: bool,
    save_file: Path | None = None,
) -> tuple[Ruleset, Game]:
    """The game a save records, replayed to where it was left; its rule file changed
    since is refused with one line before it is parsed (unless `force`), as is a game
    that is over. `save_file`: the portable save's file (None: the store's game)."""
    rules_path, differs = saved_rules(record, what, save_file, allow_path)
    if differs and not force:
        raise CliExit(EX_DATAERR, f"error: {differs}; add --force to replay it anyway")
    if differs:
        say_err(f"note: {differs}; replaying it anyway (--force)")
    ruleset = load(rules_path, allow_path, limits, quote=not differs)
    record.rules = str(rules_path)  # where it was found: the next save records that
    try:
        game = replay(
            ruleset, record.players, record.seed, record.log, record.options, record.names
        )
    except (UsageError, GameRuntimeError) as exc:
        raise CliExit(
            EX_DATAERR, f"error: {what} cannot be replayed with {rules_path}: {exc}"
        ) from None
    game.auto_chance = True
    if game.is_over():
        raise CliExit(EX_DATAERR, f"error: {what} is already over")
    return ruleset, game
