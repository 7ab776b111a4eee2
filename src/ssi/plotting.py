"""One deterministic style for every figure, and byte-reproducible saving.

Figures are drawn with the Agg backend and the DejaVu fonts that matplotlib
ships, never with usetex. Saving strips the metadata that would change from
run to run (creation dates, software versions), fixes SOURCE_DATE_EPOCH and
the SVG hash salt, and writes each file atomically.
"""
from __future__ import annotations

import io
import os
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.colors import to_rgb  # noqa: E402

from .io import _atomic_write_bytes  # noqa: E402

#: figure width of one column / two columns, inches
WIDTH_SINGLE = 3.4
WIDTH_DOUBLE = 7.0
#: seaborn's "colorblind" palette, ``seaborn.color_palette("colorblind")`` as RGB tuples.
#: Written out because importing seaborn (pandas, scipy.stats) costs ~1 s in every figure job
#: for these ten colours; tests/test_plotting.py checks that it is seaborn's, value for value.
PALETTE = [to_rgb(h) for h in ("#0173B2", "#DE8F05", "#029E73", "#D55E00", "#CC78BC",
                               "#CA9161", "#FBAFE4", "#949494", "#ECE133", "#56B4E9")]

_RC = {
    "font.family": "DejaVu Sans",
    "font.size": 8,
    "axes.titlesize": 8,
    "axes.labelsize": 8,
    "legend.fontsize": 7,
    "xtick.labelsize": 7,
    "ytick.labelsize": 7,
    "lines.linewidth": 1.2,
    "axes.prop_cycle": matplotlib.cycler(color=PALETTE),
    "figure.dpi": 150,
    "savefig.dpi": 200,
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
    """Save ``fig`` to ``path`` (format from the suffix: pdf, png or svg), byte-reproducibly."""
    path = Path(path)
    fmt = path.suffix.lstrip(".")
    if fmt not in _METADATA:
        raise ValueError(f"figure format {fmt!r} is not supported; use pdf, png or svg")
    apply_style()
    buffer = io.BytesIO()
    fig.savefig(buffer, format=fmt, metadata=_METADATA[fmt])
    _atomic_write_bytes(path, buffer.getvalue())


def new_figure(ncols=1, nrows=1, width=WIDTH_DOUBLE, height=2.4, **kwargs):
    """A figure and axes in the repository's style."""
    apply_style()
    return plt.subplots(nrows, ncols, figsize=(width, height), constrained_layout=True, **kwargs)
