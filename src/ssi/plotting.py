"""One figure style for every figure: sizes, fonts, colours, words, and byte-reproducible saving.

* **Sizes** for a two-column paper: :data:`WIDTH_SINGLE` (one column) and :data:`WIDTH_DOUBLE`
  (full width); fonts of 7–8 pt, legible at that size when printed.
* **Colours**: the Okabe–Ito palette (:data:`PALETTE`), safe for colour-blind readers, and one
  colour per thing in every figure (:data:`COLOURS`: SGD / ODE, tied / untied / attention,
  semantic / positional; :func:`sie_colour` for the information exponents; :data:`REGION_COLOURS`
  for the phase diagrams). Where colour names the thing compared, SGD is always drawn as
  points or thin lines and the ODE as a line.
* **Words**: one label table (:data:`LABELS`, :func:`label`) from registry keys to the words
  and mathtext a reader sees; formulas are mathtext (``$L^{2}$``, ``$d^{-1/2}$``).
* **Verdicts**: :func:`law` and :func:`verdict_line` write a measured law with its interval
  next to the paper's, for the panel that tests a claim.
* **Legibility**: legends go where they cover no data (:func:`place_legend`), coloured words
  are darkened to a readable contrast (:func:`text_colour`); the test suite checks every
  committed figure for what a reader would trip over (``tests/support/figure_checks.py``).
* **Undrawn figures**: inside :func:`undrawn` the figures are built but never drawn or
  saved (what :mod:`ssi.experiments.figure_data` needs to learn which arrays they read).

Figures are drawn with the Agg backend and the DejaVu fonts that matplotlib ships, never with
usetex. Saving strips the metadata that would change from run to run (creation dates,
software versions), fixes SOURCE_DATE_EPOCH and the SVG hash salt, and writes atomically.
"""
from __future__ import annotations

import contextlib
import io
import math
import re
import os
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.colors import to_rgb  # noqa: E402
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter  # noqa: E402
from matplotlib.transforms import ScaledTranslation  # noqa: E402

from . import legibility  # noqa: E402
from .io import atomic_write_bytes  # noqa: E402

#: figure width of one column / two columns of a two-column paper, inches
WIDTH_SINGLE = 3.4
WIDTH_DOUBLE = 7.0

#: Okabe & Ito (2008), "Color universal design": blue, orange, bluish green, vermilion,
#: reddish purple, sky blue, yellow, black. tests/unit/test_plotting.py checks that the colours the
#: figures use are far apart in normal vision and under simulated deuteranopia, protanopia and
#: tritanopia (tests/support/figure_checks.py).
PALETTE = [to_rgb(h) for h in ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9",
                               "#F0E442", "#000000")]
BLUE, ORANGE, GREEN, VERMILION, PURPLE, SKY, YELLOW, BLACK = ("#0072B2", "#E69F00", "#009E73", "#D55E00",
                                                              "#CC79A7", "#56B4E9", "#F0E442", "#000000")
#: reference guides (claimed laws, thresholds): drawn under the data in this grey
GUIDE = "#8c8c8c"

#: the same colour for the same thing in every figure
COLOURS = {
    "sgd": BLACK,          # SGD when only SGD and ODE are compared
    "ode": ORANGE,
    "tied": BLUE,
    "untied": VERMILION,
    "attention": GREEN,
    "semantic": BLUE,      # the semantic overlap m and the regions whose global minimum is semantic
    "positional": VERMILION,  # the positional overlap e and the positional regions
    "guide": GUIDE,
}

#: the sequence information exponent k -> colour (the same k, the same colour, in every figure)
SIE_COLOURS = {1: BLUE, 2: ORANGE, 3: GREEN, 4: PURPLE}

#: phase-diagram regions, by code global + 2·dynamics + 4·multiple (ssi.phase.REGION_NAMES):
#: semantic global minimum in blues, positional in vermilion/orange, misaligned dynamics in
#: yellow and purple; every pair ≥ 15 ΔE*ab apart in every simulated vision (the figure checks' minimum)
REGION_COLOURS = ("#A9D4F2",   # 000 unique semantic minimum
                  "#D55E00",   # 100 unique positional minimum, semantic dynamics
                  "#F0E442",   # 010 unique semantic minimum, misaligned (positional) dynamics
                  "#F2B36B",   # 110 unique positional minimum
                  "#0072B2",   # 001 semantic global + positional local minimum
                  "#4D4D4D",   # 101 positional global + semantic local, semantic dynamics
                  "#CC79A7",   # 011 semantic global + positional local, misaligned dynamics
                  "#009E73")   # 111 positional global + semantic local minimum

