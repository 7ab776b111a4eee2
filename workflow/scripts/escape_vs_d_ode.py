# %% [markdown]
# # Escape time vs d (C1): the ODE escape steps at both levels for one case

# %%
from ssi.experiments import escape_vs_d

stem = snakemake.output[0].removesuffix(".npz")  # noqa: F821
escape_vs_d.ode_point(snakemake.config, snakemake.wildcards.case, stem, snakemake.log[0])  # noqa: F821
