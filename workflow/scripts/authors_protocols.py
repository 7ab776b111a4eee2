# %% [markdown]
# # The authors' experiments: which learning-rate protocol or target normalisation gives gain ∝ L² (ODE)
#
# At the SIE-2 settings of square-sequencelength-{plain,tied} (d = 1000, their η = 2·10⁻⁴ with
# torch MSE, ReLU students, overlapped start, escape at 2/√d) the ODE's escape steps of the tied and
# the untied network for L = 1..10:
#
# * A. their protocol (tied η·√L, untied η) on every normalisation of Σh₂ in their function list;
# * B. candidate (i): each network at its own ODE-best η, the tied network being the trace
#   attention student (no PE) on Σh₂;
# * C. candidate (ii): the untied network at its ODE-best η on Σh₂ against a tied network whose
#   time does not grow with L (the tied ReLU network on (1/√L)Σh₂ at its own best η).
#
# Output: results/authors/protocols.{npz,json}; exponents are log-log slopes over L.

# %%
import math

import numpy as np

from ssi.experiments import authors as au
from ssi.experiments.authors_candidates import problem as prob
from ssi.experiments.common import ProgressLog, loglog_slope
from ssi.experiments.tied_untied import best_learning_rate
from ssi.io import save_result
from ssi.ode import escape_time

cfg = snakemake.config  # noqa: F821
spec = cfg["authors"]["protocols"]
d, lr0, Ls = int(spec["d"]), float(spec["lr"]), [int(L) for L in spec["Ls"]]
level = 2 / math.sqrt(d)
m0 = au.initial_m({"d": d, "init": "overlapped", "ic_overlap": None})
log = ProgressLog(snakemake.log[0], "authors protocols (ODE)")  # noqa: F821


def steps(p, lr):
    kw = {"token_symmetric": True, "overlap": "rms"} if not p.tied else {}
    if p.student == "attention" and p.L >= 4:
        kw["quadrature"] = {"qmc_log2": int(spec["qmc_log2"])}
    return escape_time(p, d, lr, level, m0, t_max=float(spec["t_max"]), give_up_below=0.25 * m0, **kw)


arrays, out = {"Ls": np.array(Ls)}, {"d": d, "lr": lr0, "level": level, "m0": m0}
# A. their protocol on every normalisation
for target in spec["normalisations"]:
    tu = np.array([steps(prob(target, "untied", L), lr0) for L in Ls])
    tt = np.array([steps(prob(target, "tied", L), lr0 * math.sqrt(L)) for L in Ls])
    arrays[f"A_{target}_untied"], arrays[f"A_{target}_tied"] = tu, tt
    out[f"A_{target}"] = {"exponent_gain": loglog_slope(Ls, tu / tt), "exponent_untied": loglog_slope(Ls, tu),
                          "exponent_tied": loglog_slope(Ls, tt), "gain": (tu / tt).tolist()}
    log.note(f"A {target}: {out[f'A_{target}']}")
# B and C: best η per network (bounded search of the ODE's steps to 2/√d)
bounds = spec["lr_search"]
best = {}
for key, (target, student, Lset) in {"untied_H2sum": ("H2sum", "untied", Ls),
                                    "tied_H2sum": ("H2sum", "tied", Ls),
                                    "attention_H2sum": ("H2sum", "attention", spec["attention_Ls"]),
                                    "tied_inversesqrtH2sum": ("inversesqrtH2sum", "tied", Ls)}.items():
    rows = []
    for L in Lset:
        lr, n = best_learning_rate(prob(target, student, int(L)), d, level, m0, bounds, float(spec["t_max"]))
        rows.append((int(L), lr, n))
        log.note(f"best η {key} L={L}: η = {lr:.4g}, steps {n:.4g}")
    arr = np.array(rows, float)
    arrays[f"best_{key}"] = arr
    best[key] = {"Ls": arr[:, 0].astype(int).tolist(), "lr": arr[:, 1].tolist(), "steps": arr[:, 2].tolist(),
                 "exponent_steps": loglog_slope(arr[:, 0], arr[:, 2]), "exponent_lr": loglog_slope(arr[:, 0], arr[:, 1])}
out["best"] = best
uL = dict(zip(best["untied_H2sum"]["Ls"], best["untied_H2sum"]["steps"]))
aL = dict(zip(best["attention_H2sum"]["Ls"], best["attention_H2sum"]["steps"]))
common = [L for L in aL if L in uL]
out["B_gain_untied_over_attention"] = {"Ls": common, "gain": [uL[L] / aL[L] for L in common],
                                       "exponent": loglog_slope(common, [uL[L] / aL[L] for L in common])}
tn = dict(zip(best["tied_inversesqrtH2sum"]["Ls"], best["tied_inversesqrtH2sum"]["steps"]))
out["C_gain_untied_over_tied_normalised"] = {"Ls": Ls, "gain": [uL[L] / tn[L] for L in Ls],
                                             "exponent": loglog_slope(Ls, [uL[L] / tn[L] for L in Ls])}
save_result(snakemake.output[0].removesuffix(".npz"), arrays, {"experiment": "authors", "part": "protocols",  # noqa: F821
                                                               "numbers": out, "config": spec})
