"""The authors' experiments, the numbers: per point crossings, final overlaps and shares; the gain
fits; the C5 switch ω (figures/authors/numbers/authors.json)."""
from __future__ import annotations

import math

import numpy as np

from ...io import load_result
from ...escape import AUTHORS
from . import candidates as authors_candidates
from . import crossings as authors_crossings
from .jobs import load_point
from .spec import (ESCAPED, EXPERIMENT, MACRO, point_L, points, replicates, stems, sweep_key, their_lr,
                           value_key)
from ..common import loglog_slope
from ..phase_switch import switch_omega


# --- numbers ---------------------------------------------------------------------------------------
def point_row(spec: dict, student: str, value, steps, ov, e, ode_point: dict) -> dict:
    """Numbers of one point from its replicates: crossings of the seed mean (AUTHORS and MACRO, a
    flagged start counted as no crossing: authors_crossings), final overlaps, shares; C5 shares."""
    d = int(spec["d"])
    steps = np.asarray(steps, float)
    authors_level = AUTHORS.value(d)
    row = {"student": student, sweep_key(spec): value, "lr": their_lr(spec, point_L(spec, value)),
           "seeds": int(ov.shape[0]), "steps_run": int(steps[-1]),
           "steps_mean_authors": authors_crossings.mean_crossing(steps, ov, authors_level),
           "steps_mean_macro": authors_crossings.mean_crossing(steps, ov, MACRO),
           "start_overlap_mean": authors_crossings.start_overlap(ov),
           "start_flagged_authors": authors_crossings.start_flagged(ov, authors_level),
           "start_flagged_macro": authors_crossings.start_flagged(ov, MACRO),
           "final_overlap_mean": float(ov[:, -1].mean()),
           "final_overlap_sd": float(ov[:, -1].std(ddof=1)) if ov.shape[0] > 1 else math.nan,
           "share_above_authors": float(np.mean(ov.max(axis=1) >= authors_level)),
           "share_above_macro": float(np.mean(ov.max(axis=1) >= MACRO)),
           "ode": bool(ode_point.get("defined"))}
    if ode_point.get("defined"):
        row["ode_steps_authors"] = ode_point["steps_authors"]
        row["ode_steps_macro"] = ode_point["steps_macro"]
    if spec["target"] == "positional_semantic_model":
        m_end, e_end = ov[:, -1], np.abs(e[:, -1])
        escaped = np.hypot(m_end, e_end) >= ESCAPED
        row.update({"final_abs_e_mean": float(e_end.mean()), "share_escaped": float(escaped.mean()),
                    "share_positional": float(np.mean(e_end[escaped] > m_end[escaped])) if escaped.any() else math.nan,
                    "share_semantic": float(np.mean(e_end[escaped] <= m_end[escaped])) if escaped.any() else math.nan})
    return row


def _own_gain(spec: dict, curves: dict, seed: int):
    """The gain fit of a file holding the untied and one other network over an L sweep, or None."""
    students = spec["students"]
    if not (sweep_key(spec) == "L" and len(students) == 2 and len(spec["sweep"]["L"]) > 1):
        return None
    other = [s for s in students if s != "plain_network"][0]
    pairs = {int(L): (curves[("plain_network", L)], curves[(other, L)]) for L in spec["sweep"]["L"]}
    return authors_crossings.gain_fit(pairs, AUTHORS.value(int(spec["d"])), seed, names=("plain_network", other))


def _pair_curves(config, untied: str, tied: str, seeds) -> dict:
    """{L: ((steps, curves) untied, (steps, curves) tied)} of a gain pair sitting in two files."""
    su, st = config[EXPERIMENT]["experiments"][untied], config[EXPERIMENT]["experiments"][tied]
    pairs = {}
    for L in su["sweep"]["L"]:
        if L in st["sweep"]["L"]:
            pairs[int(L)] = tuple((s.astype(float), c) for s, c in (
                load_point(config, untied, su["students"][0], L, seeds)[:2],
                load_point(config, tied, st["students"][0], L, seeds)[:2]))
    return pairs


