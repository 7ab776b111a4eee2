"""The page generator (workflow/pagegen) and the workflow benchmark it reads.

* generated spans: inline and as blocks, stripped; an unknown fragment name is an error;
* templates: rendered whole, each page headed by its template's name, a name the context does not
  have is an error;
* times in words from benchmarks/results/workflow.json, and "time not measured" when the file or
  the entry is absent;
* benchmarks/workflow.py: one job per (rule, job hash) of a Snakemake metadata folder, jobs assigned
  to a config by their log's folder, job-seconds per rule family and per authors' experiment.
"""
from __future__ import annotations

import base64
import importlib.util
import json
from pathlib import Path

import jinja2
import pytest

from pagegen import fragments, markers, pages, timings

ROOT = Path(__file__).resolve().parents[2]


def test_spans_blocks_and_strip():
    inline, table = markers.span("x 1 2", "v"), markers.span("y", "\n| a |\n|---|\n")
    assert inline == "<!-- gen:x 1 2 -->v<!-- /gen -->"
    assert table == "<!-- gen:y -->\n\n| a |\n|---|\n\n<!-- /gen -->"
    claims = markers.block(markers.CLAIMS, "| t |\n")
    assert claims == f"{markers.CLAIMS[0]}\n| t |\n{markers.CLAIMS[1]}"
    assert markers.strip_generated(f"a {inline} b\n{table}\n{claims}\n") == "a  b\n\n\n"
    with pytest.raises(ValueError, match="unknown generated span gen:nope"):
        fragments.render(ROOT, "nope", [])


def test_templates_render_whole(tmp_path):
    folder = tmp_path / pages.TEMPLATES / "docs"
    folder.mkdir(parents=True)
    (folder / "demo.txt.j2").write_text("# T\n\nit took {{ gen('run-time', 'c') }}.\n")
    context = {"gen": lambda name, *args: markers.span(" ".join((name, *args)), "3 s")}
    out = pages.render(tmp_path, context)
    assert out == {tmp_path / "docs" / "demo.txt": pages.HEADER.format(template="workflow/templates/docs/demo.txt.j2")
                   + "# T\n\nit took <!-- gen:run-time c -->3 s<!-- /gen -->.\n"}
    (folder / "demo.txt.j2").write_text("{{ nowhere }}\n")
    with pytest.raises(jinja2.UndefinedError, match="nowhere"):
        pages.render(tmp_path, context)


def write_workflow_json(root: Path, data: dict) -> None:
    path = root / timings.WORKFLOW
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(data))


def test_times_in_words(tmp_path):
    assert timings.run_time(tmp_path, "config/quick.yaml") == "time not measured"
    assert timings.command_time(tmp_path, "verify") == "time not measured"
    assert "not measured" in timings.engine_speed(tmp_path)
    entry = {"wall_seconds": 1234.0, "cores": 2, "jobs": 134, "numba_cache": "cold", "commit": "abc1234",
             "date": "2026-01-01", "machine": "m", "families": {"c5": {"jobs": 26, "job_seconds": 900.0}}}
    write_workflow_json(tmp_path, {"configs": {"config/config.yaml": entry},
                                   "commands": {"verify": {"command": "snakemake verify", "wall_seconds": 3.2,
                                                           "exit_code": 0, "commit": "abc1234", "date": "2026-01-01",
                                                           "machine": "m"}}})
    assert timings.run_time(tmp_path, "config/config.yaml") == "about 21 min on 2 cores, cold numba cache"
    assert timings.run_time(tmp_path, "config/quick.yaml") == "time not measured"
    assert timings.command_time(tmp_path, "verify") == "about 3 s"
    assert timings.family_seconds(tmp_path, "config/config.yaml", "c5").startswith("26 jobs, 900 job-seconds")
    assert "| `config/config.yaml` | 21 min | 2 | 134 |" in timings.runs_table(tmp_path)
    assert [timings.duration(s) for s in (45, 600, 9000)] == ["45 s", "10 min", "2.5 h"]


def test_registry_table_names_every_registry_entry():
    from ssi import problems

    table = fragments.registry_table()
    for registry in (problems.TARGETS, problems.STUDENTS, problems.POSITIONAL_ENCODINGS, problems.REDUCTIONS,
                     problems.ACTIVATIONS):
        assert all(f"`{name}`" in table for name in registry)


def load_benchmark():
    spec = importlib.util.spec_from_file_location("workflow_benchmark", ROOT / "benchmarks" / "workflow.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_workflow_benchmark_summarises_metadata(tmp_path):
    bench = load_benchmark()
    for name in ("Snakefile",):
        (tmp_path / name).write_text((ROOT / name).read_text())
    (tmp_path / "workflow").mkdir()
    (tmp_path / "workflow" / "rules").mkdir()
    (tmp_path / "workflow" / "rules" / "tied_untied.smk").write_text("rule tied_untied_sgd:\n    input: []\n")
    (tmp_path / "workflow" / "rules" / "authors.smk").write_text("rule authors_sgd:\n    input: []\n")
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "config.yaml").write_text("results_dir: results\nfigures_dir: figures\n")
    (tmp_path / "config" / "authors.yaml").write_text(
        "results_dir: results/authors\nfigures_dir: figures/authors\nauthors:\n  experiments: {nulldivergence: {}}\n")
    meta = tmp_path / ".snakemake" / "metadata"
    meta.mkdir(parents=True)

    def record(path, rule, job_hash, start, end, log):
        name = base64.b64encode(path.encode()).decode()
        (meta / name).write_text(json.dumps({"rule": rule, "job_hash": job_hash, "starttime": start,
                                             "endtime": end, "log": [log]}))

    # one job, two outputs (multiext) with slightly different times: one job of 10 s
    record("results/tied_untied/sgd_a.npz", "tied_untied_sgd", 1, 100.0, 110.0, "results/logs/a.log")
    record("results/tied_untied/sgd_a.json", "tied_untied_sgd", 1, 100.1, 110.0, "results/logs/a.log")
    record("results/tied_untied/sgd_b.npz", "tied_untied_sgd", 2, 105.0, 125.0, "results/logs/b.log")
    # the authors' run, in the same folder: its log lies under results/authors
    record("results/authors/authors/sgd_nulldivergence_0.npz", "authors_sgd", 3, 200.0, 207.0,
           "results/authors/logs/c.log")
    entry = bench.summary(tmp_path, "config/config.yaml", None, 2, "cold", "a note")
    assert entry["jobs"] == 2 and entry["families"] == {"tied_untied": {"jobs": 2, "job_seconds": 30.0}}
    assert entry["wall_seconds"] == 25.0 and entry["note"] == "a note" and entry["numba_cache"] == "cold"
    authors = bench.summary(tmp_path, "config/authors.yaml", 60.0, 2, "warm", None)
    assert authors["experiments"] == {"nulldivergence": {"jobs": 1, "job_seconds": 7.0}}
    assert authors["wall_seconds"] == 60.0 and authors["wall_source"] == "command"
    out = tmp_path / "workflow.json"
    bench.record("configs", "config/config.yaml", entry, out)
    bench.record("commands", "verify", {"wall_seconds": 1.0}, out)
    data = json.loads(out.read_text())
    assert set(data) == {"configs", "commands"} and data["configs"]["config/config.yaml"] == entry
