# The plan of batched jobs (workflow/rules/batch.smk): which jobs each batch runs, in which order,
# and what each member is given.
import os
from pathlib import Path as _Path

from snakemake.io import apply_wildcards as _apply_wildcards
from snakemake.io import flag as _flag

try:                       # Snakemake's containers of files and values (before 9.2x: in snakemake.io)
    from snakemake.iocontainers import Wildcards as _Wildcards
except ImportError:
    from snakemake.io import Wildcards as _Wildcards


#: the folder of the batch jobs' script, workflow/scripts/run_batch.py
_RUNNER_DIR = _Path(workflow.basedir, "workflow", "scripts").resolve()


def _producer(path):
    """The rule that makes ``path`` (the first to, in the order the rule files define them), or None."""
    return next((candidate for candidate in workflow.rules if candidate.is_producer(path)), None)


def _same_file(candidate, job_rule):
    """Whether ``candidate`` (a rule or None) is defined in the rule file of ``job_rule``."""
    return candidate is not None and candidate.snakefile == job_rule.snakefile


def _member(job_rule, path):
    """(member, outputs) for the job of ``job_rule`` that makes ``path``: what it is given (its
    script, wildcards, input, output, params and log, as plain values, the files as
    [paths, {name: [start, end]}]) and its output files with their ``report(...)`` entries."""
    wildcards = _Wildcards(fromdict=job_rule.get_wildcards(path))
    inputs = job_rule.expand_input(wildcards)[0]
    outputs, original = job_rule.expand_output(wildcards)
    params = job_rule.expand_params(wildcards, inputs, outputs, None)[0]
    logs = job_rule.expand_log(wildcards)
    named = lambda items, plain: [[plain(x) for x in items], {name: list(span) for name, span in items._get_names()}]
    # the script relative to run_batch.py's folder
    script = _Path(job_rule.basedir.get_path_or_uri(secret_free=True), job_rule.script).resolve()
    plain_wildcards = {k: str(v) for k, v in wildcards.items()}
    member = {"rule": job_rule.name, "script": os.path.relpath(script, _RUNNER_DIR), "wildcards": plain_wildcards,
              "input": named(inputs, str), "output": named(outputs, str), "params": named(params, lambda x: x),
              "log": named(logs, str)}
    return member, _report_flagged(outputs, original, plain_wildcards)


def _report_flagged(outputs, original, wildcards):
    """The files ``outputs`` of a job (``original``: each one's file pattern in its rule), each with
    its ``report(...)`` entry (caption, category) if it has one, so that `snakemake --report`
    shows them when batched too."""
    entries = [getattr(original[f], "flags", {}).get("report") for f in outputs]
    # a category or subcategory may name the job's wildcards ("{name}"): the batch has none
    named = ("category", "subcategory")
    entries = [entry and entry._replace(**{key: _apply_wildcards(getattr(entry, key), wildcards)
                                           for key in named if isinstance(getattr(entry, key), str)})
               for entry in entries]
    return [str(f) if entry is None else _flag(str(f), "report", entry) for f, entry in zip(outputs, entries)]


def _in_order(jobs):
    """The (member, outputs) pairs ``jobs`` reordered so that a member comes after those whose
    files it reads."""
    ordered, made = [], set()
    outputs = {f for m, _ in jobs for f in m["output"][0]}
    while jobs:
        ready = [(m, o) for m, o in jobs if not set(m["input"][0]) & (outputs - made)]
        if not ready:
            names = sorted({m["rule"] for m, _ in jobs})
            raise ValueError(f"batch: the jobs of rules {names} read each other's files in a circle")
        ordered += ready
        made |= {f for m, _ in ready for f in m["output"][0]}
        jobs = [(m, o) for m, o in jobs if all(m is not r for r, _ in ready)]
    return ordered


def _indexed(jobs, batch_log):
    """One batch job from its ordered (member, outputs) pairs: its input (the files no member
    makes), output and log (``batch_log``, then the members' logs), and the members with every file
    given as its place in those lists (["input" or "output", index] for an input). No path is in
    the params, which Snakemake compares to decide a rerun: a moved or copied folder, or the
    package installed elsewhere, does not rerun a batch."""
    outputs = [f for _, files in jobs for f in files]
    out_index = {str(f): i for i, f in enumerate(outputs)}
    inputs = sorted({f for m, _ in jobs for f in m["input"][0]} - out_index.keys())
    in_index = {f: i for i, f in enumerate(inputs)}
    logs = [batch_log] + [f for m, _ in jobs for f in m["log"][0]]
    log_index = {f: i for i, f in enumerate(logs)}
    members = []
    for m, _ in jobs:
        refs = [["output", out_index[f]] if f in out_index else ["input", in_index[f]] for f in m["input"][0]]
        members.append({**m, "input": [refs, m["input"][1]],
                        "output": [[out_index[f] for f in m["output"][0]], m["output"][1]],
                        "log": [[log_index[f] for f in m["log"][0]], m["log"][1]]})
    return {"members": members, "input": inputs, "output": outputs, "log": logs}


def _batches(paths, log_folder):
    """Batch jobs by the name of their rule file (values as _indexed gives), for the jobs that make
    the files ``paths``, rule files with one job left out; the batch's own log is
    ``log_folder``/batch_<rule file>.log."""
    families, done, todo = {}, set(), list(reversed(paths))
    while todo:
        path = todo.pop()
        if path in done:
            continue
        job_rule = _producer(path)
        if not job_rule:
            raise ValueError(f"batch: no rule makes {path}")
        member, outputs = _member(job_rule, path)
        done.update(member["output"][0])
        families.setdefault(_Path(job_rule.snakefile).stem, []).append((member, outputs))
        # a file a member reads that a rule of the same file makes is made in the same batch (made
        # outside it, the batch would wait for a job that waits for the batch)
        todo += [f for f in member["input"][0] if f not in done and _same_file(_producer(f), job_rule)]
    return {family: _indexed(_in_order(jobs), f"{log_folder}/batch_{family}.log")
            for family, jobs in families.items() if len(jobs) > 1}


def _batch_priority(family, batches, feeds_others):
    """Snakemake priority of the batch of ``family`` among ``batches``: ``feeds_others`` plus its
    number of members if another batch reads one of its files, else its number of members (a
    batch is a chain of jobs on one core: the long chains that others wait on go first)."""
    made = set(map(str, batches[family]["output"]))
    read = {str(f) for name, other in batches.items() if name != family for f in other["input"]}
    return (feeds_others if made & read else 0) + len(batches[family]["members"])
