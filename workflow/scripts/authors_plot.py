# %% [markdown]
# # The authors' experiments: one figure per experiment file

# %%
from ssi.experiments import authors

out = snakemake.output  # noqa: F821
authors.plot(snakemake.config, [out[f"{name}_{ext}"] for name in authors.figure_names(snakemake.config)  # noqa: F821
                                for ext in ("pdf", "png")])
