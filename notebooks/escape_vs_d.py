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
# # The escape time grows with d as the SIE says (claim C1)
#
# **What the paper claims.** The number of SGD steps to weak recovery is set by the sequence
# information exponent k of the problem: O(d) steps for k = 1, O(d log² d) for k = 2 and
# O(d^(k−1)) for k ≥ 3. The authors' public configurations test k = 1 and 2 only; k = 3 and 4 are
# checked here for the first time.
#
# This notebook redraws the figure with the package's plotting function from the committed key
# numbers `figures/numbers/escape_vs_d.json`; this figure needs no other data (its figure data file
# is empty). It runs in a fresh clone: no simulation, no `results/`.

# %%
from ssi.experiments.notebook import open_result, show_table

result = open_result("escape_vs_d")
section = result.config["escape_vs_d"]

# %% [markdown]
# ## What was run
#
# One family, so that only k changes: the matched student on the normalised target
# (1/√2)(h_k(z₁) + h_k(z₂)), L = 2, whose population loss is exactly R(m) = 1 − m^k and whose SIE
# the code computes (`ssi.sie`). Each d has independent replicates from m₀ = d^(−1/2); the learning
# rate follows the scaling the ODE needs for k (constant, ∝ 1/log d, ∝ d^(−(k−2)/2)). The escape
# time is the authors' definition: the first step at which the **replicate mean** of the overlap
# reaches a level. Two levels are measured: the authors' early level 2/√d ("early": twice the
# typical start) and the macroscopic 0.5.

# %%
show_table([{"case": case, "target": spec["problem"]["target"], "SGD d": f"{spec['dims'][0]}–{spec['dims'][-1]}",
             "ODE d": f"{spec['ode_dims'][0]}–{spec['ode_dims'][-1]}",
             "explicit-engine check at d": ", ".join(map(str, spec.get("explicit_dims", []))),
             "η schedule": next(f["schedule"] for f in result.numbers["fits"] if f["case"] == case)}
            for case, spec in section["cases"].items()],
           ["case", "target", "SGD d", "ODE d", "explicit-engine check at d", "η schedule"])

# %% [markdown]
# ## The figure
#
# **What to look at.** Left: steps until the mean overlap reaches 2/√d; right: until it reaches
# 0.5. Points are SGD (bars: 16–84 % bootstrap over replicates; open squares: the explicit R^d
# engine at the same points), solid lines the ODE, dotted lines the claimed law drawn parallel to
# the ODE. On log-log axes a law d^p is a straight line of slope p: compare each colour's points
# with its dotted guide, and read the fitted slopes in the legend.

# %%
result.draw("escape_vs_d")

# %% [markdown]
# **What the figure shows.** At k = 1 and 2 the SGD points follow the ODE; at k = 3 and 4 most of
# them lie below it (see the last bullet below). The ODE follows the claimed law: its slope grows
# by one per unit of k from k = 2 on. The
# fitted exponents (95 % bootstrap interval over replicates) against the ODE on the same d, the
# law's small-m prediction and the claimed law's local slope:

# %%
show_table(result.numbers["fits"],
           ["case", "level", "sie", "exponent_sgd", "exponent_sgd_low", "exponent_sgd_high",
            "exponent_ode_same_range", "exponent_predicted_same_range", "claimed_law", "exponent_claimed_same_range"],
           {key: ".2f" for key in ("exponent_sgd", "exponent_sgd_low", "exponent_sgd_high", "exponent_ode_same_range",
                                   "exponent_predicted_same_range", "exponent_claimed_same_range")})

# %% [markdown]
# The reduced engine simulates SGD exactly in law with a handful of random numbers per step; the
# explicit R^d engine is the reference. The table compares them at a few points (z = difference of
# log times / its bootstrap standard error). A bootstrap over 16 heavy-tailed replicates can
# understate the spread of their mean crossing, so a single |z| near 2 (SIE 4, d = 18) is not
# evidence on its own: the law test `tests/unit/sgd/test_escape_time_law.py` compares the whole
# distribution of per-replicate escape times of the two engines at that point, with thousands of
# replicates and the power to see a factor 1.2 stated in its docstring.

# %%
show_table(result.numbers["explicit"], ["case", "d", "level", "reduced", "explicit", "z"],
           {"reduced": ".3g", "explicit": ".3g", "z": ".2f"})

# %% [markdown]
# ## The claims, as measured

# %%
result.claims()

# %% [markdown]
# ## Where it differs from the claim, and why
#
# * **The early level 2/√d does not measure the claimed law for k ≤ 2.** To reach 2/√d the
#   overlap only has to grow by d^(−1/2) from its start. At k = 1 with a constant η that takes
#   steps ∝ √d, at k = 2 steps ∝ d/η = d log d: the early exponents of k = 1 and 2 in the table
#   are these (column `exponent_predicted_same_range`), and the ODE gives the same. The claim is about weak recovery, an
#   overlap of order one: the macroscopic level measures it. For k ≥ 3 the escape is dominated by
#   its start and both levels give d^(k−1).
# * **k = 1 and 2 at the macroscopic level are slightly off the asymptotic slopes** (a little
#   above 1 at k = 1, below the local slope of d log² d at k = 2). SGD agrees with the ODE, and the ODE's
#   slope per decade approaches the law as d grows: the gap is pre-asymptotic (the time
#   (0.5 − m₀)/η at k = 1 with m₀ = d^(−1/2); at k = 2 the noise penalty ∝ η(d) shrinks as η ∝
#   1/log d decreases, and the O(1) part of the escape does not grow with log d).
# * **k = 3 and 4 agree with d² and d³ within their intervals, on a short SGD range.** The
#   d^(k−1) cost limits SGD to d ≤ 10³ (k = 3) and d ≤ 178 (k = 4); the ODE carries the law over
#   two decades. Most SGD escape times lie below the ODE's (with fluctuations of the size of m₀,
#   the mean of a convex drift grows faster than the ODE), by a fraction that scatters from point
#   to point rather than following a trend in d, so the fitted exponents stay near the ODE's
#   within their wide intervals. The macroscopic k = 3 escape is heavy-tailed: some replicates
#   first wander to m < 0, so the mean crosses late and the interval is wide.
#
# ## Change it
#
# The parameters are `escape_vs_d` in `config/config.yaml` (dimensions, learning-rate schedules,
# replicates, levels). `snakemake --cores all escape_vs_d_plot figures/data/escape_vs_d.npz`
# recomputes the results, numbers and figure; this notebook then shows the new ones. At toy scale:
# `snakemake --cores all --configfile config/quick.yaml`, then `SSI_CONFIG=config/quick.yaml`.
