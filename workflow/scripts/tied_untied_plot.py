# %% [markdown]
# # Tied vs untied (C4): the four figures (escape vs L, gain vs L, null cases, attention)

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

from ssi.experiments.tied_untied import figure as tied_untied_figure
from ssi.experiments.figure_data import numbers_from_json
from ssi.verdicts import rows_for

out = snakemake.output  # noqa: F821
tied_untied_figure.plot(snakemake.params.view, [out[f"{name}_{ext}"] for name in tied_untied_figure.FIGURE_NAMES  # noqa: F821
                                    for ext in ("pdf", "png")],
                 numbers=numbers_from_json(snakemake.input.numbers),  # noqa: F821
                 verdicts=rows_for(snakemake.input.verdicts, "tied_untied"))  # noqa: F821
