"""Wall time and job-seconds of a workflow run, per rule family: writes benchmarks/results/workflow.json.

The documentation quotes every time of a run from that file (``snakemake pages``), never by
hand. Three ways to fill it:

``python benchmarks/workflow.py run --configfile config/quick.yaml [--cold] [--cores 2]``
    clones the repository's HEAD into a temporary folder, runs ``snakemake --cores N
    --configfile X`` there with an empty numba cache (``--cold``), or runs it twice and times the
    second run, with ``--forceall`` (warm: numba keys its cache by the sources' absolute paths, so
    a new clone always compiles once), and records it with the per-family job-seconds of that run.
``python benchmarks/workflow.py summarise WORKDIR --configfile config/config.yaml --wall S --numba-cache cold``
    records a run already made in WORKDIR (a clone that ran the workflow): its
    ``.snakemake/metadata`` gives every job's start and end; ``--wall`` the measured wall
    seconds of the command (without it: first job start to last job end).
``python benchmarks/workflow.py command NAME -- CMD ...``
    times one command (e.g. an audit level) in the current checkout and records it under
    ``commands``.

Each entry keeps the machine, commit, date, cores and an optional ``--note``; ``--loaded``
marks a run during which other work shared the machine (the pages then say so). The file is
{"configs": {configfile: entry}, "commands": {name: entry}}; an entry of a config has wall_seconds, cores, jobs, numba_cache, commit, date, machine,
families {family: {jobs, job_seconds}} (a family is the rule file under workflow/rules/
that defines the rule) and, where the config has them, experiments {name: {jobs, job_seconds}}.
"""
from __future__ import annotations

import argparse
import base64
import datetime
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "results" / "workflow.json"
#: result files of one experiment of the authors' config: sgd_<name>_<job>, ode_<name>
EXPERIMENT_FILE = re.compile(r"/(?:sgd|ode)_(?P<name>.+?)(?:_\d+)?\.(?:npz|json)$")


