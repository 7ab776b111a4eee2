# %% [markdown]
# # The authors' experiments: the ODE at every point of one experiment file

# %%
from ssi.experiments import authors

stem = snakemake.output[0].removesuffix(".npz")  # noqa: F821
authors.ode_experiment(snakemake.config, snakemake.wildcards.exp, stem, snakemake.log[0])  # noqa: F821
