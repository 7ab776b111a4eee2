# %% [markdown]
# # Escape time vs d (C1): the figure

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

from ssi.experiments import escape_vs_d
from ssi.experiments.figure_data import numbers_from_json
from ssi.verdicts import rows_for

out = snakemake.output  # noqa: F821
escape_vs_d.plot(snakemake.params.view, [out.pdf, out.png],  # noqa: F821
                 numbers=numbers_from_json(snakemake.input.numbers),  # noqa: F821
                 verdicts=rows_for(snakemake.input.verdicts, "escape_vs_d"))  # noqa: F821
