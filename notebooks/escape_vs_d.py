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
# # Escape time against d (claim C1), from the workflow's results
#
# This notebook reads the results that `snakemake` wrote (it never simulates) and prints the key
# numbers of `ssi.experiments.escape_vs_d`: for each SIE k = 1..4, the steps until the replicate
# mean of m reaches the early level (2/√d) and the macroscopic level, against d, with bootstrap
# bars and the ODE, the fitted exponents next to the claimed law, and the explicit-vs-reduced
# engine check. It then re-renders the figure with the workflow's own plotting function.
#
# Run it as a script from the repository root (`python notebooks/escape_vs_d.py`), or as a
# notebook (`pip install -e ".[notebooks]"`, then
# `jupytext --to notebook --execute notebooks/escape_vs_d.py`, or `jupyter lab`). Produce the
# results first:
#
# * paper scale: `snakemake --cores all escape_vs_d_plot` (results under `results/`);
# * toy scale: `snakemake --cores all --configfile config/quick.yaml` (under `results/quick/`).

# %%
from ssi.experiments import escape_vs_d
from ssi.experiments.notebook import print_table, rerender, results_config

CONFIG, config = results_config(escape_vs_d, ("sgd", "ode"))
summary = escape_vs_d.summarise(config)

# %% [markdown]
# ## Mean-crossing steps against d, per case and engine (bars: 16–84 % bootstrap), and the ODE

# %%
for level in escape_vs_d.LEVELS:
    print(f"\nlevel: {level}")
    print_table(summary["rows"], ["case", "d", "engine", "lr", "replicates", f"{level}_steps", f"{level}_low",
                                  f"{level}_high", f"{level}_ode", f"{level}_censored_resamples"])

# %% [markdown]
# ## Fitted exponents: SGD (95 % bootstrap interval), ODE over the same d, the small-m law and the claim

# %%
for fit in summary["fits"]:
    print(f"{fit['case']} (SIE {fit['sie']}, {fit['level']}): SGD d^{fit['exponent_sgd']:.3f} "
          f"[{fit['exponent_sgd_low']:.3f}, {fit['exponent_sgd_high']:.3f}], "
          f"ODE d^{fit['exponent_ode_same_range']:.3f}, predicted d^{fit['exponent_predicted_same_range']:.3f}, "
          f"claimed {fit['claimed_law']} (d^{fit['exponent_claimed_same_range']:.3f} over the same d)")

# %% [markdown]
# ## Explicit R^d engine against the reduced engine at the same points (difference in standard errors)

# %%
print_table(summary["explicit"], ["case", "d", "level", "reduced", "explicit", "log_ratio", "se_log_ratio", "z"])

# %% [markdown]
# ## The figure, re-rendered by the workflow's plotting function
#
# `escape_vs_d.plot` is what the `escape_vs_d_plot` rule runs; here it writes into a temporary
# folder, and the files are compared with the workflow's figures when present.

# %%
rerender(escape_vs_d.plot, config, ["escape_vs_d.pdf", "escape_vs_d.png"])
