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
# # Semantic against positional learning (claim C5), from the workflow's results
#
# This notebook reads the results that `snakemake` wrote (it never simulates) and prints the key
# numbers of `ssi.experiments.semantic_positional`: the region areas of the (a, ω) phase diagram,
# the SGD transition from semantic to positional learning along a = 1 (share of positional runs
# and the switch ω per d, with the ODE and the diagram's prediction), and where the long runs in
# the misaligned region end. It then re-renders the three figures with the workflow's plotting
# function.
#
# Run it as a script from the repository root (`python notebooks/semantic_positional.py`), or as
# a notebook (`pip install -e ".[notebooks]"`, then
# `jupytext --to notebook --execute notebooks/semantic_positional.py`, or `jupyter lab`). Produce
# the results first:
#
# * paper scale: `snakemake --cores all semantic_positional_plot` (results under `results/`);
# * toy scale: `snakemake --cores all --configfile config/quick.yaml` (under `results/quick/`).

# %%
from ssi.experiments import semantic_positional as sp
from ssi.experiments.notebook import results_config, rerender

CONFIG, config = results_config(sp, ("landscape", "diagram", "sgd", "ode", "long"))
summary = sp.summarise(config)

# %% [markdown]
# ## The phase diagram: share of the (a, ω) box in each region

# %%
for name, diagram in summary["diagrams"].items():
    print(f"\n{name}: a in [{diagram['a'][0]}, {diagram['a'][1]}], ω in [{diagram['omega'][0]}, {diagram['omega'][1]}], "
          f"up to {diagram['max_minima']} local minima")
    for group in ("named", "regions"):
        print(f"  {group}:")
        for region, fraction in sorted(diagram["fractions"][group].items(), key=lambda kv: -kv[1]):
            print(f"    {region:<50}{fraction:8.3f}")

# %% [markdown]
# ## The SGD transition along a = 1: positional share of the escaped runs against ω, and the switch ω

# %%
prediction = summary["prediction"]
print(f"diagram's switch: global minimum at ω = {prediction['switch_global']}, "
      f"initial direction at ω = {prediction['switch_dynamics']}")
for row in summary["transition"]:
    print(f"\n{row['run']}: d = {row['d']}, t = {row['t']:g}, {row['replicates']} runs per ω; "
          f"switch ω: SGD {row['switch_sgd']}, ODE {row['switch_ode']}")
    for omega, share, m, e in zip(row["omega"], row["positional_share_of_escaped"], row["mean_abs_m"],
                                  row["mean_abs_e"]):
        print(f"  ω = {omega:.3f}: positional share {share:.3f}, mean |m| {m:.3f}, mean |e| {e:.3f}")

# %% [markdown]
# ## The long runs in the misaligned region

# %%
long = summary["long_run"]
print(f"a² = {long['a2']}, ω = {long['omega']}, d = {long['d']}, {long['replicates']} runs: "
      f"{long['positional']} positional, {long['semantic']} semantic, {long['not_escaped']} not escaped; "
      f"ODE ends at (e, m) = ({long['ode_final']['e']:.3f}, {long['ode_final']['m']:.3f})")
for minimum in long["minima"]:
    print(f"  local minimum of R at (e, m) = ({minimum['e']:.3f}, {minimum['m']:.3f}), R = {minimum['R']:.5f}")

# %% [markdown]
# ## The figures, re-rendered by the workflow's plotting function

# %%
rerender(sp.plot, config, [f"semantic_positional_{name}.{ext}" for name in ("diagram", "transition", "long")
                           for ext in ("pdf", "png")])
