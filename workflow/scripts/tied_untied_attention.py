# %% [markdown]
# # Tied vs untied (C4): attention (trace) or the untied square network on (1/√L) Σ h₂, every L

# %%
from ssi.experiments import tied_untied

stem = snakemake.output[0].removesuffix(".npz")  # noqa: F821
tied_untied.attention_point(snakemake.config, snakemake.wildcards.network, stem, snakemake.log[0])  # noqa: F821
