# %% [markdown]
# # The manifest: SHA-256 of every figure and numbers file of the config (checked by `audit`)

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

import os

from ssi.experiments.audit import write_manifest

# paths in the manifest are relative to its folder, the config's figures folder
write_manifest(snakemake.input, os.path.dirname(snakemake.output[0]), snakemake.output[0], snakemake.log[0])  # noqa: F821
