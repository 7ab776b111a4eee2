# %% [markdown]
# # The authors' phase-diagram rule vs ours (C5): one (a, ω) grid, both rules, refined disagreements

# %%
from ssi.experiments import authors_phase as ap

ap.diagram_point(snakemake.config, snakemake.wildcards.ap_diagram,  # noqa: F821
                 snakemake.output[0].removesuffix(".npz"), snakemake.log[0])  # noqa: F821
