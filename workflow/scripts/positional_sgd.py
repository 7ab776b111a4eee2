# %% [markdown]
# # Positional encoding (C3): SGD replicates for one (case, d), each stopped at its escape
# Run by Snakemake (`script:`); all the work is in `ssi.experiments.positional`.

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

from ssi.experiments import positional
from ssi.experiments.job_config import point_config

stem = snakemake.output[0].removesuffix(".npz")  # noqa: F821
case = snakemake.wildcards.case  # noqa: F821
positional.sgd_point(point_config("positional", case, snakemake.params.point), case, int(snakemake.wildcards.d),  # noqa: F821
                     stem, snakemake.log[0])  # noqa: F821
