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
# # The authors' phase-diagram rule against ours (claim C5), from the workflow's results
#
# This notebook reads the results that `snakemake` wrote (it never computes a diagram) and prints
# the key numbers of `ssi.experiments.authors_phase`: for each configured (a, ω) grid, the share of
# cells where the authors' classification rule (their Gauss–Hermite quadrature) and ours put a
# cell in a different region, which bit differs, and who the refined computation sides with. It
# then re-renders the comparison figure with the workflow's plotting function. The method and
# the full tables: docs/results/authors-phase.md.
#
# Run it from the repository root (`python notebooks/authors_phase.py`) or as a notebook
# (`jupytext --to notebook --execute notebooks/authors_phase.py`). Produce the results first:
# `snakemake --cores all authors_phase_plot` (paper scale) or
# `snakemake --cores all --configfile config/quick.yaml` (toy scale).

# %%
from ssi.experiments import authors_phase as ap
from ssi.experiments.notebook import print_table, results_config, rerender

CONFIG, config = results_config(ap, ("reference", "diagram"))
summary = ap.summarise(config)

# %% [markdown]
# ## Cells where the two classifications differ, by differing bit

# %%
rows = []
for name, diagram in summary["diagrams"].items():
    for pair, d in diagram["disagreement"].items():
        rows.append({"diagram": name, "comparison": pair, "cells": d["cells"], "fraction": d["fraction"],
                     **{f"bit {k}": v for k, v in d["bits"].items()}})
print_table(rows, ["diagram", "comparison", "cells", "fraction", "bit dynamics", "bit global", "bit multiple"],
            [8, 36, 6, 9, 13, 11, 13])

# %% [markdown]
# ## Who is right where they differ (refined computation), per differing bit

# %%
for name, diagram in summary["diagrams"].items():
    for source, verdicts in diagram["verdicts"].items():
        print(f"\n{name}, {source} vs ours:")
        for bit, counts in verdicts.items():
            print(f"  {bit:<9}" + ", ".join(f"{k} {v}" for k, v in counts.items()))

# %% [markdown]
# ## The figure, re-rendered by the workflow's plotting function

# %%
rerender(ap.plot, config, [f"authors/phase_diagram_comparison.{ext}" for ext in ("pdf", "png")])
