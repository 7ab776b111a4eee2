# %% [markdown]
# # The summary figure: one panel per claim (C1–C6) with its verdict

# %%
from ssi.experiments import summary

rows, numbers = summary.load(snakemake.input.verdicts, snakemake.input.numbers)  # noqa: F821
summary.plot(rows, numbers, [snakemake.output.pdf, snakemake.output.png])  # noqa: F821
