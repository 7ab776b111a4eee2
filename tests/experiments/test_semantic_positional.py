"""Claim C5 (ssi.experiments.semantic_positional): SGD ends where the landscape says, the
ODE of the experiment agrees with the package ODE, and the summary on tiny runs.

* At a = 1, one-pass SGD from m = e = 0 (d = 100, T = 3·10⁵, η = 0.05) ends semantic for
  ω = 0.2 and positional for ω = 0.9 in every run, as the phase diagram (global minimum and
  initial direction agree there) and the ODE say.
* ``ode_endpoint`` (drift from the landscape splines, ν interpolated) follows
  ``ssi.integrate_ode`` (quadrature at every step) to 0.02 in m and e.
* ``switch_omega`` and ``classify`` on hand-made inputs; ``summarise`` and ``claim_rows`` on
  the quick configuration's runs in a temporary folder.
"""
from __future__ import annotations

import copy
import math
from pathlib import Path

import numpy as np
import pytest
import yaml

from ssi import Problem, integrate_ode, phase, simulate
from ssi.experiments import semantic_positional as sp
from ssi.experiments.semantic_positional import jobs as sp_jobs
from ssi.experiments.semantic_positional import numbers as sp_numbers
from ssi.experiments import phase_switch

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def land():
    return phase.landscape(n_nodes=21, n_fine=201, c_points=25, e_points=81)


def mixture(omega, a=1.0):
    return Problem(L=2, target="mixture", student="attention", pe="opposite", omega=omega, a=a)


def test_switch_omega_and_classify():
    assert phase_switch.switch_omega([0.1, 0.2, 0.3], [0.0, 0.25, 0.75]) == pytest.approx(0.25)
    assert phase_switch.switch_omega([0.1, 0.2], [0.6, 1.0]) == pytest.approx(0.1)
    assert math.isnan(phase_switch.switch_omega([0.1, 0.2], [0.0, 0.4]))
    assert math.isnan(phase_switch.switch_omega([0.1, 0.2, 0.3], [np.nan, 0.0, np.nan]))
    # the shared rule does not cross an undecided ω; this result drops undecided ω first
    assert math.isnan(phase_switch.switch_omega([0.1, 0.2, 0.3], [0.0, np.nan, 1.0]))
    assert sp_numbers.switch_over_decided([0.1, 0.2, 0.3], [0.0, np.nan, 1.0]) == pytest.approx(0.2)
    assert sp_numbers.classify([0.9, -0.1, 0.01], [0.1, -0.9, 0.02], 0.5).tolist() == [0, 1, -1]
    share = sp_numbers.positional_share(np.array([[1, 0, -1, 1], [-1, -1, -1, 1]]))
    assert share[0] == pytest.approx(2 / 3) and math.isnan(share[1])


@pytest.mark.parametrize("omega, positional", [(0.2, False), (0.9, True)])
def test_sgd_ends_where_the_landscape_says(land, omega, positional):
    grid = phase.polar_grid(land, 60, 60)
    best = phase.local_minima(land, grid, 1.0, omega)[0]
    assert (best[0] > best[1]) == positional
    assert (land.hessian(1.0, omega)[0, 0] < land.hessian(1.0, omega)[1, 1]) == positional
    run = simulate(mixture(omega), 100, 0.05, 300_000, 16, seed=(5, int(100 * omega)), m0=0.0, e0=0.0,
                   record=[300_000])
    m, e = np.abs(run.m[:, -1]), np.abs(run.e[:, -1])
    assert np.all(np.hypot(m, e) > 0.9)
    assert np.all((e > m) == positional)


@pytest.mark.slow
@pytest.mark.parametrize("omega", [0.3, 0.8])
def test_ode_endpoint_follows_the_package_ode(land, omega):
    p = mixture(omega)
    nu = sp_jobs.noise_table(p, 6, 11)
    d, t_end = 100, 600.0
    t, e, m = sp_jobs.ode_endpoint(land, nu, 1.0, omega, 0.05, d, t_end)
    ref = integrate_ode(p, 0.05, d ** -0.5, d ** -0.5, t_end, t_eval=np.array([150.0, 300.0, t_end]))
    for k, tk in enumerate(ref.t):
        assert np.interp(tk, t, m) == pytest.approx(ref.m[k], abs=0.02)
        assert np.interp(tk, t, e) == pytest.approx(ref.e[k], abs=0.02)


def test_summarise_on_quick_runs(tmp_path):
    config = yaml.safe_load((ROOT / "config/quick.yaml").read_text())
    config = copy.deepcopy(config)
    config["results_dir"] = str(tmp_path / "results")
    config["figures_dir"] = str(tmp_path / "figures")
    sp_jobs.landscape_point(config, sp_jobs.stems(config, "landscape")["landscape"])
    for name, stem in sp_jobs.stems(config, "diagram").items():
        sp_jobs.diagram_point(config, name, stem)
    for (name, block), stem in sp_jobs.stems(config, "sgd").items():
        sp_jobs.sgd_point(config, name, block, stem)
    for group, stem in sp_jobs.stems(config, "long").items():
        sp_jobs.long_point(config, group, stem)
    sp_jobs.ode_point(config, sp_jobs.stems(config, "ode")["ode"])
    numbers = sp_numbers.summarise(config)
    for name in sp_jobs.DIAGRAMS:
        fractions = numbers["diagrams"][name]["fractions"]
        assert sum(fractions["regions"].values()) == pytest.approx(1.0)
    row = numbers["transition"][0]
    assert len(row["positional_fraction"]) == len(config["semantic_positional"]["transition"]["omegas"])
    assert numbers["long_run"]["replicates"] == config["semantic_positional"]["long_run"]["replicates"]
    rows = sp.claim_rows(config, numbers)
    assert rows[0]["claim"].startswith("C5")
    # blocks and groups cover every ω and replicate exactly once
    omegas, _, m, _ = sp_numbers.load_transition(config, "d100")
    assert sorted(omegas.tolist()) == sorted(config["semantic_positional"]["transition"]["omegas"])
    steps, m, e = sp_numbers.load_long(config)
    assert m.shape[0] == config["semantic_positional"]["long_run"]["replicates"]


def test_page_tables_quote_the_committed_numbers():
    """docs/results/semantic_positional.md's tables (the page generator's _semantic_positional.md.j2
    on ssi.experiments.semantic_positional.tables.context): one row per transition run, every
    region of non-zero area, and the cost adds up the runs."""
    import json
    from pathlib import Path

    from pagegen.pages import result_table

    root = Path(__file__).resolve().parents[2]
    numbers = json.loads((root / "figures/numbers/semantic_positional.json").read_text())
    transition = result_table(root, "semantic_positional", "transition").strip("\n").splitlines()[2:]
    assert [line.split("|")[1].strip() for line in transition] == [f"`{r['run']}`" for r in numbers["transition"]]
    regions = [line for line in result_table(root, "semantic_positional", "regions").splitlines()[2:]
               if line.startswith("| ")]
    nonzero = [k for k in numbers["diagrams"]["full"]["fractions"]["regions"]
               if any(numbers["diagrams"][b]["fractions"]["regions"][k] for b in numbers["diagrams"])]
    assert len(regions) == len(nonzero) + 1
    total = sum(len(r["omega"]) * r["replicates"] * r["steps"] for r in numbers["transition"])
    total += numbers["long_run"]["replicates"] * numbers["long_run"]["steps"]
    from ssi.experiments.page_text import steps_text
    assert result_table(root, "semantic_positional", "cost").startswith(steps_text(total))
