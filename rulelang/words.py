"""Counts said in words, and figures as every command's output shows them: "1 game",
"2 games", "0.0%" (never "-0.0%")."""

from __future__ import annotations

import math
import unicodedata


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """`n` and the noun, singular for exactly one ("1 player", "0 players")."""
    return f"{n} {noun if n == 1 else (plural or noun + 's')}"


def player_range(low: int, high: int) -> str:
    """The player counts a game allows, as said: "2 players", "1 player", "2 to 4
    players" (never "2 to 2 players")."""
    return counted(low, "player") if low == high else f"{low} to {high} players"


def figure_text(x: float, spec: str) -> str:
    """`x` formatted by `spec` (".1%", "+.1f", ">8g"), a zero shown as zero: a small
    negative figure that rounds to nothing (an interval's bound at -0.0004) or a
    negative zero would print "-0.0%", which reads as a difference that is not there."""
    text = format(x, spec)
    if math.isfinite(x) and "-" in text and not any(c in text for c in "123456789"):
        return format(0.0, spec)
    return text


def columns(text: str) -> int:
    """How many columns `text` takes on a terminal: two for a wide character (CJK, most
    emoji), none for a combining mark, one for the rest; `len` misaligned a table with
    a player named 李雷."""
    wide = sum(unicodedata.east_asian_width(c) in "WF" for c in text)
    marks = sum(unicodedata.combining(c) != 0 for c in text)
    return len(text) + wide - marks


def pad(text: str, width: int, right: bool = False) -> str:
    """`text` padded with spaces to `width` columns (`columns`), on the left if `right`."""
    fill = " " * max(0, width - columns(text))
    return fill + text if right else text + fill


def digits(text: str) -> bool:
    """Whether `text` is a count int() reads: str.isdigit alone holds for '²' (which
    int() refuses) and for other scripts' digits (which it reads, unlike the user)."""
    return text.isascii() and text.isdigit()
