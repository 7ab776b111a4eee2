# %% [markdown]
# # The summary figure: one panel per claim (C1–C6) with its verdict

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

from ssi.experiments import summary

rows, numbers = summary.load(snakemake.params.view, snakemake.input.numbers)  # noqa: F821
summary.plot(rows, numbers, [snakemake.output.pdf, snakemake.output.png])  # noqa: F821
