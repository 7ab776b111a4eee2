# %% [markdown]
# # The authors' phase-diagram rule vs ours (C5): reference derivatives at the corners and the origin

# %%
from ssi.experiments import authors_phase as ap

ap.reference_point(snakemake.config, snakemake.output[0].removesuffix(".npz"), snakemake.log[0])  # noqa: F821
