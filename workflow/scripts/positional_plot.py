# %% [markdown]
# # Positional encoding (C3): the two figures (landscape, escape)

# %%
from ssi.experiments import positional

out = snakemake.output  # noqa: F821
positional.plot(snakemake.config, [out.landscape_pdf, out.landscape_png, out.escape_pdf, out.escape_png])  # noqa: F821
