# %% [markdown]
# # Positional encoding (C3): key numbers (SIEs, Hessians, escape steps, fitted exponents)

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

from ssi.experiments import positional
from ssi.experiments.audit import write_numbers

# the key numbers plus a "provenance" record (package versions, code and config hashes)
write_numbers(snakemake.output[0], positional.summarise(snakemake.params.view), snakemake.params.view, "positional")  # noqa: F821
