"""The authors' phase diagram, the numbers: per diagram, their regions against ours and who is
right on the differing cells (:func:`verdicts`); the reference derivatives
(figures/numbers/authors_phase.json)."""
from __future__ import annotations

import numpy as np

from ... import phase
from ...io import load_result
from .jobs import check_spec, stems
from .rule import BITS, VERDICTS, confusion


# --- verdicts and numbers ---------------------------------------------------------------------------
def verdicts(data: dict, source: str = "gh") -> dict:
    """Per refined cell and bit: who is right where their rule (loss from ``source``) and ours differ.

    Returns a dict bit -> array of strings over the refined cells: "agree" (the bit is the
    same), "ours", "theirs", "neither", "undecided" (a margin within the reference's error,
    or the refined minima and the corner conditions disagree), "convention" (global bit: the
    refined global minimum is off both axes, where e > ½ and e > m differ) or "degenerate"
    (ω = 1, global and multiple bits: R does not depend on m, the minima are segments).
    """
    idx = data["refined_index"]
    theirs = data[f"{source}_region"].ravel()[idx]
    ours = data["ours_region"].ravel()[idx]
    truth = data["refined_region"]
    margin = {
        "dynamics": np.abs(data["refined_hess_ee"] - data["refined_hess_mm"])
        <= data["refined_err_hess_ee"] + data["refined_err_hess_mm"],
        "corners": (np.abs(data["refined_pos_slope"]) <= data["refined_err_pos_slope"])
        | (np.abs(data["refined_pos_curv"]) <= data["refined_err_pos_curv"])
        | (np.abs(data["refined_sem_slope"]) <= data["refined_err_sem_slope"])
        | (np.abs(data["refined_sem_curv"]) <= data["refined_err_sem_curv"]),
    }
    undecided = {"global": data["refined_global_confirmed"] == 0,
                 "dynamics": margin["dynamics"],
                 "multiple": margin["corners"] | ~data["refined_corner_consistent"].astype(bool)}
    degenerate = data["refined_degenerate"].astype(bool)
    out = {}
    for b, bit in enumerate(BITS):
        t, o, r = (theirs >> b) & 1, (ours >> b) & 1, (truth >> b) & 1
        v = np.where(o == r, "ours", np.where(t == r, "theirs", "neither")).astype(object)
        v[undecided[bit]] = "undecided"
        if bit == "global":
            # the refined global minimum lies on the circle between the axes: e > ½ (theirs) and
            # e > m (ours) are two conventions for a minimum that is neither semantic nor positional
            v[data["refined_global_positional"] != data["refined_global_positional_half"]] = "convention"
        if bit != "dynamics":
            v[degenerate] = "degenerate"
        v[t == o] = "agree"
        out[bit] = v.astype(str)
    return out


def _box(A, W, sel):
    return [float(A[sel].min()), float(A[sel].max()), float(W[sel].min()), float(W[sel].max())]


