# %% [markdown]
# # Escape time vs d (C1): SGD replicates for one (case, d, engine), stopped once their mean has escaped
# Run by Snakemake (`script:`); all the work is in `ssi.experiments.escape_vs_d`.

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

from ssi.experiments import escape_vs_d
from ssi.experiments.job_config import point_config

stem = snakemake.output[0].removesuffix(".npz")  # noqa: F821
w = snakemake.wildcards  # noqa: F821
escape_vs_d.sgd_point(point_config("escape_vs_d", w.case, snakemake.params.point), w.case, int(w.d), w.engine, stem, snakemake.log[0])  # noqa: F821
