"""What a referee sees in the saved figure files: no text over text in the PDFs; PNGs laid out as
their PDFs and with nothing cut off at the canvas edge.

This complements tests/workflow/test_figure_type.py (type size, page width, words off the page),
reading the committed files the same way: ``pdftotext -bbox`` (poppler-utils) for the words of a
PDF, and every figure of the two manifests. The figure checks (tests/support/figure_checks.py) look for overlapping text on
the drawn Figure before it is saved; these tests look at what was saved.

1. **Text over text** (each PDF). Two words whose boxes overlap by more than :data:`TOL_PT`
   (0.5 pt) along their lines *and* across them by more than 0.5 pt or the empty top of a word's
   box (:data:`EMPTY_TOP_EM`, 0.16 em of the smaller word's type, 1.3 pt at 8 pt), whichever is
   larger. Mathtext passes: an exponent or index abuts its base (boxes at most 0.4 pt into each
   other along the line: ∫ and its limit at 20 pt type), and a stacked sub- and superscript
   (χ²_ν, x_max^(t)) overlap across by 10–11 % of their box height (up to 0.75 pt at 8 pt), under
   the 14 % (0.16 em) that is blank. Words in one poppler line are *not* exempt: poppler reads
   "1.0" drawn 2.3 pt above and 14 pt into "SGD" as one line with it. And poppler merges a label
   drawn into the end of another into one word ("(g)" and "escape time" 10 pt apart at 10 pt type
   come out as "(g)escape", no two boxes overlapping), so a word whose letters' advances (DejaVu
   Sans, with its kerning) need more than 0.5 pt beyond its box is reported too.
2. **PNG layout** (each PNG). Its pixel size equals its PDF's page size times the PNG's dpi (from
   its pHYs chunk) within :data:`SIZE_TOL_PX` (1 px): the same Figure drawn with the same layout,
   not e.g. a ``bbox_inches="tight"`` crop; at most :data:`MAX_WIDTH_IN` (7.25 in) wide; at least
   :data:`MIN_DPI` (300) dpi.
3. **Nothing cut at the PNG's edge** (each PNG). No ink in its outermost :data:`EDGE_PX` (2) pixels:
   no channel below :data:`INK_LEVEL` (250 of 255) after compositing it on white. The threshold
   from the data: in every committed PNG the outermost 10 px are exactly white, opaque (the
   constrained layout pads 3 pt, 12 px at 300 dpi), so there is no noise to allow for. The faintest
   fill the figures draw, the light-blue region colour #A9D4F2 at alpha 0.25 (phase_diagram_comparison),
   has its darkest channel at 233, a cut glyph's or line's core near 0: both well below 250 (2 %
   from white), which only absorbs rounding.
4. **PNG type size** cannot be measured without OCR. It needs no check of its own:
   ``ssi.plotting.save_figure`` writes the PDF and the PNG from the same Figure, and check 2 shows
   that they have the same layout, so test_figure_type's check of the PDF's type covers the PNG.

What they catch today: nothing. No committed figure fails any of the three checks (the 32 PDFs
and 32 PNGs of commit 199a978). The self-tests draw the synthetic cases: for 1, "other label"
drawn 3 pt into "overlap here" on its baseline, "1.0" over "SGD" (one poppler line) and "(g)" into
"escape time" (one poppler word), while ten mathtext forms (exponents, stacked scripts, limits, a
radical), a two-line label, a turned two-line label and poppler's doubled "m̄m̄" pass; for 2, a PNG
saved with ``bbox_inches="tight"`` (not the PDF's size), one at 150 dpi and a 7.5 in one; for 3, a
label running off the right edge, axes filling the canvas, and that faintest fill touching the
left edge. Check 1 was tried on 300 random pairs of labels (6–10 pt, up to 15 pt apart along and
12 pt across): of the 100 whose ink overlaps it reported 99, and 49 more whose letters interleave
without their ink quite touching (boxes, not ink, are compared).

Not caught: two labels that only touch (poppler may join them into one word, "0.51.0"); two
one-letter labels merged into one word (it reads as well as a two-letter word turned a quarter);
identical labels drawn almost over each other (poppler drops the duplicate, as for fake bold);
text in a font other than DejaVu Sans is measured with DejaVu Sans's advances.
"""
from __future__ import annotations

import functools
import html
import re
import shutil
import subprocess
import unicodedata
from pathlib import Path

