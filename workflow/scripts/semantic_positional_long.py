# %% [markdown]
# # Semantic vs positional (C5): one group of seeds of the long run in the misaligned region

# %%
from ssi.experiments import semantic_positional as sp

sp.long_point(snakemake.config, int(snakemake.wildcards.group),  # noqa: F821
              snakemake.output[0].removesuffix(".npz"), snakemake.log[0])  # noqa: F821
