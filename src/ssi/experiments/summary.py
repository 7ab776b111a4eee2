"""The summary figure: one panel per claim of the paper (C1–C6) with its verdict.

Each panel draws the claim's key numbers from its numbers file (``figures/numbers/<stem>.json``)
and states the verdicts and headlines of the claim's rows as the verdict file
(``figures/VERDICTS.json``, :mod:`ssi.verdicts`) holds them: the claim's verdict when its rows agree
or one differs (:func:`ssi.verdicts.claim_verdict`), else its rows one by one; rows are never
averaged. Nothing here is typed by hand: the words come from the verdict file, the points from the
numbers.
"""
from __future__ import annotations

import math
import re
import textwrap
from pathlib import Path

import numpy as np

from ..verdicts import CLAIM_NAMES, VERDICTS, claim_verdict

#: claim number -> (numbers-file stem that holds its data, what the panel shows)
PANELS = {1: ("escape_vs_d", "fitted exponent of the escape steps in $d$"),
          2: ("two_phases", "escape time $t$ (SGD and ODE)"),
          3: ("positional", "escape steps against $d$"),
          4: ("tied_untied", "fitted exponent of the gain in $L$"),
          5: ("semantic_positional", r"switch $\omega$ (SGD, diagram)"),
          6: ("two_phases", "relative gap of the escape times")}
#: at most this many lines of headline under a panel
NOTE_LINES = 5
#: characters per line of a note (5.5 pt under a third of a two-column page)
NOTE_WIDTH = 44
#: the claims' short names (docs/theory.md, "Claims"), typeset
CLAIM_NAMES = {n: re.sub(r"\bd\b", "$d$", name) for n, name in CLAIM_NAMES.items()}


def claim_number(row: dict) -> int:
    """n of a row's "Cn" claim id or "Cn …" label (0 when it has none)."""
    match = re.match(r"C(\d+)", row["claim"])
    return int(match.group(1)) if match else 0


def _mathtext(text: str) -> str:
    """Plain-text formulas of a headline typeset: "L^1.00", "d^-0.5", "d^-½" as exponents,
    "t_max" as a subscript."""
    def power(match):
        exponent = match.group(2).strip("()").replace("½", "1/2")
        return f"${match.group(1)}^{{{exponent}}}$"

    text = re.sub(r"(\b[A-Za-z])\^(\(?-?[0-9.½]+\)?)", power, text)
    return re.sub(r"(?<![$\w])([A-Za-z])_([A-Za-z]+)\b", r"$\1_{\\mathrm{\2}}$", text)


def load(verdict_file, numbers_files):
    """(rows, numbers): the rows of the verdict file ``verdict_file`` (entries of
    :func:`ssi.verdicts.verdict_file`) and stem -> numbers dict of every numbers file."""
    from .. import verdicts
    from .audit import load_numbers

    return verdicts.load(verdict_file)["rows"], {Path(p).stem: load_numbers(p) for p in numbers_files}


# --- the panels' data -----------------------------------------------------------------------------
def _exponents(ax, entries, paper_key=None, paper=None):
    """Dot plot: measured exponents (with intervals) per entry, the paper's as open diamonds."""
    from ..plotting import GUIDE, sie_colour

    for i, (label, k, x, lo, hi, ref) in enumerate(entries):
        colour = sie_colour(k)
        if x is not None and math.isfinite(x):
            err = [[max(x - lo, 0)], [max(hi - x, 0)]] if lo is not None and math.isfinite(lo) else None
            ax.errorbar([i], [x], yerr=err, fmt="o", color=colour, ms=4, capsize=2, lw=1, zorder=3)
        if ref is not None:
            ax.plot([i], [ref], "D", mfc="white", mec=GUIDE, ms=6, zorder=2)
    ax.set_xticks(range(len(entries)), [e[0] for e in entries])
    ax.set_xlim(-0.6, len(entries) - 0.4)


def _c1(ax, numbers):
    fits = [f for f in numbers["fits"] if f["level"] == "macro"]
    _exponents(ax, [(f"SIE {f['sie']}", f["sie"], f["exponent_sgd"], f["exponent_sgd_low"], f["exponent_sgd_high"],
                     f["exponent_claimed_same_range"]) for f in fits])
    ax.set_ylabel("exponent of $d$")


def _c4(ax, numbers):
    from .tied_untied import PAPER_GAIN

    fits = [f for f in numbers["fits"] if f["threshold"] == "macro" and f["protocol"] == "same_lr"]
    _exponents(ax, [(f"SIE {f['sie']}", f["sie"], f["exponent_sgd"], f["exponent_sgd_low"], f["exponent_sgd_high"],
                     PAPER_GAIN.get(f["sie"], (None,))[0]) for f in fits])
    ax.set_ylabel("exponent of $L$")


