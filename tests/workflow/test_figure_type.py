"""Print-size type in the saved figure PDFs, measured from the words poppler lays out.

``pdftotext -bbox`` (Debian's poppler-utils) gives every word of a PDF with its box. For each figure
in :data:`CHECKED` the test asks: the page at most :data:`MAX_WIDTH_IN` wide; every word with a
letter or digit set in at least :data:`MIN_TYPE_PT` points of type (its box height over
:data:`BOX_PER_PT`); no word box outside the page; none of :data:`FORBIDDEN` in the text (typesetting
left raw, config file names).

The case it catches: the six-panel summary figure this one replaced had 70 words under 5 pt of type
(the smallest, the "t" of a subscript, 2.7 pt) and "(0.0" off the right edge of the page; before the
figures were redrawn at print size, 30 of the 32 figures had words under 5 pt (two_phases down to
1.9 pt, the C4 theory figure 240 words down to 3.1 pt and ".yaml" in its text).
"""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from support.facilities import require

ROOT = Path(__file__).resolve().parents[2]
#: every committed figure (the paper config's and the authors')
CHECKED = tuple(sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "figures").rglob("*.pdf")))
#: smallest type, points
MIN_TYPE_PT = 5.0
#: height of a word box per point of type: DejaVu Sans's ascent + descent per em, as poppler reads
#: it from the TrueType fonts of the figures' PDFs (pdf.fonttype 42, ssi.plotting)
BOX_PER_PT = 1.165
#: a word box at least this many times taller than wide (and three characters or more) is rotated
ROTATED_RATIO = 1.6
#: widest page, inches (a two-column page's 7.2 in and a margin)
MAX_WIDTH_IN = 7.25
#: text that must not appear in a figure
FORBIDDEN = ("_", "^", ".yaml")
_WORD = re.compile(r'<word xMin="([-\d.]+)" yMin="([-\d.]+)" xMax="([-\d.]+)" yMax="([-\d.]+)">(.*?)</word>')
_PAGE = re.compile(r'<page width="([\d.]+)" height="([\d.]+)">')


def type_size(width: float, height: float, word: str) -> float:
    """The type size, in points, of a word whose box (from pdftotext) is ``width`` × ``height``.

    poppler sets a word's box across its lines from the font's ascent to its descent, whatever the
    letters: BOX_PER_PT × the type size. Along the line the box is as long as the word. A word
    rotated a quarter turn (a y-axis label) has these swapped; a box of three or more characters
    at least ROTATED_RATIO times taller than wide is read as one. Shorter rotated words ("T", "L")
    are measured across their height, which can only under-state their size."""
    if len(word) >= 3 and height > ROTATED_RATIO * width:
        return width / BOX_PER_PT
    return height / BOX_PER_PT


def type_problems(pdf) -> list[str]:
    """Every print-size problem of the PDF ``pdf`` (empty: none), from ``pdftotext -bbox``."""
    import html

    out = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    problems = []
    for page in out.split("<page ")[1:]:
        width, height = (float(x) for x in _PAGE.match("<page " + page).groups())
        if width / 72 > MAX_WIDTH_IN:
            problems.append(f"page {width / 72:.2f} in wide (at most {MAX_WIDTH_IN} in)")
        words = [(float(a), float(b), float(c), float(d), html.unescape(w)) for a, b, c, d, w in _WORD.findall(page)]
        for x0, y0, x1, y1, word in words:
            size = type_size(x1 - x0, y1 - y0, word)
            if re.search(r"\w", word) and size < MIN_TYPE_PT:
                problems.append(f"{word!r} is set in {size:.1f} pt (at least {MIN_TYPE_PT:g})")
            if x0 < -0.5 or y0 < -0.5 or x1 > width + 0.5 or y1 > height + 0.5:
                problems.append(f"{word!r} lies outside the page")
        text = " ".join(w[-1] for w in words)
        problems += [f"the text holds {bad!r}" for bad in FORBIDDEN if bad in text]
    return problems


def _need_pdftotext():
    require(shutil.which("pdftotext") is not None,
            "poppler's pdftotext is not installed (Debian: apt-get install -y poppler-utils)")


def test_every_figure_is_checked():
    """The figures found are the manifests' PDFs (a moved figures folder would check nothing)."""
    listed = {f"figures/{line.split(maxsplit=1)[1]}" for line in (ROOT / "figures/MANIFEST.sha256").read_text().splitlines()}
    listed |= {f"figures/authors/{line.split(maxsplit=1)[1]}"
               for line in (ROOT / "figures/authors/MANIFEST.sha256").read_text().splitlines()}
    assert set(CHECKED) == {name for name in listed if name.endswith(".pdf")}


@pytest.mark.parametrize("name", CHECKED)
def test_figure_type_is_print_size(name):
    _need_pdftotext()
    assert type_problems(ROOT / name) == []


def test_small_and_clipped_words_are_caught(tmp_path):
    """A 3-pt word, a 3.5-pt word turned a quarter (a y label), a word off the right edge, raw "t_max"
    and a 7.5 in page are all reported (a 6-pt word and a 7-pt turned one are not)."""
    _need_pdftotext()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with plt.rc_context({"pdf.fonttype": 42}):      # as ssi.plotting saves the figures
        fig = plt.figure(figsize=(7.5, 1))
        fig.text(0.1, 0.15, "tiny", fontsize=3)
        fig.text(0.98, 0.5, "overflowing words", fontsize=8)
        fig.text(0.4, 0.5, "t_max", fontsize=8)
        fig.text(0.6, 0.15, "six", fontsize=6)
        fig.text(0.02, 0.1, "sideways", fontsize=3.5, rotation=90)
        fig.text(0.9, 0.1, "upright", fontsize=7, rotation=90)
        fig.savefig(tmp_path / "bad.pdf")
        plt.close(fig)
    found = " | ".join(type_problems(tmp_path / "bad.pdf"))
    assert "'tiny' is set in 3.0 pt" in found and "outside the page" in found and "'_'" in found and "7.50 in wide" in found
    assert "'sideways' is set in 3.5 pt" in found       # rotated: measured across, not along
    assert "six" not in found and "upright" not in found
