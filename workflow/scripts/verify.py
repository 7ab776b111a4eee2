# %% [markdown]
# # Verify: the committed figures and numbers against their manifest (seconds, no results needed)

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

from ssi.experiments.audit import verify

print(verify(snakemake.params.manifest, snakemake.params.expected, snakemake.log[0]))  # noqa: F821