def _case_tick(row) -> str:
    """"SIE 2" over "d = 10⁵" for a two-phases row (case names are sieK)."""
    from ..plotting import number

    return f"{row['case'].upper().replace('SIE', 'SIE ')}\n$d$ = {number(row['d'], 1)}"


def _c2(ax, numbers):
    from ..plotting import COLOURS, plain_log_ticks

    rows = numbers["rows"]
    x = np.arange(len(rows))
    ax.plot(x, [r["t_escape_sgd_mean_curve"] or math.nan for r in rows], "o", color=COLOURS["sgd"], zorder=3)
    ax.plot(x, [r["t_escape_ode"] or math.nan for r in rows], "s", mfc="none", color=COLOURS["ode"], ms=6, zorder=2)
    ax.set_yscale("log")
    plain_log_ticks(ax)
    ax.set_xticks(x, [_case_tick(r) for r in rows], fontsize=5, rotation=90)
    ax.set_xlim(-0.6, len(rows) - 0.4)
    ax.set_ylabel("escape time $t$")


def _c6(ax, numbers):
    from ..plotting import COLOURS

    rows = [r for r in numbers["rows"] if r["t_escape_sgd_mean_curve"] and r["t_escape_ode"]]
    gaps = [100 * abs(r["t_escape_sgd_mean_curve"] - r["t_escape_ode"]) / r["t_escape_ode"] for r in rows]
    ax.bar(np.arange(len(rows)), gaps, color=COLOURS["ode"], width=0.6)
    ax.set_xticks(np.arange(len(rows)), [_case_tick(r) for r in rows], fontsize=5, rotation=90)
    ax.set_ylabel("SGD vs ODE gap (%)")


def _c3(ax, numbers):
    from ..plotting import plain_log_ticks
    from .positional import case_colours

    colours = case_colours(len(numbers["fits"]))
    for colour, fit in zip(colours, numbers["fits"]):
        rows = [r for r in numbers["rows"] if r["case"] == fit["case"] and r["steps_median"]]
        ax.plot([r["d"] for r in rows], [r["steps_median"] for r in rows], "o", color=colour, ms=3.5, zorder=3)
        ax.plot(fit["ode_dims"], fit["ode_steps"], color=colour, lw=1.0, ls="--", zorder=2)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("$d$")
    ax.set_ylabel("escape steps")
    plain_log_ticks(ax)


def _c5(ax, numbers):
    from ..plotting import COLOURS, GUIDE, PURPLE, number

    rows = numbers["transition"]
    x = np.arange(len(rows))
    ax.plot(x, [r["switch_sgd"] if r["switch_sgd"] is not None else math.nan for r in rows], "o",
            color=COLOURS["sgd"], zorder=3)
    pred = numbers["prediction"]
    ax.axhline(pred["switch_dynamics"], color=PURPLE, lw=0.9, ls="-.", zorder=1)
    ax.axhline(pred["switch_global"], color=GUIDE, lw=0.9, ls=":", zorder=1)
    ax.set_xticks(x, [f"$d$ = {number(r['d'], 1)}\n$t$ = {number(r['t'])}" for r in rows], fontsize=5)
    ax.set_xlim(-0.6, len(rows) - 0.4)
    ax.set_ylabel(r"switch $\omega$")


DRAW = {1: _c1, 2: _c2, 3: _c3, 4: _c4, 5: _c5, 6: _c6}


def _keys(n):
    """The marker key of panel ``n``."""
    from matplotlib.lines import Line2D

    from ..plotting import COLOURS, GUIDE, PURPLE

    if n in (1, 4):
        return [Line2D([], [], ls="", marker="o", color="k", ms=4, label="measured (SGD)"),
                Line2D([], [], ls="", marker="D", mfc="white", mec=GUIDE, ms=5, label="paper")]
    if n == 2:
        return [Line2D([], [], ls="", marker="o", color=COLOURS["sgd"], label="SGD"),
                Line2D([], [], ls="", marker="s", mfc="none", color=COLOURS["ode"], label="ODE")]
    if n == 3:
        return [Line2D([], [], ls="", marker="o", color="k", ms=3.5, label="SGD median"),
                Line2D([], [], color="k", lw=1.0, ls="--", label="ODE")]
    if n == 5:
        return [Line2D([], [], ls="", marker="o", color=COLOURS["sgd"], label="SGD"),
                Line2D([], [], color=PURPLE, lw=0.9, ls="-.", label="initial direction"),
                Line2D([], [], color=GUIDE, lw=0.9, ls=":", label="global minimum")]
    return []


