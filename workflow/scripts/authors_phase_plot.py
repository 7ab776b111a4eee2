# %% [markdown]
# # The authors' phase-diagram rule vs ours (C5): the comparison figure

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

from ssi.experiments import authors_phase as ap

ap.plot(snakemake.params.view, [snakemake.output.pdf, snakemake.output.png])  # noqa: F821
