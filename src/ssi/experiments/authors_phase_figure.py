"""The authors' phase diagram, the figure: their regions, ours, and the cells where they differ."""
from __future__ import annotations

import numpy as np

from .. import phase
from ..io import load_result
from .authors_phase_jobs import check_spec, stems
from .authors_phase_numbers import verdicts
from .authors_phase_rule import BITS


# --- figure -------------------------------------------------------------------------------------------
#: marker colours of the differing bits in the comparison panel (Okabe–Ito black, purple, green)
BIT_COLOURS = {"global": "#000000", "dynamics": "#CC79A7", "multiple": "#009E73"}


def plot(config, out_paths, numbers=None, load=load_result) -> None:
    """Per diagram: their regions (their quadrature), ours, and the cells where they differ
    (coloured by the differing bit; open circle where the refined computation sides with them).

    ``load(stem)`` reads a result (ssi.experiments.figure_data: results/ or the figure data);
    ``numbers`` is not needed here."""
    import matplotlib.pyplot as plt
    from matplotlib.colors import ListedColormap
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    from ..plotting import REGION_COLOURS, WIDTH_DOUBLE, new_figure, save_figure

    section = check_spec(config)
    names = list(section["diagrams"])
    fig, axes = new_figure(ncols=3, nrows=len(names), width=WIDTH_DOUBLE, height=2.3 * len(names) + 1.3,
                           squeeze=False)
    cmap = ListedColormap(REGION_COLOURS)
    present = set()
    for row, name in enumerate(names):
        data, meta = load(stems(config)[name])
        a, w = data["a"], data["omega"]
        A, W = np.meshgrid(a, w)
        spec = meta["config"]
        theirs, ours = data["gh_region"], data["ours_region"]
        present |= set(np.unique(theirs)) | set(np.unique(ours))
        differ = theirs != ours
        titles = (f"{name}: the authors' rule ({spec['points']}-point quadrature)",
                  f"{name}: ours (polar grid and L-BFGS)",
                  f"{name}: {int(differ.sum())} cells differ ({100 * differ.mean():.2f} %)")
        for col, reg in enumerate((theirs, ours, ours)):
            ax = axes[row, col]
            ax.pcolormesh(a, w, reg, cmap=cmap, vmin=-0.5, vmax=7.5, shading="nearest", rasterized=True,
                          alpha=0.25 if col == 2 else 1.0)
            ax.set_xlim(a[0], a[-1])
            ax.set_ylim(w[0], w[-1])
            ax.set_xlabel("$a$")
            ax.set_ylabel(r"$\omega$", rotation=0, labelpad=6)
            ax.set_title(titles[col], fontsize=6.5)
        ax = axes[row, 2]
        v = verdicts(data, "gh")
        idx = data["refined_index"]
        for b, bit in enumerate(BITS):
            sel = np.flatnonzero((((theirs ^ ours) >> b) & 1).ravel())
            ax.scatter(A.ravel()[sel], W.ravel()[sel], s=2, color=BIT_COLOURS[bit], lw=0, rasterized=True)
            right = idx[v[bit] == "theirs"]
            ax.scatter(A.ravel()[right], W.ravel()[right], s=14, facecolors="none", edgecolors="k", lw=0.5)
    handles = [Patch(color=REGION_COLOURS[k], label=phase.REGION_NAMES[k]) for k in sorted(present)]
    handles += [Line2D([], [], ls="", marker="o", ms=4, color=c, label=f"cells where the {bit} bit differs")
                for bit, c in BIT_COLOURS.items()]
    handles += [Line2D([], [], ls="", marker="o", ms=5, mfc="none", mec="k",
                       label="the refined computation sides with the authors")]
    fig.legend(handles=handles, loc="outside lower center", ncol=2, fontsize=6, frameon=False)
    for path in out_paths:
        save_figure(fig, path)
    plt.close(fig)

