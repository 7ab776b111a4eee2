# %% [markdown]
# # Two phases (C2, C6): the figure

# %%
from ssi.experiments import two_phases

two_phases.plot(snakemake.config, [snakemake.output.pdf, snakemake.output.png])  # noqa: F821
