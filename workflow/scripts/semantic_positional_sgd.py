# %% [markdown]
# # Semantic vs positional (C5): SGD from m = e = 0 for one block of ω at one d

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

from ssi.experiments.semantic_positional import jobs as sp_jobs
from ssi.experiments.job_config import section_config

p, run = snakemake.params, snakemake.wildcards.sp_run  # noqa: F821
config = section_config("semantic_positional", {"seed": p.seed, "engine": p.engine, "problem": p.problem},
                        transition={**p.transition, "runs": {run: p.run}})
sp_jobs.sgd_point(config, run, int(snakemake.wildcards.block),  # noqa: F821
             snakemake.output[0].removesuffix(".npz"), snakemake.log[0])  # noqa: F821
