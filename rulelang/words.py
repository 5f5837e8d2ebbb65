"""Counts said in words, and figures as every command's output shows them: "1 game",
"2 games", "0.0%" (never "-0.0%")."""

from __future__ import annotations

import math


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """`n` and the noun, singular for exactly one ("1 player", "0 players")."""
    return f"{n} {noun if n == 1 else (plural or noun + 's')}"


def figure_text(x: float, spec: str) -> str:
    """`x` formatted by `spec` (".1%", "+.1f", ">8g"), a zero shown as zero: a small
    negative figure that rounds to nothing (an interval's bound at -0.0004) or a
    negative zero would print "-0.0%", which reads as a difference that is not there."""
    text = format(x, spec)
    if math.isfinite(x) and "-" in text and not any(c in text for c in "123456789"):
        return format(0.0, spec)
    return text