def machine() -> str:
    """CPU model and core count of this machine."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores, {platform.system()} {platform.machine()}"


def rule_families(root: Path) -> dict[str, str]:
    """Rule name -> family (the stem of the rule file under workflow/rules/ that defines it; for
    ``batch_<stem>``, the batched jobs of a rule file, that file's stem)."""
    out = {}
    for path in sorted((root / "workflow" / "rules").glob("*.smk")):
        out[f"batch_{path.stem}"] = path.stem
        for name in re.findall(r"^rule (\w+):", path.read_text(), flags=re.M):
            out[name] = path.stem
    for name in re.findall(r"^rule (\w+):", (root / "Snakefile").read_text(), flags=re.M):
        out.setdefault(name, "Snakefile")
    return out


def config_dirs(root: Path) -> dict[str, tuple[str, str]]:
    """configfile -> (results_dir, figures_dir) of every config under config/."""
    out = {}
    for path in sorted((root / "config").glob("*.yaml")):
        cfg = yaml.safe_load(path.read_text())
        if isinstance(cfg, dict) and "results_dir" in cfg:
            out[f"config/{path.name}"] = (cfg["results_dir"].rstrip("/"), cfg.get("figures_dir", "figures").rstrip("/"))
    return out


def owner(path: str, dirs: dict[str, tuple[str, str]]) -> str | None:
    """The config whose results or figures folder holds ``path`` (the deepest such folder)."""
    best, depth = None, -1
    for configfile, folders in dirs.items():
        for folder in folders:
            if path.startswith(folder + "/") and folder.count("/") > depth:
                best, depth = configfile, folder.count("/")
    return best


def jobs_of(workdir: Path, configfile: str) -> list[dict]:
    """Every job of ``workdir``'s Snakemake metadata whose outputs belong to ``configfile``:
    [{rule, start, end, outputs}], one per job."""
    dirs = config_dirs(workdir)
    jobs: dict[tuple, dict] = {}
    for record_file in (workdir / ".snakemake" / "metadata").iterdir():
        try:
            path = base64.b64decode(record_file.name).decode()
            record = json.loads(record_file.read_text())
        except (ValueError, UnicodeDecodeError, OSError):
            continue
        # a job's log lies under its config's results folder; its outputs may not (the paper config
        # writes figures/authors/phase_diagram_comparison.png, inside the authors config's figures)
        where = (record.get("log") or [path])[0]
        if owner(where, dirs) != configfile or record.get("starttime") is None or record.get("endtime") is None:
            continue
        # one record per output file; the outputs of one job share its job_hash
        key = (record["rule"], record.get("job_hash"))
        job = jobs.setdefault(key, {"rule": record["rule"], "start": record["starttime"], "end": record["endtime"],
                                    "outputs": []})
        job["start"], job["end"] = min(job["start"], record["starttime"]), max(job["end"], record["endtime"])
        job["outputs"].append(path)
    return sorted(jobs.values(), key=lambda j: j["start"])


def summary(workdir: Path, configfile: str, wall: float | None, cores: int, numba_cache: str, note: str | None,
            loaded: bool = False) -> dict:
    """The entry of one config's run in ``workdir`` (see the module docstring)."""
    jobs = jobs_of(workdir, configfile)
    if not jobs:
        raise SystemExit(f"no job of {configfile} in {workdir}/.snakemake/metadata")
    families = rule_families(workdir)
    per_family: dict[str, dict] = {}
    per_experiment: dict[str, dict] = {}
    names = set((yaml.safe_load((workdir / configfile).read_text()).get("authors") or {}).get("experiments", {}))
    for job in jobs:
        seconds = job["end"] - job["start"]
        fam = per_family.setdefault(families.get(job["rule"], job["rule"]), {"jobs": 0, "job_seconds": 0.0})
        fam["jobs"] += 1
        fam["job_seconds"] += seconds
        for path in job["outputs"][:1]:
            match = EXPERIMENT_FILE.search(path)
            if match and match["name"] in names:
                exp = per_experiment.setdefault(match["name"], {"jobs": 0, "job_seconds": 0.0})
                exp["jobs"] += 1
                exp["job_seconds"] += seconds
    span = max(j["end"] for j in jobs) - min(j["start"] for j in jobs)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=workdir, capture_output=True,
                            text=True).stdout.strip()
    entry = {
        "wall_seconds": round(wall if wall is not None else span, 1),
        "wall_source": "command" if wall is not None else "first job start to last job end",
        "cores": cores, "jobs": len(jobs), "numba_cache": numba_cache, "commit": commit or "unknown",
        "date": datetime.date.fromtimestamp(max(j["end"] for j in jobs)).isoformat(),
        "machine": machine(),
        "job_seconds": round(sum(j["end"] - j["start"] for j in jobs), 1),
        "families": {k: {"jobs": v["jobs"], "job_seconds": round(v["job_seconds"], 1)}
                     for k, v in sorted(per_family.items(), key=lambda kv: -kv[1]["job_seconds"])},
    }
    if per_experiment:
        entry["experiments"] = {k: {"jobs": v["jobs"], "job_seconds": round(v["job_seconds"], 1)}
                                for k, v in sorted(per_experiment.items())}
    if note:
        entry["note"] = note
    if loaded:
        entry["loaded"] = True
    return entry


def record(section: str, key: str, entry: dict, out: Path = OUT) -> None:
    """Write ``entry`` under ``section``/``key`` of ``out``, keeping the other entries."""
    data = json.loads(out.read_text()) if out.is_file() else {}
    data.setdefault("configs", {})
    data.setdefault(section, {})[key] = entry
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
    tmp.replace(out)
    print(f"{out}: {section}/{key}: {json.dumps(entry, ensure_ascii=False)[:300]}")


