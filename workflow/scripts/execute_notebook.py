# %% [markdown]
# # An executed copy of notebooks/<result>.py (ssi.experiments.notebook_build)

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

import tempfile
from pathlib import Path

import yaml

from ssi.experiments.notebook_build import execute

with tempfile.TemporaryDirectory(prefix="ssi-notebook-config-") as tmp:
    # the kernel reads this run's config (SSI_CONFIG), whichever --configfile gave it
    config_path = Path(tmp) / "config.yaml"
    config_path.write_text(yaml.safe_dump(dict(snakemake.params.view), sort_keys=False))  # noqa: F821
    errors = execute(snakemake.input.source, snakemake.output[0], Path.cwd(), config_path)  # noqa: F821
with open(snakemake.log[0], "w") as log:  # noqa: F821
    log.write(f"{snakemake.output[0]}: executed, {len(errors)} errors\n")  # noqa: F821
