# %% [markdown]
# # The authors' experiments: cost forecast per job family (ODE steps × cost model)
#
# Printed and logged once the ODEs are done. The SGD jobs do not wait for it (they do not need
# the ODE); the worst-case forecast (every run to its T) is the first job
# (authors_forecast_worst_case).

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

from ssi.experiments.authors import jobs as authors_jobs
from ssi.experiments.job_config import section_config
from ssi.io import atomic_write_text

text = authors_jobs.write_forecast(section_config("authors", snakemake.params.items()),  # noqa: F821
                               snakemake.output[0])  # noqa: F821
print(text, flush=True)
atomic_write_text(snakemake.log[0], text)  # noqa: F821
