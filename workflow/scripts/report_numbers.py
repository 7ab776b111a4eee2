# %% [markdown]
# # One numbers file as an HTML table, for `snakemake --report`

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

from ssi.experiments.report import write_numbers_table

write_numbers_table(snakemake.input[0], snakemake.output[0], snakemake.log[0])  # noqa: F821
