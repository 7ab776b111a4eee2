"""The summary figure: which claim rows of the paper reproduced and which did not.

Left, the verdict board: one mark per row of the verdict file (``figures/VERDICTS.json``,
:mod:`ssi.verdicts`), placed in the column of its verdict and drawn in that verdict's colour and
marker (:data:`ssi.plotting.VERDICT_STYLE`, :data:`ssi.plotting.VERDICT_MARKERS`), the verdict word
written at the row's end. Right, C6 as its verdict reads it (:func:`ssi.experiments.two_phases.c6_verdict`):
per case, the SGD − ODE gap of the mean trajectory against d with its 95 % bootstrap bars and its
fitted fall d⁻ʳ, from the two_phases numbers; a case left out is named with its reason; the panel's
title carries the C6 row's verdict from the verdict file. Nothing here is typed by hand.
"""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from ..verdicts import CLAIM_NAMES, VERDICTS, claim_verdict

#: print width of the figure, inches (a two-column page)
WIDTH = 7.2
#: height of the figure, inches
HEIGHT = 3.3
#: smallest type in the figure at print size, points
MIN_TYPE_PT = 5.0
#: colour and marker of the C6 panel's cases, in their order (no verdict colour)
CASE_STYLES = (("k", "o"), ("0.5", "s"), ("0.3", "^"))
#: the claim whose statistic the right panel plots, and the numbers file naming its cases
GAP_CLAIM, GAP_RESULT = "C6", "two_phases"



def claim_number(row: dict) -> int:
    """n of a row's "Cn" claim id or "Cn …" label (0 when it has none)."""
    match = re.match(r"C(\d+)", row["claim"])
    return int(match.group(1)) if match else 0


def load(verdict_file, numbers_files):
    """(rows, numbers): the rows of the verdict file ``verdict_file`` (entries of
    :func:`ssi.verdicts.verdict_file`, :func:`ssi.verdicts.rows_of`) and stem -> numbers dict of every
    numbers file."""
    from .. import verdicts
    from .audit import load_numbers

    return verdicts.rows_of(verdicts.load(verdict_file)), {Path(p).stem: load_numbers(p) for p in numbers_files}


#: a row label longer than this is shown by its short label
ROW_NAME_CHARS = 30


def _row_name(row: dict) -> str:
    name = row.get("row") or row["claim"]
    return row["short"] if len(name) > ROW_NAME_CHARS and row.get("short") else name


def panel_text(rows: list[dict]) -> tuple[str, str, str | None, str]:
    """(title, verdict line, verdict, note) of one claim from its entries of the verdict file.

    The verdict is :func:`ssi.verdicts.claim_verdict` of the rows' (None: the rows disagree and none
    differs; the line then counts them by verdict); the note has one line per row, its mark and name,
    never shortened."""
    from ..plotting import VERDICT_STYLE

    words = [r["verdict"] for r in rows]
    verdict = claim_verdict(words)
    n = claim_number(rows[0])
    title = f"C{n} {CLAIM_NAMES.get(n, _row_name(rows[0]))}"
    if verdict is not None:
        head = f"{VERDICT_STYLE[verdict][1]} {verdict}"
    else:
        head = "rows split: " + ", ".join(f"{words.count(w)} {VERDICT_STYLE[w][1]}" for w in VERDICTS if w in words)
    note = "\n".join(f"{VERDICT_STYLE[r['verdict']][1]} {re.sub(r'^C[0-9]+ ', '', _row_name(r))}" for r in rows)
    return title, head, verdict, note


