# %% [markdown]
# # The manifest: SHA-256 of every figure and numbers file of the config (checked by `audit`)

# %%
from ssi.experiments.audit import write_manifest

write_manifest(snakemake.input, snakemake.params.figures_dir, snakemake.output[0], snakemake.log[0])  # noqa: F821
