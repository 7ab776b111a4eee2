# %% [markdown]
# # Positional encoding (C3): the landscape R(e, m), Hessian and SIEs for one target
# Run by Snakemake (`script:`); all the work is in `ssi.experiments.positional`.

# %%
from ssi.experiments import positional

stem = snakemake.output[0].removesuffix(".npz")  # noqa: F821
positional.landscape_target(snakemake.params.section, snakemake.wildcards.target, stem, snakemake.log[0])  # noqa: F821