#: The visual grammar: what each kind of mark means, the same in every figure (docs/figures.md).
#:
#: * SGD: markers with error bars, never joined (:data:`SGD_STYLE`), in the colour of what it is;
#: * the ODE: a solid line (:data:`ODE_STYLE`), in the colour of what it is (:data:`COLOURS`
#:   ``"ode"`` where one SGD is compared with its ODE);
#: * the paper's law: a grey dashed line (:data:`LAW_STYLE`);
#: * a threshold (an escape level, a tolerance, a boundary): a grey dotted line (:data:`THRESHOLD_STYLE`);
#: * a law of the series itself (fitted to its points, or the one its ODE reaches as L or d → ∞): a
#:   thin dash-dotted line in the series' colour (:data:`FIT_STYLE`).
#:
#: Figure modules take their line styles and colours from here (tests/unit/test_visual_grammar.py).
SGD_STYLE = {"linestyle": "none", "marker": "o", "markersize": 3.5, "capsize": 1.5, "elinewidth": 0.8}
ODE_STYLE = {"linestyle": "-", "linewidth": 1.2}
LAW_STYLE = {"color": GUIDE, "linestyle": "--", "linewidth": 0.9}
THRESHOLD_STYLE = {"color": GUIDE, "linestyle": ":", "linewidth": 0.9}
FIT_STYLE = {"linestyle": "-.", "linewidth": 0.8}
#: the ODE at a second, earlier escape level beside the main one: a thinner solid line
ODE_SECOND_LEVEL_STYLE = {**ODE_STYLE, "linewidth": 0.7}
#: a marker per kind of network (with its colour in :data:`COLOURS`), so that a grey-scale print
#: still tells them apart
MARKERS = {"tied": "o", "untied": "s", "attention": "^", "sgd": "o", "semantic": "o", "positional": "s"}

#: a learning-rate protocol -> (colour, SGD marker), where the gains of several protocols share an axes
PROTOCOL_STYLE = {"same_lr": (BLACK, "o"), "best_lr": (PURPLE, "h"), "authors_sqrt": (SKY, "<"),
                  "linear_lr": (ORANGE, "P")}
#: marks with one meaning each, in every figure (none is a network's marker, :data:`MARKERS`):
#: the median replicate's escape, beside the replicate mean's markers
MEDIAN_MARKER = "x"
#: a share of runs (not an overlap), e.g. the share of SGD runs that have not escaped
SHARE_MARKER = "D"
#: SGD of the explicit R^d engine beside the reduced engine's: an open thin diamond around its marker
EXPLICIT_STYLE = {"linestyle": "none", "marker": "d", "markersize": 6, "markerfacecolor": "none", "capsize": 1.5,
                  "elinewidth": 0.8}
#: where an ODE line leaves a log axis downwards: a triangle on the axis' edge
ODE_EXIT_STYLE = {"linestyle": "none", "marker": "v", "markersize": 4.5}
#: SGD trajectory markers per decade of a log time axis (fewer than the records, so each one reads)
TRAJECTORY_MARKERS_PER_DECADE = 3
#: an SGD trajectory (seed mean against steps) drawn as markers, one where the curve has moved this
#: fraction of the axes since the last (:func:`thin_by_distance`): equal steps in time would leave a
#: fast rise bare
TRAJECTORY_MARKER_GAP = 0.035
#: markers of a trajectory where many curves share one axes, smaller than SGD_STYLE's
TRAJECTORY_MARKERSIZE = 2.5
#: the Hessian's eigen-directions on a landscape: descending, ascending, flat
EIGEN_COLOURS = {"descending": VERMILION, "ascending": BLUE, "flat": BLACK}

