# %% [markdown]
# # Tied vs untied (C4): the ODE of one case — best η per (network, L) and escape steps

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

from ssi.experiments.tied_untied import jobs as tied_untied_jobs
from ssi.experiments.job_config import point_config

stem = snakemake.output[0].removesuffix(".npz")  # noqa: F821
case = snakemake.wildcards.case  # noqa: F821
tied_untied_jobs.ode_case(point_config("tied_untied", case, snakemake.params.items()), case, stem, snakemake.log[0])  # noqa: F821
