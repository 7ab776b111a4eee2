# %% [markdown]
# # The authors' phase-diagram rule vs ours (C5): the comparison figure

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

from ssi.experiments.authors_phase import figure as ap_figure
from ssi.verdicts import rows_for

ap_figure.plot(snakemake.params.view, [snakemake.output.pdf, snakemake.output.png],  # noqa: F821
        verdicts=rows_for(snakemake.input.verdicts, "authors_phase"))  # noqa: F821
