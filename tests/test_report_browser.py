"""The reports in a real browser: Debian's Chromium, headless, renders every plot of
`simulate --report` and `compare --report` at a non-zero size, and the screenshot is
not blank. Without Chromium the test fails (the README's test command installs it: .ci/test)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from cli_support import cli
from PIL import Image

HEIMLICH = Path(__file__).parent.parent / "rulesets" / "heimlich.rules"
EDGE = Path(__file__).parent / "games" / "edge.rules"

# appended to a copy of the page (the report itself has no script): the rendered size
# of every plot and how many shapes it drew, written into the page for --dump-dom
PROBE = """<script>
const sizes = [...document.querySelectorAll('figure svg')].map(s => {
  const box = s.getBoundingClientRect();
  return {w: box.width, h: box.height, shapes: s.querySelectorAll('path, rect, use').length,
          text: s.querySelectorAll('text').length};
});
const out = document.createElement('pre');
out.id = 'probe';
out.textContent = JSON.stringify(sizes);
document.body.appendChild(out);
</script>"""


def chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    pytest.fail(
        "the report's browser test needs Chromium, which is not installed: "
        "apt-get install -y chromium (.ci/test installs it)"
    )


def browse(page: Path, tmp_path: Path, *flags: str) -> str:
    run = subprocess.run(
        [
            chromium(),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-dev-shm-usage",
            "--hide-scrollbars",
            f"--user-data-dir={tmp_path / 'profile'}",
            *flags,
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        # Chromium keeps its crash reports under $XDG_CONFIG_HOME (~/.config), whatever
        # --user-data-dir says: the test's own folder instead
        env={**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config"), "HOME": str(tmp_path)},
    )
    assert run.returncode == 0, run.stderr[-2000:]
    return run.stdout


def rendered(page: Path, tmp_path: Path) -> list[dict[str, float]]:
    probe = tmp_path / "probe.html"
    probe.write_text(
        page.read_text(encoding="utf-8").replace("</body>", PROBE + "</body>"), encoding="utf-8"
    )
    dom = browse(probe, tmp_path, "--dump-dom")
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom, re.S)
    assert found, dom[-2000:]
    sizes: list[dict[str, float]] = json.loads(found.group(1).replace("&quot;", '"'))
    return sizes


def check_screenshot(page: Path, tmp_path: Path) -> None:
    shot = tmp_path / "shot.png"
    browse(page, tmp_path, f"--screenshot={shot}", "--window-size=1000,1600")
    with Image.open(shot) as image:
        pixels = image.convert("RGB")
        colours = pixels.getcolors(maxcolors=1 << 20) or []
        assert len(colours) > 50  # not a blank page: text, bars, axes, antialiasing
        # the bars' blue (#0072B2) is on the screen, over a good many pixels
        blue = sum(n for n, (r, g, b) in colours if r < 30 and 95 < g < 135 and 160 < b < 200)
        assert blue > 2000, blue


def test_simulate_report_renders(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    code, _, err = cli(capsys, "simulate", HEIMLICH, "-p", "3", "-n", "60", "--report", page)
    assert code == 0, err
    sizes = rendered(page, tmp_path)
    # seats, identities, first player, lengths (no public score), and the histograms of
    # the measures that are numbers: score (per player) and margin
    assert len(sizes) == 6
    for s in sizes:
        assert s["w"] > 300 and s["h"] > 100, sizes
        assert s["shapes"] > 5 and s["text"] > 3, sizes
    check_screenshot(page, tmp_path)


def test_compare_report_renders(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    page = tmp_path / "ab.html"
    code, _, err = cli(
        capsys, "compare", EDGE, "-p", "2", "-n", "100", "--b-option", "edge=3", "--report", page
    )
    assert code == 0, err
    sizes = rendered(page, tmp_path)
    assert len(sizes) == 5
    for s in sizes:
        assert s["w"] > 300 and s["h"] > 100, sizes