#: colour maps, one per kind of quantity: a loss (sequential light greys, under the data drawn on
#: it); a change of loss from a reference point (diverging, centred on 0); many values of an
#: ordered parameter (sequential). A few values of an ordered parameter are :func:`shades` of the
#: series' colour instead, and categorical regions are :data:`REGION_COLOURS`.
LOSS_GREYS = (0.1, 0.45)
LOSS_CHANGE_CMAP = "RdBu_r"
ORDERED_CMAP = "viridis"


def loss_cmap():
    """The colour map of a loss: the light part of matplotlib's Greys (:data:`LOSS_GREYS`)."""
    from matplotlib.colors import ListedColormap

    return ListedColormap(plt.get_cmap("Greys")(np.linspace(*LOSS_GREYS, 256)))


def tint(colour, fraction: float):
    """``colour`` mixed with white (``fraction`` 0: the colour, 1: white)."""
    return tuple(c + (1.0 - c) * fraction for c in to_rgb(colour))


def shades(colour, n: int, lightest: float = 0.65) -> list:
    """``n`` shades of ``colour`` for the values of an ordered parameter, smallest value first:
    the lightest mixes ``lightest`` of white in, the last is the colour itself."""
    return [tint(colour, lightest * (n - 1 - j) / max(n - 1, 1)) for j in range(n)]


def text_colour(colour):
    """``colour`` for text on white: the colour itself when its WCAG 2 contrast against white is at
    least :data:`ssi.legibility.MIN_CONTRAST`, else it mixed with the least black that reaches it
    (in steps of 5 %). Words in a concept's colour (a verdict, an eigen-direction) keep its hue."""
    rgb = np.array(to_rgb(colour))
    for step in range(21):
        shade = tuple(rgb * (1.0 - 0.05 * step))
        if legibility.contrast_ratio(shade, (1.0, 1.0, 1.0)) >= legibility.MIN_CONTRAST:
            return shade
    return (0.0, 0.0, 0.0)


def protocol_colour(protocol: str) -> str:
    """The colour of a learning-rate protocol (:data:`PROTOCOL_STYLE`)."""
    return PROTOCOL_STYLE[protocol][0]


def protocol_marker(protocol: str) -> str:
    """The SGD marker of a learning-rate protocol (:data:`PROTOCOL_STYLE`)."""
    return PROTOCOL_STYLE[protocol][1]


#: the verdict words of the claim rows -> (colour, mark); the mark carries it without colour. These
#: colours mean a verdict in the summary figure only
VERDICT_STYLE = {"reproduced": (GREEN, "✓"), "reproduced asymptotically": (BLUE, "≈"), "differs": (VERMILION, "✗"),
                 "undecided": (GUIDE, "?")}
#: the verdict words -> (matplotlib marker, filled) of the summary figure's marks
VERDICT_MARKERS = {"reproduced": ("o", True), "reproduced asymptotically": ("^", True), "differs": ("X", True),
                   "undecided": ("s", False)}

#: registry keys (targets, students, activations, encodings, the authors' names, quantities)
#: -> what a reader sees
LABELS = {
    # targets (ssi.problems.TARGETS)
    "linear": r"$\Sigma z_l/\sqrt{L}$",
    **{f"he{k}_sum": rf"$\Sigma\,\mathrm{{He}}_{k}$ target" for k in range(1, 5)},
    **{f"he{k}_sum_norm": rf"$\Sigma\,\mathrm{{He}}_{k}/\sqrt{{L}}$ target" for k in range(1, 5)},
    "z1z2": r"$z_1 z_2$", "z1z2z3": r"$z_1 z_2 z_3$", "z1": r"$z_1$", "z1_plus_z2": r"$z_1 + z_2$",
    "z1_minus_z2": r"$z_1 - z_2$", "he2_diff": r"$h_2(z_1) - h_2(z_2)$",
    "he4_sum_plus_diff": r"$-\Sigma\,\mathrm{He}_4 + (z_1 - z_2)/\sqrt{2}$",
    "staircase": "staircase", "staircase2": "staircase of degree 2", "staircase3": "staircase of degree 3",
    "complete_staircase": "complete staircase", "mixture": "semantic–positional mixture",
    # students and activations (ssi.problems.STUDENTS, ACTIVATIONS)
    "attention": "attention", "tied": "tied network", "untied": "untied network", "matched": "matched student",
    "relu": "ReLU", "tanh": "tanh", "square": "square", "identity": "identity", "sigmoid": "sigmoid",
    "he2": r"$\mathrm{He}_2$",
    # positional encodings
    "none": "no positional encoding", "opposite": r"opposite encoding $p_2 = -p_1$",
    # the authors' names (ssi.authors)
    "tied_network": "tied network", "plain_network": "untied network",
    "H2sum": r"$\Sigma\,\mathrm{He}_2$", "inversesqrtH2sum": r"$\Sigma\,\mathrm{He}_2/\sqrt{L}$",
    "inversesqrtsum": r"$\Sigma z_l/\sqrt{L}$", "sqrtz1": r"$\sqrt{L}\,z_1$",
    "2difference": r"$z_1 - z_2$", "2squaredifference": r"$h_2(z_1) - h_2(z_2)$",
    "positional_semantic_model": "semantic–positional mixture", "sqrtdouble_staircase": r"$\sqrt{L}$ staircase",
    # protocols (escape levels: ssi.escape.Escape.symbol)
    "same_lr": r"same $\eta$ for both", "best_lr": r"best $\eta$ for each",
    # quantities
    "omega": r"$\omega$", "L": "$L$", "d": "$d$", "a": "$a$", "t": r"time $t$ = steps$/d$",
}


