# %% [markdown]
# # The claims table: each claim of the paper next to what this repository measured, read from the verdict file

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

import os
import sys
from pathlib import Path

from ssi import verdicts
from ssi.io import atomic_write_text

# the page generator lives with the workflow, beside this script's folder
sys.path.insert(0, str(Path(snakemake.scriptdir).resolve().parent))  # noqa: F821
from pagegen.pages import claims_page  # noqa: E402

content = verdicts.load(snakemake.input.verdicts)  # noqa: F821
root = Path(snakemake.scriptdir).resolve().parents[1]  # noqa: F821
atomic_write_text(snakemake.output[0], claims_page(root, content, os.path.dirname(snakemake.output[0]),  # noqa: F821
                                                   title=snakemake.params.title))  # noqa: F821
atomic_write_text(snakemake.log[0], f"{snakemake.output[0]}: {len(content['rows'])} claims\n")  # noqa: F821
