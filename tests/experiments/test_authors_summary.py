"""The authors' tables in words (ssi.experiments.authors.summary, rendered by the page generator's
templates; tests/workflow/test_docs.py checks the committed pages are what it renders): what is
counted, and where the per-run tables are.

* the files whose role in config/authors.yaml is "earlier version" (superseded by a later file of
  the same experiment) keep a row with their verdict but are left out of the counts, and the
  README's block and docs/results/authors.md say so; exploratory files have no verdict and are
  not counted either;
* docs/results/authors.md holds the verdicts and the discussion, docs/results/authors_runs.md every
  per-point table, each section of one page linking to its section of the other.
"""
from __future__ import annotations

import json
from pathlib import Path

import yaml

from pagegen import markers
from ssi.experiments.figure_data import numbers_from_json
from ssi.experiments.authors import summary as summary

ROOT = Path(__file__).resolve().parents[2]
#: a column of every per-point table (one row per network and L or ω)
POINTS_COLUMN = "| seed-mean steps to 2/√d |"


def committed():
    config = yaml.safe_load((ROOT / "config" / "authors.yaml").read_text(encoding="utf-8"))
    numbers = numbers_from_json(ROOT / "figures" / "authors" / "numbers" / "authors.json")
    default = {p.stem: json.loads(p.read_text()) for p in (ROOT / "figures" / "numbers").glob("*.json")}
    return config, numbers, default


def committed_pages():
    """The README's authors block, docs/results/authors.md and docs/results/authors_runs.md as committed."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start, end = markers.AUTHORS
    block = readme[readme.index(start) + len(start):readme.index(end)]
    return (block, (ROOT / "docs/results/authors.md").read_text(encoding="utf-8"),
            (ROOT / "docs/results" / summary.RUNS_PAGE).read_text(encoding="utf-8"))


def test_counts_leave_superseded_and_exploratory_rows_out():
    """Two "differs" rows of superseded files and an exploratory row change nothing in the counts;
    caught: an earlier version counted as a failure of the claim its later file decides."""
    rows = [{"group": ["a"], "agrees": "reproduced", "kind": "counted"},
            {"group": ["b", "c"], "agrees": "differs", "kind": "counted"},
            {"group": ["old1"], "agrees": "differs", "kind": "superseded"},
            {"group": ["old2"], "agrees": "differs", "kind": "superseded"},
            {"group": ["x", "y"], "agrees": "n/a", "kind": "exploratory"},
            {"group": [], "agrees": "reproduced", "kind": "counted"}]
    assert summary.verdict_counts(rows) == {"reproduced": 2, "differs": 1}
    assert summary.counts_text(rows) == ("Counted: 3 rows (2 reproduced, 1 differs); not counted (below): "
                                         "2 superseded earlier versions, 2 exploratory files.")


def test_the_committed_earlier_versions_are_shown_but_not_counted():
    """Every file of role "earlier version" is a superseded row, with its verdict, in the README's
    block (second table) and on docs/results/authors.md, and the counts printed there leave it out."""
    config, numbers, default = committed()
    experiments = config["authors"]["experiments"]
    rows = summary.table_rows(config, numbers, default)
    superseded = {n for r in rows if r["kind"] == "superseded" for n in r["group"]}
    assert superseded == {n for n, s in experiments.items() if s["role"] == summary.SUPERSEDED}
    assert superseded, "config/authors.yaml has no earlier version: the test checks nothing"
    text = summary.counts_text(rows)
    assert f"Counted: {sum(1 for r in rows if r['kind'] == 'counted')} rows" in text
    block, page, _ = committed_pages()
    counted_table, rest = block.split(text)
    assert text in page
    for name in superseded:
        stem = experiments[name]["file"].removesuffix(".yaml")
        assert f"`{stem}`" not in counted_table and f"`{stem}`" in rest, stem


def test_per_point_tables_are_on_the_runs_page():
    """docs/results/authors.md has no per-point table and links each section to its tables on
    docs/results/authors_runs.md, which has one per experiment file."""
    config, numbers, default = committed()
    experiments = config["authors"]["experiments"]
    _, page, runs = committed_pages()
    assert POINTS_COLUMN not in page
    assert runs.count(POINTS_COLUMN) == len(experiments)
    for group in summary.groups(config, numbers):
        title = " + ".join(experiments[n]["file"].removesuffix(".yaml") for n in group)
        assert f"({summary.RUNS_PAGE}#{summary.anchor(title)})" in page, title
        assert f"(authors.md#{summary.anchor(title)})" in runs, title
