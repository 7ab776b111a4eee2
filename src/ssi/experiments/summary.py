"""The summary figure: which claim rows of the paper reproduced and which did not.

Left, the verdict board: one mark per row of the verdict file (``figures/VERDICTS.json``,
:mod:`ssi.verdicts`), placed in the column of its verdict and drawn in that verdict's colour and
marker (:data:`ssi.plotting.VERDICT_STYLE`, :data:`ssi.plotting.VERDICT_MARKERS`), the verdict word
written at the row's end. Right, C6 with the statistic its verdict uses: the relative SGD − ODE gap
of each case and d with its 95 % interval, against the tolerance band; a case left out of the
comparison is written "not compared (n/N escaped)". The gaps, intervals and tolerance are read from
the verdict of each case alone, by the function the verdict file's C6 row comes from
(:func:`ssi.experiments.two_phases.c6_verdict`, in the words of :func:`ssi.verdicts.gap_verdict`), so a
change of the statistic flows through; the tolerance is the row's rule's. Nothing here is typed by hand.
"""
from __future__ import annotations

import re
from pathlib import Path

from ..verdicts import CLAIM_NAMES, VERDICTS, claim_verdict, power_of_ten

#: print width of the figure, inches (a two-column page)
WIDTH = 7.2
#: height of the figure, inches
HEIGHT = 3.3
#: smallest type in the figure at print size, points
MIN_TYPE_PT = 5.0
#: the claim whose statistic the right panel plots, and the numbers file naming its cases
GAP_CLAIM, GAP_RESULT = "C6", "two_phases"

_GAP = re.compile(r"(SIE \d+), d = ([^:]+): (.+?): gap ([+-−]?[\d.]+) % \[([+-−]?[\d.]+), ([+-−]?[\d.]+)\]")
_TOLERANCE = re.compile(r"±\s*([\d.]+)\s*%")


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


def _number(text: str) -> float:
    return float(text.replace("−", "-"))


def gap_points(row: dict, numbers: dict) -> dict:
    """The statistic of C6 as its verdict uses it, one point per case and d.

    ``row``: the C6 entry of the verdict file; ``numbers``: the two_phases numbers. Each case of the
    numbers is judged alone by :func:`ssi.experiments.two_phases.c6_verdict`, the function the verdict
    file's row comes from; the point and its 95 % interval are read from that verdict's words (as
    :func:`ssi.verdicts.gap_verdict` writes them) and interval. Returns ``{"what", "tolerance",
    "points", "excluded"}``: ``what`` names the statistic, ``tolerance`` the ± band (a fraction, from
    the row's rule), ``points`` maps (case, d) labels -> (gap, low, high, verdict word) (fractions),
    ``excluded`` maps (case, d) labels -> "n/N" escaped for a case not compared. ValueError when the
    cases together do not give the row's verdict (a stale verdict file) or the row states no
    tolerance."""
    from ..verdicts import combine
    from .two_phases import c6_verdict

    points, excluded, parts, what = {}, {}, [], None
    for r in numbers["rows"]:
        key = (r["case"].upper().replace("SIE", "SIE "), power_of_ten(r["d"]))
        verdict = c6_verdict([r])
        parts.append(verdict)
        if verdict.interval is None:
            excluded[key] = f"{r['escaped_replicates']}/{r['replicates']}"
            continue
        low, high = verdict.interval
        match = _GAP.search(verdict.reason)
        if match:
            what, gap = match.group(3), _number(match.group(4)) / 100
        else:                       # words other than gap_verdict's: the interval's middle
            gap = (low + high) / 2
        points[key] = (gap, low, high, verdict.word)
    if parts and combine(parts).word != row["verdict"]:
        raise ValueError(f"the two_phases numbers give C6 {combine(parts).word!r}, the verdict file "
                         f"{row['verdict']!r}: regenerate the verdict file")
    tolerance = _TOLERANCE.search(row.get("rule") or "")
    if tolerance is None:
        raise ValueError(f"verdict row {_row_name(row)!r} states no tolerance ('±x %') in its rule")
    return {"what": what or "gap", "tolerance": float(tolerance.group(1)) / 100, "points": points,
            "excluded": excluded}


