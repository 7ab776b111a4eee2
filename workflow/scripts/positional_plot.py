# %% [markdown]
# # Positional encoding (C3): the two figures (landscape, escape)

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

from ssi.experiments import positional
from ssi.experiments.figure_data import numbers_from_json
from ssi.verdicts import rows_for

out = snakemake.output  # noqa: F821
positional.plot(snakemake.params.view, [out.landscape_pdf, out.landscape_png, out.escape_pdf, out.escape_png],  # noqa: F821
                numbers=numbers_from_json(snakemake.input.numbers),  # noqa: F821
                verdicts=rows_for(snakemake.input.verdicts, "positional"))  # noqa: F821
