# %% [markdown]
# # C4 theory: gain against L, reduced ODE with the asymptotic laws and the SGD measurements

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

from ssi.experiments.tied_untied_theory import figure as tied_untied_theory_figure
from ssi.experiments.figure_data import numbers_from_json
from ssi.verdicts import rows_for

out = snakemake.output  # noqa: F821
tied_untied_theory_figure.plot(snakemake.params.view, [out["pdf"], out["png"]],  # noqa: F821
                               numbers=numbers_from_json(snakemake.input.numbers),  # noqa: F821
                               verdicts=rows_for(snakemake.input.verdicts, "tied_untied_theory"))  # noqa: F821
