"""Boards drawn as inline SVG: a ring as spaces round a circle (with arrows showing the
way forward), a line as a row of spaces, a grid as its cells with their coordinates
(north up). Labels are escaped: they are names from a rule file."""

from __future__ import annotations

from html import escape

from rulelang.rulebook.model import Drawing

CELL = 48  # a grid cell's side, in SVG units
LINE_ROW = 8  # spaces of a line per row


def board_svg(d: Drawing, caption: str) -> str:
    if d.shape == "grid":
        body, w, h = grid(d)
    elif d.shape == "ring":
        body, w, h = ring(d)
    else:
        body, w, h = line(d)
    return (
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{w}' height='{h}' "
        f"viewBox='0 0 {w} {h}' role='img' "
        f"aria-label='{escape(caption)}' font-family='system-ui, sans-serif'>{body}</svg>"
    )


def text(x: float, y: float, label: str, size: int = 11) -> str:
    return (
        f"<text x='{x:.1f}' y='{y:.1f}' font-size='{size}' text-anchor='middle' "
        f"dominant-baseline='middle'>{escape(label)}</text>"
    )


def grid(d: Drawing) -> tuple[str, int, int]:
    size = max(12, min(CELL, 720 // max(d.width, d.height, 1)))
    font = max(6, min(11, size // 4))
    parts = []
    for label, (x, y) in zip(d.labels, d.places, strict=True):
        px, py = 4 + x * size, 4 + y * size
        parts.append(
            f"<rect x='{px:.1f}' y='{py:.1f}' width='{size}' height='{size}' "
            "fill='#f7f4ea' stroke='#8a7f62'/>"
        )
        if size >= 24:
            parts.append(text(px + size / 2, py + size / 2, label, font))
    return "".join(parts), 8 + d.width * size, 8 + d.height * size


def ring(d: Drawing) -> tuple[str, int, int]:
    n = len(d.labels)
    radius = max(120.0, n * 14.0)
    box = int(2 * radius + 170)
    c = box / 2
    parts = [f"<circle cx='{c}' cy='{c}' r='{radius}' fill='none' stroke='#ccc'/>"]
    for i, (label, (x, y)) in enumerate(zip(d.labels, d.places, strict=True)):
        px, py = c + radius * x, c + radius * y
        parts.append(
            f"<circle cx='{px:.1f}' cy='{py:.1f}' r='16' fill='#f7f4ea' stroke='#8a7f62'/>"
        )
        parts.append(text(px, py, str(i), 11))
        lx, ly = c + (radius + 52) * x, c + (radius + 36) * y
        parts.append(text(lx, ly, label, 12))
    parts.append(text(c, c, "forward: clockwise", 12))
    return "".join(parts), box, box


def line(d: Drawing) -> tuple[str, int, int]:
    step, parts = 90, []
    rows = (len(d.labels) + LINE_ROW - 1) // LINE_ROW
    for i, label in enumerate(d.labels):
        col, row = i % LINE_ROW, i // LINE_ROW
        px, py = 10 + col * step, 10 + row * 70
        parts.append(
            f"<rect x='{px}' y='{py}' width='{step - 14}' height='40' rx='6' "
            "fill='#f7f4ea' stroke='#8a7f62'/>"
        )
        parts.append(text(px + (step - 14) / 2, py + 20, label, 11))
    return "".join(parts), 20 + min(len(d.labels), LINE_ROW) * step, 20 + rows * 70