def summarise_diagram(data: dict, meta: dict) -> dict:
    """Areas, confusion tables, disagreements with their location, and the verdicts of one diagram."""
    A, W = np.meshgrid(data["a"], data["omega"])
    total = int(A.size)
    ours = data["ours_region"]
    out = {"a": [float(data["a"][0]), float(data["a"][-1]), int(data["a"].size)],
           "omega": [float(data["omega"][0]), float(data["omega"][-1]), int(data["omega"].size)],
           "cells": total, "config": meta["config"],
           "areas": {}, "confusion": {}, "disagreement": {}, "verdicts": {}}
    for label, reg in (("theirs", data["gh_region"]), ("their_rule_our_landscape", data["spline_region"]),
                       ("ours", ours)):
        out["areas"][label] = {phase.REGION_NAMES[k]: float(np.mean(reg == k)) for k in range(8)}
    idx = data["refined_index"]
    refined = np.full(total, -1)
    refined[idx] = data["refined_region"]
    for label, reg in (("theirs_vs_ours", data["gh_region"]), ("their_rule_our_landscape_vs_ours", data["spline_region"]),
                       ("theirs_vs_their_rule_our_landscape", None)):
        if reg is None:
            table = confusion(data["gh_region"], data["spline_region"])
            other, ref_reg = data["spline_region"], data["gh_region"]
        else:
            table = confusion(reg, ours)
            other, ref_reg = ours, reg
        cells = []
        for t in range(8):
            for o in range(8):
                if t != o and table[t, o]:
                    sel = (ref_reg == t) & (other == o)
                    cells.append({"theirs": phase.REGION_NAMES[t], "other": phase.REGION_NAMES[o],
                                  "count": int(table[t, o]), "fraction": float(table[t, o] / total),
                                  "a_min_max_omega_min_max": _box(A, W, sel),
                                  "omega_eq_1": int(np.sum(sel & (W >= 1.0)))})
        out["confusion"][label] = {"counts": table.tolist(), "off_diagonal": sorted(cells, key=lambda c: -c["count"])}
        differ = ref_reg != other
        bits = {bit: int(np.sum(((ref_reg ^ other) >> b) & 1)) for b, bit in enumerate(BITS)}
        out["disagreement"][label] = {"cells": int(differ.sum()), "fraction": float(differ.mean()), "bits": bits,
                                      "omega_eq_1": int(np.sum(differ & (W >= 1.0)))}
    for source, label in (("gh", "theirs"), ("spline", "their_rule_our_landscape")):
        v = verdicts(data, source)
        out["verdicts"][label] = {bit: {k: int(np.sum(v[bit] == k)) for k in
                                        VERDICTS}
                                  for bit in BITS}
    # of their wrong bits: would their rule be right with our (accurate) landscape? (quadrature vs rule)
    v = verdicts(data, "gh")
    sp_region = data["spline_region"].ravel()[idx]
    why = {}
    for b, bit in enumerate(BITS):
        wrong = np.isin(v[bit], ("ours",))
        fixed = (((sp_region >> b) & 1) == ((data["refined_region"] >> b) & 1)) & wrong
        why[bit] = {"their_bit_wrong": int(wrong.sum()), "right_with_our_landscape (quadrature)": int(fixed.sum()),
                    "wrong_with_our_landscape too (rule)": int((wrong & ~fixed).sum())}
    out["why_theirs_wrong"] = why
    # is their e > ½ threshold ever different from e > m at the refined global minimum?
    out["threshold_half_vs_e_gt_m"] = int(np.sum(data["refined_global_positional"] != data["refined_global_positional_half"]))
    out["refined_cells"] = int(idx.size)
    out["ours_vs_refined_region_differs"] = int(np.sum(ours.ravel()[idx] != data["refined_region"]))
    out["quadrature"] = {"basis_max_abs_diff_vs_ours": dict(zip(("N", "C", "M11", "M12", "M21", "M22"),
                                                              map(float, data["quad_basis_max"]))),
                         "at_e": data["quad_basis_argmax_e"].tolist(), "at_m": data["quad_basis_argmax_m"].tolist(),
                         "loss_max_abs_diff_over_grid": {"max": float(data["quad_loss_max"].max()),
                                                         "median": float(np.median(data["quad_loss_max"]))}}
    return out


def summarise(config) -> dict:
    """Numbers of every configured diagram and of the reference derivatives (no timings: the
    numbers are byte-reproducible; the seconds are in the results' JSON provenance)."""
    section = check_spec(config)
    data, meta = load_result(stems(config)["reference"])
    ref = {"config": meta["config"], "gh_points": data["gh_points"].tolist()}
    names = ("N", "C", "M11", "M12", "M21", "M22")
    for k in ("pos_slope", "pos_curv", "sem_slope", "sem_curv", "hess_ee", "hess_mm"):
        ref[k] = {"direct": dict(zip(names, map(float, data[f"ref_{k}"]))),
                  "error_bound": dict(zip(names, map(float, data[f"err_{k}"]))),
                  "authors_rule": {int(n): dict(zip(names, map(float, row)))
                                   for n, row in zip(data["gh_points"], data[f"gh_{k}"])}}
    out = {"reference": ref, "diagrams": {}}
    for name in section["diagrams"]:
        d, m = load_result(stems(config)[name])
        out["diagrams"][name] = summarise_diagram(d, m)
    return out


