# %% [markdown]
# # Two phases (C2, C6): the ODE for one (case, d)

# %%
from ssi.experiments import two_phases

stem = snakemake.output[0].removesuffix(".npz")  # noqa: F821
two_phases.ode_point(snakemake.config, snakemake.wildcards.case, int(snakemake.wildcards.d),  # noqa: F821
                     stem, snakemake.log[0])  # noqa: F821
