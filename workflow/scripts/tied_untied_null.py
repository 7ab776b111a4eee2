# %% [markdown]
# # Tied vs untied (C4): a null target (invisible to the tied network), SGD and ODE of both networks

# %%
from ssi.experiments import tied_untied

stem = snakemake.output[0].removesuffix(".npz")  # noqa: F821
tied_untied.null_point(snakemake.config, snakemake.wildcards.run, stem, snakemake.log[0])  # noqa: F821
