# %% [markdown]
# # Positional encoding (C3): the ODE for one case (escape steps vs d, one trajectory)

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

from ssi.experiments import positional
from ssi.experiments.job_config import point_config

stem = snakemake.output[0].removesuffix(".npz")  # noqa: F821
case = snakemake.wildcards.case  # noqa: F821
positional.ode_point(point_config("positional", case, snakemake.params.items()), case, stem, snakemake.log[0])  # noqa: F821