# --- the figure -------------------------------------------------------------------------------------
def _board(ax, rows):
    """One mark per claim row in its verdict's column; the row's name left, its verdict word right."""
    from ..plotting import BLACK, GUIDE, VERDICT_MARKERS, VERDICT_STYLE, text_colour

    y = list(range(len(rows)))[::-1]
    for yi, r in zip(y, rows):
        colour, _ = VERDICT_STYLE[r["verdict"]]
        marker, filled = VERDICT_MARKERS[r["verdict"]]
        ax.plot([VERDICTS.index(r["verdict"])], [yi], ls="", marker=marker, ms=6.5, mec=colour,
                mfc=colour if filled else "white", mew=1.3, zorder=3)
    for i in range(len(VERDICTS)):
        ax.axvline(i, color=GUIDE, lw=0.4, alpha=0.5, zorder=1)
    for i in range(1, len(rows)):
        if claim_number(rows[i]) != claim_number(rows[i - 1]):
            ax.axhline(y[i] + 0.5, color=BLACK, lw=0.5, zorder=1)
    ax.set_ylim(-0.6, len(rows) - 0.4)
    ax.set_xlim(-0.5, len(VERDICTS) - 0.5)
    ax.set_yticks(y, [_row_name(r) for r in rows], fontsize=6.5)
    ax.set_xticks([])
    ax.tick_params(length=0)
    words = ax.twinx()
    words.set_ylim(ax.get_ylim())
    words.set_yticks(y, [r["verdict"] for r in rows], fontsize=6.5, fontweight="bold")
    words.tick_params(length=0)
    # the words' axis label heads their column (horizontal, above the first row), where a rotated
    # label would float to the right of the longest word
    words.set_ylabel("verdict", fontsize=6.5, rotation=0, ha="left", va="bottom")
    words.yaxis.set_label_coords(1.0, 1.0)
    for label, r in zip(words.get_yticklabels(), rows):
        label.set_color("k" if r["verdict"] == "undecided" else text_colour(VERDICT_STYLE[r["verdict"]][0]))
    for side in (*ax.spines.values(), *words.spines.values()):
        side.set_visible(False)
    ax.set_ylabel("claim row", fontsize=6.5)
    ax.set_title("Verdict of each claim row", fontsize=7.5)


def _gap_panel(ax, row, numbers):
    """C6 as its verdict reads it: per case, the SGD–ODE gap of the mean trajectory against d (95 %
    bootstrap bars) and its fitted fall d⁻ʳ (:func:`ssi.experiments.two_phases.gap_rate`); the cases
    not compared named with their reason; the title carries the row's verdict from the verdict file."""
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    from ..plotting import FIT_STYLE, VERDICT_STYLE, label, text_colour

    verdict = row["verdict"]
    colour = text_colour(VERDICT_STYLE[verdict][0]) if verdict != "undecided" else "k"
    ax.set_title(f"C6: {verdict}", fontsize=7.5, color=colour)
    left_out, gaps, dims, drawn = [], [], [], 0
    for fit in numbers.get("gap_fits", []):
        rows = sorted((r for r in numbers["rows"] if r["case"] == fit["case"]), key=lambda r: r["d"])
        name = fit["case"].upper().replace("SIE", "SIE ")
        if isinstance(fit.get("excluded"), str):
            left_out.append(f"{name} not compared (" + ", ".join(
                f"{r['escaped_replicates']}/{r['replicates']}" for r in rows) + " escaped)")
            continue
        d = np.array([r["d"] for r in rows], dtype=float)
        gap = np.array([r["gap_sup"] for r in rows])
        bar = 1.96 * np.array([r["gap_sup_se"] for r in rows])
        # the verdict colours are the board's: the cases are told apart in black and grey, by marker
        case_colour, marker = CASE_STYLES[drawn % len(CASE_STYLES)]
        drawn += 1
        ax.errorbar(d, gap, yerr=[np.minimum(bar, 0.9 * gap), bar], fmt=marker, ms=4, color=case_colour,
                    capsize=2.5, lw=1.0, zorder=3,
                    label=f"{name}: $r$ = {fit['rate']:.2f} [{fit['rate_low']:.2f}, {fit['rate_high']:.2f}]")
        ax.plot(d, fit["prefactor"] * d ** -fit["rate"], color=case_colour, zorder=2, **FIT_STYLE)
        gaps += list(gap - np.minimum(bar, 0.9 * gap)) + list(gap + bar)
        dims += list(d)
    if not drawn:
        ax.set_axis_off()
        ax.text(0.5, 0.5, "\n".join(["no case fitted", *left_out]), ha="center", va="center", fontsize=6.5,
                transform=ax.transAxes)
        return
    handles, labels = ax.get_legend_handles_labels()
    handles += [Line2D([], [], ls="none")] * len(left_out)
    labels += left_out
    # log axes with ticks at the decades inside the limits only (no label beyond the panel); the
    # headroom above the data holds the legend
    low, high = min(gaps) / 2, max(gaps) * 10 ** (0.45 * (len(labels) + 1))
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_ylim(low, high)
    ax.set_xlim(min(dims) / 1.6, max(dims) * 1.6)
    for setter, (lo, hi) in ((ax.set_yticks, (low, high)), (ax.set_xticks, (min(dims) / 1.6, max(dims) * 1.6))):
        decades = range(int(np.ceil(np.log10(lo))), int(np.floor(np.log10(hi))) + 1)
        setter([10.0 ** k for k in decades], [f"$10^{{{k}}}$" for k in decades])
    ax.xaxis.set_minor_formatter(plt.NullFormatter())
    ax.yaxis.set_minor_formatter(plt.NullFormatter())
    ax.set_xlabel(label("d"), fontsize=6.5)
    ax.set_ylabel("largest gap between the SGD\nmean |m| and the ODE's", fontsize=6.5)
    ax.tick_params(labelsize=7.5)           # its superscripts at 0.7 of it: above 5 pt
    ax.legend(handles, labels, fontsize=6, loc="upper right", frameon=False, handletextpad=0.4,
              title="fall with d: rate r (95 %)", title_fontsize=6)


