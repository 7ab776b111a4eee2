# %% [markdown]
# # Escape time vs d (C1): the figure

# %%
from ssi.experiments import escape_vs_d

out = snakemake.output  # noqa: F821
escape_vs_d.plot(snakemake.config, [out.pdf, out.png])  # noqa: F821
