"""The HTML rulebook in a real browser: Debian's Chromium, headless, lays out every
section, draws the boards at a non-zero size, and nothing is wider than the window.
Without Chromium the test fails, as the report's (tests/test_report_browser.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from cli_support import cli
from PIL import Image
from test_report_browser import browse

RULESETS = Path(__file__).resolve().parent.parent / "rulesets"

# appended to a copy of the page (the rulebook has no script of its own): what the
# browser laid out, written into the page for --dump-dom
PROBE = """<script>
const box = e => e.getBoundingClientRect();
const out = document.createElement('pre');
out.id = 'probe';
out.textContent = JSON.stringify({
  sections: [...document.querySelectorAll('body > section')].map(s => [s.id, box(s).height]),
  boards: [...document.querySelectorAll('figure.board svg')]
            .map(s => [box(s).width, box(s).height]),
  wide: [...document.querySelectorAll('body *')].filter(e => box(e).right > innerWidth + 1
          && !e.closest('pre')).map(e => e.tagName),
  cites: document.querySelectorAll('a.cite').length,
  lines: document.querySelectorAll('pre.source span.line').length,
});
document.body.appendChild(out);
</script>"""


def laid_out(page: Path, tmp_path: Path) -> dict[str, object]:
    probe = tmp_path / "probe.html"
    probe.write_text(
        page.read_text(encoding="utf-8").replace("</body>", PROBE + "</body>"), encoding="utf-8"
    )
    dom = browse(probe, tmp_path, "--window-size=900,1200", "--dump-dom")
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom, re.S)
    assert found, dom[-2000:]
    return json.loads(found.group(1).replace("&quot;", '"'))


def test_the_rulebook_page_lays_out_every_section_and_board_in_chromium(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A variant (its marks, the base's lines cited) with a board drawn: Heimlich's ring."""
    game = "heimlich-quick.rules"
    page = tmp_path / "rulebook.html"
    code, _out, err = cli(capsys, "rulebook", RULESETS / game, "--out", page)
    assert code == 0, err
    seen = laid_out(page, tmp_path)
    ids = [s_id for s_id, _h in seen["sections"]]  # type: ignore[attr-defined]
    for expected in ("components", "setup", "end", "terms", "source"):
        assert expected in ids
    assert any(i.startswith("phase-") for i in ids)
    assert all(h > 20 for _id, h in seen["sections"])  # type: ignore[attr-defined]
    assert seen["wide"] == []  # nothing runs past the window's right edge
    assert seen["cites"] > 20 and seen["lines"] > 20
    boards = seen["boards"]  # a ring of twelve buildings, drawn
    assert boards and all(w > 200 and h > 200 for w, h in boards)  # type: ignore[attr-defined]


def test_a_screenshot_of_the_rulebook_is_not_blank(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "rulebook.html"
    assert cli(capsys, "rulebook", RULESETS / "heimlich.rules", "--out", page)[0] == 0
    shot = tmp_path / "shot.png"
    browse(page, tmp_path, "--window-size=900,1400", f"--screenshot={shot}")
    colours = Image.open(shot).convert("RGB").getcolors(maxcolors=1 << 16)
    assert colours is None or len(colours) > 50  # text, links, the board: not one flat page
