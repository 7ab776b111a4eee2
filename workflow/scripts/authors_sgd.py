# %% [markdown]
# # The authors' experiments: SGD replicates of one job (points of one student, or a replicate block)

# %%
from ssi.experiments import authors

stem = snakemake.output[0].removesuffix(".npz")  # noqa: F821
authors.sgd_job(snakemake.config, snakemake.wildcards.exp, int(snakemake.wildcards.job), stem,  # noqa: F821
                snakemake.log[0])  # noqa: F821
