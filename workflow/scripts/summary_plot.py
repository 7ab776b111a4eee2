# %% [markdown]
# # The summary figure: one mark per claim row with its verdict, and C6's gap statistic

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

from ssi.experiments import summary

rows, numbers = summary.load(snakemake.input.verdicts, snakemake.input.numbers)  # noqa: F821
summary.plot(rows, numbers, [snakemake.output.pdf, snakemake.output.png])  # noqa: F821
