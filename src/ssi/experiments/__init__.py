"""One module per paper result: the computations and plots that the workflow rules call.

Each module exposes the functions its Snakemake scripts call (compute one
parameter point, plot a figure from result files, summarise key numbers); the
scripts in ``workflow/scripts`` stay thin.
"""