def label(key) -> str:
    """The words (with mathtext) a figure shows for a registry key of :data:`LABELS`."""
    try:
        return LABELS[key]
    except KeyError:
        raise ValueError(f"no label for {key!r}: add it to ssi.plotting.LABELS") from None


def sie_colour(k) -> str:
    """The colour of sequence information exponent ``k`` (grey for an infinite one)."""
    return SIE_COLOURS.get(k, GUIDE) if isinstance(k, int) else GUIDE


def sie_text(k) -> str:
    """"SIE k" in mathtext, ∞ for None or inf."""
    if k is None or (isinstance(k, float) and math.isinf(k)):
        return r"SIE $\infty$"
    return f"SIE {k}"


# --- numbers in words -------------------------------------------------------------------------
def _finite(x) -> bool:
    return x is not None and isinstance(x, (int, float)) and math.isfinite(x)


def number(x, digits: int = 2) -> str:
    """``x`` as mathtext: 0.5, 120, $3\\times10^{5}$ (never 3e+05)."""
    if not _finite(x):
        return "n/a"
    if x != 0 and (abs(x) >= 1e4 or abs(x) < 1e-3):
        exp = int(math.floor(math.log10(abs(x))))
        mant = round(x / 10 ** exp, digits - 1)
        if abs(mant) >= 10:
            mant, exp = mant / 10, exp + 1
        mant_text = f"{mant:.{digits - 1}f}".rstrip("0").rstrip(".")
        return f"$10^{{{exp}}}$" if mant_text == "1" else f"${mant_text}\\times10^{{{exp}}}$"
    if abs(x) >= 10 ** digits:
        return f"{x:.0f}"
    return f"{x:.{digits}g}"


def student_text(student: str, activation=None) -> str:
    """"tied ReLU network", "attention", "matched student"."""
    if student in ("tied", "untied") and activation:
        return f"{student} {label(activation)} network"
    return label(student)


def law(symbol: str, exponent, low=None, high=None, digits: int = 2) -> str:
    """A power law as mathtext: ``$L^{1.49\\,[1.47,\\,1.51]}$`` (the interval when given)."""
    if not _finite(exponent):
        return "no law (not reached)"
    interval = (rf"\,[{low:.{digits}f},\,{high:.{digits}f}]" if _finite(low) and _finite(high) else "")
    return f"${symbol}^{{{exponent:.{digits}f}{interval}}}$"


def verdict_line(measured: str, paper: str) -> str:
    """"measured <law> · paper <law>", the line a panel that tests a claim carries."""
    return f"measured {measured} · paper {paper}"


def claimed_law_tex(symbol: str, exponent) -> str:
    """The paper's law: $L$, $L^{2}$, $d\\,\\log^{2} d$ …"""
    if exponent == 1:
        return f"${symbol}$"
    return f"${symbol}^{{{exponent:g}}}$"


