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
# # Tied against untied networks (claim C4), from the workflow's results
#
# This notebook reads the results that `snakemake` wrote (it never simulates) and prints the key
# numbers of `ssi.experiments.tied_untied`: escape steps of the tied and the untied network
# against the sequence length L (one η for both, and the ODE's best η for each), the gain
# T_untied/T_tied with its fitted exponent in L, the null (token-antisymmetric) targets, and the
# attention comparison. It then re-renders the four figures with the workflow's plotting function.
#
# Run it as a script from the repository root (`python notebooks/tied_untied.py`), or as a
# notebook (`pip install -e ".[notebooks]"`, then
# `jupytext --to notebook --execute notebooks/tied_untied.py`, or `jupyter lab`). Produce the
# results first:
#
# * paper scale: `snakemake --cores all tied_untied_plot` (results under `results/`);
# * toy scale: `snakemake --cores all --configfile config/quick.yaml` (under `results/quick/`).

# %%
from ssi.experiments import tied_untied
from ssi.experiments.notebook import print_table, rerender, results_config

CONFIG, config = results_config(tied_untied, ("ode", "sgd", "null", "attention"))
summary = tied_untied.summarise(config)

# %% [markdown]
# ## Escape steps against L (replicate-mean overlap at the macroscopic level and at 2/√d), and the gain

# %%
print(f"escape level: {summary['escape_level']}")
print_table(summary["rows"], ["case", "protocol", "L", "d", "lr_tied", "lr_untied", "steps_tied_macro",
                              "steps_untied_macro", "gain_macro", "gain_ode_macro", "gain_authors"])

# %% [markdown]
# ## The gain's exponent in L: SGD (95 % bootstrap interval over replicates) and ODE

# %%
for fit in summary["fits"]:
    print(f"{fit['case']} (SIE {fit['sie']}, {fit['protocol']}, {fit['threshold']}): gain ∝ L^{fit['exponent_sgd']:.3f} "
          f"[{fit['exponent_sgd_low']:.3f}, {fit['exponent_sgd_high']:.3f}] (SGD), L^{fit['exponent_ode']:.3f} (ODE)")

# %% [markdown]
# ## Null targets (invisible to the tied network) and the attention comparison

# %%
print_table(summary["null"], ["run", "target", "L", "d", "sie_tied", "sie_untied", "noise_level",
                              "final_overlap_tied", "final_overlap_untied"])
print()
print_table(summary["attention"], ["L", "d", "lr", "steps_attention_macro", "steps_untied_macro", "ratio_macro",
                                   "ratio_ode_macro"])

# %% [markdown]
# ## The figures, re-rendered by the workflow's plotting function

# %%
rerender(tied_untied.plot, config,
         [f"tied_untied_{name}.{ext}" for name in tied_untied.FIGURE_NAMES for ext in ("pdf", "png")])