import numpy as np
import pytest

from support.facilities import require

ROOT = Path(__file__).resolve().parents[2]
#: every committed figure (the paper config's and the authors'), each as PDF and PNG
PDFS = tuple(sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "figures").rglob("*.pdf")))
PNGS = tuple(sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "figures").rglob("*.png")))

#: overlap of two word boxes that does not count, points. DejaVu Sans's letters sit inside their
#: advance boxes by their side bearings (median 0.07 em left + 0.06 em right, 1.1 pt between two
#: letters at 8 pt), so boxes overlapping by 0.5 pt still leave their ink apart; mathtext itself
#: puts boxes up to 0.4 pt into each other (∫ and its lower limit at 20 pt; 0.15 pt at 8 pt)
TOL_PT = 0.5
#: blank top of a word box, em: poppler's box runs from DejaVu Sans's ascent (0.928 em) to its
#: descent; its tallest letters (θ, β, |, parentheses) reach 0.768 em
EMPTY_TOP_EM = 0.928 - 0.768
#: height of a word box per point of type (as test_figure_type: DejaVu Sans's ascent + descent)
BOX_PER_PT = 1.165
#: a word box at least this many times taller than wide (and three characters or more) is turned
ROTATED_RATIO = 1.6
#: widest figure, inches (as test_figure_type)
MAX_WIDTH_IN = 7.25
#: lowest PNG resolution, dots per inch (ssi.plotting saves at savefig.dpi 300)
MIN_DPI = 300
#: PNG size against PDF page size × dpi, pixels
SIZE_TOL_PX = 1
#: frame of the PNG that must hold no ink, pixels
EDGE_PX = 2
#: a pixel with a channel below this (0–255, composited on white) is ink
INK_LEVEL = 250

_WORD = re.compile(r'<word xMin="([-\d.]+)" yMin="([-\d.]+)" xMax="([-\d.]+)" yMax="([-\d.]+)">(.*?)</word>')
_PAGE = re.compile(r'<page width="([\d.]+)" height="([\d.]+)">')
#: poppler writes a letter with a combining mark twice ("m̄" drawn once is read "m̄m̄")
_DOUBLED_MARK = re.compile(r"(\w)([\u0300-\u036f]+)\1\2")


def _need_pdftotext():
    require(shutil.which("pdftotext") is not None,
            "poppler's pdftotext is not installed (Debian: apt-get install -y poppler-utils)")


@functools.lru_cache(maxsize=None)
def page_words(pdf: str) -> tuple[float, float, list[tuple[float, float, float, float, str]]]:
    """The page and words of a one-page PDF, as ``pdftotext -bbox`` lays them out.

    Parameters
    ----------
    pdf : str
        Path of the PDF.

    Returns
    -------
    tuple
        The page's width and height, points, and its words, each ``(xMin, yMin, xMax, yMax, text)``
        in points from the page's top left.
    """
    out = subprocess.run(["pdftotext", "-bbox", pdf, "-"], capture_output=True, text=True, check=True).stdout
    pages = out.split("<page ")[1:]
    assert len(pages) == 1, f"{pdf}: {len(pages)} pages, a figure has one"
    width, height = (float(x) for x in _PAGE.match("<page " + pages[0]).groups())
    words = [(float(a), float(b), float(c), float(d), html.unescape(w)) for a, b, c, d, w in _WORD.findall(pages[0])]
    return width, height, words


@functools.lru_cache(maxsize=None)
def advance_em(text: str) -> float | None:
    """How far ``text`` set in DejaVu Sans advances, em.

    Parameters
    ----------
    text : str
        The characters; combining marks (no advance) are left out.

    Returns
    -------
    float or None
        The sum of the characters' advances and of the font's kerning between them (unfitted, as
        matplotlib's PDF backend applies it); None if a character is not in the font.
    """
    from matplotlib import ft2font
    from matplotlib.font_manager import FontProperties, findfont

    font = _dejavu(findfont(FontProperties(family="DejaVu Sans")))
    total, previous = 0.0, None
    for char in text:
        if unicodedata.combining(char):
            continue
        index = font.get_char_index(ord(char))
        if index == 0:
            return None
        total += font.load_char(ord(char), flags=ft2font.LoadFlags.NO_HINTING).linearHoriAdvance / 65536
        if previous is not None:
            total += font.get_kerning(previous, index, ft2font.Kerning.UNFITTED) / 64
        previous = index
    return total / 1000


