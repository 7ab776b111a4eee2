# %% [markdown]
# # Semantic vs positional (C5): SGD from m = e = 0 for one block of ω at one d

# %%
from ssi.experiments import semantic_positional as sp

sp.sgd_point(snakemake.config, snakemake.wildcards.sp_run, int(snakemake.wildcards.block),  # noqa: F821
             snakemake.output[0].removesuffix(".npz"), snakemake.log[0])  # noqa: F821
