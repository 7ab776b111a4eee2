"""What the tables and the counts of docs/results/authors-phase.md read, from the numbers file of
the authors' phase-diagram comparison (claim C5); the page generator's template
``_authors_phase.md.j2`` lays them out."""
from __future__ import annotations

from ... import phase

#: the two (a, ω) cells of the quadrature table: inside the strip where their 19-point rule moves
#: the positional corner's test, and near the semantic corner's boundary at large ω
QUADRATURE_CELLS = ((0.9, 0.65), (0.76, 0.95))
#: the quantities that decide the classification (keys of the numbers file's ``reference``)
QUANTITIES = {
    "pos_slope": "R_e(1,0)",
    "pos_curv": "R_mm(1,0) − R_e(1,0)",
    "sem_slope": "R_m(0,1)",
    "sem_curv": "R_ee(0,1) − R_m(0,1)",
    "hess_ee": "R_ee(0,0)",
    "hess_mm": "R_mm(0,0)",
}
#: the basis functions in the order of :func:`ssi.phase.coefficient_rows`
BASIS = ("N", "C", "M11", "M12", "M21", "M22")


def quantity(reference: dict, name: str, a: float, omega: float) -> dict:
    """One decisive quantity at (a, ω): the direct-quadrature value, its error bound and the
    value of the authors' rule per point count (R is linear in the basis functions, so each is
    the basis values times :func:`ssi.phase.coefficient_rows`)."""
    coefficients = phase.coefficient_rows(a, omega)[0]
    entry = reference[name]

    def combine(values):
        return float(sum(c * values[b] for c, b in zip(coefficients, BASIS)))

    return {"direct": combine(entry["direct"]),
            "error_bound": float(sum(abs(c) * entry["error_bound"][b] for c, b in zip(coefficients, BASIS))),
            "authors_rule": {int(n): combine(values) for n, values in entry["authors_rule"].items()}}


def quadrature(numbers) -> dict:
    """Per cell of :data:`QUADRATURE_CELLS` and quantity: the reference value (direct quadrature,
    with its error bound) and the error of the authors' 4-D rule at each point count (``points``)."""
    reference = numbers["reference"]
    points = [int(n) for n in reference["gh_points"]]
    cells = []
    for a, omega in QUADRATURE_CELLS:
        rows = []
        for key, label in QUANTITIES.items():
            q = quantity(reference, key, a, omega)
            rows.append({"label": label, "direct": q["direct"], "error_bound": q["error_bound"],
                         "errors": [q["authors_rule"][n] - q["direct"] for n in points]})
        cells.append({"a": a, "omega": omega, "rows": rows})
    return {"points": points, "cells": cells}


def grid(numbers) -> dict:
    """How far their basis functions (N, C, where) and loss are from our landscape over the whole
    (e, m) grid of the authors' zoom (the ``fast`` diagram)."""
    d = numbers["diagrams"]["fast"]
    q = d["quadrature"]
    where = dict(zip(BASIS, zip(q["at_e"], q["at_m"])))
    return {"resolution": d["config"]["resolution"], "points": d["config"]["points"],
            "diff": q["basis_max_abs_diff_vs_ours"], "at": {b: tuple(abs(x) for x in where[b]) for b in ("N", "C")},
            "loss": q["loss_max_abs_diff_over_grid"]}


_NAMES = phase.REGION_NAMES        # indexed by region code: global + 2·dynamics + 4·multiple
_SEMANTIC, _SEMANTIC_MISALIGNED, _POSITIONAL = _NAMES[0], _NAMES[2], _NAMES[3]
_SEMANTIC_GLOBAL, _SEMANTIC_GLOBAL_MISALIGNED, _POSITIONAL_GLOBAL = _NAMES[4], _NAMES[6], _NAMES[7]


def off_diagonal(d, theirs, ours) -> dict | None:
    """The off-diagonal cells theirs → ours of a diagram: count, share of the cells, (a, ω) box; None if none."""
    for row in d["confusion"]["theirs_vs_ours"]["off_diagonal"]:
        if row["theirs"] == theirs and row["other"] == ours:
            return {"count": row["count"], "share": row["count"] / (d["a"][2] * d["omega"][2]),
                    "box": row["a_min_max_omega_min_max"]}
    return None


def blocks(numbers) -> list[dict]:
    """Per diagram block: its name and content, and the counts the prose quotes (refined verdicts
    summed over the bits, the largest area difference, the misaligned areas theirs and ours)."""
    misaligned = (_SEMANTIC_MISALIGNED, _SEMANTIC_GLOBAL_MISALIGNED)
    out = []
    for name, d in numbers["diagrams"].items():
        verdicts = d["verdicts"]["theirs"]
        out.append({"name": name, "d": d,
                    "theirs_right": sum(v["theirs"] for v in verdicts.values()),
                    "degenerate": sum(v["degenerate"] for v in verdicts.values()),
                    "area_gap": max(abs(d["areas"]["theirs"][n] - d["areas"]["ours"][n]) for n in d["areas"]["ours"]),
                    "misaligned": {s: sum(d["areas"][s][n] for n in misaligned) for s in ("theirs", "ours")},
                    "regions": [(n, [d["areas"][s][n] for s in ("theirs", "their_rule_our_landscape", "ours")])
                                for n in _NAMES if any(d["areas"][s][n] for s in
                                                       ("theirs", "their_rule_our_landscape", "ours"))]})
    return out


def dynamics(numbers) -> dict:
    """The dynamics bits over both blocks: decided by the refined computation, ours right, right
    with their rule on our landscape, undecided."""
    ds = numbers["diagrams"].values()
    dyn = [d["verdicts"]["theirs"]["dynamics"] for d in ds]
    return {"decided": sum(v["ours"] + v["theirs"] for v in dyn), "ours": sum(v["ours"] for v in dyn),
            "fixed": sum(d["why_theirs_wrong"]["dynamics"]["right_with_our_landscape (quadrature)"] for d in ds),
            "undecided": sum(v["undecided"] for v in dyn)}


def context(numbers) -> dict:
    """What the page's tables and counts read: the numbers file (``n``), :func:`quadrature`,
    :func:`grid`, :func:`blocks`, :func:`dynamics`, the strip and the semantic corner's
    off-diagonal cells, and the largest region difference of the fast block."""
    fast, full = numbers["diagrams"]["fast"], numbers["diagrams"]["full"]
    largest = max(fast["areas"]["ours"], key=lambda n: abs(fast["areas"]["theirs"][n] - fast["areas"]["ours"][n]))
    return {"n": numbers, "quadrature": quadrature(numbers), "grid": grid(numbers), "blocks": blocks(numbers),
            "dynamics": dynamics(numbers),
            "strip": {"fast": off_diagonal(fast, _SEMANTIC_GLOBAL, _SEMANTIC),
                      "full": off_diagonal(full, _SEMANTIC, _SEMANTIC_GLOBAL)},
            "corner": {"fast": off_diagonal(fast, _POSITIONAL, _POSITIONAL_GLOBAL),
                       "full": off_diagonal(full, _POSITIONAL_GLOBAL, _POSITIONAL)},
            "largest": {"region": largest, "theirs": fast["areas"]["theirs"][largest],
                        "ours": fast["areas"]["ours"][largest]}}
