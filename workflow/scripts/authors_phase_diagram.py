# %% [markdown]
# # The authors' phase-diagram rule vs ours (C5): one (a, ω) grid, both rules, refined disagreements

# %%
from ssi.job_process import start_job

start_job()  # this job's process: Ctrl-C, numba's compilations (ssi.job_process)

from ssi.experiments.authors_phase import jobs as ap_jobs
from ssi.experiments.semantic_positional.jobs import read_landscape

ap_jobs.diagram_cells(snakemake.params.section, snakemake.params.diagram, snakemake.wildcards.ap_diagram,  # noqa: F821
                 read_landscape(snakemake.input.landscape.removesuffix(".npz")),  # noqa: F821
                 ap_jobs.read_reference(snakemake.input.reference.removesuffix(".npz")),  # noqa: F821
                 snakemake.output[0].removesuffix(".npz"), snakemake.log[0])  # noqa: F821
