# %% [markdown]
# # The authors' experiments: the cost forecast without the ODE (every run to its T)
#
# The first job of the run, so that the worst case shows before the SGD jobs start.

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

from ssi.experiments.authors import jobs as authors_jobs
from ssi.experiments.job_config import section_config
from ssi.io import atomic_write_text

text = authors_jobs.forecast_text(authors_jobs.forecast_worst_case(section_config("authors", snakemake.params.items())))  # noqa: F821
print(text, flush=True)
atomic_write_text(snakemake.output[0], text)  # noqa: F821
atomic_write_text(snakemake.log[0], text)  # noqa: F821
