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
# # Two phases of training (claims C2 and C6), from the workflow's results
#
# This notebook reads the results that `snakemake` wrote (it never simulates) and redraws
# the two-phases figure: the overlap |m| of one-pass SGD (each replicate and their mean)
# against the ODE, on a log time axis (the escape plateau), and 1 − mean |m| on a log
# scale (the exponential alignment). It also prints the escape-time table that the
# workflow commits as `numbers/two_phases.json`.
#
# Run it as a script from the repository root (`python notebooks/two_phases.py`), or open
# it in Jupyter (`jupytext --to notebook notebooks/two_phases.py`, or the jupytext
# extension). Produce the results first:
#
# * paper scale: `snakemake --cores all` (results under `results/`);
# * toy scale: `snakemake --cores all --configfile config/quick.yaml` (under `results/quick/`).

# %%
import tempfile
from pathlib import Path

import numpy as np

from ssi.experiments import two_phases
from ssi.experiments.notebook import results_config
from ssi.io import load_result

CONFIG, config = results_config(two_phases, ("sgd", "ode"))

# %% [markdown]
# ## The results: one SGD file (all replicates) and one ODE file per (case, d)

# %%
sgd_stems, ode_stems = two_phases.stems(config, "sgd"), two_phases.stems(config, "ode")
runs = {}
for key in sgd_stems:
    sgd, sgd_meta = load_result(sgd_stems[key])
    ode, ode_meta = load_result(ode_stems[key])
    runs[key] = {"sgd": sgd, "sgd_meta": sgd_meta, "ode": ode, "ode_meta": ode_meta}

print(f"{'case':<8}{'d':>9}{'lr':>10}{'replicates':>12}{'steps':>11}  engine   git commit")
for (case, d), run in runs.items():
    meta = run["sgd_meta"]
    print(f"{case:<8}{d:>9}{meta['lr']:>10.4g}{meta['replicates']:>12}{meta['steps']:>11}  "
          f"{meta['engine']:<8} {meta['provenance']['git_commit'][:12]}")

# %% [markdown]
# ## Escape times: SGD (replicate mean of |m|) against the ODE
#
# `two_phases.summarise` is the function the workflow uses for `numbers/two_phases.json`.

# %%
summary = two_phases.summarise(config)
print(f"escape level: |m| = {summary['escape_level']}")
columns = list(summary["rows"][0])
widths = [max(len(c), 10) for c in columns]


def cell(value, width):
    if isinstance(value, float):
        return f"{value:>{width}.4g}"
    return f"{value!s:>{width}}"


print("  ".join(f"{c:>{w}}" for c, w in zip(columns, widths)))
for row in summary["rows"]:
    print("  ".join(cell(row[c], w) for c, w in zip(columns, widths)))

# %% [markdown]
# ## The figure, drawn here (change anything below and re-run the cell)
#
# Thin lines: each SGD replicate; solid: their mean; dashed: the ODE from the same
# m₀ = d^(−1/2) and learning rate; dotted: the ODE's escape time.

# %%
import matplotlib.pyplot as plt  # noqa: E402  (after ssi.plotting has chosen the backend)

from ssi.plotting import PALETTE, new_figure  # noqa: E402

level = config["two_phases"]["escape_level"]
cases = list(config["two_phases"]["cases"])
fig, axes = new_figure(ncols=len(cases), nrows=2, height=4.2, squeeze=False)
for col, case in enumerate(cases):
    top, bottom = axes[0, col], axes[1, col]
    dims = sorted(d for (c, d) in runs if c == case)
    for i, d in enumerate(dims):
        colour = PALETTE[i % len(PALETTE)]
        sgd, ode = runs[(case, d)]["sgd"], runs[(case, d)]["ode"]
        t = sgd["steps"] / d
        keep = t > 0
        overlap = np.abs(sgd["m"])
        mean = overlap.mean(axis=0)
        top.plot(t[keep], overlap[:, keep].T, color=colour, lw=0.3, alpha=0.35)
        top.plot(t[keep], mean[keep], color=colour, lw=1.0, label=f"SGD d={d:.0e}")
        ode_overlap = np.abs(ode["m"])
        keep_ode = ode["t"] > 0
        top.plot(ode["t"][keep_ode], ode_overlap[keep_ode], color=colour, lw=2.4, alpha=0.55, ls="--",
                 label=f"ODE d={d:.0e}")
        t_escape = two_phases.crossing_time(ode["t"], ode_overlap, level)
        if np.isfinite(t_escape):
            top.axvline(t_escape, color=colour, lw=0.6, ls=":")
        bottom.semilogy(t, np.clip(1 - mean, 1e-6, None), color=colour, lw=1.0)
        bottom.semilogy(ode["t"], np.clip(1 - ode_overlap, 1e-6, None), color=colour, lw=2.4, alpha=0.55,
                        ls="--")
    problem = config["two_phases"]["cases"][case]["problem"]
    top.set_xscale("log")
    top.set_ylim(-0.05, 1.02)
    top.set_title(f"{case}: {problem['target']}, {problem['student']}")
    top.set_xlabel("t = steps/d")
    bottom.set_xlabel("t = steps/d")
    if col == 0:
        top.set_ylabel("overlap |m|")
        bottom.set_ylabel("1 − mean |m|")
        top.legend(loc="upper left", frameon=False)
fig  # noqa: B018  (displays the figure in Jupyter)

# %% [markdown]
# ## The committed figure, re-rendered by the workflow's own plotting function
#
# `two_phases.plot` is what the `two_phases_plot` rule runs; here it writes into a
# temporary folder, and the files are compared with the workflow's figures when present.

# %%
from ssi.io import sha256_file  # noqa: E402

with tempfile.TemporaryDirectory(prefix="ssi-notebook-") as tmp:
    outputs = [f"{tmp}/two_phases.pdf", f"{tmp}/two_phases.png"]
    two_phases.plot(config, outputs)
    for path in outputs:
        name = Path(path).name
        committed = Path(config["figures_dir"]) / name
        if committed.is_file():
            same = sha256_file(path) == sha256_file(committed)
            status = "identical to" if same else "DIFFERS from"
            print(f"{name}: {Path(path).stat().st_size} bytes, {status} {committed}")
        else:
            print(f"{name}: {Path(path).stat().st_size} bytes ({committed} not built yet)")
