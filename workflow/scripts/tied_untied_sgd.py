# %% [markdown]
# # Tied vs untied (C4): SGD replicates of one (case, protocol, network) at every L

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

from ssi.experiments.tied_untied import jobs as tied_untied_jobs
from ssi.experiments.job_config import point_config

w = snakemake.wildcards  # noqa: F821
stem = snakemake.output[0].removesuffix(".npz")  # noqa: F821
config = point_config("tied_untied", w.case, snakemake.params.items())  # noqa: F821
ode_stem = snakemake.input[0].removesuffix(".npz")  # noqa: F821
tied_untied_jobs.sgd_point(config, w.case, w.protocol, w.network, stem, snakemake.log[0], ode_stem=ode_stem)  # noqa: F821
