"""The Markdown rulebook is pure Markdown: it held `<a id="...">` after every heading,
raw HTML that some viewers strip or show as text, and a rule file's comment reading
`<b>` or `<script>` went into it as HTML. Now a link to a section leads to the id the
viewers give its heading (GitHub's rule: lower case, punctuation dropped, spaces made
`-`, a repeated heading numbered `-1`, `-2`), and `<` is escaped outside code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_rulebook import GAMES, html, md


def viewer_ids(text: str) -> list[str]:
    """The ids GitHub gives the headings of `text`, in order (written apart from
    rulelang's own: the rule as github-slugger states it)."""
    ids: list[str] = []
    fenced = False
    for line in text.splitlines():
        fenced ^= line.startswith("```")
        if fenced or not line.startswith("#"):
            continue
        shown = line.lstrip("#").strip().replace("\\<", "<")
        base = re.sub(r"[^\w\- ]", "", shown.lower()).replace(" ", "-")
        found, n = base, 0
        while found in ids:
            n += 1
            found = f"{base}-{n}"
        ids.append(found)
    return ids


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_no_html_and_every_link_leads_to_a_heading(path: Path) -> None:
    text = md(path)
    outside_code = re.sub(r"`[^`]*`", "", text)
    assert not re.search(r"<[A-Za-z/!]", outside_code)  # no tag, no comment
    links = re.findall(r"\]\(#([^)]+)\)", text)
    assert links and not set(links) - set(viewer_ids(text))


def test_html_in_a_comment_is_shown_as_written(tmp_path: Path) -> None:
    path = tmp_path / "tags.rules"
    path.write_text(
        "# A game for <b>two</b> & <script>alert(1)</script>.\n"
        'game "Tags <i>"\nplayers 2..2\nglobal { n: int = 0 }\n'
        "# Deal one <em>card</em>.\nproc Deal { set n += 1 }\nproc deal { set n += 2 }\n"
        "turn { choose x in [1, 2]\n  if x == 1 { do Deal } else { do deal } }\n"
        "end when n > 3 { win players }\n",
        encoding="utf-8",
    )
    text = md(path)
    assert text.startswith("# Tags \\<i>\n")
    assert "A game for \\<b>two\\</b> & \\<script>alert(1)\\</script>." in text
    assert "*Deal one \\<em>card\\</em>.*" in text
    assert "see [Deal](#deal)" in text and "see [deal](#deal-1)" in text
    assert not re.search(r"(?<!\\)<[A-Za-z/]", re.sub(r"`[^`]*`", "", text))


def test_a_link_to_a_base_version_is_a_link_in_both() -> None:
    """`base setup` (the base game's block a variant calls) had the id `proc-base
    setup`: the page showed "[base setup](#proc-base setup)" as text, and the Markdown
    linked to no heading."""
    path = next(p for p in GAMES if p.name == "heimlich-topsecret.rules")
    page = html(path)
    assert "](#" not in page
    assert "<a href='#proc-base.setup'>base setup</a>" in page and "id='proc-base.setup'" in page
    assert "(see [base setup](#base-setup))" in md(path)