def _legend(fig, rows):
    from matplotlib.lines import Line2D

    from ..plotting import VERDICT_MARKERS, VERDICT_STYLE

    handles = [Line2D([], [], ls="", marker=VERDICT_MARKERS[w][0], ms=6.5, mew=1.3, mec=VERDICT_STYLE[w][0],
                      mfc=VERDICT_STYLE[w][0] if VERDICT_MARKERS[w][1] else "white", label=f"{w} ({sum(r['verdict'] == w for r in rows)})") for w in VERDICTS]
    fig.legend(handles=handles, loc="outside lower center", ncols=len(handles), fontsize=6.5, frameon=False,
               handletextpad=0.3, columnspacing=1.5)


def check_type(fig, min_pt: float = MIN_TYPE_PT) -> None:
    """ValueError naming every visible text of ``fig`` smaller than ``min_pt`` points, ending in "…" or
    reaching outside the canvas (matplotlib's text extents, before the figure is saved)."""
    from matplotlib.text import Text

    renderer = fig.canvas.get_renderer()
    fig.draw_without_rendering()
    canvas = fig.bbox
    problems = []
    for text in fig.findobj(Text):
        if not text.get_visible() or not text.get_text().strip():
            continue
        words = text.get_text()
        if text.get_fontsize() < min_pt:
            problems.append(f"{words!r} is {text.get_fontsize():g} pt (at least {min_pt:g})")
        if "…" in words:
            problems.append(f"{words!r} is cut off")
        box = text.get_window_extent(renderer)
        if (box.x0 < canvas.x0 - 1 or box.y0 < canvas.y0 - 1 or box.x1 > canvas.x1 + 1
                or box.y1 > canvas.y1 + 1):
            problems.append(f"{words!r} reaches outside the figure")
    if problems:
        raise ValueError("summary figure: " + "; ".join(problems))


def plot(rows: list[dict], numbers: dict, out_paths) -> None:
    """The verdict board of every claim row and the C6 gap panel, saved to each of ``out_paths``.

    ``rows``: entries of the verdict file (keys ``claim``, ``row``, ``verdict``; the C6 row also
    ``reason`` and ``rule``); ``numbers``: numbers-file stem -> its numbers (two_phases names C6's
    cases)."""
    from ..plotting import new_figure, save_figure
    import matplotlib.pyplot as plt

    bad = sorted({str(r.get("verdict")) for r in rows} - set(VERDICTS))
    if bad:
        raise ValueError(f"claim rows carry verdict {bad}; allowed: {', '.join(VERDICTS)}")
    rows = sorted(rows, key=claim_number)
    gap_rows = [r for r in rows if r["claim"] == GAP_CLAIM]
    fig, (board, gap) = new_figure(ncols=2, width=WIDTH, height=HEIGHT, gridspec_kw={"width_ratios": [1, 1.2]})
    fig.get_layout_engine().set(wspace=0.12)
    _board(board, rows)
    if gap_rows and GAP_RESULT in numbers:
        _gap_panel(gap, gap_rows[0], numbers[GAP_RESULT])
    else:
        gap.axis("off")
    _legend(fig, rows)
    check_type(fig)
    for path in out_paths:
        save_figure(fig, path)
    plt.close(fig)
