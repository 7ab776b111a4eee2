# %% [markdown]
# # Semantic vs positional (C5): the (a, ω)-independent integrals of the loss, once
# Run by Snakemake (`script:`); all the work is in `ssi.experiments.semantic_positional`.

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

import numba

from ssi.experiments.semantic_positional import jobs as sp_jobs

numba.set_num_threads(min(snakemake.threads, numba.config.NUMBA_NUM_THREADS))  # noqa: F821
sp_jobs.landscape_section(snakemake.params.section, snakemake.output[0].removesuffix(".npz"), snakemake.log[0])  # noqa: F821