def summarise(config) -> dict:
    """Key numbers of every experiment: per point crossings, final overlaps, shares; gains; C5 switch ω.

    Each experiment's numbers are those of the run as the authors made it (their seed count); an
    experiment with ``decide_seeds`` also gets ``decide`` ({seeds, rows}: the same numbers over all
    its replicates), and its gain fit (own or of its pair) a ``decide`` fit over all replicates."""
    section = config[EXPERIMENT]
    seed = int(config["seed"])
    out = {"experiments": {}}
    for name, spec in section["experiments"].items():
        d, T = int(spec["d"]), int(spec["T"])
        n_run, n_all = int(spec["seeds"]), replicates(spec)
        _, ode_meta = load_result(stems(config, "ode")[name])
        rows, rows_all, curves, curves_all = [], [], {}, {}
        for student, value in points(spec):
            steps, ov, e = load_point(config, name, student, value, "all")
            om = ode_meta["points"][f"{student}_{value_key(value)}"]
            curves[(student, value)] = (steps.astype(float), ov[:n_run])
            curves_all[(student, value)] = (steps.astype(float), ov)
            rows.append(point_row(spec, student, value, steps, ov[:n_run], e[:n_run], om))
            if n_all > n_run:
                rows_all.append(point_row(spec, student, value, steps, ov, e, om))
        entry = {"file": spec["file"], "claim": spec["claim"], "role": spec["role"], "d": d, "T": T,
                 "seeds": n_run, "rows": rows}
        if sweep_key(spec) == "omega" and len(spec["sweep"]["omega"]) > 1:
            om = np.array(spec["sweep"]["omega"], float)
            share = np.array([r["share_positional"] for r in rows], float)
            entry["switch_omega"] = switch_omega(om, share)
            entry["share_not_escaped"] = float(1 - np.mean([r["share_escaped"] for r in rows]))
        gain = _own_gain(spec, curves, seed)
        if gain is not None:
            entry["gain"] = gain
        if n_all > n_run:
            entry["decide"] = {"seeds": n_all, "rows": rows_all}
            if gain is not None:
                gain["decide"] = dict(_own_gain(spec, curves_all, seed), seeds=n_all)
        out["experiments"][name] = entry
    out["gains"] = {}
    for untied, tied in section.get("gain_pairs", []):
        su, st = section["experiments"][untied], section["experiments"][tied]
        level = AUTHORS.value(int(su["d"]))
        fit = authors_crossings.gain_fit(_pair_curves(config, untied, tied, None), level, seed, names=(untied, tied))
        ode_u, ode_t = load_result(stems(config, "ode")[untied])[1], load_result(stems(config, "ode")[tied])[1]
        g = []
        for L in fit["Ls"]:
            a = ode_u["points"][f"{su['students'][0]}_{L}"]
            b = ode_t["points"][f"{st['students'][0]}_{L}"]
            g.append(authors_crossings.ratio(a["steps_authors"], b["steps_authors"]) if a.get("defined") and b.get("defined") else math.nan)
        fit["ode_gain"] = g
        fit["ode_exponent"] = loglog_slope(fit["Ls"], g)
        n_all = min(replicates(su), replicates(st))
        if n_all > max(int(su["seeds"]), int(st["seeds"])):
            fit["decide"] = authors_crossings.gain_fit(_pair_curves(config, untied, tied, n_all), level, seed,
                                                       names=(untied, tied))
            fit["decide"]["seeds"] = n_all
        out["gains"][f"{untied}/{tied}"] = fit
    candidates = authors_candidates.summarise(config)
    if candidates is not None:
        out["candidates"] = candidates
    return out


def none_to_nan(obj):
    """None -> nan in place (numbers read back from JSON)."""
    items = obj.items() if isinstance(obj, dict) else enumerate(obj) if isinstance(obj, list) else []
    for k, v in list(items):
        if v is None:
            obj[k] = math.nan
        else:
            none_to_nan(v)
