# %% [markdown]
# # The authors' phase-diagram rule vs ours (C5): areas, confusion tables, verdicts

# %%
import json

from ssi.experiments import authors_phase as ap
from ssi.experiments.audit import clean_for_json
from ssi.io import atomic_write_text

numbers = clean_for_json(ap.summarise(snakemake.config))  # noqa: F821
atomic_write_text(snakemake.output[0], json.dumps(numbers, indent=2, sort_keys=True) + "\n")  # noqa: F821
