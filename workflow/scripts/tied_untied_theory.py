# %% [markdown]
# # C4 theory: the reduced SIE-2 ODE on the L grids (best η, escape times, attention coefficients)

# %%
from ssi.experiments import tied_untied_theory

stem = snakemake.output[0].removesuffix(".npz")  # noqa: F821
tied_untied_theory.compute(snakemake.config, stem, snakemake.log[0])  # noqa: F821
