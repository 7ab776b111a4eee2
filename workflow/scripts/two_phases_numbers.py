# %% [markdown]
# # Two phases (C2, C6): key numbers (escape times, SGD and ODE)

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

from ssi.experiments import two_phases
from ssi.experiments.audit import write_numbers

# the key numbers plus a "provenance" record (package versions, code and config hashes)
write_numbers(snakemake.output[0], two_phases.summarise(snakemake.params.view), snakemake.params.view, "two_phases")  # noqa: F821
