"""The page generator of the workflow: every page that quotes a number, rendered whole.

``snakemake pages --cores 1`` writes them from the committed files (the numbers files and
verdict files under figures/, benchmarks/results/workflow.json and engines.json, the registries of
:mod:`ssi.problems`); tests/workflow/test_docs.py fails when a committed page differs from what it
would write. The pages that quote numbers are Jinja2 templates under ``workflow/templates/``
(:mod:`pages`); :mod:`fragments` holds the function behind each ``gen(NAME, …)`` a template calls.
"""
