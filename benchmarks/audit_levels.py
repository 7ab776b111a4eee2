"""Time the audit's three levels (docs/workflow.md, "Audit") and record them in
benchmarks/results/audit.json, from which ssi.docgen writes the page's table.

    python benchmarks/audit_levels.py [--workdir DIR] [--cores N] [--configfile config/config.yaml]

in a checkout (``--workdir``, default the repository) whose ``results/`` holds a completed run of
the config, so that the audit finds its inputs (copy them from a run if needed):

* (a) ``snakemake verify --cores 1``: the committed files against their manifest;
* (b) ``snakemake audit_compute --cores N --config audit_n=4 audit_seed=1``: four result files
  recomputed from nothing and compared with figures/RESULT_HASHES.json (default config only);
* (c) ``snakemake audit --cores 1``: every figure re-rendered and the numbers recomputed from
  results/ (skipped, and not recorded, when results are missing: it would first make them).

Each command must succeed (the timings of a failing check mean nothing). The entry records the
cores, date, machine, commit and the load average at the start, since other work on the machine
changes wall times.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "results" / "audit.json"
DEFAULT = "config/config.yaml"


def timed(cmd: list[str], cwd: Path) -> float:
    """Wall seconds of ``cmd`` (which must succeed)."""
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stdout[-4000:]}")
    print(f"{seconds:8.1f} s  {' '.join(cmd[2:])}")
    return seconds


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workdir", type=Path, default=ROOT)
    parser.add_argument("--cores", type=int, default=os.cpu_count())
    parser.add_argument("--configfile", default=DEFAULT)
    args = parser.parse_args(argv)

    sys.path.insert(0, str(ROOT / "src"))
    import yaml

    config = yaml.safe_load((args.workdir / args.configfile).read_text())
    snakemake = [sys.executable, "-m", "snakemake"]
    extra = [] if args.configfile == DEFAULT else ["--configfile", args.configfile]
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    entry = {"cores": args.cores, "date": datetime.date.today().isoformat(),
             "machine": f"{platform.machine()}, {os.cpu_count()} cores", "commit": commit.stdout.strip() or "unknown",
             "load_average": round(os.getloadavg()[0], 2)}
    entry["verify_seconds"] = timed([*snakemake, "verify", "--cores", "1", *extra], args.workdir)
    if args.configfile == DEFAULT:
        entry.update(audit_n=4, audit_seed=1)
        entry["audit_compute_seconds"] = timed([*snakemake, "audit_compute", "--cores", str(args.cores), *extra,
                                                "--config", "audit_n=4", "audit_seed=1"], args.workdir)
    plan = subprocess.run([*snakemake, "audit", "--cores", "1", *extra, "-n"], cwd=args.workdir,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if "result files it re-renders and recomputes from are missing" in plan.stdout:
        print(f"results of {args.configfile} missing under {config['results_dir']}: the audit is not timed")
    else:
        entry["audit_seconds"] = timed([*snakemake, "audit", "--cores", "1", *extra], args.workdir)
    record = json.loads(OUT.read_text()) if OUT.is_file() else {"configs": {}}
    record["configs"][args.configfile] = entry
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(record, indent=2, sort_keys=True) + "\n")
    print(f"written {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