@functools.lru_cache(maxsize=None)
def _dejavu(path: str):
    from matplotlib import ft2font

    font = ft2font.FT2Font(path)
    font.set_size(1000, 72)          # 1000 pixels per em
    return font


def text_over_text(pdf) -> list[str]:
    """The text set over other text in a figure's PDF (check 1 of the module docstring).

    Parameters
    ----------
    pdf : str or Path
        Path of the one-page PDF.

    Returns
    -------
    list of str
        One line per pair of words whose boxes overlap beyond the allowances, and per word whose
        letters need more room than its box (two labels poppler merged into one word); empty if
        none. Positions are the words' top-left corners, points from the page's top left.
    """
    _, _, words = page_words(str(pdf))
    if not words:
        return []
    box = np.array([w[:4] for w in words])
    text = [w[4] for w in words]
    wide, tall = box[:, 2] - box[:, 0], box[:, 3] - box[:, 1]
    turned = np.array([len(t) >= 3 for t in text]) & (tall > ROTATED_RATIO * wide)
    size = np.where(turned, wide, tall) / BOX_PER_PT          # type size, points
    along_x = np.minimum(box[:, None, 2], box[None, :, 2]) - np.maximum(box[:, None, 0], box[None, :, 0])
    along_y = np.minimum(box[:, None, 3], box[None, :, 3]) - np.maximum(box[:, None, 1], box[None, :, 1])
    # across two lines of the same direction, the blank top of the smaller word's box is allowed too
    blank = np.maximum(TOL_PT, EMPTY_TOP_EM * np.minimum(size[:, None], size[None, :]))
    allow_x = np.where(turned[:, None] & turned[None, :], blank, TOL_PT)
    allow_y = np.where(~turned[:, None] & ~turned[None, :], blank, TOL_PT)
    hits = np.triu((along_x > allow_x) & (along_y > allow_y), 1)
    problems = [f"{text[i]!r} at ({box[i, 0]:.1f}, {box[i, 1]:.1f}) and {text[j]!r} at ({box[j, 0]:.1f}, "
                f"{box[j, 1]:.1f}) overlap by {along_x[i, j]:.1f} × {along_y[i, j]:.1f} pt"
                for i, j in zip(*np.nonzero(hits))]
    for (x0, y0, x1, y1, word) in words:
        letters = _DOUBLED_MARK.sub(r"\1\2", word)
        em = advance_em(letters) if sum(not unicodedata.combining(c) for c in letters) >= 2 else None
        if em is None:
            continue
        # read both ways (upright and turned a quarter); a real word fits at least one of them
        need, box_len = min((em * (y1 - y0) / BOX_PER_PT, x1 - x0), (em * (x1 - x0) / BOX_PER_PT, y1 - y0),
                            key=lambda pair: pair[0] - pair[1])
        if need - box_len > TOL_PT:
            problems.append(f"{word!r} at ({x0:.1f}, {y0:.1f}): its letters need {need:.1f} pt, its box is "
                            f"{box_len:.1f} pt (letters drawn over each other)")
    return problems


def png_layout_problems(png, pdf) -> list[str]:
    """How a figure's PNG differs from its PDF's page at the PNG's dpi (check 2).

    Parameters
    ----------
    png, pdf : str or Path
        Paths of the PNG and of the PDF saved from the same Figure.

    Returns
    -------
    list of str
        A missing resolution, a width or height more than :data:`SIZE_TOL_PX` from the page's at
        the PNG's dpi, a dpi under :data:`MIN_DPI`, a width over :data:`MAX_WIDTH_IN`; empty if
        none.
    """
    from PIL import Image

    width_pt, height_pt, _ = page_words(str(pdf))
    with Image.open(png) as image:
        size, dpi = image.size, image.info.get("dpi")
    if not dpi:
        return ["no resolution (pHYs chunk) in the PNG"]
    problems = []
    for axis, pixels, points, dots in (("width", size[0], width_pt, dpi[0]), ("height", size[1], height_pt, dpi[1])):
        expected = points / 72 * dots
        if abs(pixels - expected) > SIZE_TOL_PX:
            problems.append(f"{axis} {pixels} px, the PDF's {points:.1f} pt at {dots:.1f} dpi is {expected:.1f} px")
    if round(min(dpi)) < MIN_DPI:
        problems.append(f"{min(dpi):.0f} dpi (at least {MIN_DPI})")
    if size[0] / dpi[0] > MAX_WIDTH_IN + SIZE_TOL_PX / dpi[0]:
        problems.append(f"{size[0] / dpi[0]:.2f} in wide (at most {MAX_WIDTH_IN} in)")
    return problems


