# %% [markdown]
# # Semantic vs positional (C5): ODE end points per ω and d, and the long-run ODE trajectory

# %%
from ssi.experiments import semantic_positional as sp

sp.ode_point(snakemake.config, snakemake.output[0].removesuffix(".npz"), snakemake.log[0])  # noqa: F821