def schedule_tex(schedule: dict) -> str:
    """A learning-rate schedule η(d) (config ``schedule``) as mathtext."""
    lr = number(schedule["lr"], 3).strip("$")
    kind = schedule.get("scaling", "constant")
    d_ref = schedule.get("d_ref", 1000)
    if kind == "constant":
        return f"$\\eta = {lr}$"
    if kind == "power":
        return f"$\\eta = {lr}\\,(d/{d_ref:g})^{{{schedule['exponent']:g}}}$"
    return f"$\\eta = {lr}\\,\\log {d_ref:g}/\\log d$"


# --- axes helpers -------------------------------------------------------------------------------
def _plain(value, _pos=None) -> str:
    """A tick label in plain digits: 0.0002, 0.5, 30, 20 000 (a thin space between thousands)."""
    if value <= 0:
        return ""
    if value >= 1:
        return f"{value:,.0f}".replace(",", "\u2009") if value == round(value) else f"{value:g}"
    decimals = max(1, -math.floor(math.log10(value)) + 1)
    return f"{value:.{decimals}f}".rstrip("0").rstrip(".")


def plain_log_ticks(ax, which: str = "both") -> None:
    """A log axis spanning less than two decades gets plain numbers (1, 2, 5, 10, 20 …) at
    a few of 1–9 × 10^k, never ``2×10^0``."""
    for name in ("x", "y") if which == "both" else (which,):
        axis = ax.xaxis if name == "x" else ax.yaxis
        if axis.get_scale() != "log":
            continue
        lo, hi = sorted(axis.get_view_interval())
        if lo <= 0 or hi / lo >= 100:
            continue
        ratio = hi / lo
        steps = [1, 2, 5] if ratio > 10 else [1, 2, 3, 5] if ratio > 3 else [1, 1.5, 2, 3, 4, 5, 6, 7, 8, 9]
        axis.set_major_locator(LogLocator(base=10, subs=steps))
        axis.set_major_formatter(FuncFormatter(_plain))
        axis.set_minor_locator(LogLocator(base=10, subs=np.arange(1, 10)))
        axis.set_minor_formatter(NullFormatter())


def limits_to_data(ax, x=None, y=None, margin: float = 0.08, log: bool = True) -> None:
    """Axis limits fitted to the data arrays ``x`` / ``y`` (a relative margin in log or linear
    space), so that guides drawn beyond them never stretch the axes."""
    for values, setter in ((x, ax.set_xlim), (y, ax.set_ylim)):
        if values is None:
            continue
        v = np.asarray(values, float)
        v = v[np.isfinite(v) & ((v > 0) if log else True)]
        if not v.size:
            continue
        lo, hi = v.min(), v.max()
        if log:
            span = math.log10(hi / lo) if hi > lo else 0.3
            setter(lo / 10 ** (margin * span + 0.02), hi * 10 ** (margin * span + 0.02))
        else:
            span = hi - lo if hi > lo else max(abs(hi), 1.0)
            setter(lo - margin * span, hi + margin * span)


def guide(ax, x, y, **kwargs):
    """A reference line (a claimed law, a threshold) drawn under the data, in the guide grey."""
    kwargs.setdefault("color", GUIDE)
    kwargs.setdefault("lw", 0.8)
    kwargs.setdefault("zorder", 0.5)
    (line,) = ax.plot(x, y, **kwargs)
    line.set_gid("guide")
    return line


LEGEND_PLACES = ("upper left", "upper right", "lower right", "lower left", "center left", "center right",
                 "upper center", "lower center", "center")


#: False inside :func:`undrawn`
_drawing = True


@contextlib.contextmanager
def undrawn():
    """Inside this block figures are built but not drawn: :func:`place_legend` puts a legend at
    the first of :data:`LEGEND_PLACES` without measuring, :func:`save_figure` writes
    nothing. For code that needs what a plotting function reads, not what it draws."""
    global _drawing
    previous, _drawing = _drawing, False
    try:
        yield
    finally:
        _drawing = previous


