"""Claim C4 settled from the ODE near m = 0: the L-exponent of the gain T_untied/T_tied at SIE 2.

For the targets ``c(L)·Σ_l h₂(z*_l)`` the ODE of every student reduces to one equation in m
(:mod:`ssi.sie2_escape`; docs/theory.md, "The SIE-2 escape near m = 0"). This module evaluates it
on a grid of L from 1 to 10³ for the tied and untied ReLU networks (every target normalisation),
the trace-reduced attention and the untied square network, under the learning-rate protocols
of the C4 comparisons, and sets the resulting gain exponents beside the closed-form asymptotic
laws and the SGD measurements of ``tied_untied`` (paper config) and of the authors' protocol
(``figures/authors/numbers/authors.json``).

One compute job (``compute``) writes ``results/tied_untied/theory.npz``; ``summarise`` turns it
into the numbers file; ``plot`` draws the gain curves.
"""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from ... import sie2_escape as se
from ...io import load_result, save_result
from ...escape import crossing_time
from . import predictions as tp
from ..tied_untied.jobs import thresholds
from ..common import ProgressLog, loglog_slope, seed_key
from .claims import settled_answer, verdict


EXPERIMENT = "tied_untied_theory"
#: target normalisations c(L) = L^(−γ): key -> (γ, text, the authors' name)
NORMALISATIONS = {
    "sum": (0.0, "Σh₂", "H2sum"),
    "sqrt_mean": (0.5, "(1/√L)Σh₂", "inversesqrtH2sum"),
    "mean": (1.0, "(1/L)Σh₂", "inverseH2sum"),
    "sqrt_sum": (-0.5, "√L·Σh₂", "sqrtH2sum"),
    "linear": (-1.0, "L·Σh₂", "linearH2sum"),
}
THRESHOLDS = ("authors", "macro")
#: attention is computed for these normalisations (the ones of the authors' attention runs)
ATTENTION_NORMALISATIONS = ("sum", "sqrt_mean")


def scale(norm: str, L) -> np.ndarray:
    """c(L) = L^(−γ) of a normalisation."""
    return np.asarray(L, float) ** -NORMALISATIONS[norm][0]


def grid(section) -> np.ndarray:
    """The feed-forward L grid: ``points`` integers spaced geometrically from 1 to ``L_max``, and
    the ``extra_Ls`` (those of the SGD runs the curves are compared with)."""
    geometric = np.round(np.geomspace(1, section["L_max"], section["points"])).astype(int)
    return np.unique(np.concatenate([geometric, np.asarray(section["extra_Ls"], int)]))


def levels(config) -> dict:
    """The escape thresholds of the C4 escapes (``tied_untied.escape``, :mod:`ssi.escape`) at this result's d."""
    return thresholds(config["tied_untied"], int(config[EXPERIMENT]["d"]))


def stem(config) -> str:
    return f"{config['results_dir']}/tied_untied/theory"


def stems(config, kind) -> dict:
    """Result stems of a kind: "theory" (this result), "sgd" (the paper config's SIE-2 SGD runs it
    is compared with)."""
    if kind == "theory":
        return {"theory": stem(config)}
    if kind == "sgd":
        from ..tied_untied import jobs as tu

        return {k: v for k, v in tu.stems(config, "sgd").items() if k[0] == "sie2"}
    raise ValueError(f"kind={kind!r} is unknown; allowed: theory, sgd")


def validate(config) -> None:
    """Checks the schema cannot express; ValueError naming the key and what is allowed."""
    section = config[EXPERIMENT]
    where = f"config {EXPERIMENT}"
    for key in ("small_window", "slope_window"):
        lo, hi = section[key]
        if not 1 <= lo < hi <= section["L_max"]:
            raise ValueError(f"{where}.{key}: {section[key]} must be [first, last] with "
                             f"1 ≤ first < last ≤ L_max = {section['L_max']}")
    spec = section["attention"]
    if spec["min_samples"] > spec["max_samples"]:
        raise ValueError(f"{where}.attention.min_samples={spec['min_samples']} exceeds "
                         f"max_samples={spec['max_samples']}")
    if section["small_lr"] >= section["lr"]:
        raise ValueError(f"{where}.small_lr={section['small_lr']} must be below lr={section['lr']} "
                         "(it stands for the limit η → 0)")


