# %% [markdown]
# # Figure data: the arrays a result's figures draw, for the notebooks (ssi.experiments.figure_data)

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

from ssi.experiments.figure_data import extract

out = snakemake.output  # noqa: F821
info = extract(snakemake.params.view, snakemake.wildcards.result, snakemake.input.numbers,  # noqa: F821
               out.npz[: -len(".npz")], snakemake.params.names)  # noqa: F821
with open(snakemake.log[0], "w") as log:  # noqa: F821
    log.write(f"{snakemake.wildcards.result}: {info}\n")  # noqa: F821
