# %% [markdown]
# # Semantic vs positional (C5): one phase diagram (full [0, 1]² or the authors' zoom)

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

from ssi.experiments.semantic_positional import jobs as sp_jobs
from ssi.experiments.job_config import section_config

sp_jobs.diagram_point(section_config("semantic_positional", {}, diagram=snakemake.params.section),  # noqa: F821
                 snakemake.wildcards.diagram, snakemake.output[0].removesuffix(".npz"), snakemake.log[0],  # noqa: F821
                 landscape=snakemake.input[0].removesuffix(".npz"))  # noqa: F821
