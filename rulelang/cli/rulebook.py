"""`rulelang rulebook`: the rules of a game as players read them, generated from its
rule file (rulelang/rulebook/ builds and writes it): Markdown on the screen or in a
.md file, or one HTML page."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from rulelang.cli.errors import runtime_error, usage
from rulelang.cli.options import AllowPath, RuleParams, parse_options
from rulelang.cli.terminal import say
from rulelang.diagnostics import GameRuntimeError, UsageError

FORMATS = {".md": "markdown", ".markdown": "markdown", ".html": "html", ".htm": "html"}


def rulebook(
    file: Annotated[
        Path, typer.Argument(metavar="FILE", help="The rule file, or a shipped game by its name.")
    ],
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            metavar="FILE",
            help="Write the rulebook to this file: .html for a page (boards drawn, every "
            "paragraph linked to its rule line), .md for Markdown. Default: Markdown on "
            "the screen.",
        ),
    ] = None,
    option: RuleParams = None,
    allow_path: AllowPath = None,
) -> None:
    """Write the rulebook of a game: its components, the setup for each number of
    players, the turn and every choice with what makes it legal, the end and the
    scoring, each paragraph citing the rule line it comes from."""
    from rulelang.cli.loading import load
    from rulelang.loader import rules_path
    from rulelang.rulebook import build, markdown, page

    kind = check_out(out)
    options = parse_options(option or [])
    file = rules_path(file)
    ruleset = load(file, allow_path)
    if ruleset.is_library:
        raise usage(f"{file} is a library of definitions, not a game: it has no rulebook")
    from rulelang.cli.report import check_not_read

    check_not_read(out, "--out", ruleset)
    try:
        book = build.build(ruleset, str(file), options)
    except UsageError as exc:  # an unknown option, a value of the wrong kind
        raise usage(str(exc)) from None
    except GameRuntimeError as err:  # a value of the rules that cannot be computed
        raise runtime_error(err, ruleset.program.sources) from None
    text = page.render(book) if kind == "html" else markdown.render(book)
    if out is None:
        say(text.rstrip("\n"))
        return
    from rulelang.cli.report import write_report

    write_report(out, text, "the rulebook")
    say(f"wrote {out}")


def check_out(out: Path | None) -> str:
    """The format --out names by its suffix; a usage error for any other, or a folder."""
    if out is None:
        return "markdown"
    from rulelang.cli.report import check_output

    check_output(out, "--out", tuple(FORMATS), "name a .html or a .md file")
    return FORMATS[out.suffix.lower()]
