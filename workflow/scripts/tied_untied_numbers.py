# %% [markdown]
# # Tied vs untied (C4): key numbers (escape steps, gains, fitted exponents, null cases, attention)

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

from ssi.experiments.tied_untied import numbers as tied_untied_numbers
from ssi.experiments.audit import write_numbers

# the key numbers plus a "provenance" record (package versions, code and config hashes)
write_numbers(snakemake.output[0], tied_untied_numbers.summarise(snakemake.params.view), snakemake.params.view, "tied_untied")  # noqa: F821
