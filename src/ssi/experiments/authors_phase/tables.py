"""The quadrature table and the counts quoted in the prose of docs/results/authors-phase.md, from
the numbers file of the authors' phase-diagram comparison (claim C5).

Each function takes the parsed ``figures/numbers/authors_phase.json`` and returns markdown;
``snakemake pages`` renders them into the page (``<!-- gen:authors-phase-table NAME -->``).
The page's main tables (areas, disagreements, off-diagonal cells, verdicts) are
:func:`ssi.experiments.authors_phase.markdown_tables`.
"""
from __future__ import annotations

from ... import phase
from ..claim_text import num

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


def _minus(text: str) -> str:
    return text.replace("-", "−", 1) if text.startswith("-") else text


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


def quadrature_table(numbers) -> str:
    """Per cell of :data:`QUADRATURE_CELLS` and quantity: the reference value (direct quadrature,
    with its error bound) and the error of the authors' 4-D rule at each point count."""
    reference = numbers["reference"]
    points = [int(n) for n in reference["gh_points"]]
    lines = ["| quantity | reference | " + " | ".join(f"{n} pts" for n in points) + " |",
             "|---|---|" + "---|" * len(points)]
    for a, omega in QUADRATURE_CELLS:
        lines.append(f"| *a = {a:g}, ω = {omega:g}* | |" + " |" * len(points))
        for key, label in QUANTITIES.items():
            q = quantity(reference, key, a, omega)
            errors = " | ".join(_minus(format(q["authors_rule"][n] - q["direct"], "+.1e")) for n in points)
            lines.append(f"| {label} | {_minus(format(q['direct'], '+.5f'))} (±{q['error_bound']:.0e}) | {errors} |")
    return "\n".join(lines)


def grid_text(numbers) -> str:
    """How far their basis functions and loss are from our landscape over the whole (e, m) grid of
    the authors' zoom (the ``fast`` diagram)."""
    d = numbers["diagrams"]["fast"]
    q = d["quadrature"]
    diff = q["basis_max_abs_diff_vs_ours"]
    where = dict(zip(BASIS, zip(q["at_e"], q["at_m"])))

    def at(b):
        e, m = where[b]
        return f"at (e, m) = ({abs(e):.3f}, {abs(m):.3f})"

    loss = q["loss_max_abs_diff_over_grid"]
    return (f"On the whole {d['config']['resolution']}² (e, m) grid the basis functions differ from our landscape "
            f"by at most {diff['N']:.1e} (N, {at('N')}) and {diff['C']:.1e} (C, {at('C')}) with "
            f"{d['config']['points']} points, and the loss by ≤ {loss['max']:.1e} (median over (a, ω) of the max "
            f"over the grid: {loss['median']:.1e})")


def _block(numbers, name):
    return numbers["diagrams"][name]


def _cells(d, theirs, ours):
    """The off-diagonal row theirs → ours of a diagram (a dict), or None."""
    for row in d["confusion"]["theirs_vs_ours"]["off_diagonal"]:
        if row["theirs"] == theirs and row["other"] == ours:
            return row
    return None


_NAMES = phase.REGION_NAMES        # indexed by region code: global + 2·dynamics + 4·multiple
_SEMANTIC, _SEMANTIC_MISALIGNED, _POSITIONAL = _NAMES[0], _NAMES[2], _NAMES[3]
_SEMANTIC_GLOBAL, _SEMANTIC_GLOBAL_MISALIGNED, _POSITIONAL_GLOBAL = _NAMES[4], _NAMES[6], _NAMES[7]


def _row_text(d, theirs, ours) -> str:
    row = _cells(d, theirs, ours)
    if row is None:
        return "0 cells"
    cells = d["a"][2] * d["omega"][2]
    box = row["a_min_max_omega_min_max"]
    return (f"{row['count']} cells, {100 * row['count'] / cells:.1f} %, a {box[0]:.2f}–{box[1]:.2f}, "
            f"ω {box[2]:.2f}–{box[3]:.2f}")


def quadrature_share_text(numbers) -> str:
    """Of their wrong "multiple" bits, how many are right when their rule runs on our landscape."""
    parts = []
    for name in numbers["diagrams"]:
        w = _block(numbers, name)["why_theirs_wrong"]["multiple"]
        parts.append(f"{w['right_with_our_landscape (quadrature)']} of their {w['their_bit_wrong']} wrong "
                     f"multiple bits in the {name} block")
    return ", ".join(parts)


def strip_text(numbers) -> str:
    """The band along the boundary between "unique semantic" and "semantic global + positional
    local": theirs → ours in the fast block, the other way in the full one."""
    fast, full = _block(numbers, "fast"), _block(numbers, "full")
    return (f"fast: {_row_text(fast, _SEMANTIC_GLOBAL, _SEMANTIC)}; "
            f"full: {_row_text(full, _SEMANTIC, _SEMANTIC_GLOBAL)}")


def semantic_corner_text(numbers) -> str:
    """"Unique positional" (theirs) against "positional global + semantic local" (ours), and the
    other way, per block."""
    fast, full = _block(numbers, "fast"), _block(numbers, "full")
    return (f"fast block, unique positional (theirs) vs positional global + semantic local (ours): "
            f"{_row_text(fast, _POSITIONAL, _POSITIONAL_GLOBAL)}; full block, the other way: "
            f"{_row_text(full, _POSITIONAL_GLOBAL, _POSITIONAL)}")


