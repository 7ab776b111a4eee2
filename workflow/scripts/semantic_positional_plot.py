# %% [markdown]
# # Semantic vs positional (C5): the three figures (diagram, transition, long run)

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

from ssi.experiments.semantic_positional import figure as sp_figure
from ssi.experiments.figure_data import numbers_from_json
from ssi.verdicts import rows_for

out = snakemake.output  # noqa: F821
sp_figure.plot(snakemake.params.view, [out.diagram_pdf, out.diagram_png, out.transition_pdf, out.transition_png,  # noqa: F821
                           out.long_pdf, out.long_png],
        numbers=numbers_from_json(snakemake.input.numbers),  # noqa: F821
        verdicts=rows_for(snakemake.input.verdicts, "semantic_positional"))  # noqa: F821
