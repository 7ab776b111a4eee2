"""Claim C4, tied vs untied, the numbers: escape steps per L, the gain fits with bootstrap
intervals, the null cases and attention (figures/numbers/tied_untied.json)."""
from __future__ import annotations


import numpy as np

from ...hermite import sie
from ...io import load_result
from ... import escape
from ...escape import mean_crossing
from ..common import bootstrap_slope, loglog_slope
from .jobs import EXPERIMENT, NETWORKS, PROTOCOLS, THRESHOLDS, escape_samples, problem, stems, thresholds


# --- numbers ---------------------------------------------------------------------------------------
def _levels(config, d):
    """The escape thresholds at dimension d (:func:`ssi.experiments.tied_untied.jobs.thresholds`)."""
    return thresholds(config[EXPERIMENT], d)


def summarise(config) -> dict:
    """Key numbers: escape steps per (case, protocol, network, L), gains and fitted exponents
    (SGD with bootstrap interval, ODE), null-case final overlaps, attention escape steps."""
    section = config[EXPERIMENT]
    seed = int(config["seed"])
    rows, fits = [], []
    for case, spec in section["cases"].items():
        d = int(spec["d"])
        levels = _levels(config, d)
        ode, _ = load_result(stems(config, "ode")[case])
        Ls = [int(L) for L in spec["Ls"]]
        sgd_sie = sie(problem(spec, Ls[-1], "tied"))
        for protocol in PROTOCOLS:
            data = {n: load_result(stems(config, "sgd")[(case, protocol, n)]) for n in NETWORKS}
            for L in Ls:
                row = {"case": case, "protocol": protocol, "L": L, "d": d}
                for n in NETWORKS:
                    arr, meta = data[n]
                    steps, curves = arr[f"steps_L{L}"].astype(float), arr[f"overlap_L{L}"]
                    j = int(np.nonzero(ode["Ls"] == L)[0][0])
                    row[f"lr_{n}"] = meta["lr"][str(L)] if str(L) in meta["lr"] else meta["lr"][L]
                    for k, lev in levels.items():
                        row[f"steps_{n}_{k}"] = mean_crossing(steps, curves, lev)
                        row[f"ode_{n}_{k}"] = float(ode[f"steps_{protocol}_{k}"][NETWORKS.index(n), j])
                    _, each = escape_samples(steps, curves, levels["macro"])
                    row[f"median_{n}_macro"] = float(np.median(each))
                    row[f"escaped_{n}"] = int(np.isfinite(each).sum())
                    row[f"replicates_{n}"] = int(each.size)
                for k in THRESHOLDS:
                    row[f"gain_{k}"] = row[f"steps_untied_{k}"] / row[f"steps_tied_{k}"]
                    row[f"gain_ode_{k}"] = row[f"ode_untied_{k}"] / row[f"ode_tied_{k}"]
                rows.append(row)
            for k, lev in levels.items():
                samples = {(n, L): data[n][0][f"overlap_L{L}"] for n in NETWORKS for L in Ls}

                def gains(pick):
                    def crossing(n, L):
                        return mean_crossing(data[n][0][f"steps_L{L}"].astype(float), pick(n, L), lev)

                    return np.array([crossing("untied", L) / crossing("tied", L) for L in Ls])

                point = gains(lambda n, L: samples[(n, L)])
                slope, low, high = bootstrap_slope(Ls, samples, gains, seed=seed)
                mine = [r for r in rows if r["case"] == case and r["protocol"] == protocol]
                ode_gain = np.array([r[f"gain_ode_{k}"] for r in mine])
                ode_Ls = ode["Ls"].astype(float)
                with np.errstate(invalid="ignore"):     # inf/inf where the ODE does not escape
                    ode_all = ode[f"steps_{protocol}_{k}"][1] / ode[f"steps_{protocol}_{k}"][0]
                fits.append({"case": case, "protocol": protocol, "threshold": k, "level": lev,
                             "target": spec["target"], "activation": spec.get("activation", "relu"),
                             "sie": sgd_sie, "d": d, "Ls": Ls, "gain": point.tolist(),
                             "exponent_sgd": slope, "exponent_sgd_low": low, "exponent_sgd_high": high,
                             "exponent_ode": loglog_slope(Ls, ode_gain),
                             "exponent_ode_all": loglog_slope(ode_Ls, ode_all),
                             "ode_Ls": ode_Ls.astype(int).tolist(), "ode_gain": ode_all.tolist()})
    null = []
    for name, stem in stems(config, "null").items():
        arr, meta = load_result(stem)
        entry = {"run": name, "target": meta["config"]["target"], "L": meta["L"], "d": meta["d"],
                 "lr": meta["lr"], "steps": meta["steps"], "noise_level": meta["d"] ** -0.5}
        for n in NETWORKS:
            curves = arr[f"overlap_{n}"]
            entry[f"sie_{n}"] = meta["sie"][n]
            entry[f"final_overlap_{n}"] = float(curves[:, -1].mean())
            entry[f"final_overlap_{n}_sd"] = float(curves[:, -1].std(ddof=1))
            entry[f"max_overlap_{n}"] = float(curves.mean(axis=0).max())
            entry[f"final_ode_{n}"] = float(arr[f"ode_m_{n}"][-1])
        null.append(entry)
    attention = []
    spec = section["attention"]
    levels = _levels(config, int(spec["d"]))
    loaded = {n: load_result(s) for n, s in stems(config, "attention").items()}
    for L in spec["Ls"]:
        row = {"L": int(L), "d": int(spec["d"]), "lr": float(spec["lr"])}
        for n, (arr, meta) in loaded.items():
            per = meta["per_L"][str(L)] if str(L) in meta["per_L"] else meta["per_L"][int(L)]
            for k, lev in levels.items():
                row[f"steps_{n}_{k}"] = mean_crossing(arr[f"steps_L{L}"].astype(float), arr[f"overlap_L{L}"], lev)
            row[f"ode_{n}_macro"], row[f"ode_{n}_authors"] = per["ode_macro"], per["ode_authors"]
            row[f"sie_{n}"] = per["sie"]
        row["ratio_macro"] = row["steps_untied_macro"] / row["steps_attention_macro"]
        row["ratio_ode_macro"] = row["ode_untied_macro"] / row["ode_attention_macro"]
        attention.append(row)
    return {"escape_level": escape.of(section, EXPERIMENT, "macro").value(), "rows": rows, "fits": fits, "null": null,
            "attention": attention}


def fit_of(numbers, case, protocol, threshold) -> dict:
    """The fit record of one (case, protocol, threshold) in a ``summarise`` record."""
    for f in numbers["fits"]:
        if (f["case"], f["protocol"], f["threshold"]) == (case, protocol, threshold):
            return f
    raise KeyError((case, protocol, threshold))


