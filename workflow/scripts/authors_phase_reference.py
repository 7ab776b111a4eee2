# %% [markdown]
# # The authors' phase-diagram rule vs ours (C5): reference derivatives at the corners and the origin

# %%
from ssi.experiments import authors_phase as ap
from ssi.experiments.job_config import section_config

ap.reference_point(section_config("authors_phase", {}, reference=snakemake.params.section),  # noqa: F821
                   snakemake.output[0].removesuffix(".npz"), snakemake.log[0])  # noqa: F821
