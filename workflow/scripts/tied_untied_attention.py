# %% [markdown]
# # Tied vs untied (C4): attention (trace) or the untied square network on (1/√L) Σ h₂, every L

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

from ssi.experiments.tied_untied import jobs as tied_untied_jobs
from ssi.experiments.job_config import section_config

stem = snakemake.output[0].removesuffix(".npz")  # noqa: F821
tied_untied_jobs.attention_point(section_config("tied_untied", snakemake.params.items()),  # noqa: F821
                             snakemake.wildcards.network, stem, snakemake.log[0])  # noqa: F821
