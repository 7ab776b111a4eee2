# Shared definitions: result and figure folders, config checks beyond the schema,
# and the registry of figure renderers that the audit re-runs.
from pathlib import Path

from ssi.experiments.common import problem_from_spec

R = config["results_dir"]
F = config["figures_dir"]

#: every final figure file (filled by the result rule files)
FIGURES = []
#: key-numbers files, one per result (committed next to the figures, compared by the audit)
NUMBERS = []
#: name -> function(out_dir) that re-renders that result's figures into out_dir
RENDERERS = {}


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


check_config(config)
