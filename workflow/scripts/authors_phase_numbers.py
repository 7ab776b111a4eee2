# %% [markdown]
# # The authors' phase-diagram rule vs ours (C5): areas, confusion tables, verdicts

# %%
from ssi.experiments import authors_phase as ap
from ssi.experiments.audit import write_numbers

write_numbers(snakemake.output[0], ap.summarise(snakemake.config), snakemake.config, "authors_phase")  # noqa: F821
