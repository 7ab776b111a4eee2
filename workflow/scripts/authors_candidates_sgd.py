# %% [markdown]
# # The authors' experiments, C4 at SIE 2: SGD of one network family at the ODE's best η for every L
#
# Reads results/authors/authors/protocols.npz (best η and ODE steps per L); writes
# results/authors/authors/candidates_<family>.{npz,json}.

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

from ssi.experiments.authors import candidates as authors_candidates
from ssi.experiments.job_config import section_config

authors_candidates.sgd_family(section_config("authors", snakemake.params.items()),  # noqa: F821
                              snakemake.wildcards.family,  # noqa: F821
                              snakemake.input[0].removesuffix(".npz"),  # noqa: F821
                              snakemake.output[0].removesuffix(".npz"), snakemake.log[0])  # noqa: F821
