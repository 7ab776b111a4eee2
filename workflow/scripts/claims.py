# %% [markdown]
# # The claims table: each claim of the paper next to what this repository measured

# %%
from ssi.experiments.claims import claims_table, update_readme
from ssi.io import atomic_write_text

table = claims_table(snakemake.config, snakemake.input)  # noqa: F821
atomic_write_text(snakemake.output[0], table)  # noqa: F821
if snakemake.params.readme:  # noqa: F821
    update_readme(snakemake.params.readme, claims_table(snakemake.config, snakemake.input, short=True))  # noqa: F821
atomic_write_text(snakemake.log[0],  # noqa: F821
                  f"{snakemake.output[0]}: {table.count(chr(10)) - 2} claims"  # noqa: F821
                  + (f"; also written into {snakemake.params.readme}\n" if snakemake.params.readme else "\n"))  # noqa: F821
