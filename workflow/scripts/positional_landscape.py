# %% [markdown]
# # Positional encoding (C3): the landscape R(e, m), Hessian and SIEs for one target
# Run by Snakemake (`script:`); all the work is in `ssi.experiments.positional`.

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

from ssi.experiments import positional

stem = snakemake.output[0].removesuffix(".npz")  # noqa: F821
positional.landscape_target(snakemake.params.section, snakemake.wildcards.target, stem, snakemake.log[0])  # noqa: F821