def edge_ink(png) -> list[str]:
    """Ink cut by the canvas edge of a PNG (check 3).

    Parameters
    ----------
    png : str or Path
        Path of the PNG.

    Returns
    -------
    list of str
        One line per side with a pixel darker than :data:`INK_LEVEL` (composited on white) in its
        outermost :data:`EDGE_PX` pixels: where along the side, how many, how dark; empty if none.
    """
    from PIL import Image

    with Image.open(png) as image:
        pixels = np.asarray(image.convert("RGBA"))
    sides = {"top": pixels[:EDGE_PX], "bottom": pixels[-EDGE_PX:],
             "left": pixels[:, :EDGE_PX].transpose(1, 0, 2), "right": pixels[:, -EDGE_PX:].transpose(1, 0, 2)}
    problems = []
    for side, strip in sides.items():
        alpha = strip[..., 3:].astype(float) / 255
        darkest = (strip[..., :3] * alpha + 255 * (1 - alpha)).min(axis=-1)     # composited on white
        ink = np.nonzero((darkest < INK_LEVEL).any(axis=0))[0]
        if ink.size:
            along = "x" if side in ("top", "bottom") else "y"
            problems.append(f"{side} edge: ink at {along} = {ink[0]}–{ink[-1]} px ({ink.size} px, darkest "
                            f"channel {darkest.min():.0f})")
    return problems


def test_every_figure_is_checked():
    """The figures found are the manifests' PDFs and PNGs, each PNG with its PDF."""
    listed = {f"figures/{line.split(maxsplit=1)[1]}" for line in (ROOT / "figures/MANIFEST.sha256").read_text().splitlines()}
    listed |= {f"figures/authors/{line.split(maxsplit=1)[1]}"
               for line in (ROOT / "figures/authors/MANIFEST.sha256").read_text().splitlines()}
    assert set(PDFS) == {name for name in listed if name.endswith(".pdf")}
    assert set(PNGS) == {name for name in listed if name.endswith(".png")}
    assert {Path(name).with_suffix("") for name in PNGS} == {Path(name).with_suffix("") for name in PDFS}


@pytest.mark.parametrize("name", PDFS)
def test_no_text_over_text(name):
    _need_pdftotext()
    assert text_over_text(ROOT / name) == []


@pytest.mark.parametrize("name", PNGS)
def test_png_is_the_pdf_layout(name):
    _need_pdftotext()
    assert png_layout_problems(ROOT / name, ROOT / Path(name).with_suffix(".pdf")) == []


