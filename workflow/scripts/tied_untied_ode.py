# %% [markdown]
# # Tied vs untied (C4): the ODE of one case — best η per (network, L) and escape steps

# %%
from ssi.experiments import tied_untied

stem = snakemake.output[0].removesuffix(".npz")  # noqa: F821
tied_untied.ode_case(snakemake.config, snakemake.wildcards.case, stem, snakemake.log[0])  # noqa: F821
