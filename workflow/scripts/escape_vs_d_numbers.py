# %% [markdown]
# # Escape time vs d (C1): key numbers (mean-crossing steps, bootstrap bars, fitted exponents, engine check)

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

from ssi.experiments import escape_vs_d
from ssi.experiments.audit import write_numbers

# the key numbers plus a "provenance" record (package versions, code and config hashes)
write_numbers(snakemake.output[0], escape_vs_d.summarise(snakemake.params.view), snakemake.params.view, "escape_vs_d")  # noqa: F821
