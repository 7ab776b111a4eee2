# %% [markdown]
# # The authors' experiments: one figure per experiment file

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

from ssi.experiments.authors import figure as authors_figure
from ssi.experiments.figure_data import numbers_from_json
from ssi.verdicts import rows_for

out = snakemake.output  # noqa: F821
authors_figure.plot(snakemake.params.view, [out[f"{name}_{ext}"] for name in authors_figure.figure_names(snakemake.params.view)  # noqa: F821
                                for ext in ("pdf", "png")],
             numbers=numbers_from_json(snakemake.input.numbers),  # noqa: F821
             verdicts=rows_for(snakemake.input.verdicts, "authors"))  # noqa: F821
