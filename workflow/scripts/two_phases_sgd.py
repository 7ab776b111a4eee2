# %% [markdown]
# # Two phases (C2, C6): SGD replicates for one (case, d)
# Run by Snakemake (`script:`); all the work is in `ssi.experiments.two_phases`.

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

from ssi.experiments import two_phases
from ssi.experiments.job_config import point_config

stem = snakemake.output[0].removesuffix(".npz")  # noqa: F821
case = snakemake.wildcards.case  # noqa: F821
two_phases.sgd_point(point_config("two_phases", case, snakemake.params.point), case, int(snakemake.wildcards.d),  # noqa: F821
                     stem, snakemake.log[0])  # noqa: F821
