# %% [markdown]
# # The claims table: each claim of the paper next to what this repository measured, read from the verdict file

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

import os

from ssi import verdicts
from ssi.experiments.claims import claims_page
from ssi.io import atomic_write_text

content = verdicts.load(snakemake.input.verdicts)  # noqa: F821
atomic_write_text(snakemake.output[0], claims_page(content, os.path.dirname(snakemake.output[0]),  # noqa: F821
                                                   title=snakemake.params.title))  # noqa: F821
atomic_write_text(snakemake.log[0], f"{snakemake.output[0]}: {len(content['rows'])} claims\n")  # noqa: F821
