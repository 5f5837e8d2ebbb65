"""Counts said in words, for every command's output: "1 game", "2 games"."""

from __future__ import annotations


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """`n` and the noun, singular for exactly one ("1 player", "0 players")."""
    return f"{n} {noun if n == 1 else (plural or noun + 's')}"
