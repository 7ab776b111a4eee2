# %% [markdown]
# # The manifest: SHA-256 of every figure and numbers file of the config (checked by `audit`)

# %%
from ssi.experiments.audit import write_manifest

# paths in the manifest are relative to the config's figures folder
write_manifest(snakemake.input, snakemake.params.figures_dir, snakemake.output[0], snakemake.log[0])  # noqa: F821