# --- the figure -------------------------------------------------------------------------------------
def panel_text(rows: list[dict]) -> tuple[str, str, str | None, str]:
    """(title, verdict line, verdict, note) of one claim's panel from its entries of the verdict
    file; the verdict is :func:`ssi.verdicts.claim_verdict` of the rows' (None: the rows disagree and
    none differs, the line counts them by verdict)."""
    from ..plotting import VERDICT_STYLE

    words = [r["verdict"] for r in rows]
    verdict = claim_verdict(words)
    names = [re.sub(r"^C\d+\s*", "", r.get("row", r["claim"])) for r in rows]
    n = claim_number(rows[0])
    heads = {name.split(", ", 1)[0] for name in names}
    if len(rows) > 1 and len(heads) == 1 and all(", " in name for name in names):
        names = [name.split(", ", 1)[1] for name in names]      # "escape vs d, SIE 1" -> "SIE 1"
    short = CLAIM_NAMES.get(n, "")
    names = [name[len(short):].lstrip(", ") or name if short and name.startswith(short) else name
             for name in names]                                  # "tied vs untied, SIE 2" -> "SIE 2"
    title = f"C{n} {CLAIM_NAMES.get(n, names[0])}"
    if verdict is not None:
        head = f"{VERDICT_STYLE[verdict][1]} {verdict}"
    else:
        head = "rows split: " + ", ".join(f"{words.count(w)} {VERDICT_STYLE[w][1]}" for w in VERDICTS if w in words)
    if len(rows) == 1:
        lines = textwrap.wrap(_mathtext(rows[0].get("headline") or rows[0]["paper"]), NOTE_WIDTH)
        note = "\n".join(lines[:NOTE_LINES]) + (" …" if len(lines) > NOTE_LINES else "")
    else:
        note = "\n".join(_mathtext(textwrap.shorten(f"{VERDICT_STYLE[r['verdict']][1]} {name}: "
                                                     f"{r.get('headline') or r['verdict']}",
                                                     NOTE_WIDTH + 4, placeholder=" …"))
                         for r, name in zip(rows[:NOTE_LINES], names))
    return title, head, verdict, note


def plot(rows: list[dict], numbers: dict, out_paths) -> None:
    """Six panels, C1 … C6: the claim's numbers, its verdict (word, mark and colour) and headline.

    ``rows``: entries of the verdict file (keys ``claim``, ``row``, ``verdict``, ``headline``);
    ``numbers``: numbers-file stem -> its numbers."""
    from ..plotting import VERDICT_STYLE, WIDTH_DOUBLE, new_figure, place_legend, save_figure
    import matplotlib.pyplot as plt

    bad = sorted({str(r.get("verdict")) for r in rows} - set(VERDICTS))
    if bad:
        raise ValueError(f"claim rows carry verdict {bad}; allowed: {', '.join(VERDICTS)}")
    fig, grid = new_figure(ncols=3, nrows=4, width=WIDTH_DOUBLE, height=6.2, squeeze=False,
                           gridspec_kw={"height_ratios": [3, 1.2, 3, 1.2]})
    for n in sorted(PANELS):
        row, col = 2 * ((n - 1) // 3), (n - 1) % 3
        ax, text_ax = grid[row, col], grid[row + 1, col]
        text_ax.axis("off")
        mine = [r for r in rows if claim_number(r) == n]
        stem, what = PANELS[n]
        if stem in numbers:
            DRAW[n](ax, numbers[stem])
        if not ax.get_xlabel():
            ax.set_xlabel(what, fontsize=6.5)
        if not mine:
            ax.set_title(f"C{n}: no claim rows", fontsize=7)
            continue
        title, head, verdict, note = panel_text(mine)
        ax.set_title(title, fontsize=7)
        colour = VERDICT_STYLE[verdict][0] if verdict is not None else "k"
        for side in ax.spines.values():
            side.set_edgecolor(colour)
            side.set_linewidth(1.6)
        text_ax.text(0.0, 1.0, head, transform=text_ax.transAxes, va="top", ha="left", fontsize=7,
                     fontweight="bold", color=colour if verdict not in (None, "undecided") else "k",
                     in_layout=False)
        text_ax.text(0.0, 0.72, note, transform=text_ax.transAxes, va="top", ha="left", fontsize=5.5,
                     in_layout=False)
    for n in sorted(PANELS):
        if _keys(n):
            place_legend(grid[2 * ((n - 1) // 3), (n - 1) % 3], handles=_keys(n), fontsize=5.5, handletextpad=0.3)
    for path in out_paths:
        save_figure(fig, path)
    plt.close(fig)
