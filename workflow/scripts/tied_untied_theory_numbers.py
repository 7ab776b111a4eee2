# %% [markdown]
# # C4 theory: key numbers (exponents per student and per comparison, SGD beside the ODE, the answer)

# %%
from ssi.experiments import tied_untied_theory, tied_untied_theory_docs
from ssi.experiments.audit import write_numbers

config = snakemake.config  # noqa: F821
numbers = tied_untied_theory.summarise(config)
write_numbers(snakemake.output[0], numbers, config, "tied_untied_theory")  # noqa: F821
# the results page's generated block, from the committed figures only (as the claims rule does for
# the README): a run with another figures_dir (the quick config) leaves the docs alone
if config["figures_dir"] == "figures":
    tied_untied_theory_docs.update(numbers)
