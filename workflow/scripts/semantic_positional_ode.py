# %% [markdown]
# # Semantic vs positional (C5): ODE end points per ω and d, and the long-run ODE trajectory

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

from ssi.experiments.semantic_positional import jobs as sp_jobs
from ssi.experiments.job_config import section_config

sp_jobs.ode_point(section_config("semantic_positional", snakemake.params.items()),  # noqa: F821
             snakemake.output[0].removesuffix(".npz"), snakemake.log[0],  # noqa: F821
             landscape=snakemake.input[0].removesuffix(".npz"))  # noqa: F821
