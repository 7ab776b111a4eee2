# Shared definitions: result and figure folders, the job parameters,
# and the registry of figure renderers that the audit re-runs.
from pathlib import Path

from ssi.verdicts import rows_for

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
