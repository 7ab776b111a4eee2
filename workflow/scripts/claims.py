# %% [markdown]
# # The claims table: each claim of the paper next to what this repository measured

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

import os

from ssi.experiments.claims import claims_page, collect_rows, readme_table, update_readme
from ssi.io import atomic_write_text

rows = collect_rows(snakemake.params.view, snakemake.input)  # noqa: F821
atomic_write_text(snakemake.output[0], claims_page(rows, os.path.dirname(snakemake.output[0]),  # noqa: F821
                                                  title=snakemake.params.title))  # noqa: F821
readme = snakemake.output.get("readme")  # noqa: F821
if readme:
    update_readme(readme, readme_table(rows))
atomic_write_text(snakemake.log[0],  # noqa: F821
                  f"{snakemake.output[0]}: {len(rows)} claims"  # noqa: F821
                  + (f"; also written into {readme}\n" if readme else "\n"))
