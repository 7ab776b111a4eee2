# %% [markdown]
# # Tied vs untied (C4): SGD replicates of one (case, protocol, network) at every L

# %%
from ssi.experiments import tied_untied

w = snakemake.wildcards  # noqa: F821
stem = snakemake.output[0].removesuffix(".npz")  # noqa: F821
tied_untied.sgd_point(snakemake.config, w.case, w.protocol, w.network, stem, snakemake.log[0])  # noqa: F821
