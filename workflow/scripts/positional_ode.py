# %% [markdown]
# # Positional encoding (C3): the ODE for one case (escape steps vs d, one trajectory)

# %%
from ssi.experiments import positional

stem = snakemake.output[0].removesuffix(".npz")  # noqa: F821
positional.ode_point(snakemake.config, snakemake.wildcards.case, stem, snakemake.log[0])  # noqa: F821
