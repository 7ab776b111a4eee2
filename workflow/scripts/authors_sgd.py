# %% [markdown]
# # The authors' experiments: SGD replicates of one job (points of one student, or a replicate block)

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

from ssi.experiments.authors import jobs as authors_jobs
from ssi.experiments.job_config import section_config

stem = snakemake.output[0].removesuffix(".npz")  # noqa: F821
exp, p = snakemake.wildcards.exp, snakemake.params  # noqa: F821
config = section_config("authors", {"seed": p.seed, "engine": p.engine, "section": p.section},
                        experiments={exp: p.spec})
authors_jobs.sgd_job(config, exp, int(snakemake.wildcards.job), stem,  # noqa: F821
                snakemake.log[0], plan=p.plan)  # noqa: F821
