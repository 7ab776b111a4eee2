"""What the Snakefile says before any job starts: a config that breaks the schema, in one line, and
what the audit needs when its results are missing, with how long making them takes.

The times come from ``benchmarks/results/workflow.json`` (written by a benchmark script from a
run's job metadata, never by hand); a missing file or config entry gives "time not measured".
"""
from __future__ import annotations

import json
import math
import sys
from pathlib import Path

#: the measured wall times of whole runs, per config file (docs/workflow.md, "Audit")
TIMINGS = Path("benchmarks/results/workflow.json")
#: the default config (no --configfile)
DEFAULT_CONFIG = "config/config.yaml"
#: longest value shown in a schema message (a whole section would flood the terminal)
VALUE_CHARS = 80


def config_path(error_path) -> str:
    """``two_phases.cases.sie1.dims[0]`` for a jsonschema path (keys and list indices)."""
    out = ""
    for part in error_path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def short(value, limit: int = VALUE_CHARS) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _rule(error) -> str:
    """The schema rule that ``error`` broke, in words."""
    kind, bound = error.validator, error.validator_value
    words = {"minimum": "must be ≥ {}", "exclusiveMinimum": "must be > {}", "maximum": "must be ≤ {}",
             "exclusiveMaximum": "must be < {}", "type": "must be of type {}", "minItems": "needs at least {} items",
             "maxItems": "takes at most {} items", "minLength": "needs at least {} characters",
             "pattern": "must match the pattern {}", "const": "must be {}"}
    if kind == "enum":
        return "must be one of " + ", ".join(map(str, bound))
    if kind in words:
        return words[kind].format(bound if kind != "pattern" else repr(bound))
    first_line = error.message.splitlines()[0] if error.message else kind
    return short(first_line, 160)


def schema_error_line(error, schema_file: str) -> str:
    """One line naming the key, the value and the rule that a jsonschema ``ValidationError`` broke.

    Parameters
    ----------
    error : jsonschema.exceptions.ValidationError
        The error (for ``anyOf``/``oneOf`` failures, the most relevant sub-error is named).
    schema_file : str
        The schema, named at the end of the line.

    Returns
    -------
    str
        e.g. ``config two_phases.cases.sie1.dims[0] = -300: must be ≥ 1 (minimum in
        workflow/schemas/config.schema.yaml)``.
    """
    from jsonschema.exceptions import best_match

    error = best_match([error])
    where = f"{error.validator} in {schema_file}"
    path = list(error.absolute_path)
    if error.validator == "additionalProperties":
        allowed = set(error.schema.get("properties", {}))
        unknown = sorted(set(error.instance) - allowed) if isinstance(error.instance, dict) else []
        keys = ", ".join(config_path(path + [k]) for k in unknown) or config_path(path)
        return (f"config {keys}: unknown key ({', '.join(repr(k) for k in unknown)} was unexpected; allowed "
                f"here: {', '.join(sorted(allowed))}) ({where})")
    if error.validator == "required":
        return f"config {config_path(path)}: {error.message} ({where})"
    return f"config {config_path(path)} = {short(error.instance)}: {_rule(error)} ({where})"


class ConfigError(ValueError):
    """A config value that the workflow cannot run with; the message is one line."""


def validate_config(config: dict, schema, name: str) -> None:
    """Snakemake's schema check of ``config`` (defaults filled in), with a violation raised as a
    :class:`ConfigError` of one line (:func:`schema_error_line`) instead of Snakemake's dump of the
    whole schema.

    Parameters
    ----------
    config : dict
    schema : path
        The schema file (absolute: the check does not depend on the working directory).
    name : str
        The schema as the message names it (e.g. ``workflow/schemas/config.schema.yaml``).
    """
    from snakemake.exceptions import WorkflowError
    from snakemake.utils import validate

    try:
        validate(config, str(schema))
    except WorkflowError as err:
        error = validation_error(err)
        if error is None:
            raise
        raise ConfigError(schema_error_line(error, name)) from None


def validation_error(exc):
    """The jsonschema ``ValidationError`` that Snakemake's ``validate`` wrapped in ``exc``, or None."""
    from jsonschema.exceptions import ValidationError

    seen = set()
    while exc is not None and id(exc) not in seen:      # Snakemake raises it inside `except ValidationError`
        if isinstance(exc, ValidationError):
            return exc
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return None


def read_timings(configfile: str, root=".") -> dict | None:
    """The measured run of ``configfile`` in ``benchmarks/results/workflow.json``, or None when the
    file, the entry or its wall time is absent or unreadable."""
    try:
        record = json.loads((Path(root) / TIMINGS).read_text())
        entry = record["configs"][configfile]
        seconds = float(entry["wall_seconds"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return entry if math.isfinite(seconds) and seconds > 0 else None


def duration(seconds: float) -> str:
    """``45 s``, ``12 min``, ``2.5 h``."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def run_time_text(configfile: str, root=".") -> str:
    """``about 20 min on 2 cores, 115 jobs (benchmarks/results/workflow.json)`` or ``time not measured``."""
    entry = read_timings(configfile, root)
    if entry is None:
        return "time not measured"
    parts = [f"about {duration(float(entry['wall_seconds']))}"]
    if isinstance(entry.get("cores"), int):
        parts[0] += f" on {entry['cores']} core{'s' if entry['cores'] != 1 else ''}"
    if isinstance(entry.get("jobs"), int):
        parts.append(f"{entry['jobs']} jobs")
    return ", ".join(parts) + f" ({TIMINGS.as_posix()})"


def audit_needs(results, configfile: str, verify_command: str, root=".") -> str | None:
    """What ``snakemake audit`` needs when result files are missing (None when all are there).

    The audit re-renders the figures and recomputes the numbers from ``results``, so Snakemake
    makes any missing one first; on a fresh clone that is the whole run.
    """
    missing = [f for f in results if not (Path(root) / f).is_file()]
    if not missing:
        return None
    run = f"the whole run of {configfile} ({run_time_text(configfile, root)})"
    if len(missing) == len(results):
        what = f"the {len(results)} result files it re-renders and recomputes from are missing"
        cost = f"that is {run}"
    else:
        what = f"{len(missing)} of the {len(results)} result files it re-renders and recomputes from are missing"
        cost = f"at most {run}"
    return (f"audit: {what} (e.g. {missing[0]}); Snakemake makes them first, {cost}. To check the committed "
            f"figures and numbers alone, in seconds and without results: {verify_command}")


#: the messages :func:`announce_missing_results` has printed (Snakemake may ask more than once)
_ANNOUNCED: set[str] = set()


def announce_missing_results(results, configfile: str, verify_command: str) -> list:
    """The audit's input function: ``results``, after printing :func:`audit_needs` (once) to stderr
    when some are missing. Snakemake calls it while building the DAG, before any job runs, and
    only when the audit is asked for."""
    needs = audit_needs(results, configfile, verify_command)
    if needs and needs not in _ANNOUNCED:
        _ANNOUNCED.add(needs)
        print(needs, file=sys.stderr)
    return list(results)
