# %% [markdown]
# # Semantic vs positional (C5): key numbers (region areas, switch ω per d, long-run end points)

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

from ssi.experiments.semantic_positional import numbers as sp_numbers
from ssi.experiments.audit import write_numbers

# the key numbers plus a "provenance" record (package versions, code and config hashes)
write_numbers(snakemake.output[0], sp_numbers.summarise(snakemake.params.view), snakemake.params.view, "semantic_positional")  # noqa: F821
