"""The generated parts of README.md and docs/: every time, rate and count they quote comes from a file.

``python -m ssi.docgen`` rewrites them from the committed files (the numbers files under
figures/, benchmarks/results/workflow.json, benchmarks/results/engines.json, the registries of
:mod:`ssi.problems`); ``python -m ssi.docgen --check`` lists the pages that differ from what it
would write, and exits 1 if any does (tests/workflow/test_docs.py runs it).

A page marks a generated span as ``<!-- gen:NAME ARG … -->text<!-- /gen -->`` (inline or over
several lines); :mod:`ssi.docgen.fragments` holds the function behind each NAME. The claims
table and the authors' table have markers of their own; the claims pages, docs/results/authors.md
and docs/results/authors_runs.md are written whole (:mod:`ssi.experiments.claims`,
:mod:`ssi.experiments.authors.summary`).
"""
