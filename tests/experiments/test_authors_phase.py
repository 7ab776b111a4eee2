"""ssi.experiments.authors_phase: the authors' phase-diagram rule on our landscape.

* Their quadrature: the loss ½‖T − F‖²_F averaged by a tensor Gauss–Hermite rule over the
  4-D Gaussian with the Cholesky factor of its covariance (written out here independently)
  equals the constant plus the basis decomposition of :func:`gh_basis`.
* Their rule reproduces the ends of the diagram (ω = 0: unique semantic minimum, semantic
  direction; a = 1, ω = 0.95: positional global minimum and direction) in both modes, and its
  finite-difference Hessian matches ours.
* Confusion tables count every cell once; the refined classification agrees with ours where
  the landscape is unambiguous, and its direct-quadrature Hessian with the landscape's.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from ssi import phase
from ssi.experiments.authors_phase import jobs as ap_jobs
from ssi.experiments.authors_phase import refine as ap_refine
from ssi.experiments.authors_phase import basis as ap_basis
from ssi.experiments.authors_phase import rule as ap_rule


@pytest.fixture(scope="module")
def land():
    return phase.landscape(n_nodes=21, n_fine=201, c_points=25, e_points=81)


@pytest.fixture(scope="module")
def rule_bases(land):
    out = {}
    for fast in (True, False):
        rule = ap_rule.AuthorsRule(60, fast)
        out[fast] = (rule, rule.bases("spline", land))
    return out


def _softmax_rows(x):
    x = x - x.max(axis=-1, keepdims=True)
    ex = np.exp(x)
    return ex / ex.sum(axis=-1, keepdims=True)


def _their_quadrature(e, m, omega, a, n):
    """½‖T − F‖²_F under N((0, 0, e, −e), [[I, mI], [mI, I]]) by the tensor n-point rule on the
    Cholesky-mapped nodes (the authors' definition, independently of ssi)."""
    x, w = phase.gauss_hermite(n)
    cov = np.array([[1, 0, m, 0], [0, 1, 0, m], [m, 0, 1, 0], [0, m, 0, 1]], float)
    L = np.linalg.cholesky(cov)
    nodes = np.stack(np.meshgrid(x, x, x, x, indexing="ij"), -1).reshape(-1, 4) @ L.T + np.array([0, 0, e, -e])
    weights = np.prod(np.stack(np.meshgrid(w, w, w, w, indexing="ij"), -1).reshape(-1, 4), axis=1)
    qs, q = nodes[:, :2], nodes[:, 2:]
    A = phase.pattern(a)
    T = (1 - omega) * _softmax_rows(qs[:, :, None] * qs[:, None, :]) + omega * A
    F = _softmax_rows(q[:, :, None] * q[:, None, :])
    return float(np.sum(weights * 0.5 * np.sum((T - F) ** 2, axis=(1, 2))))


@pytest.mark.parametrize("e, m, omega, a", [(0.3, 0.5, 0.6, 0.9), (1.0, 0.0, 0.9, 0.8), (0.0, 0.999, 0.2, 1.0),
                                            (-0.4, -0.7, 0.95, 0.5)])
def test_gh_basis_is_their_quadrature(e, m, omega, a):
    n = 7
    basis = ap_basis.gh_basis(np.array([e]), np.array([m]), n)[:, 0]
    N0, M0 = phase.student_moments(np.array([0.0]), n)          # the teacher-only terms: 2-D rule
    A = phase.pattern(a)
    const = (0.5 * (1 - omega) ** 2 * N0[0] + 0.5 * omega ** 2 * np.sum(A * A)
             + omega * (1 - omega) * np.sum(M0[0] * A))
    value = const + float(ap_basis.coefficient_rows(np.array([a]), np.array([omega]))[0] @ basis)
    assert value == pytest.approx(_their_quadrature(e, m, omega, a, n), abs=1e-12)


def test_gh_basis_converges_to_the_landscape(land):
    e, m = np.array([0.2, 0.7, 0.1]), np.array([0.6, 0.3, 0.95])
    direct = ap_refine.direct_basis(e, m, 25, 81)
    assert np.max(np.abs(ap_basis.gh_basis(e, m, 33) - direct)) < 1e-4
    assert np.max(np.abs(ap_basis.spline_basis(land, e, m) - direct)) < 1e-5


def test_symmetric_basis_equals_direct_evaluation(land):
    axis = np.linspace(-0.9, 0.9, 7)
    E, M = np.meshgrid(axis, axis)
    fn = lambda e, m: ap_basis.spline_basis(land, e, m)  # noqa: E731
    assert np.allclose(ap_basis.symmetric_basis(fn, E, M), fn(E, M), atol=1e-12)


@pytest.mark.parametrize("fast", [True, False])
def test_their_rule_reproduces_the_ends(land, rule_bases, fast):
    rule, bases = rule_bases[fast]
    res = rule.classify(np.array([1.0]), np.array([0.0, 0.95]), bases)
    # ω = 0: the semantic corner is the only minimum, the initial direction is m
    assert res["region"][0, 0] == 0 and res["n_minima"][0, 0] == 1
    assert (res["global_e"][0, 0], res["global_m"][0, 0]) == (0.0, 1.0)
    assert res["v_e"][0, 0] < 0.1
    # a = 1, ω = 0.95: positional global minimum and positional direction
    assert res["region"][1, 0] & 3 == 3
    assert res["v_e"][1, 0] > 0.9


def test_their_hessian_matches_ours(land, rule_bases):
    rule, bases = rule_bases[True]
    a, omega = np.array([0.5, 0.9, 1.0]), np.array([0.3, 0.7, 0.9])
    for k in range(a.size):
        _, H = rule.dynamics(ap_basis.coefficient_rows(a[k:k + 1], omega[k:k + 1]), bases)
        ours = land.hessian(a[k], omega[k])
        assert H[0, 0, 0] == pytest.approx(ours[0, 0], abs=2e-3)
        assert H[0, 1, 1] == pytest.approx(ours[1, 1], abs=2e-3)
        # their Hessian is read at (h/2, h/2), h = 0.06/9, where R_em (odd in e and in m) is O(h²)
        assert abs(H[0, 0, 1]) < 1e-4


def test_their_grid_minima_on_a_synthetic_function():
    rule = ap_rule.AuthorsRule(80, False)
    f = (rule.grid_e ** 2 - 0.09) ** 2 + (rule.grid_m ** 2 - 0.16) ** 2
    values = np.where(rule.inside, f, np.inf)[None]
    mask = rule.grid_minima(values)[0]
    pts = list(zip(rule.grid_e[mask], rule.grid_m[mask]))
    assert len(pts) == 1 and math.hypot(pts[0][0] - 0.3, pts[0][1] - 0.4) < 0.03


def _padded_grid_minima(rule, values):
    """Their rule as they write it: pad with +inf, compare with the 8 shifted grids, argmin over q."""
    res = values.shape[-1]
    padded = np.pad(values, ((0, 0), (1, 1), (1, 1)), constant_values=np.inf)
    is_min = np.isfinite(values)
    for di in (-1, 0, 1):
        for dj in (-1, 0, 1):
            if (di, dj) != (0, 0):
                is_min &= values <= padded[:, 1 + di:1 + di + res, 1 + dj:1 + dj + res]
    mask = is_min & rule.good & rule.quadrant
    q = np.nonzero(rule.quadrant.ravel())[0]
    first = q[np.argmin(values.reshape(values.shape[0], -1)[:, q], axis=1)]
    mask.reshape(mask.shape[0], -1)[np.arange(values.shape[0]), first] = True
    return mask


@pytest.mark.parametrize("res", [21, 40])
def test_grid_minima_equal_their_padded_comparison(res):
    """The minima without padding give their mask exactly: ties, +inf off the disk, a first
    quadrant without a finite value, NaN and −inf values."""
    rule = ap_rule.AuthorsRule(res, False)
    values = np.round(np.random.default_rng(res).standard_normal((19, res, res)), 1)
    values[:, ~rule.inside] = np.inf
    values[3][rule.quadrant] = np.inf
    values[5] = 0.0
    values[7][rule.inside & (np.arange(res)[:, None] % 3 == 0)] = np.nan    # NaN: x ≤ NaN is false
    values[8][rule.quadrant] = np.nan                                        # ... and argmin finds it
    values[9][rule.inside] = -np.inf
    np.testing.assert_array_equal(rule.grid_minima(values), _padded_grid_minima(rule, values))


def test_confusion_counts_every_cell(land, rule_bases):
    rule, bases = rule_bases[False]
    a, omega = np.linspace(0.7, 1.0, 5), np.linspace(0.5, 1.0, 6)
    theirs = rule.classify(a, omega, bases)["region"]
    ours = phase.phase_diagram(land, phase.polar_grid(land, 60, 60), a, omega).region
    table = ap_rule.confusion(theirs, ours)
    assert table.sum() == a.size * omega.size
    assert np.trace(table) == int(np.sum(theirs == ours))
    assert np.array_equal(table.sum(axis=1), np.bincount(theirs.ravel(), minlength=8))


def test_refinement_is_consistent(land):
    ref = ap_refine.reference_derivatives(25, 81, 0.01)
    a, omega = np.array([1.0, 1.0, 0.9]), np.array([0.0, 0.95, 0.3])
    fine = ap_refine.refine_cells(land, a, omega, ref, (80, 80), 25, 81, direct_check=np.ones(3, bool))
    ours = phase.phase_diagram(land, phase.polar_grid(land, 80, 80), a[:1], omega)
    assert np.array_equal(fine["region"], np.array([ours.region[k, 0] for k in range(3)]))
    assert fine["corner_consistent"].all() and fine["global_confirmed"].all()
    # ω = 0: the semantic corner satisfies its conditions, the positional one does not
    assert fine["sem_kkt"][0] and not fine["pos_kkt"][0]
    for k in range(3):
        H = land.hessian(a[k], omega[k])
        assert fine["hess_ee"][k] == pytest.approx(H[0, 0], abs=1e-4)
        assert fine["hess_mm"][k] == pytest.approx(H[1, 1], abs=1e-4)


def test_bad_input():
    with pytest.raises(ValueError, match="resolution"):
        ap_rule.AuthorsRule(2, True)
    with pytest.raises(ValueError, match="source"):
        ap_rule.AuthorsRule(10, True).bases("exact")
    with pytest.raises(ValueError, match="n_points"):
        ap_basis.gh_basis(0.1, 0.1, 0)
    with pytest.raises(ValueError, match="authors_phase"):
        ap_jobs.stems({"results_dir": "r"})
    cfg = {"results_dir": "r", "authors_phase": {"diagrams": {"x": {"resolution": 10, "points": 5, "fast": "yes"}}}}
    with pytest.raises(ValueError, match="diagrams.x"):
        ap_jobs.stems(cfg)


def test_page_tables_quote_the_committed_numbers():
    """docs/results/authors-phase.md's quadrature table has one row per decisive quantity and cell,
    each the basis values of the numbers file combined with the loss's coefficients (checked here
    against the direct sum for one entry), and its counts are those of the numbers file."""
    import json
    from pathlib import Path

    from pagegen.pages import result_table
    from ssi.experiments.authors_phase import tables as tables

    root = Path(__file__).resolve().parents[2]
    numbers = json.loads((root / "figures/numbers/authors_phase.json").read_text())
    text = {name: result_table(root, "authors_phase", name.replace("-", "_"))
            for name in ("quadrature", "grid", "quadrature-share", "strip", "semantic-corner", "dynamics", "rule",
                         "rule-wrong", "convention", "degenerate", "theirs-right", "verdict", "tables")}
    rows = text["quadrature"].strip("\n").splitlines()[2:]
    assert len(rows) == len(tables.QUADRATURE_CELLS) * (1 + len(tables.QUANTITIES))
    ref = numbers["reference"]["pos_slope"]
    a, omega = tables.QUADRATURE_CELLS[0]
    x = 1.0 / (1.0 + math.exp(-2.0 * a * a))
    coefficients = {"N": 0.5, "C": -(1 - omega), "M11": -omega * x, "M12": -omega * (1 - x),
                    "M21": -omega * (1 - x), "M22": -omega * x}
    direct = sum(c * ref["direct"][b] for b, c in coefficients.items())
    assert tables.quantity(numbers["reference"], "pos_slope", a, omega)["direct"] == pytest.approx(direct, rel=1e-12)
    assert format(direct, "+.5f").replace("-", "−") in rows[1]
    for name, d in numbers["diagrams"].items():
        wrong = d["why_theirs_wrong"]["multiple"]
        assert (f"{wrong['right_with_our_landscape (quadrature)']} of their {wrong['their_bit_wrong']} wrong multiple "
                f"bits in the {name} block") in text["quadrature-share"]
        dis = d["disagreement"]["their_rule_our_landscape_vs_ours"]
        assert f"{name} {dis['cells']} cells" in text["rule"]
    for name, words in text.items():
        assert "n/a" not in words, name
