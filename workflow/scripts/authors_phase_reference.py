# %% [markdown]
# # The authors' phase-diagram rule vs ours (C5): reference derivatives at the corners and the origin

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

from ssi.experiments.authors_phase import jobs as ap_jobs
from ssi.experiments.job_config import section_config

# the job reads the reference settings only (no diagram: the section check finds none to check)
config = section_config("authors_phase", {}, reference=snakemake.params.section, diagrams={})  # noqa: F821
ap_jobs.reference_point(config, snakemake.output[0].removesuffix(".npz"), snakemake.log[0])  # noqa: F821
