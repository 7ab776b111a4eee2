# %% [markdown]
# # The pages that quote the authors' numbers: docs/results/authors.md and authors_runs.md
# The same text as `snakemake pages` writes (workflow/pagegen; presentation in
# ssi.experiments.authors.summary), from the committed numbers.

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

import os
import sys
from pathlib import Path

from ssi.io import atomic_write_text

# the page generator lives with the workflow, beside this script's folder
sys.path.insert(0, str(Path(snakemake.scriptdir).resolve().parent))  # noqa: F821
from pagegen.pages import generate  # noqa: E402

# the repository holding this workflow
pages = generate(Path(snakemake.scriptdir).resolve().parents[1])  # noqa: F821
written = []
for out in snakemake.output:  # noqa: F821
    path = Path(out).resolve()
    if path in pages:
        atomic_write_text(path, pages[path])
        written.append(out)
    else:
        os.utime(path)  # already current; the job's output is newer than its inputs
atomic_write_text(snakemake.log[0], f"written: {', '.join(written) or 'none (all current)'}\n")  # noqa: F821
