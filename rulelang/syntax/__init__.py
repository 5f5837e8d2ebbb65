"""Syntax layer: the only place that ever sees a lark tree."""

from rulelang.syntax.parser import parse

__all__ = ["parse"]