def place_legend(ax, handles=None, outside: str = "below", inside: bool = True, **kwargs):
    """A legend inside ``ax`` at the first of :data:`LEGEND_PLACES` where it covers no data
    (ssi.legibility.covered_by); outside the axes (``outside``: "right" or "below", under the x
    label) when none is free or ``inside`` is False. Call it once the figure's other legends
    exist: it places against the layout of the moment."""
    kwargs.setdefault("frameon", False)
    if handles is not None:
        kwargs["handles"] = handles
    if not _drawing:
        return ax.legend(loc=LEGEND_PLACES[0], **kwargs)
    fig = ax.figure
    fig.draw_without_rendering()
    renderer = fig.canvas.get_renderer()
    for loc in LEGEND_PLACES if inside else ():
        legend = ax.legend(loc=loc, **kwargs)
        if not legibility.covered_by(ax, legend.get_window_extent(renderer)):
            return legend
    if outside == "below":        # under the x label, a fixed distance in points (survives re-layout)
        drop = (ax.bbox.y0 - ax.get_tightbbox(renderer).y0) * 72 / fig.dpi + 2
        anchor = ax.transAxes + ScaledTranslation(0, -drop / 72, fig.dpi_scale_trans)
        return ax.legend(loc="upper center", bbox_to_anchor=(0.5, 0.0), bbox_transform=anchor, **kwargs)
    return ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, **kwargs)


def place_legends(requests) -> list:
    """Legends for several axes of one figure: ``requests`` is a list of (axes, kwargs of
    :func:`place_legend`). A legend placed outside its axes moves the others (the layout
    changes), so each is checked again once all exist and placed again where it now covers data."""
    legends = [place_legend(ax, **kwargs) for ax, kwargs in requests]
    if not _drawing:
        return legends
    for _ in range(2):
        fig = requests[0][0].figure if requests else None
        if fig is None:
            break
        fig.draw_without_rendering()
        renderer = fig.canvas.get_renderer()
        moved = False
        for i, (ax, kwargs) in enumerate(requests):
            if legibility.covered_by(ax, legends[i].get_window_extent(renderer)):
                legends[i] = place_legend(ax, **kwargs)
                moved = True
        if not moved:
            break
    else:                          # still moving: what covers data now goes outside its axes
        fig = requests[0][0].figure
        fig.draw_without_rendering()
        renderer = fig.canvas.get_renderer()
        for i, (ax, kwargs) in enumerate(requests):
            if legibility.covered_by(ax, legends[i].get_window_extent(renderer)):
                legends[i] = place_legend(ax, **{**kwargs, "inside": False})
    return legends


def note(ax, text: str, loc: str = "upper left", **kwargs):
    """A short text (a verdict line) in a corner of ``ax``, on a white box."""
    x, ha = (0.03, "left") if "left" in loc else (0.97, "right") if "right" in loc else (0.5, "center")
    y, va = (0.96, "top") if "upper" in loc else (0.04, "bottom")
    kwargs.setdefault("fontsize", 7.5)
    return ax.text(x, y, text, transform=ax.transAxes, ha=ha, va=va,
                   bbox={"fc": "white", "ec": "none", "alpha": 0.85, "pad": 1.0}, **kwargs)


# --- style and saving ---------------------------------------------------------------------------
_RC = {
    "font.family": "DejaVu Sans",
    "mathtext.fontset": "dejavusans",
    "font.size": 8,
    "axes.titlesize": 8,
    "axes.labelsize": 8,
    "legend.fontsize": 7.5,
    "legend.handlelength": 1.8,
    "xtick.labelsize": 7.5,
    "ytick.labelsize": 7.5,
    "lines.linewidth": 1.2,
    "lines.markersize": 4,
    "axes.linewidth": 0.6,
    "axes.prop_cycle": matplotlib.cycler(color=PALETTE),
    "axes.formatter.use_mathtext": True,
    "figure.dpi": 150,
    "savefig.dpi": 300,
    "pdf.fonttype": 42,
    "svg.fonttype": "path",
    "svg.hashsalt": "ssi",
    "text.usetex": False,
    "path.simplify": False,
}


def apply_style() -> None:
    """Set the repository's matplotlib style (idempotent)."""
    os.environ["SOURCE_DATE_EPOCH"] = "0"
    matplotlib.rcParams.update(_RC)


_METADATA = {
    "pdf": {"Creator": None, "Producer": None, "CreationDate": None, "ModDate": None},
    "png": {"Software": None},
    "svg": {"Date": None, "Creator": None},
}


