# %% [markdown]
# # C4 theory: key numbers (exponents per student and per comparison, SGD beside the ODE, the answer)

# %%
from ssi.experiments import tied_untied_theory
from ssi.experiments.audit import write_numbers

write_numbers(snakemake.output[0], tied_untied_theory.summarise(snakemake.config), snakemake.config,  # noqa: F821
              "tied_untied_theory")
