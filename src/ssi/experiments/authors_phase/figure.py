"""The authors' phase diagram, the figure: their regions, ours, and the cells where they differ."""
from __future__ import annotations

import numpy as np

from ... import phase
from ...io import load_result
from .jobs import check_spec, stems
from .numbers import verdicts as bit_verdicts
from .rule import BITS


# --- figure -------------------------------------------------------------------------------------------
#: marker colours of the differing bits in the comparison panel: names of ssi.plotting's Okabe–Ito
#: colours (looked up when drawing, so that importing this module does not import matplotlib)
BIT_COLOURS = {"global": "BLACK", "dynamics": "PURPLE", "multiple": "GREEN"}
#: what each bit of the region code says, in words
BIT_WORDS = {"global": "the global minimum", "dynamics": "the initial direction", "multiple": "the number of minima"}

#: the figures, in the figures folder without suffix (ssi.experiments.registry)
FIGURES = ("authors/phase_diagram_comparison",)


def plot(config, out_paths, numbers=None, load=load_result, verdicts: list[dict] | None = None) -> None:
    """Per diagram: their regions (their quadrature), ours, and the cells where they differ
    (coloured by the differing bit; open circle where the refined computation sides with them).

    ``load(stem)`` reads a result (ssi.experiments.figure_data: results/ or the figure data);
    ``numbers`` is not needed here; ``verdicts``: the rows of the verdict file whose result is this
    one, stated as the figure's first line (None or []: no finding line)."""
    import matplotlib.pyplot as plt
    from matplotlib.colors import ListedColormap
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    from ... import plotting
    from ...plotting import (COLOURS, REGION_COLOURS, WIDTH_DOUBLE, finding_title, new_figure, panel_letters,
                            save_figure)

    section = check_spec(config)
    names = list(section["diagrams"])
    fig, axes = new_figure(ncols=3, nrows=len(names), width=WIDTH_DOUBLE,
                           height=2.3 * len(names) + 1.5 + (0.35 if verdicts else 0.0), squeeze=False)
    cmap = ListedColormap(REGION_COLOURS)
    bit_colours = {bit: getattr(plotting, name) for bit, name in BIT_COLOURS.items()}
    present = set()
    for row, name in enumerate(names):
        data, meta = load(stems(config)[name])
        a, w = data["a"], data["omega"]
        A, W = np.meshgrid(a, w)
        spec = meta["config"]
        theirs, ours = data["gh_region"], data["ours_region"]
        present |= set(np.unique(theirs)) | set(np.unique(ours))
        differ = theirs != ours
        titles = (f"authors' rule, {spec['points']}-point quadrature",
                  "ours: polar grid and L-BFGS",
                  f"{int(differ.sum())} cells differ ({100 * differ.mean():.2f} %)")
        for col, reg in enumerate((theirs, ours, ours)):
            ax = axes[row, col]
            ax.pcolormesh(a, w, reg, cmap=cmap, vmin=-0.5, vmax=7.5, shading="nearest", rasterized=True,
                          alpha=0.25 if col == 2 else 1.0)
            ax.set_xlim(a[0], a[-1])
            ax.set_ylim(w[0], w[-1])
            ax.set_xlabel("pattern strength $a$")
            ax.set_ylabel(r"$\omega$", rotation=0, labelpad=6)
            ax.set_title(titles[col], fontsize=7.5)
        ax = axes[row, 2]
        v = bit_verdicts(data, "gh")
        idx = data["refined_index"]
        for b, bit in enumerate(BITS):
            sel = np.flatnonzero((((theirs ^ ours) >> b) & 1).ravel())
            ax.scatter(A.ravel()[sel], W.ravel()[sel], s=2, color=bit_colours[bit], lw=0, rasterized=True)
            right = idx[v[bit] == "theirs"]
            ax.scatter(A.ravel()[right], W.ravel()[right], s=14, facecolors="none", edgecolors=COLOURS["sgd"],
                       lw=0.5)
    handles = [Patch(color=REGION_COLOURS[k], label=phase.REGION_NAMES[k]) for k in sorted(present)]
    handles += [Line2D([], [], ls="", marker="o", ms=4, color=bit_colours[bit],
                       label=f"cells that differ in {BIT_WORDS[bit]}") for bit in BIT_COLOURS]
    handles += [Line2D([], [], ls="", marker="o", ms=5, mfc="none", mec=COLOURS["sgd"],
                       label="the refined computation sides with the authors")]
    fig.legend(handles=handles, loc="outside lower center", ncol=2, fontsize=7, frameon=False)
    panel_letters(axes.ravel())
    finding_title(fig, verdicts)
    for path in out_paths:
        save_figure(fig, path)
    plt.close(fig)