def save_figure(fig, path) -> None:
    """Save ``fig`` to ``path`` (format from the suffix: pdf, png or svg), byte-reproducibly.
    Inside :func:`undrawn` nothing is written."""
    path = Path(path)
    fmt = path.suffix.lstrip(".")
    if fmt not in _METADATA:
        raise ValueError(f"figure format {fmt!r} is not supported; use pdf, png or svg")
    if not _drawing:
        return
    apply_style()
    buffer = io.BytesIO()
    fig.savefig(buffer, format=fmt, metadata=_METADATA[fmt])
    atomic_write_bytes(path, buffer.getvalue())


def new_figure(ncols=1, nrows=1, width=WIDTH_DOUBLE, height=2.4, **kwargs):
    """A figure and axes in the repository's style (``width``: :data:`WIDTH_SINGLE` or
    :data:`WIDTH_DOUBLE`)."""
    apply_style()
    return plt.subplots(nrows, ncols, figsize=(width, height), layout="constrained", **kwargs)


# --- a figure's finding and its panel letters ----------------------------------------------------
#: a figure's finding lines (the first lines, above the panels), points
FINDING_SIZE = 8
#: a panel letter (a, b, c …), bold, at the top left of its panel
LETTER_STYLE = {"fontsize": 9, "fontweight": "bold"}
#: the face of an open marker (a second escape level, a place rather than a measurement)
OPEN_FACE = "white"
_CARET = re.compile(r"\^\{?([-−]?[\d.½]+)\}?")
_SUBSCRIPT = re.compile(r"\b([A-Za-z])_([A-Za-z]+)\b")
#: words a line break never separates from the next (a relation, a unit)
_GLUED_BEFORE = ("=", "≈", "−", "×", "<", ">", "≤", "≥", "%", "→")


def math_words(text: str) -> str:
    r"""``text`` with the ASCII powers and subscripts of a verdict row set as mathtext, outside
    ``$…$``: ``d^1.02`` → d$^{1.02}$, ``d^-½`` → d$^{-1/2}$, ``t_max`` → $t_{\mathrm{max}}$."""
    parts = re.split(r"(?<!\\)(\$[^$]*\$)", text)

    def plain(part: str) -> str:
        part = _CARET.sub(lambda m: "$^{" + m.group(1).replace("−", "-").replace("½", "1/2") + "}$", part)
        return _SUBSCRIPT.sub(r"$\1_{\\mathrm{\2}}$", part)

    return "".join(p if p.startswith("$") else plain(p) for p in parts)


def finding_text(row: dict, headline: bool = True) -> str:
    """The finding of one claim row of the verdict file (``figures/VERDICTS.json``, written by
    :mod:`ssi.verdicts`) as a figure shows it: its short name, verdict mark and word, then its
    headline (the measured law with its interval and the paper's law), powers set as mathtext.

    Parameters
    ----------
    row : dict
        One entry of the verdict file's ``rows`` (keys ``short``, ``verdict``, ``headline``).
    headline : bool
        Append the headline after the verdict (``False``: name, mark and verdict only).

    Returns
    -------
    str
        For example ``"C4 SIE 2 ✗ differs: gain ∝ L$^{0.91}$ [0.86, 0.97] …"``.
    """
    mark = VERDICT_STYLE[row["verdict"]][1]
    text = f"{row['short']} {mark} {row['verdict']}"
    return math_words(text + ": " + row["headline"]) if headline else text


def wrap_to_width(fig, text: str, fontsize: float, width_pt: float) -> str:
    """``text`` broken at spaces into lines no wider than ``width_pt`` points as ``fig`` sets them,
    never inside ``$…$`` nor before a relation, a minus sign or a unit (:data:`_GLUED_BEFORE`)."""
    from matplotlib.font_manager import FontProperties

    renderer = fig.canvas.get_renderer()
    prop = FontProperties(size=fontsize)
    scale = fig.dpi / 72

    def width(line: str) -> float:
        return renderer.get_text_width_height_descent(line, prop, ismath=line.count("$") >= 2)[0] / scale

    words = []
    for word in text.split(" "):
        if words and (words[-1].count("$") % 2 or word in _GLUED_BEFORE or words[-1] in _GLUED_BEFORE):
            words[-1] += " " + word
        else:
            words.append(word)
    lines, line = [], ""
    for word in words:
        trial = f"{line} {word}" if line else word
        if line and width(trial) > width_pt:
            lines.append(line)
            line = word
        else:
            line = trial
    return "\n".join(lines + [line])


