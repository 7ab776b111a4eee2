# %% [markdown]
# # Positional encoding (C3): key numbers (SIEs, Hessians, escape steps, fitted exponents)

# %%
import json

from ssi.experiments import positional
from ssi.experiments.audit import clean_for_json
from ssi.io import atomic_write_text

numbers = clean_for_json(positional.summarise(snakemake.config))  # noqa: F821
atomic_write_text(snakemake.output[0], json.dumps(numbers, indent=2, sort_keys=True) + "\n")  # noqa: F821
