"""Write docs/results/authors.md from the authors' run: `python workflow/scripts/authors_docs.py [wall]`.

Reads config/authors.yaml, figures/authors/numbers/authors.json, figures/numbers/*.json (the
default run, for the paper-convention column) and the SGD jobs' provenance (simulation seconds).
"""
import json
import sys
from pathlib import Path

import yaml

from ssi.experiments import authors
from ssi.io import atomic_write_text

root = Path(__file__).resolve().parents[2]
config = yaml.safe_load((root / "config" / "authors.yaml").read_text())
numbers = json.loads((root / config["figures_dir"] / "numbers" / "authors.json").read_text())
authors._nan(numbers)
default = {p.stem: json.loads(p.read_text()) for p in (root / "figures" / "numbers").glob("*.json")}
per = {name: authors.job_seconds(config, name) for name in config["authors"]["experiments"]}
timing = {"wall": sys.argv[1] if len(sys.argv) > 1 else "n/a", "job_seconds": sum(per.values()), "per_experiment": per}
atomic_write_text(root / "docs" / "results" / "authors.md", authors.results_markdown(config, numbers, default, timing))
