"""The authors' phase-diagram rule (claim C5) re-run on our landscape and compared with ours.

What the authors' script does (``analytic/`` of the public repository
IdePHICS/Sequence-Single-Index: ``positional-semantic_phase-diagram.py``, which imports
``compute_loss_matrix``, ``population_loss`` and ``steepest_direction_initialization`` from
``poploss_postional_semantic.py`` and the quadrature ``GaussHermiteQuadrature`` from
``gauss_hermite.py``). Facts only, stated in our words; the code below is ours.

Loss (``population_loss(e, m, omega, A, integration_points)``)
    ``½‖T − F‖²_F`` (``np.linalg.norm(..., ord="fro")**2``: the *squared* Frobenius norm, as
    ours), T = (1−ω) softmax_row(q* q*ᵀ) + ω A, F = softmax_row(q qᵀ), averaged over the 4-D
    Gaussian (q*₁, q*₂, q₁, q₂) with mean (0, 0, e, −e) and covariance
    [[I, m I], [m I, I]] by a tensor Gauss–Hermite rule (``roots_hermitenorm``, the points
    mapped by the Cholesky factor): with n points per axis, n⁴ evaluations. The student
    coordinates are then exactly our parametrisation q = m x + √(1−m²) ξ + e(1, −1) on the
    same nodes, so their value at n points equals the decomposition of :mod:`ssi.phase` with
    every term integrated by the *4-D* n-point rule (:func:`gh_basis`). Points with
    e² + m² > 1 get +inf.
(e, m) grid (``compute_loss_matrix``, ``cached_compute_loss_matrix``)
    a Cartesian ``resolution × resolution`` grid of [−1 + 10⁻⁶, 1 − 10⁻⁶]² (the square,
    not the quadrant; no symmetry used). ``resolution`` is the *same* number as the (a, ω)
    grid's: 200 in the active ("fast") setting, 100 in the commented "complete" one. With
    an even resolution neither e = 0 nor m = 0 is a grid line, and no grid point lies within
    0.005 of the corners (0, 1), (1, 0).
(a, ω) grids and quadrature
    fast (active): a ∈ linspace(0.7, 1, 200), ω ∈ linspace(0.4, 1, 200), 19 points, ``fast = True``;
    complete (commented out): a, ω ∈ linspace(0, 1, 100), 20 points, ``fast = False``.
    ``compute_loss_matrix`` defaults to 17 points, used by none of the diagram's calls.
Corner tests (``is_semantic_local_minima``, ``is_positional_local_minima``)
    the corner (0, 1 − 10⁻¹⁰) (resp. (1, 0)) is declared a local minimum when no point of a
    10 × 10 box of half-width r = 2.5/resolution around it (clipped to [−1+10⁻⁶, 1−10⁻⁶],
    points outside the disk ignored) has a lower loss.
Minima (``first_quadrant_local_minimas_guess``, ``augment_local_minimas``, ``cache_compute_minimas``)
    grid local minima: loss ≤ all 8 neighbours (+inf outside the disk and the square), with at
    least one pair of opposite neighbours inside the disk, in e ≥ 0, m ≥ 0; plus the grid's
    first-quadrant argmin. Then, for each corner that passes its box test, grid minima within
    r of it (e ≥ 1 − r, resp. m ≥ 1 − r) are dropped and the exact corner is appended.
    In fast mode the grid is *not computed at all* unless neither corner passes: the minima
    are then just the corners that pass.
Classification (``positional_global_minima``, ``positional_dynamic``, ``multiple_minimas``)
    * global: the e of the lowest-loss minimum in the list; positional when e > ½
      (``np.heaviside(x − .5, 0)``);
    * dynamics (``steepest_direction_initialization``, ``numerical_hessian_initialization``):
      the loss on a 10 × 10 grid of [−0.03, 0.03]² (``resolution=min(resolution, 10)``),
      ``np.gradient`` twice, the Hessian read at index (5, 5), i.e. at (e, m) = (h/2, h/2),
      h = 0.06/9, not at the origin; the eigenvector of the lowest eigenvalue
      (``np.linalg.eigh``); positional when its |e component| > ½;
    * multiple: more than one minimum in the list.
    Region code: global + 2·dynamics + 4·multiple, the same eight regions and colours as ours
    (:data:`ssi.phase.REGION_NAMES`; "misaligned" = semantic global minimum and positional
    initial direction, codes 2 and 6).

This module evaluates that rule (:class:`AuthorsRule`, :func:`authors_diagram`) with two
sources for the loss: ``"gh"``, their n-point 4-D rule (:func:`gh_basis`, our numba kernel),
which reproduces their diagram, and ``"spline"``, our landscape (:class:`ssi.phase.Landscape`).
Since R is linear in six (a, ω)-independent basis functions (docs/theory.md, "Semantic and
positional phases"), both are computed once per point set and every (a, ω) is a matrix product.
It then classifies the same (a, ω) grid with our rule (:func:`ssi.phase.phase_diagram`),
tabulates their regions against ours (:func:`confusion`) and decides every cell where they
differ by a refined computation (:func:`refine_cells`: finer polar grid and L-BFGS on the
splines, the corner conditions from exact derivatives, the minima's losses and the Hessian at
(0, 0) from direct quadrature with more points).

Modules, lowest first: :mod:`~ssi.experiments.authors_phase.basis` (the basis functions),
:mod:`~ssi.experiments.authors_phase.rule` (their rule), :mod:`~ssi.experiments.authors_phase.refine`
(the refined computation), :mod:`~ssi.experiments.authors_phase.jobs`,
:mod:`~ssi.experiments.authors_phase.numbers`, :mod:`~ssi.experiments.authors_phase.figure`; this
package's ``__init__`` holds the claim row; :mod:`~ssi.experiments.authors_phase.tables` what the
results page's tables read.
"""
from __future__ import annotations

