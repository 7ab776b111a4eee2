# %% [markdown]
# # Tied vs untied (C4): the four figures (escape vs L, gain vs L, null cases, attention)

# %%
from ssi.experiments import tied_untied

out = snakemake.output  # noqa: F821
tied_untied.plot(snakemake.config, [out[f"{name}_{ext}"] for name in tied_untied.FIGURE_NAMES  # noqa: F821
                                    for ext in ("pdf", "png")])
