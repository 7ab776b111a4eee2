# %% [markdown]
# # The authors' experiments: the ODE at every point of one experiment file

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

from ssi.experiments.authors import jobs as authors_jobs
from ssi.experiments.job_config import section_config

stem = snakemake.output[0].removesuffix(".npz")  # noqa: F821
exp, p = snakemake.wildcards.exp, snakemake.params  # noqa: F821
authors_jobs.ode_experiment(section_config("authors", {"section": p.section}, experiments={exp: p.spec}), exp, stem, snakemake.log[0])  # noqa: F821
