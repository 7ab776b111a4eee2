# %% [markdown]
# # Semantic vs positional (C5): the three figures (diagram, transition, long run)

# %%
from ssi.experiments import semantic_positional as sp

out = snakemake.output  # noqa: F821
sp.plot(snakemake.config, [out.diagram_pdf, out.diagram_png, out.transition_pdf, out.transition_png,  # noqa: F821
                           out.long_pdf, out.long_png])