@pytest.mark.parametrize("name", PNGS)
def test_nothing_cut_at_png_edge(name):
    assert edge_ink(ROOT / name) == []


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def test_text_over_text_is_caught(tmp_path):
    """Labels drawn over each other are reported (as two words, as one poppler line, as one
    poppler word); mathtext scripts, limits and radicals, two-line labels upright and turned, and
    poppler's doubled combining mark are not."""
    _need_pdftotext()
    plt = _pyplot()
    with plt.rc_context({"pdf.fonttype": 42, "font.size": 8}):       # as ssi.plotting saves the figures
        fig = plt.figure(figsize=(6, 3))
        at = fig.dpi_scale_trans
        fig.text(0.5, 2.6, "overlap here", transform=at)
        fig.text(0.5 + 3 / 72, 2.6, "other label", transform=at)
        fig.text(0.5 + 14 / 72, 2.0, "1.0", transform=at)
        fig.text(0.5, 2.0 - 2.3 / 72, "SGD", transform=at)
        fig.text(0.5, 1.4, "(g)", transform=at, fontsize=10)
        fig.text(0.5 + 10.2 / 72, 1.4 - 1.1 / 72, "escape time", transform=at, fontsize=10)
        fine = [r"$d^{-1/2}$", r"$10^{-2}$", r"$\chi^2_\nu$", r"$x_{\mathrm{max}}^{(t)}$", r"$(m_l^2)^{1/2}$",
                r"$\int_0^1$", r"$\sum_{l=1}^{L}$", r"$2/\sqrt{d}$", r"$A^{\top}_{ij}$", r"$f_{i}^{2}$"]
        for k, formula in enumerate(fine):
            fig.text(2.4 + 0.7 * (k % 5), 2.5 - 0.5 * (k // 5), formula, transform=at)
        fig.text(2.4, 1.0, "final m̄ 0.962", transform=at)
        fig.text(2.4, 0.3, "first line of a label\nits second line", transform=at)
        fig.text(5.3, 0.3, "turned label\nits second line", rotation=90, transform=at)
        fig.savefig(tmp_path / "overlaps.pdf")
        plt.close(fig)
    found = text_over_text(tmp_path / "overlaps.pdf")
    text = " | ".join(found)
    assert "'overlap' at" in text and "'other' at" in text
    assert "'SGD' at" in text and "'1.0' at" in text
    assert "'(g)escape' at" in text and "letters drawn over each other" in text
    assert all(any(label in problem for label in ("overlap", "other", "here", "label", "SGD", "1.0", "(g)escape"))
               for problem in found), text


def test_png_layout_mismatch_is_caught(tmp_path):
    """A PNG cropped by ``bbox_inches="tight"``, one at 150 dpi and a 7.5 in wide one are reported;
    the PNG saved as the repository saves it is not."""
    _need_pdftotext()
    plt = _pyplot()
    with plt.style.context("default"), plt.rc_context({"pdf.fonttype": 42}):   # not the style another test set
        fig = plt.figure(figsize=(3, 1.5))
        fig.text(0.4, 0.5, "middle")
        fig.savefig(tmp_path / "fig.pdf")
        fig.savefig(tmp_path / "fig.png", dpi=300)
        fig.savefig(tmp_path / "tight.png", dpi=300, bbox_inches="tight")
        fig.savefig(tmp_path / "coarse.png", dpi=150)
        fig.set_size_inches(7.5, 1.5)
        fig.savefig(tmp_path / "wide.pdf")
        fig.savefig(tmp_path / "wide.png", dpi=300)
        plt.close(fig)
    assert png_layout_problems(tmp_path / "fig.png", tmp_path / "fig.pdf") == []
    tight = " | ".join(png_layout_problems(tmp_path / "tight.png", tmp_path / "fig.pdf"))
    assert "width" in tight and "the PDF's 216.0 pt at 300.0 dpi is 900.0 px" in tight
    assert png_layout_problems(tmp_path / "coarse.png", tmp_path / "fig.pdf") == ["150 dpi (at least 300)"]
    assert png_layout_problems(tmp_path / "wide.png", tmp_path / "wide.pdf") == ["7.50 in wide (at most 7.25 in)"]


def test_cut_at_edge_is_caught(tmp_path):
    """A label running off the right edge, axes filling the canvas and a band of the faintest fill
    the figures draw (#A9D4F2 at alpha 0.25) touching the left edge are reported; a label in the
    middle is not."""
    from matplotlib.patches import Rectangle

    plt = _pyplot()
    with plt.style.context("default"), plt.rc_context({"pdf.fonttype": 42}):   # not the style another test set
        fig = plt.figure(figsize=(2, 1))
        fig.text(0.3, 0.5, "middle")
        fig.savefig(tmp_path / "clean.png", dpi=300)
        fig.text(0.9, 0.2, "cut off")
        fig.add_artist(Rectangle((0, 0.6), 0.1, 0.2, transform=fig.transFigure, color="#A9D4F2", alpha=0.25, lw=0))
        fig.savefig(tmp_path / "cut.png", dpi=300)
        plt.close(fig)
        fig = plt.figure(figsize=(2, 1))
        fig.add_axes((0, 0, 1, 1)).plot([0, 1], [0, 1])
        fig.savefig(tmp_path / "full.png", dpi=300)
        plt.close(fig)
    assert edge_ink(tmp_path / "clean.png") == []
    cut = " | ".join(edge_ink(tmp_path / "cut.png"))
    assert cut.startswith("left edge: ink at y = 60–119 px") and "right edge: ink" in cut and "top" not in cut, cut
    assert [p.split(":")[0] for p in edge_ink(tmp_path / "full.png")] == ["top edge", "bottom edge", "left edge", "right edge"]
