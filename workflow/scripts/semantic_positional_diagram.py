# %% [markdown]
# # Semantic vs positional (C5): one phase diagram (full [0, 1]² or the authors' zoom)

# %%
from ssi.experiments import semantic_positional as sp

sp.diagram_point(snakemake.config, snakemake.wildcards.diagram,  # noqa: F821
                 snakemake.output[0].removesuffix(".npz"), snakemake.log[0])  # noqa: F821
