"""Write the times table of docs/workflow.md (each run and audit level with its measured time)
from benchmarks/results/workflow.json and benchmarks/results/audit.json:
`python workflow/scripts/workflow_docs.py`. A time missing from those files reads "time not
measured"; no time is typed by hand (tests/test_audit_levels.py checks the page is up to date)."""
from pathlib import Path

from ssi.experiments.claims import update_readme
from ssi.experiments.preflight import TIMES_END, TIMES_START, times_table

root = Path(__file__).resolve().parents[2]
update_readme(root / "docs" / "workflow.md", times_table(root), TIMES_START, TIMES_END)