from ... import phase
from ...verdicts import UNDECIDED, Verdict, check



#: share of differing cells below which their diagram counts as reproduced
C5_DIAGRAM_SAME = 0.01
C5_DIAGRAM_RULE = (f"their script's diagram against ours, cell by cell (an exact computation, no sampling interval): "
                   f"reproduced when fewer than {100 * C5_DIAGRAM_SAME:g} % of the cells differ on every diagram; "
                   "differs otherwise (the refined computation then says whose cells are right)")


def c5_diagram_verdict(numbers) -> Verdict:
    """Verdict of their diagram against ours (rule :data:`C5_DIAGRAM_RULE`)."""
    shares = {name: d["disagreement"]["theirs_vs_ours"]["fraction"] for name, d in numbers["diagrams"].items()}
    if not shares:
        return Verdict(UNDECIDED, "no diagram compared")
    worst = max(shares, key=shares.get)
    ours, theirs = _right(numbers["diagrams"][worst])
    return check(shares[worst] < C5_DIAGRAM_SAME,
                 f"fewer than {100 * C5_DIAGRAM_SAME:g} % of the cells differ on every diagram",
                 f"{100 * shares[worst]:.2f} % of the cells of {_box_text(numbers['diagrams'][worst])} differ "
                 f"(at least {100 * C5_DIAGRAM_SAME:g} %); refined: ours right on {ours}, theirs on {theirs} bits")


def _right(d) -> tuple[int, int]:
    ver = d["verdicts"]["theirs"]
    return sum(v["ours"] for v in ver.values()), sum(v["theirs"] for v in ver.values())


def _box_text(d) -> str:
    a, w = d["a"], d["omega"]
    return "[0,1]²" if (a[0], a[1], w[0], w[1]) == (0, 1, 0, 1) else f"[{a[0]:g},{a[1]:g}]×[{w[0]:g},{w[1]:g}]"


def claim_rows(config, numbers) -> list[dict]:
    """Claims-table row: how far the authors' own rule is from our diagram, and who is right."""
    parts = []
    for name, d in numbers["diagrams"].items():
        dis = d["disagreement"]["theirs_vs_ours"]
        ours_right, theirs_right = _right(d)
        a, w = d["a"], d["omega"]
        parts.append(f"[{a[0]:g},{a[1]:g}]×[{w[0]:g},{w[1]:g}] ({a[2]}×{w[2]}): {100 * dis['fraction']:.2f} % of "
                     f"cells differ (bits: {', '.join(f'{k} {v}' for k, v in dis['bits'].items())}); refined: "
                     f"ours right on {ours_right}, theirs on {theirs_right} differing bits")
    shares = {name: d["disagreement"]["theirs_vs_ours"]["fraction"] for name, d in numbers["diagrams"].items()}
    ours = sum(_right(d)[0] for d in numbers["diagrams"].values())
    theirs = sum(_right(d)[1] for d in numbers["diagrams"].values())
    return [{
        "claim": "C5 semantic vs positional (authors' diagram rule)",
        "paper": "the phase diagram drawn by the authors' script",
        "measured": "; ".join(parts) + "; see docs/results/authors-phase.md",
        "headline": ("their script's diagram differs from ours on " + ", ".join(
            f"{100 * v:.2f} % of {_box_text(numbers['diagrams'][k])}" for k, v in shares.items())
            + f"; refined: ours right on {ours} differing bits, theirs on {theirs}"),
        **c5_diagram_verdict(numbers).fields(),
        "figure": "figures/authors/phase_diagram_comparison.png",
        "command": "snakemake --cores all authors_phase_plot",
        "rule": C5_DIAGRAM_RULE,
    }]

