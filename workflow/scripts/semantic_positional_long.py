# %% [markdown]
# # Semantic vs positional (C5): one group of seeds of the long run in the misaligned region

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

from ssi.experiments.semantic_positional import jobs as sp_jobs
from ssi.experiments.job_config import section_config

p = snakemake.params  # noqa: F821
config = section_config("semantic_positional", {"seed": p.seed, "engine": p.engine, "problem": p.problem},
                        long_run=p.section)
sp_jobs.long_point(config, int(snakemake.wildcards.group),  # noqa: F821
              snakemake.output[0].removesuffix(".npz"), snakemake.log[0])  # noqa: F821
