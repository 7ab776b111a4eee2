# %% [markdown]
# # Semantic vs positional (C5): key numbers (region areas, switch ω per d, long-run end points)

# %%
import json

from ssi.experiments import semantic_positional as sp
from ssi.experiments.audit import clean_for_json
from ssi.io import atomic_write_text

numbers = clean_for_json(sp.summarise(snakemake.config))  # noqa: F821
atomic_write_text(snakemake.output[0], json.dumps(numbers, indent=2, sort_keys=True) + "\n")  # noqa: F821
