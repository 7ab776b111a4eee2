# ---
# jupyter:
#   jupytext:
#     formats: py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # The authors' phase-diagram script against ours (claim C5)
#
# **What the paper claims.** The semantic/positional phase diagram of the paper (claim C5,
# notebook `semantic_positional.py`) was drawn by a script in the authors' public repository
# (`analytic/positional-semantic_phase-diagram.py`). It classifies each (a, ω) by three bits:
# whether the global minimum of the population loss R(e, m) is positional, whether the initial
# dynamics at (0, 0) is, and whether there is more than one local minimum. The question here: does
# their script's diagram agree with ours, and where it does not, which one is right?
#
# Three diagrams per (a, ω) grid: **theirs** (their classification rule with their 4-D
# Gauss–Hermite quadrature), **their rule on our landscape** (the same rule, the loss from our
# integrals), and **ours** (`ssi.phase`). Every cell where they differ is decided by a refined
# computation (finer grids, direct quadrature with an error bound). This notebook redraws the
# comparison figure with the package's plotting function from the committed key numbers
# `figures/numbers/authors_phase.json` and figure data `figures/data/authors_phase.npz` (the three
# region maps and the refined verdicts of the differing cells). It runs in a fresh clone.

# %%
from ssi.experiments.notebook import open_result, show_table

result = open_result("authors_phase")
numbers = result.numbers

# %% [markdown]
# ## What was run
#
# Their two settings: the active "fast" block on [0.7, 1] × [0.4, 1], and the rule of their
# commented "complete" block on [0, 1]², both on 200 × 200 (a, ω) grids so that they line up with
# our diagram.

# %%
show_table([dict(name=name, **d["config"]) for name, d in numbers["diagrams"].items()],
           ["name", "a", "omega", "points", "resolution", "fast"])

# %% [markdown]
# ## The figure
#
# **What to look at.** One row per grid. Left: their regions; middle: ours (same colours as the
# phase diagram of `semantic_positional.py`); right: the cells that differ, coloured by the bit
# that differs (global, dynamics, multiple), with an open circle where the refined computation
# sides with the authors. Few open circles means their script is wrong where the two disagree.

# %%
result.draw("authors/phase_diagram_comparison")

# %% [markdown]
# **What the figure shows.** Most cells agree; the differences sit along region boundaries, and the
# refined computation sides with our diagram on almost every differing bit:

# %%
show_table([{"grid": name, "cells differing": d["disagreement"]["theirs_vs_ours"]["cells"],
             "fraction": d["disagreement"]["theirs_vs_ours"]["fraction"],
             **{f"{bit} bit": n for bit, n in d["disagreement"]["theirs_vs_ours"]["bits"].items()},
             "ours right": sum(v["ours"] for v in d["verdicts"]["theirs"].values()),
             "theirs right": sum(v["theirs"] for v in d["verdicts"]["theirs"].values())}
            for name, d in numbers["diagrams"].items()],
           ["grid", "cells differing", "fraction", "global bit", "dynamics bit", "multiple bit", "ours right", "theirs right"],
           {"fraction": ".2%"})

# %% [markdown]
# ## Why their script is wrong where it is: quadrature or rule
#
# Running their rule on our landscape separates the two causes. A bit that is right when their rule
# reads our loss, but wrong with their loss, is a **quadrature** error: a 4-D tensor Gauss–Hermite
# rule with 17–20 points per axis makes errors of 10⁻³–10⁻² in the first and second derivatives
# that decide the classification near region boundaries (and gives N(e) and M(e), which do not
# depend on m, a spurious m-dependence). This includes their Hessian at the origin: its dynamics
# bits are right when their rule reads our loss (the "dynamics" row of the tables below). A bit
# that is wrong in both is the **rule** itself (the corner tests, the e > ½ threshold, the grid
# minima in fast mode).
# The causes, bit by bit (the full tables, areas per region, off-diagonal cells and verdicts, are on
# docs/results/authors-phase.md):

# %%
show_table([{"grid": name, "bit": bit, **v} for name, d in numbers["diagrams"].items()
            for bit, v in d["why_theirs_wrong"].items()],
           ["grid", "bit", "their_bit_wrong", "right_with_our_landscape (quadrature)",
            "wrong_with_our_landscape too (rule)"])

# %% [markdown]
# ## The claim, as measured

# %%
result.claims()

# %% [markdown]
# ## Where it differs from the paper's figure, and why
#
# The regions of the paper's diagram are there, with the same shapes; their script misclassifies a
# few percent of the cells near the boundaries, mostly the "multiple minima" bit, because its
# quadrature is too coarse for the derivatives that decide it. The areas of the regions, and so the
# size of the misaligned band, change by about as much. docs/results/authors-phase.md describes
# their script fact by fact and the refinement in full.
#
# ## Change it
#
# The parameters are `authors_phase` in `config/config.yaml` (the grids, their quadrature points,
# fast or full mode, the refinement grid). `snakemake --cores all authors_phase_plot
# figures/data/authors_phase.npz` recomputes the results, numbers and figure; this notebook then
# shows the new ones.
