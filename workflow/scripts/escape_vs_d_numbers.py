# %% [markdown]
# # Escape time vs d (C1): key numbers (mean-crossing steps, bootstrap bars, fitted exponents, engine check)

# %%
import json

from ssi.experiments import escape_vs_d
from ssi.experiments.audit import clean_for_json
from ssi.io import atomic_write_text

numbers = clean_for_json(escape_vs_d.summarise(snakemake.config))  # noqa: F821
atomic_write_text(snakemake.output[0], json.dumps(numbers, indent=2, sort_keys=True) + "\n")  # noqa: F821
