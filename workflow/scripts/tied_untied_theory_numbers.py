# %% [markdown]
# # C4 theory: key numbers (exponents per student and per comparison, SGD beside the ODE, the answer)

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

from ssi.experiments import tied_untied_theory
from ssi.experiments.audit import write_numbers

config = snakemake.params.view  # noqa: F821
numbers = tied_untied_theory.summarise(config)
write_numbers(snakemake.output[0], numbers, config, "tied_untied_theory")  # noqa: F821