# --- the figure -------------------------------------------------------------------------------------
def _board(ax, rows):
    """One mark per claim row in its verdict's column; the row's name left, its verdict word right."""
    from ..plotting import GUIDE, VERDICT_MARKERS, VERDICT_STYLE

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
            ax.axhline(y[i] + 0.5, color="k", lw=0.5, zorder=1)
    ax.set_ylim(-0.6, len(rows) - 0.4)
    ax.set_xlim(-0.5, len(VERDICTS) - 0.5)
    ax.set_yticks(y, [_row_name(r) for r in rows], fontsize=6.5)
    ax.set_xticks([])
    ax.tick_params(length=0)
    words = ax.twinx()
    words.set_ylim(ax.get_ylim())
    words.set_yticks(y, [r["verdict"] for r in rows], fontsize=6.5, fontweight="bold")
    words.tick_params(length=0)
    words.set_ylabel("verdict", fontsize=6.5)
    for label, r in zip(words.get_yticklabels(), rows):
        label.set_color("k" if r["verdict"] == "undecided" else VERDICT_STYLE[r["verdict"]][0])
    for side in (*ax.spines.values(), *words.spines.values()):
        side.set_visible(False)
    ax.set_ylabel("claim row", fontsize=6.5)
    ax.set_title("Verdict of each claim row", fontsize=7.5)


def _gap_panel(ax, row, numbers):
    """The C6 statistic per case and d with its 95 % interval, against the ± tolerance band."""
    from ..plotting import COLOURS, GUIDE, VERDICT_STYLE

    gaps = gap_points(row, numbers)
    keys = list(gaps["points"]) + list(gaps["excluded"])
    order = [(r["case"].upper().replace("SIE", "SIE "), power_of_ten(r["d"])) for r in numbers["rows"]]
    keys.sort(key=order.index)
    tol = 100 * gaps["tolerance"]
    ax.axhspan(-tol, tol, color=GUIDE, alpha=0.18, lw=0, zorder=0, label=f"tolerance ±{tol:g} %")
    for bound in (-tol, tol):
        ax.axhline(bound, color=GUIDE, lw=0.8, ls="--", zorder=1)
    ax.axhline(0, color=GUIDE, lw=0.6, zorder=1)
    highs = [tol]
    for i, key in enumerate(keys):
        if key in gaps["points"]:
            gap, low, high = (100 * v for v in gaps["points"][key][:3])
            ax.errorbar([i], [gap], yerr=[[gap - low], [high - gap]], fmt="o", color=COLOURS["sgd"], ms=4,
                        capsize=2.5, lw=1.0, zorder=3)
            highs += [high, -low]
    top = 1.15 * max(highs)
    for i, key in enumerate(keys):
        if key not in gaps["points"]:
            ax.text(i, 0, f"not compared ({gaps['excluded'][key]} escaped)", ha="center", va="center",
                    rotation=90, fontsize=6, color="k")
    ax.set_ylim(-top, top)
    ax.set_xlim(-0.6, len(keys) - 0.4)
    ax.set_xticks(range(len(keys)), [f"{case}\n{d}" for case, d in keys], fontsize=6.5)
    ax.set_xlabel("case and $d$", fontsize=6.5)
    ax.set_ylabel(f"{gaps['what']},\nrelative gap (%)", fontsize=6.5)
    ax.tick_params(axis="y", labelsize=6.5)
    title, _, verdict, _ = panel_text([row])
    colour = VERDICT_STYLE[verdict][0] if verdict not in (None, "undecided") else "k"
    ax.set_title(f"{title.split()[0]}: {verdict}", fontsize=7.5, color=colour)
    ax.errorbar([], [], yerr=[], fmt="o", color=COLOURS["sgd"], ms=4, capsize=2.5, lw=1.0,
                label="SGD − ODE, ±1.96 SE")
    ax.legend(fontsize=6, loc="lower left", frameon=False, handletextpad=0.4)


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
    fig, (board, gap) = new_figure(ncols=2, width=WIDTH, height=HEIGHT, gridspec_kw={"width_ratios": [1.1, 1]})
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
