"""Write docs/results/authors.md, figures/authors/CLAIMS.md and the README's table of the authors'
experiments from the committed numbers: `python workflow/scripts/authors_docs.py [--check]`.

The same as `python -m ssi.docgen`, which writes every generated page (the authors' ones from
config/authors.yaml, figures/authors/numbers/authors.json, figures/numbers/*.json and
benchmarks/results/workflow.json; presentation in ssi.experiments.authors_summary).
"""
import sys

from ssi.docgen.__main__ import main

sys.exit(main(sys.argv[1:]))
