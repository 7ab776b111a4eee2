# %% [markdown]
# # The authors' phase-diagram rule vs ours (C5): areas, confusion tables, verdicts

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

from ssi.experiments.authors_phase import numbers as ap_numbers
from ssi.experiments.audit import write_numbers

write_numbers(snakemake.output[0], ap_numbers.summarise(snakemake.params.view), snakemake.params.view, "authors_phase")  # noqa: F821