def _bits(numbers, comparison, bit):
    return ", ".join(f"{name} {d['disagreement'][comparison]['bits'][bit]}" for name, d in numbers["diagrams"].items())


def dynamics_text(numbers) -> str:
    """Differing dynamics bits per block, and the refined verdicts on them."""
    decided = sum(d["verdicts"]["theirs"]["dynamics"]["ours"] + d["verdicts"]["theirs"]["dynamics"]["theirs"]
                  for d in numbers["diagrams"].values())
    ours = sum(d["verdicts"]["theirs"]["dynamics"]["ours"] for d in numbers["diagrams"].values())
    fixed = sum(d["why_theirs_wrong"]["dynamics"]["right_with_our_landscape (quadrature)"]
                for d in numbers["diagrams"].values())
    undecided = sum(d["verdicts"]["theirs"]["dynamics"]["undecided"] for d in numbers["diagrams"].values())
    return (f"dynamics bits differing: {_bits(numbers, 'theirs_vs_ours', 'dynamics')}; of the {decided} decided, "
            f"ours right in {ours}, right with their rule on our landscape in {fixed}; {undecided} within the "
            f"reference's error")


def rule_text(numbers) -> str:
    """Cells where their rule on our landscape differs from ours, per block."""
    parts = []
    for name, d in numbers["diagrams"].items():
        dis = d["disagreement"]["their_rule_our_landscape_vs_ours"]
        parts.append(f"{name} {dis['cells']} cells, {100 * dis['fraction']:.2f} %, {dis['omega_eq_1']} of them at ω = 1")
    return "; ".join(parts)


def rule_wrong_text(numbers) -> str:
    """Their wrong multiple bits that stay wrong with their rule on our landscape, per block."""
    return ", ".join(f"{d['why_theirs_wrong']['multiple']['wrong_with_our_landscape too (rule)']} in the {name} block"
                     for name, d in numbers["diagrams"].items())


def convention_text(numbers) -> str:
    """Global bits that are a convention (the refined minimum off both axes), per block."""
    return ", ".join(f"{d['verdicts']['theirs']['global']['convention']} in the {name} block"
                     for name, d in numbers["diagrams"].items())


def degenerate_text(numbers) -> str:
    """Differing bits at ω = 1, where the bits are conventions, per block."""
    return ", ".join(f"{sum(v['degenerate'] for v in d['verdicts']['theirs'].values())} in the {name} block"
                     for name, d in numbers["diagrams"].items())


def theirs_right_text(numbers) -> str:
    """Differing cells where the refined computation sides with theirs, and refined cells where our
    own diagram differs from the refined computation, per block."""
    parts = []
    for name, d in numbers["diagrams"].items():
        theirs = sum(v["theirs"] for v in d["verdicts"]["theirs"].values())
        parts.append(f"{name} block: {theirs} of {d['disagreement']['theirs_vs_ours']['cells']} differing cells "
                     f"side with theirs; ours differs from the refined computation in "
                     f"{d['ours_vs_refined_region_differs']} of {d['refined_cells']} refined cells")
    return "; ".join(parts)


def _area(d, source, names):
    return sum(d["areas"][source][n] for n in names)


def verdict_text(numbers) -> str:
    """The verdict's numbers: largest area difference per block, share of differing cells, the
    misaligned area theirs vs ours, the largest single region difference in the zoom."""
    parts = []
    for name, d in numbers["diagrams"].items():
        gap = max(abs(d["areas"]["theirs"][n] - d["areas"]["ours"][n]) for n in d["areas"]["ours"])
        misaligned = (_SEMANTIC_MISALIGNED, _SEMANTIC_GLOBAL_MISALIGNED)
        parts.append(f"{name} block: region areas within {100 * gap:.2f} percentage points, "
                     f"{100 * d['disagreement']['theirs_vs_ours']['fraction']:.1f} % of the cells differ, misaligned "
                     f"area {100 * _area(d, 'theirs', misaligned):.2f} % theirs vs "
                     f"{100 * _area(d, 'ours', misaligned):.2f} % ours")
    fast = _block(numbers, "fast")
    largest = max(fast["areas"]["ours"], key=lambda n: abs(fast["areas"]["theirs"][n] - fast["areas"]["ours"][n]))
    parts.append(f"the largest difference in the fast block: {largest}, "
                 f"{num(100 * fast['areas']['theirs'][largest], '.1f')} % theirs vs "
                 f"{num(100 * fast['areas']['ours'][largest], '.1f')} % ours")
    return "; ".join(parts)


#: span argument -> function of the numbers file (``<!-- gen:authors-phase-table NAME -->``)
TABLES = {
    "quadrature": quadrature_table,
    "grid": grid_text,
    "quadrature-share": quadrature_share_text,
    "strip": strip_text,
    "semantic-corner": semantic_corner_text,
    "dynamics": dynamics_text,
    "rule": rule_text,
    "rule-wrong": rule_wrong_text,
    "convention": convention_text,
    "degenerate": degenerate_text,
    "theirs-right": theirs_right_text,
    "verdict": verdict_text,
}
