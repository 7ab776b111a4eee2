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
# # Positional encoding lowers the SIE and shortens the escape (claim C3), from the workflow's results
#
# This notebook reads the results that `snakemake` wrote (it never simulates) and prints the
# key numbers of `ssi.experiments.positional`: the SIE and the Hessian at (e, m) = (0, 0) of
# every landscape panel, and the escape steps against d with and without PE, with the fitted
# exponents. It then re-renders the two figures with the workflow's own plotting function.
#
# Run it as a script from the repository root (`python notebooks/positional.py`), or open it in
# Jupyter (`jupytext --to notebook notebooks/positional.py`). Produce the results first:
#
# * paper scale: `snakemake --cores all positional_plot` (results under `results/`);
# * toy scale: `snakemake --cores all --configfile config/quick.yaml` (under `results/quick/`).

# %%
from ssi.experiments import positional
from ssi.experiments.notebook import rerender, results_config

CONFIG, config = results_config(positional, ("sgd", "ode", "landscape"))
summary = positional.summarise(config)

# %% [markdown]
# ## The landscape panels: SIE (overlap and joint definitions) and Hessian at (0, 0), in (e, m)

# %%
for entry in summary["landscape"]:
    H = entry["hessian"]
    print(f"{entry['target']:<20}{entry['pe']:<10}SIE {entry['sie_overlap']} (joint {entry['sie_joint']})  "
          f"H = [[{H[0][0]:+.4f}, {H[0][1]:+.4f}], [{H[1][0]:+.4f}, {H[1][1]:+.4f}]]  "
          f"eigenvalues {[round(v, 4) for v in entry['eigenvalues']]}")

# %% [markdown]
# ## Escape steps against d: SGD (median of replicates) and the ODE, and the fitted exponents

# %%
for entry in summary["fits"]:
    print(f"\n{entry['case']} (pe {entry['pe']}, {entry['schedule']}): steps ∝ d^{entry['exponent_sgd']:.3f} "
          f"[{entry['exponent_sgd_low']:.3f}, {entry['exponent_sgd_high']:.3f}] (SGD), "
          f"d^{entry['exponent_ode_same_range']:.3f} (ODE, same d), d^{entry['exponent_ode_all']:.3f} (ODE, all d)")
    print(f"{'d':>8}{'lr':>10}{'escaped':>9}{'median':>12}{'q25':>12}{'q75':>12}{'ODE':>12}")
    for row in positional.rows_of(summary, entry["case"]):
        print(f"{row['d']:>8}{row['lr']:>10.4g}{row['escaped_replicates']:>5}/{row['replicates']:<3}"
              f"{row['steps_median']:>12.4g}{row['steps_q25']:>12.4g}{row['steps_q75']:>12.4g}{row['steps_ode']:>12.4g}")

# %% [markdown]
# ## The figures, re-rendered by the workflow's plotting function
#
# `positional.plot` is what the `positional_plot` rule runs; here it writes into a temporary
# folder, and the files are compared with the workflow's figures when present.

# %%
rerender(positional.plot, config, [f"positional_{name}.{ext}" for name in ("landscape", "escape")
                                  for ext in ("pdf", "png")])