def finding_title(fig, rows, extra: str = "", headline: bool = True):
    """The figure's finding above its panels: one claim row of the verdict file per paragraph
    (:func:`finding_text`, then ``extra`` after the first), wrapped to the figure's width, left
    aligned, :data:`FINDING_SIZE` points. Nothing without rows (the quick config's figures drawn
    outside the workflow, the figure data's dry run)."""
    if not rows:
        return None
    width_pt = fig.get_figwidth() * 72 - 10
    text = "\n".join(wrap_to_width(fig, finding_text(row, headline) + (math_words(extra) if i == 0 else ""),
                                   FINDING_SIZE, width_pt) for i, row in enumerate(rows))
    return fig.suptitle(text, x=0.01, ha="left", multialignment="left", fontsize=FINDING_SIZE)


def panel_letters(axes, letters: str = "abcdefghijklmnopqrstuvwxyz") -> None:
    """Bold letters (:data:`LETTER_STYLE`) a, b, c … in the order of ``axes`` at the top left of
    each visible one: above the frame, level with the left edge of its y tick labels and label.
    Call it once the panels are drawn in full (it lays the figure out to measure them); a y label
    must not be longer than its panel is high."""
    axes = [ax for ax in np.ravel(np.asarray(axes, dtype=object)) if ax.get_visible()]
    if not axes:
        return
    fig = axes[0].figure
    while fig.figure is not fig:                  # a subfigure: lay out the whole figure
        fig = fig.figure
    fig.draw_without_rendering()
    renderer = fig.canvas.get_renderer()
    for letter, ax in zip(letters, axes):
        left = (ax.bbox.x0 - ax.yaxis.get_tightbbox(renderer).x0) * 72 / fig.dpi
        mark = ax.annotate(letter, xy=(0, 1), xycoords="axes fraction", xytext=(-left, 5), textcoords="offset points",
                           ha="left", va="bottom", **LETTER_STYLE)
        # level with a title, whose room the layout keeps: then the letter needs none of its own
        mark.set_in_layout(not any(ax.get_title(loc) for loc in ("center", "left", "right")))


def thin_by_distance(x, y, xlim, ylim, gap: float = TRAJECTORY_MARKER_GAP) -> np.ndarray:
    """Indices of the points of a curve (x > 0, log x axis) inside ``xlim`` to draw as markers where
    the records are denser than markers can be: the first, then each one at least ``gap``
    (fraction of the axes) from the last kept, the last one too."""
    u = (np.log10(np.asarray(x, float)) - math.log10(xlim[0])) / (math.log10(xlim[1] / xlim[0]) or 1.0)
    v = (np.asarray(y, float) - ylim[0]) / ((ylim[1] - ylim[0]) or 1.0)
    keep, last = [], None
    for i in np.flatnonzero((u >= 0) & np.isfinite(v)):
        if last is None or math.hypot(u[i] - u[last], v[i] - v[last]) >= gap:
            keep.append(i)
            last = i
    if keep and keep[-1] != len(u) - 1 and np.isfinite(v[-1]):
        keep.append(len(u) - 1)
    return np.array(keep, int)


def thin_records(t, per_decade=None, n=None) -> np.ndarray:
    """Indices of the records of ``t`` (t > 0) nearest to a grid: ``per_decade`` points a decade in
    log t, or ``n`` points evenly spaced in t: where a trajectory's SGD markers go (every record
    stays in its line)."""
    pos = np.nonzero(np.asarray(t) > 0)[0]
    if pos.size < 2:
        return pos
    tp = np.asarray(t, float)[pos]
    if per_decade:
        key = np.log10(tp)
        grid = np.linspace(key[0], key[-1], max(2, int(round(per_decade * (key[-1] - key[0]))) + 1))
    else:
        key = tp
        grid = np.linspace(tp[0], tp[-1], n)
    return pos[np.unique(np.abs(np.subtract.outer(grid, key)).argmin(axis=1))]
