# %% [markdown]
# # Two phases (C2, C6): the figure

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

from ssi.experiments import two_phases
from ssi.experiments.figure_data import numbers_from_json
from ssi.verdicts import rows_for

two_phases.plot(snakemake.params.view, [snakemake.output.pdf, snakemake.output.png],  # noqa: F821
                numbers=numbers_from_json(snakemake.input.numbers),  # noqa: F821
                verdicts=rows_for(snakemake.input.verdicts, "two_phases"))  # noqa: F821
