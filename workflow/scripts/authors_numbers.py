# %% [markdown]
# # The authors' experiments: key numbers

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

from ssi.experiments.authors import numbers as authors_numbers
from ssi.experiments.audit import write_numbers

write_numbers(snakemake.output[0], authors_numbers.summarise(snakemake.params.view), snakemake.params.view, "authors")  # noqa: F821