def run(args) -> None:
    """Clone HEAD, run the workflow there (cold or warm numba cache), record it."""
    with tempfile.TemporaryDirectory(prefix="ssi-bench-") as tmp:
        clone = Path(tmp) / "clone"
        subprocess.run(["git", "clone", "--quiet", "--local", str(ROOT), str(clone)], check=True)
        env = dict(os.environ, PYTHONPATH=str(clone / "src"))     # the clone's code, not an editable install's
        if args.cold:
            env["SSI_NUMBA_CACHE"] = str(Path(tmp) / "numba-cache")
        snakemake = str(Path(sys.executable).parent / "snakemake")
        if not Path(snakemake).is_file():
            snakemake = shutil.which("snakemake") or "snakemake"
        log = Path(tmp) / "snakemake.log"
        cmd = [snakemake, "--cores", str(args.cores), "--configfile", args.configfile]
        if not args.cold:
            # numba keys its cache by the absolute paths of the source files, so a new clone compiles
            # once whatever the cache folder: a warm run is the clone's second run (every job again)
            with log.open("w") as out:
                subprocess.run(cmd, cwd=clone, env=env, stdout=out, stderr=subprocess.STDOUT, check=True)
            cmd.append("--forceall")
        start = time.perf_counter()
        with log.open("w") as out:
            result = subprocess.run(cmd, cwd=clone, env=env, stdout=out, stderr=subprocess.STDOUT)
        if result.returncode:
            sys.exit(f"snakemake failed (exit {result.returncode}); the end of its log:\n"
                     + "\n".join(log.read_text().splitlines()[-40:]))
        wall = time.perf_counter() - start
        entry = summary(clone, args.configfile, wall, args.cores, "cold" if args.cold else "warm", args.note,
                        args.loaded)
    record("configs", args.configfile, entry)


def command(args) -> None:
    """Time one command in the current checkout and record it under ``commands``."""
    start = time.perf_counter()
    result = subprocess.run(args.cmd, cwd=ROOT)
    wall = time.perf_counter() - start
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    entry = {"command": " ".join(args.cmd), "wall_seconds": round(wall, 1), "exit_code": result.returncode,
             "commit": commit, "date": datetime.date.today().isoformat(), "machine": machine()}
    if args.note:
        entry["note"] = args.note
    if args.loaded:
        entry["loaded"] = True
    record("commands", args.name, entry)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("run", help="run a config in a fresh clone and record it")
    p.add_argument("--configfile", required=True)
    p.add_argument("--cores", type=int, default=os.cpu_count())
    p.add_argument("--cold", action="store_true", help="empty numba cache (SSI_NUMBA_CACHE in the clone)")
    p.add_argument("--note")
    p.add_argument("--loaded", action="store_true", help="other work shared the machine during the run")
    p = sub.add_parser("summarise", help="record a run already made in WORKDIR")
    p.add_argument("workdir", type=Path)
    p.add_argument("--configfile", required=True)
    p.add_argument("--wall", type=float, help="measured wall seconds of the run (default: the jobs' span)")
    p.add_argument("--cores", type=int, default=os.cpu_count())
    p.add_argument("--numba-cache", choices=("cold", "warm"), required=True)
    p.add_argument("--note")
    p.add_argument("--loaded", action="store_true", help="other work shared the machine during the run")
    p = sub.add_parser("command", help="time one command in this checkout: [--note N] [--loaded] NAME -- CMD ...")
    p.add_argument("--note")
    p.add_argument("--loaded", action="store_true", help="other work shared the machine")
    p.add_argument("name")
    p.add_argument("cmd", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    if args.what == "run":
        run(args)
    elif args.what == "summarise":
        record("configs", args.configfile, summary(args.workdir.resolve(), args.configfile, args.wall, args.cores,
                                                   args.numba_cache, args.note, args.loaded))
    else:
        if args.cmd and args.cmd[0] == "--":
            args.cmd = args.cmd[1:]
        if not args.cmd:
            parser.error("command: give the command after --")
        command(args)


if __name__ == "__main__":
    main()
