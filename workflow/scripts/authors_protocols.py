# %% [markdown]
# # The authors' experiments: which learning-rate protocol or target normalisation gives gain ∝ L² (ODE)
# Run by Snakemake (`script:`); all the work is in `ssi.experiments.authors.protocols`.
#
# Output: results/authors/protocols.{npz,json}.

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

from ssi.experiments.authors.protocols import protocols

protocols(snakemake.params.protocols, snakemake.output[0].removesuffix(".npz"), snakemake.log[0])  # noqa: F821
