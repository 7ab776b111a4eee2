# %% [markdown]
# # Two phases (C2, C6): key numbers (escape times, SGD and ODE)

# %%
import json

from ssi.experiments import two_phases
from ssi.experiments.audit import clean_for_json
from ssi.io import atomic_write_text

numbers = clean_for_json(two_phases.summarise(snakemake.config))  # noqa: F821
atomic_write_text(snakemake.output[0], json.dumps(numbers, indent=2, sort_keys=True) + "\n")  # noqa: F821
