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
# # The gain's exponent in L at SIE 2 from the ODE near m = 0 (claim C4), from the workflow's results
#
# This notebook reads the results that `snakemake` wrote (it never simulates) and prints the key
# numbers of `ssi.experiments.tied_untied_theory`: for every learning-rate protocol, the exponent
# of the gain T_untied/T_tied in L — asymptotic (closed form), from the reduced one-variable ODE
# at small L and at L ~ 10³, and measured by SGD — then the exponents of each student's best-η
# escape time, and the settled answer. It re-renders the figure with the workflow's plotting
# function. Derivation: docs/theory.md, "The SIE-2 escape near m = 0".
#
# Run it as a script from the repository root (`python notebooks/tied_untied_theory.py`), or as a
# notebook (`jupytext --to notebook --execute notebooks/tied_untied_theory.py`). Produce the
# results first:
#
# * paper scale: `snakemake --cores all tied_untied_theory_plot` (results under `results/`);
# * toy scale: `snakemake --cores all --configfile config/quick.yaml` (under `results/quick/`).

# %%
from ssi.experiments import tied_untied_theory, tied_untied_theory_figure
from ssi.experiments.notebook import print_table, rerender, results_config

CONFIG, config = results_config(tied_untied_theory, ("theory", "sgd"))
summary = tied_untied_theory.summarise(config)

# %% [markdown]
# ## Gain exponents per comparison: asymptotic law, reduced ODE (small L, large L), SGD

# %%
print_table(summary["comparisons"], ["key", "asymptotic", "exponent_ode_small_authors", "exponent_ode_authors",
                                     "exponent_ode_macro", "no_escape_from_L_closed_form"], [28, 10, 12, 12, 12, 12])
for row in summary["comparisons"]:
    for m in row["sgd"]:
        print(f"{row['key']}: {m['text']}: L^{m['exponent']:.2f} [{m['low']}, {m['high']}], "
              f"ODE over the same L L^{m['exponent_ode']:.2f}")

# %% [markdown]
# ## Best-η escape time and η* of each student and target normalisation

# %%
print_table(summary["students"], ["student", "target", "time_exponent", "lr_exponent", "time_exponent_ode_small",
                                  "time_exponent_ode", "lr_exponent_ode"], [18, 10, 12, 12, 12, 12, 12])
print(summary["answer"])

# %% [markdown]
# ## The figure, re-rendered by the workflow's plotting function

# %%
rerender(tied_untied_theory_figure.plot, config, ["tied_untied_theory.pdf", "tied_untied_theory.png"])