# --- the compute job ------------------------------------------------------------------------------
def _series(out, name, size):
    keys = [f"{name}_{thr}" for thr in THRESHOLDS] + [f"{name}_closed"] + [f"{name}_{thr}_lr" for thr in THRESHOLDS]
    for key in keys:
        out.setdefault(key, np.full(size, np.nan))


def _record(out, name, i, size, coef, m0, lev, eta=None):
    """Escape times of one series point: the reduced ODE integrated at η (``None``: at the η that
    minimises the escape time, by a bounded search), per threshold; and the leading-order closed
    form at the authors' threshold, ``log(m_th/m₀)/(κ(ηA − η²ν₀/2))`` (best η: ``η = A/ν₀``)."""
    _series(out, name, size)
    for thr, m_th in lev.items():
        lr = coef.best_lr(m0, m_th)[0] if eta is None else eta
        out[f"{name}_{thr}_lr"][i] = lr
        out[f"{name}_{thr}"][i] = coef.ode_escape_time(lr, m0, m_th)
    rate = coef.rate(coef.best_lr_leading() if eta is None else eta)
    out[f"{name}_closed"][i] = math.log(lev["authors"] / m0) / rate if rate > 0 else math.inf


def compute(config, out_stem, log=None) -> None:
    """Coefficients, best learning rates and escape times on the L grids (see the module docstring)."""
    section = config[EXPERIMENT]
    d = int(section["d"])
    m0 = d ** -0.5
    lev = levels(config)
    Ls = grid(section)
    progress = ProgressLog(log, f"{EXPERIMENT}: L = 1..{Ls[-1]} ({Ls.size} points), d = {d}")
    relu, square = se.activation_moments("relu"), se.activation_moments("square")
    out = {"Ls": Ls}
    eta, small = float(section["lr"]), float(section["small_lr"])
    for i, L in enumerate(Ls):
        for norm in NORMALISATIONS:
            tied = se.feedforward(int(L), float(scale(norm, L)), moments=relu)
            for key, value in (("A", tied.A), ("nu0", tied.nu0), ("lr_leading", tied.best_lr_leading()),
                               ("lr_first_order", tied.best_lr_first_order(m0, lev["macro"]))):
                out.setdefault(f"ff_{norm}_{key}", np.zeros(Ls.size))[i] = value
            _record(out, f"tied_best_{norm}", i, Ls.size, tied, m0, lev)
            _record(out, f"untied_best_{norm}", i, Ls.size, tied.untied(int(L)), m0, lev)
        # Σh₂ at fixed learning rates: untied at η; tied at η, η·√L (the authors'), η·L; and the
        # same at a small η (the limit η → 0, where the η·√L and η·L laws hold at every L)
        tied = se.feedforward(int(L), 1.0, moments=relu)
        for lr, suffix in ((eta, ""), (small, "_small")):
            _record(out, f"untied_fixed{suffix}", i, Ls.size, tied.untied(int(L)), m0, lev, lr)
            for name, power in (("tied_fixed", 0.0), ("tied_sqrtL", 0.5), ("tied_L", 1.0)):
                _record(out, f"{name}{suffix}", i, Ls.size, tied, m0, lev, lr * L ** power)
    progress.note("feed-forward networks: done")
    # trace attention (Σh₂ and (1/√L)Σh₂) and the untied square network on (1/√L)Σh₂
    spec = section["attention"]
    aLs = np.asarray(spec["Ls"], int)
    out["att_Ls"] = aLs
    drift = {norm: se.attention_drift(aLs, scale(norm, aLs)) for norm in ATTENTION_NORMALISATIONS}
    for j, L in enumerate(aLs):
        n = int(min(spec["max_samples"], max(spec["min_samples"], spec["sample_entries"] // (L * L))))
        nus = se.attention_noise(int(L), [float(scale(norm, L)) for norm in ATTENTION_NORMALISATIONS],
                                 samples=n, seed=seed_key(config["seed"], EXPERIMENT, "attention", int(L)))
        for norm, nu in zip(ATTENTION_NORMALISATIONS, nus):
            coef = se.Coefficients(A=float(drift[norm][j]), **nu)
            for key in ("A", "nu0", "nu2", "nu4", "nu0_se"):
                out.setdefault(f"att_{norm}_{key}", np.zeros(aLs.size))[j] = getattr(coef, key)
            _record(out, f"attention_best_{norm}", j, aLs.size, coef, m0, lev)
            if norm == "sqrt_mean":
                _record(out, "attention_fixed", j, aLs.size, coef, m0, lev, float(spec["lr"]))
        sq = se.feedforward(int(L), float(scale("sqrt_mean", L)), moments=square, network="untied")
        _record(out, "square_fixed", j, aLs.size, sq, m0, lev, float(spec["lr"]))
        _record(out, "untied_best_att", j, aLs.size, se.feedforward(int(L), 1.0, moments=relu, network="untied"),
                m0, lev)
        progress.note(f"attention L = {L}: {n} samples, ν₀ = {out['att_sum_nu0'][j]:.4g} "
                      f"± {out['att_sum_nu0_se'][j]:.2g}")
    save_result(out_stem, out, {"experiment": EXPERIMENT, "d": d, "m0": m0, "levels": lev, "config": section})


# --- comparisons ----------------------------------------------------------------------------------
#: time series of the results: name -> (L grid key, text)
SERIES = {
    "untied_fixed": ("Ls", "untied ReLU, η"), "tied_fixed": ("Ls", "tied ReLU, η"),
    "tied_sqrtL": ("Ls", "tied ReLU, η·√L"), "tied_L": ("Ls", "tied ReLU, η·L"),
    "untied_fixed_small": ("Ls", "untied ReLU, η → 0"), "tied_sqrtL_small": ("Ls", "tied ReLU, η·√L, η → 0"),
    "tied_L_small": ("Ls", "tied ReLU, η·L, η → 0"),
    "untied_best_sum": ("Ls", "untied ReLU, best η"), "tied_best_sum": ("Ls", "tied ReLU, best η"),
    "tied_best_sqrt_mean": ("Ls", "tied ReLU on (1/√L)Σh₂, best η"),
    "untied_best_att": ("att_Ls", "untied ReLU, best η"), "attention_best_sum": ("att_Ls", "attention, best η"),
    "square_fixed": ("att_Ls", "untied square on (1/√L)Σh₂, η"),
    "attention_fixed": ("att_Ls", "attention on (1/√L)Σh₂, η"),
}
#: (key, text, numerator, denominator or None, asymptotic exponent, law, SGD sources, the same
#: protocol at η → 0 or None); target Σh₂ unless said. SGD sources: ("tied_untied", protocol) of
#: the paper config; ("authors_gain", key), ("authors_experiment", key), ("candidate_gain", key),
#: ("candidate_family", key) of the authors' numbers.
COMPARISONS = [
    ("same_lr", "untied / tied, one η for both", "untied_fixed", "tied_fixed", 1.0,
     "L exactly, every η, threshold and normalisation",
     [("tied_untied", "same_lr"), ("authors_experiment", "square_overlapped_sequencelenght")], None),
    ("best_lr", "untied / tied, each at its best η", "untied_best_sum", "tied_best_sum", 1.0,
     "L exactly (the best η is the same for both)",
     [("tied_untied", "best_lr"), ("candidate_gain", "untied_over_tied")], None),
    ("authors_sqrt", "untied at η / tied at η·√L (the authors' protocol)", "untied_fixed", "tied_sqrtL", 1.5,
     "L^{3/2}(1 − η√L/η_c(L))/(1 − η/η_c(L)), η_c = 2A/ν₀: L^{3/2} while η√L ≪ η_c(L)",
     [("authors_gain", "square_sequencelength_plain/square_sequencelength_tied")],
     ("untied_fixed_small", "tied_sqrtL_small")),
    ("linear_lr", "untied at η / tied at η·L", "untied_fixed", "tied_L", 2.0,
     "L²(1 − ηL/η_c(L))/(1 − η/η_c(L)): L² while ηL ≪ η_c(L)", [],
     ("untied_fixed_small", "tied_L_small")),
    ("untied_alone", "untied alone, best η (a tied time constant in L)", "untied_best_sum", None, 2.0,
     "L(1 + L): exponent 2 − 1/(L + 1)", [("candidate_gain", "ii_untied_alone")], None),
    ("tied_alone", "tied alone, best η", "tied_best_sum", None, 1.0, "1 + L: exponent 1 − 1/(L + 1)",
     [("candidate_family", "tied_H2sum")], None),
    ("tied_alone_normalised", "tied alone on (1/√L)Σh₂, best η", "tied_best_sqrt_mean", None, 1.0,
     "2L exactly", [("candidate_family", "tied_inversesqrtH2sum")], None),
    ("untied_over_tied_normalised", "untied (Σh₂) / tied ((1/√L)Σh₂), best η each", "untied_best_sum",
     "tied_best_sqrt_mean", 1.0, "(1 + L)/2", [("candidate_gain", "ii_untied_over_tied_normalised")], None),
    ("attention_alone", "attention alone, best η", "attention_best_sum", None, 1.0,
     "2ν₀ log(m_th/m₀)/A²: L up to powers of log L", [("candidate_family", "attention_H2sum")], None),
    ("untied_over_attention", "untied / attention, best η each", "untied_best_att", "attention_best_sum", 1.0,
     "πL(1 + L)A²/(2ν₀): L up to powers of log L", [("candidate_gain", "i_untied_over_attention")], None),
    ("square_over_attention", "untied square / attention on (1/√L)Σh₂, one fixed η", "square_fixed",
     "attention_fixed", 0.5, "L·A_att/A_square = L²β₂/2 as η → 0: L^{1/2} up to powers of log L",
     [("authors_experiment", "attention_square_overlapped")], None),
]


def series(results, name, thr):
    """(Ls, times) of a series at a threshold ("authors", "macro") or its closed form ("closed")."""
    return results[SERIES[name][0]], results[f"{name}_{thr}"]


def gain_curve(results, num, den, thr):
    """(Ls, gain) of a comparison: numerator time over denominator time (or the time alone); the gain
    is 0 where the denominator network does not escape (its time is infinite)."""
    Ls, t_num = series(results, num, thr)
    if den is None:
        return Ls, t_num
    Ld, t_den = series(results, den, thr)
    common = np.intersect1d(Ls, Ld)
    t_num, t_den = t_num[np.isin(Ls, common)], t_den[np.isin(Ld, common)]
    return common, t_num / t_den


def _at(Ls, values, wanted):
    """values at the wanted L (nan where the grid does not have it)."""
    lookup = dict(zip(np.asarray(Ls, int).tolist(), np.asarray(values, float).tolist()))
    return [lookup.get(int(L), math.nan) for L in wanted]


# --- SGD measurements ------------------------------------------------------------------------------
def _tied_untied_points(config, protocol, n_boot=1000):
    """Per-L SGD gain of the paper config's SIE-2 case at the macroscopic level, with a 95 % bootstrap
    interval over replicates (resampled within each network)."""
    from ..tied_untied import jobs as tu

    spec = config["tied_untied"]["cases"]["sie2"]
    level = thresholds(config["tied_untied"], int(spec["d"]))["macro"]
    data = {n: load_result(tu.stems(config, "sgd")[("sie2", protocol, n)])[0] for n in tu.NETWORKS}
    rng = np.random.default_rng(seed_key(config["seed"], EXPERIMENT, "bootstrap", protocol))
    points = []
    for L in spec["Ls"]:
        runs = {n: (data[n][f"steps_L{L}"].astype(float), data[n][f"overlap_L{L}"]) for n in tu.NETWORKS}

        def gain(pick):
            t = {n: crossing_time(runs[n][0], runs[n][1][pick(n)].mean(axis=0), level) for n in runs}
            return t["untied"] / t["tied"]

        boot = np.array([gain(lambda n: rng.integers(0, len(runs[n][1]), len(runs[n][1]))) for _ in range(n_boot)])
        boot = boot[np.isfinite(boot)]
        points.append({"threshold": "macro", "L": int(L), "d": int(spec["d"]), "gain": gain(lambda n: slice(None)),
                       "low": float(np.quantile(boot, 0.025)), "high": float(np.quantile(boot, 0.975))})
    return points


def sgd_source(config, source, authors, tied_untied_numbers):
    """One SGD measurement: {text, threshold, Ls, exponent, low, high, points}, or None when its
    numbers are not available. Points carry a 95 % interval where the replicates are at hand."""
    kind, key = source
    if kind == "tied_untied":
        fit = next(f for f in tied_untied_numbers["fits"]
                   if (f["case"], f["protocol"], f["threshold"]) == ("sie2", key, "macro"))
        return {"text": f"SGD, paper config, d = {fit['d']}", "threshold": "macro", "Ls": fit["Ls"],
                "exponent": fit["exponent_sgd"], "low": fit["exponent_sgd_low"], "high": fit["exponent_sgd_high"],
                "points": _tied_untied_points(config, key)}
    if authors is None:
        return None
    if kind == "authors_gain":
        g = authors["gains"][key]
        ok = [i for i, v in enumerate(g["gain"]) if v is not None]
        Ls, values, fit = [g["Ls"][i] for i in ok], [g["gain"][i] for i in ok], g
        text = "SGD, the authors' runs, d = 1000"
    elif kind == "authors_experiment":
        e = authors["experiments"][key]
        fit = e["gain"]
        Ls, values, text = fit["Ls"], fit["gain"], f"SGD, the authors' {e['file']}, d = {e['d']}"
    else:
        return _candidate_source(authors["candidates"], kind, key)
    return {"text": text, "threshold": "authors", "Ls": Ls, "exponent": fit["exponent"], "low": fit["low"],
            "high": fit["high"], "points": [{"L": L, "gain": v} for L, v in zip(Ls, values)]}


def _candidate_source(candidates, kind, key):
    """An SGD measurement of the authors' candidates, with the ODE values it ran at quoted from
    the authors' numbers file (``ode``, the same L; ``ode_predictions``, their keyed entries):
    those predictions are made once, by the authors' protocols job, not again here."""
    from ..authors.candidates import FAMILIES

    fit = candidates["gains" if kind == "candidate_gain" else "families"][key]
    Ls, values = fit["Ls"], fit["gain_sgd" if kind == "candidate_gain" else "steps_sgd"]
    families = [fit["numerator"], fit["denominator"]] if kind == "candidate_gain" else [key]
    wanted = [FAMILIES[f] for f in families if f is not None]
    quoted = [e for e in candidates.get("ode_predictions", [])
              if (e["key"]["target"], e["key"]["student"]) in wanted and e["key"]["L"] in Ls]
    return {"text": f"SGD at the ODE's best η, d = {candidates['d']}", "threshold": "authors", "Ls": Ls,
            "exponent": fit["exponent_sgd"], "low": fit["low"], "high": fit["high"],
            "points": [{"L": L, "gain": v} for L, v in zip(Ls, values)],
            "ode": fit["gain_ode" if kind == "candidate_gain" else "steps_ode"], "ode_predictions": quoted}


def load_authors(config):
    """The authors' numbers file (config ``authors_numbers``), or None when absent."""
    path = Path(config[EXPERIMENT]["authors_numbers"])
    if not path.is_file():
        return None
    from ..audit import load_numbers

    return load_numbers(path)


# --- numbers ---------------------------------------------------------------------------------------
def _ff_exponents(gamma):
    """Closed-form L-exponents of the tied ReLU network's best-η time and η* on L^(−γ)Σh₂."""
    return {"time": max(1.0, 2 * gamma), "lr": -gamma - max(0.0, 1 - 2 * gamma),
            "A": -gamma, "nu0": max(0.0, 1 - 2 * gamma),
            "correction": f"local exponent of the time (2γ·L^(2γ) + L)/(L^(2γ) + L), γ = {gamma:g}"}


def student_table(config, results) -> list[dict]:
    """Per student × normalisation: asymptotic exponents (closed form) and the ODE's local ones."""
    section = config[EXPERIMENT]
    lo, hi = section["slope_window"]
    rows = []
    for norm, (gamma, text, _) in NORMALISATIONS.items():
        Ls = results["Ls"]
        closed = _ff_exponents(gamma)
        for net in ("tied", "untied"):
            t = results[f"{net}_best_{norm}_authors"]
            lr = results[f"{net}_best_{norm}_authors_lr"]
            rows.append({"student": f"{net} ReLU", "normalisation": norm, "target": text,
                         "time_exponent": closed["time"] + (net == "untied"), "lr_exponent": closed["lr"],
                         "A_exponent": closed["A"], "nu0_exponent": closed["nu0"], "correction": closed["correction"],
                         "time_exponent_ode_small": loglog_slope(Ls, t, 1, 10),
                         "time_exponent_ode": loglog_slope(Ls, t, lo, hi),
                         "lr_exponent_ode": loglog_slope(Ls, lr, lo, hi)})
    for norm in ATTENTION_NORMALISATIONS:
        Ls = results["att_Ls"]
        t, lr = results[f"attention_best_{norm}_authors"], results[f"attention_best_{norm}_authors_lr"]
        gamma = NORMALISATIONS[norm][0]
        # up to powers of log L: A ∝ c L^(−1/2), ν₀ ≈ c² L E|∇f|² with E|∇f|² ∝ 1/L
        rows.append({"student": "attention (trace)", "normalisation": norm, "target": NORMALISATIONS[norm][1],
                     "time_exponent": 1.0, "lr_exponent": gamma - 0.5, "A_exponent": -0.5 - gamma,
                     "nu0_exponent": -2 * gamma, "correction": "powers of log L",
                     "time_exponent_ode_small": loglog_slope(Ls, t, 2, 8),
                     "time_exponent_ode": loglog_slope(Ls, t, lo, hi), "lr_exponent_ode": loglog_slope(Ls, lr, lo, hi),
                     "A_exponent_ode": loglog_slope(Ls, results[f"att_{norm}_A"], lo, hi),
                     "nu0_exponent_ode": loglog_slope(Ls, results[f"att_{norm}_nu0"], lo, hi)})
    return rows


def summarise(config) -> dict:
    """Key numbers: the per-student exponents, and per comparison the asymptotic exponent, the ODE's
    exponents (over the SGD range and at large L) and the SGD measurements with the ODE beside them."""
    section = config[EXPERIMENT]
    results, meta = load_result(stem(config))
    lo, hi = section["slope_window"]
    authors = load_authors(config)
    tu_numbers = load_numbers_file(config)
    comparisons, quoted = [], {}
    for key, text, num, den, asym, law, sources, limit in COMPARISONS:
        row = {"key": key, "text": text, "numerator": SERIES[num][1],
               "denominator": SERIES[den][1] if den else None, "asymptotic": asym, "law": law}
        for thr in (*THRESHOLDS, "closed"):
            Ls, gain = gain_curve(results, num, den, thr)
            row[f"exponent_ode_small_{thr}"] = loglog_slope(Ls, gain, *section["small_window"])
            blocked = Ls[~(np.isfinite(gain) & (gain > 0))]
            # the tied network stops escaping at this L (fixed-η protocols): no large-L slope
            row[f"no_escape_from_L_{thr}"] = int(blocked[0]) if blocked.size else None
            # large-L exponent: the protocol itself, or its η → 0 limit when it stops escaping
            Ls, gain = gain_curve(results, *(limit or (num, den)), thr)
            row[f"exponent_ode_{thr}"] = loglog_slope(Ls, gain, lo, hi)
        row["sgd"] = []
        for source in sources:
            m = sgd_source(config, source, authors, tu_numbers)
            if m is None:
                continue
            if "ode" in m:
                # the ODE values the SGD ran at, quoted from the file that holds them
                ode = m.pop("ode")
                for e in m.pop("ode_predictions"):
                    quoted.setdefault(tp.key_text(e["key"]), e)
                at = dict(zip(m["Ls"], ode))
            else:
                Ls, gain = gain_curve(results, num, den, m["threshold"])
                ode = _at(Ls, gain, m["Ls"])
                wanted = [p["L"] for p in m["points"]]
                at = dict(zip(wanted, _at(Ls, gain, wanted)))
            m["exponent_ode"] = loglog_slope(m["Ls"], ode)
            m["inside"] = bool(m["low"] is not None and m["low"] <= m["exponent_ode"] <= m["high"])
            for p, g in zip(m["points"], [at.get(p["L"], math.nan) for p in m["points"]]):
                p["ode"] = g
                if "low" in p:
                    p["inside"] = bool(p["low"] <= g <= p["high"])
            row["sgd"].append(m)
        if key == "square_over_attention":
            # the η → 0 law beside the fixed-η ODE: the drifts alone
            row["exponent_lr0"] = loglog_slope(*square_over_attention_lr0(results), lo, hi)
        power = {"tied_sqrtL": 0.5, "tied_L": 1.0}.get(den)
        row["no_escape_from_L_closed_form"] = _lr_limit_L(power, float(section["lr"])) if power else None
        comparisons.append(row)
    out = {"d": meta["d"], "m0": meta["m0"], "levels": meta["levels"], "slope_window": [lo, hi],
           "lr": float(section["lr"]), "attention_lr": float(section["attention"]["lr"]),
           "students": student_table(config, results), "comparisons": comparisons,
           "best_lr_check": best_lr_check(results), "ode_predictions": list(quoted.values())}
    aLs, t_att = series(results, "attention_best_sum", "authors")
    out["attention_fastest_L"] = int(aLs[np.argmin(t_att)])
    # the attention drift's local exponent (exact Laplace integral) far beyond the ODE grid
    out["attention_drift_exponent"] = {str(L): float(np.log(a[1] / a[0]) / np.log(4)) for L, a in
                                       ((L, se.attention_drift([L // 2, 2 * L])) for L in (10 ** 3, 10 ** 8))}
    out["answer"] = settled_answer(out)
    out["verdict"] = verdict(out)
    return out


def square_over_attention_lr0(results):
    """(Ls, gain) of untied square over attention on (1/√L)Σh₂ at one η in the limit η → 0:
    each time is log(m_th/m₀)/(κηA) (with the same O(m²) correction), so the gain is
    L·A_att/A_square = L²β₂/2."""
    Ls = np.asarray(results["att_Ls"], int)
    square = se.activation_moments("square")
    a_square = np.array([se.feedforward(int(L), float(scale("sqrt_mean", L)), moments=square).A for L in Ls])
    return Ls, Ls * np.asarray(results["att_sqrt_mean_A"], float) / a_square


def _lr_limit_L(power, eta):
    """The L at which η·L^power reaches η_c(L) = 2A/ν₀ of the tied ReLU network on Σh₂ (the tied
    network stops escaping there), from the closed form."""
    from scipy.optimize import brentq

    def excess(log_L):
        L = math.exp(log_L)
        return eta * L ** power - se.feedforward(L, 1.0, moments=se.RELU_MOMENTS).lr_limit()

    return float(math.exp(brentq(excess, 0.0, 40.0)))


def load_numbers_file(config):
    """The paper config's C4 numbers (figures/numbers/tied_untied.json of this config)."""
    from ..audit import load_numbers

    return load_numbers(Path(config["figures_dir"]) / "numbers" / "tied_untied.json")


def best_lr_check(results) -> dict:
    """Largest relative gap between the closed-form best η (A/ν₀; with its 1/log correction at the
    macroscopic threshold) and the numerical minimiser of the reduced ODE's escape time."""
    out = {}
    for thr, closed in (("authors", "lr_leading"), ("macro", "lr_first_order"), ("macro_leading", "lr_leading")):
        t = thr.split("_")[0]
        gaps = [np.abs(results[f"ff_{n}_{closed}"] / results[f"tied_best_{n}_{t}_lr"] - 1).max()
                for n in NORMALISATIONS]
        out[thr] = float(max(gaps))
    return out


# --- the answer --------------------------------------------------------------------------------------
