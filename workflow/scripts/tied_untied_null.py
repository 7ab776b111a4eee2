# %% [markdown]
# # Tied vs untied (C4): a null target (invisible to the tied network), SGD and ODE of both networks

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

from ssi.experiments.tied_untied import jobs as tied_untied_jobs
from ssi.experiments.job_config import section_config

stem = snakemake.output[0].removesuffix(".npz")  # noqa: F821
run, p = snakemake.wildcards.run, snakemake.params  # noqa: F821
config = section_config("tied_untied", {"seed": p.seed, "engine": p.engine, "section": p.section},
                        null_targets={"runs": {run: p.run}})
tied_untied_jobs.null_point(config, run, stem, snakemake.log[0])  # noqa: F821
