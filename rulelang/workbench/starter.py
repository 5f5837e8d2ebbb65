"""Starter files for `rulelang new`: a variant of a shipped game (an `extends` overlay
listing the base's params to change), or a small game to grow; each with a rule test
file that passes, so that a designer starts from something that validates and plays."""

from __future__ import annotations

import re

from rulelang.diagnostics import did_you_mean

SKELETON = """# {title}: a new game. The language: docs/language.md; rule tests: docs/testing.md.
#   rulelang validate {stem}.rules
#   rulelang play {stem}.rules --players 2 --bots 2
#   rulelang test {stem}.rulestest
game "{title}"
players 2..4
import dice

param goal = 20 "points needed to win"
player {{ score: int = 0 }}

turn {{
  roll points = d6
  choose plan in ["bank", "risk"]
    prompt "{{current}} rolled {{points}}: bank the points, or risk them for double?"
  if plan == "bank" {{
    set current.score += points
  }} else {{
    roll luck = d6
    if luck >= 4 {{
      set current.score += 2 * points
      say "{{current}} risks it and wins {{2 * points}}."
    }} else {{
      say "{{current}} risks it and loses {{points}}."
    }}
  }}
}}

end when any(p.score >= goal for p in players) {{
  win [p for p in players where p.score >= goal]
}}
"""

SKELETON_TEST = """# Rule tests of {stem}.rules (docs/testing.md): rulelang test {stem}.rulestest
players Ann, Bob

case "banking keeps the roll"
  roll points: 5
  options: bank, risk
  play bank
  expect Ann.score = 5
  to act: Bob

case "a lucky risk doubles the roll"
  roll points: 4
  play risk
  roll luck: 6
  expect Ann.score = 8
  log includes: Ann risks it and wins 8.

case "reaching the goal wins"
  set Bob.score = 18
  roll points: 1
  play bank
  roll points: 2
  play bank
  winners: Bob
"""

VARIANT = """# {title}: a variant of the shipped game "{base}". Everything not written here is
# as in the base; write a part again with `override` in front to change it, and
# `do base` inside an overridden block runs the base's version (docs/language.md,
# "extends and override").
#   rulelang validate {stem}.rules
#   rulelang play {stem}.rules --players {players} --bots all
#   rulelang test {stem}.rulestest
extends "{base}"

game "{title}"
{params}"""

VARIANT_TEST = """# Rule tests of {stem}.rules (docs/testing.md): rulelang test {stem}.rulestest
players {players}

case "the game starts"
  not over
  to act: {first}
"""


def title_of(stem: str) -> str:
    """A game's title from a file name: "my-variant" -> "My variant"."""
    words = re.sub(r"[-_]+", " ", stem).strip()
    words = re.sub(r'["{}\\\\]', "", words)
    return (words[:1].upper() + words[1:]) or "New game"


def skeleton(stem: str) -> tuple[str, str]:
    """The rule file and the rule test file of a small new game."""
    title = title_of(stem)
    return SKELETON.format(title=title, stem=stem), SKELETON_TEST.format(stem=stem)


def variant(stem: str, base: str) -> tuple[str, str]:
    """The rule file and the rule test file of a variant of the shipped game `base`;
    UsageError for a name no shipped game has."""
    import rulelang
    from rulelang import UsageError
    from rulelang.loader import shipped_games

    games = shipped_games()
    if base not in games:
        hint = did_you_mean(base, games) or f"shipped games: {', '.join(sorted(games))}"
        raise UsageError(f"no shipped game '{base}'; {hint}")
    rules = rulelang.compile_file(games[base])
    game = rules.new_game(rules.min_players, seed=0)
    params = "".join(_param_line(name, sym, game.value(name)) for name, sym in rules.params.items())
    if params:
        params = (
            "\n# The base's settings as it has them; uncomment a line to change one:\n" + params
        )
    players = rules.min_players
    first = game.player_names[game.current_player()] if not game.is_over() else "nobody"
    names = {"title": title_of(stem), "stem": stem, "base": base, "players": players}
    test = VARIANT_TEST.format(stem=stem, players=players, first=first)
    return VARIANT.format(params=params, **names), test


def _param_line(name: str, sym: object, value: object) -> str:
    shown = ("true" if value else "false") if isinstance(value, bool) else value
    if isinstance(value, str):
        shown = f'"{value}"'
    doc = getattr(getattr(sym, "decl", None), "doc", "")
    return f'# override param {name} = {shown} "{doc}"\n'
