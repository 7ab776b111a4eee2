# %% [markdown]
# # The verdict file: every claim row's verdict, reason and interval (ssi.verdicts)

# %%
from ssi import verdicts
from ssi.experiments.claims import verdict_content
from ssi.io import atomic_write_text

content = verdict_content(snakemake.params.view, snakemake.input)  # noqa: F821
atomic_write_text(snakemake.output[0], verdicts.dumps(content))  # noqa: F821
atomic_write_text(snakemake.log[0], f"{snakemake.output[0]}: {len(content['rows'])} rows, "  # noqa: F821
                  + ", ".join(f"{c} {v or 'split'}" for c, v in content["claims"].items()) + "\n")
