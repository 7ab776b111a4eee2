# %% [markdown]
# # The authors' experiments: cost forecast per job family (ODE steps × cost model), printed before the SGD jobs

# %%
from ssi.experiments import authors
from ssi.io import atomic_write_text

text = authors.write_forecast(snakemake.config, snakemake.output[0])  # noqa: F821
print(text, flush=True)
atomic_write_text(snakemake.log[0], text)  # noqa: F821
