# %% [markdown]
# # Two phases (C2, C6): SGD replicates for one (case, d)
# Run by Snakemake (`script:`); all the work is in `ssi.experiments.two_phases`.

# %%
from ssi.experiments import two_phases

stem = snakemake.output[0].removesuffix(".npz")  # noqa: F821
two_phases.sgd_point(snakemake.config, snakemake.wildcards.case, int(snakemake.wildcards.d),  # noqa: F821
                     stem, snakemake.log[0])  # noqa: F821
