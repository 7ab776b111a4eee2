# %% [markdown]
# # C4 theory: the reduced SIE-2 ODE on the L grids (best η, escape times, attention coefficients)

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

from ssi.experiments import tied_untied_theory
from ssi.experiments.job_config import section_config

stem = snakemake.output[0].removesuffix(".npz")  # noqa: F821
p = snakemake.params  # noqa: F821
# the C4 escapes are read from the tied_untied section
config = {**section_config("tied_untied_theory", {"seed": p.seed, "section": p.section}),
          "tied_untied": {"escape": p.escape}}
tied_untied_theory.compute(config, stem, snakemake.log[0])  # noqa: F821
