# Shared definitions: result and figure folders, config checks beyond the schema,
# and the registry of figure renderers that the audit re-runs.
from pathlib import Path

from ssi import escape
from ssi.experiments.common import problem_from_spec
from ssi.verdicts import rows_for
from ssi.experiments.positional import LANDSCAPE_PE, landscape_problem

R = config["results_dir"]
F = config["figures_dir"]

#: every final figure file (filled by the result rule files)
FIGURES = []
#: every simulation result file the figures and numbers are made from (read by the audit)
RESULTS = []
#: key-numbers files, one per result (committed next to the figures, compared by the audit)
NUMBERS = []
#: name -> function(out_dir) that re-renders that result's figures into out_dir
RENDERERS = {}
#: result -> (the result files, the code) its figure data are drawn from (filled by the rule files)
FIGURE_INPUTS = {}


wildcard_constraints:
    d=r"\d+",
    case=r"[A-Za-z0-9_]+",


def check_config(cfg):
    """Checks the schema cannot express: problem names fit together, d is large enough."""
    for case, spec in cfg["two_phases"]["cases"].items():
        where = f"two_phases.cases.{case}"
        problem = problem_from_spec(spec["problem"], f"{where}.problem")
        for d in spec["dims"]:
            if d < problem.min_dimension():
                raise ValueError(f"config {where}.dims: d={d} is too small; this problem needs "
                                 f"d ≥ {problem.min_dimension()}")
    section = cfg["positional"]
    for target in section["landscape"]["targets"]:
        for pe in LANDSCAPE_PE:
            landscape_problem(cfg, target, pe)
    for case, spec in section["cases"].items():
        where = f"positional.cases.{case}"
        problem = problem_from_spec(spec["problem"], f"{where}.problem")
        for key in ("dims", "ode_dims"):
            for d in spec[key]:
                if d < problem.min_dimension():
                    raise ValueError(f"config {where}.{key}: d={d} is too small; this problem needs "
                                     f"d ≥ {problem.min_dimension()}")
        if section["trajectory_d"] not in spec["dims"]:
            raise ValueError(f"config positional.trajectory_d: d={section['trajectory_d']} is not in "
                             f"{where}.dims; the trajectories are drawn from the SGD runs at that d")


    for result in ("two_phases", "positional", "escape_vs_d", "tied_untied", "semantic_positional"):
        escape.named(cfg[result], result)          # a clear error naming the key of a bad escape field
    section = cfg["escape_vs_d"]
    levels = escape.named(section, "escape_vs_d")
    for case, spec in section["cases"].items():
        where = f"escape_vs_d.cases.{case}"
        problem = problem_from_spec(spec["problem"], f"{where}.problem")
        for key in ("dims", "explicit_dims", "ode_dims"):
            for d in spec.get(key, []):
                if d < problem.min_dimension():
                    raise ValueError(f"config {where}.{key}: d={d} is too small; this problem needs "
                                     f"d ≥ {problem.min_dimension()}")
                if levels["early"].value(d) >= levels["macro"].value(d):
                    raise ValueError(f"config {where}.{key}: d={d} is too small; the early level "
                                     f"{levels['early'].level_text()} = {levels['early'].value(d):.3g} must lie "
                                     f"below the macro level {levels['macro'].value(d):g}")
        for d in spec.get("explicit_dims", []):
            if d not in spec["dims"]:
                raise ValueError(f"config {where}.explicit_dims: d={d} is not in {where}.dims; the explicit "
                                 f"engine checks the reduced one at the same points")
        for d in spec["dims"]:
            if d not in spec["ode_dims"]:
                raise ValueError(f"config {where}.ode_dims: d={d} of {where}.dims is missing; the ODE "
                                 f"prediction is reported at every SGD point")


check_config(config)


def point_params(experiment, keys):
    """A params function for the jobs of one (case, d) point of ``experiment``: the case's
    config without its list of dimensions (adding a d must not rerun the other points), the
    seed, the engine and the experiment-level ``keys`` the computation reads. Editing any of
    them reruns the job (Snakemake's params rerun trigger)."""

    def params(wildcards):
        case = {k: v for k, v in config[experiment]["cases"][wildcards.case].items() if k != "dims"}
        return {"case": case, "seed": config["seed"], "engine": config["engine"],
                **{k: config[experiment][k] for k in keys}}

    return params


def check_semantic_positional(cfg):
    """C5 checks beyond the schema: blocks and groups not more than their items, boxes ordered."""
    section = cfg["semantic_positional"]
    where = "config semantic_positional"
    for name, box in section["diagram"].items():
        if name == "polar_grid":
            continue
        for key in ("a", "omega"):
            lo, hi, _ = box[key]
            if not hi > lo:
                raise ValueError(f"{where}.diagram.{name}.{key}: the end {hi} must exceed the start {lo}")
    tr = section["transition"]
    for name, run in tr["runs"].items():
        omegas = run.get("omegas", tr["omegas"])
        if tr["omega_blocks"] > len(omegas):
            raise ValueError(f"{where}.transition.omega_blocks={tr['omega_blocks']} exceeds the "
                             f"{len(omegas)} ω values of run {name}")
        if run["d"] < 5:
            raise ValueError(f"{where}.transition.runs.{name}.d={run['d']} is too small (d ≥ 5)")
    lr = section["long_run"]
    if lr["groups"] > lr["replicates"]:
        raise ValueError(f"{where}.long_run.groups={lr['groups']} exceeds replicates={lr['replicates']}")
    if lr["steps"] != int(lr["steps"]):
        raise ValueError(f"{where}.long_run.steps={lr['steps']} must be a whole number of steps")


check_semantic_positional(config)
def check_tied_untied(cfg):
    """C4: the section exists, every problem builds, d fits, the ODE search bounds are ordered."""
    from ssi.experiments import tied_untied as tu
    from ssi.experiments.tied_untied import jobs as tu_jobs

    if "tied_untied" not in cfg:
        raise ValueError("config: the section 'tied_untied' (claim C4) is missing")
    section = cfg["tied_untied"]
    for case, spec in section["cases"].items():
        where = f"tied_untied.cases.{case}"
        lo, hi = spec["lr_search"]
        if not lo < hi:
            raise ValueError(f"config {where}.lr_search: {spec['lr_search']} must be [low, high] with low < high")
        for L in list(spec["Ls"]) + list(spec.get("ode_Ls", [])):
            for net in tu_jobs.NETWORKS:
                p = tu_jobs.problem(spec, L, net)
                if spec["d"] < p.min_dimension():
                    raise ValueError(f"config {where}.d: d={spec['d']} is too small; L={L} needs d ≥ {p.min_dimension()}")
    for name, spec in section["null_targets"]["runs"].items():
        for net in tu_jobs.NETWORKS:
            p = tu_jobs.problem(spec, spec["L"], net)
            if spec["d"] < p.min_dimension():
                raise ValueError(f"config tied_untied.null.runs.{name}.d: d={spec['d']} is too small")
    spec = section["attention"]
    for L in spec["Ls"]:
        for net in ("attention", "untied"):
            try:
                tu_jobs.attention_problem(spec, L, net)
            except ValueError as err:
                raise ValueError(f"config tied_untied.attention (L={L}, {net}): {err}") from None


check_tied_untied(config)
