# %% [markdown]
# # Escape time vs d (C1): the ODE escape steps at both levels for one case

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

from ssi.experiments import escape_vs_d
from ssi.experiments.job_config import point_config

stem = snakemake.output[0].removesuffix(".npz")  # noqa: F821
case = snakemake.wildcards.case  # noqa: F821
escape_vs_d.ode_point(point_config("escape_vs_d", case, snakemake.params.items()), case, stem, snakemake.log[0])  # noqa: F821
