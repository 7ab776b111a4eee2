"""The crossing rule of the authors' experiments (ssi.experiments.authors.crossings): a crossing
from a start already near the level is flagged, not counted, and left out of the gain fit; and
the many-seed rerun of a one-seed experiment holds their run as its first replicates."""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
import yaml

from ssi.experiments import authors
from ssi.experiments import common
from ssi.experiments.authors import spec as authors_spec
from ssi.experiments.authors import jobs as authors_jobs
from ssi.experiments.authors import crossings as ac

ROOT = Path(__file__).resolve().parents[2]
D = 1000
LEVEL = 2 / math.sqrt(D)
STEPS = np.array([0, 1, 10, 100, 1000, 10000], float)


def _curves(start, crossing_record=4, replicates=1, rise=10.0):
    """Curves that stay at ``start`` (× d^-½), then jump to rise × d^-½ from ``crossing_record`` on."""
    c = np.full((replicates, STEPS.size), start / math.sqrt(D))
    c[:, crossing_record:] = rise / math.sqrt(D)
    return c


def test_crossing_counts_from_a_low_start_and_is_flagged_from_a_start_near_the_level():
    low, near, above = _curves(1.0), _curves(1.95), _curves(2.3)
    # from 1/√d: reached between records 3 and 4 (log-linear interpolation), counted
    t = ac.mean_crossing(STEPS, low, LEVEL)
    assert 100 < t < 1000 and not ac.start_flagged(low, LEVEL)
    # from 1.95/√d (97.5 % of the level, the kind of start that "crossed" at step 86): flagged, nan
    assert ac.start_flagged(near, LEVEL) and math.isnan(ac.mean_crossing(STEPS, near, LEVEL))
    assert ac.start_flagged(above, LEVEL) and math.isnan(ac.mean_crossing(STEPS, above, LEVEL))
    # the threshold of the rule is level/√2, on the seed mean
    edge = ac.START_FRACTION * LEVEL * math.sqrt(D)
    assert not ac.start_flagged(_curves(0.999 * edge), LEVEL) and ac.start_flagged(_curves(edge), LEVEL)
    two = np.vstack([_curves(1.95), _curves(0.5)])          # one high seed, one low: mean 1.225/√d
    assert not ac.start_flagged(two, LEVEL)
    # never reached: inf (censored), not nan (undefined)
    assert ac.mean_crossing(STEPS, _curves(1.0, rise=1.5), LEVEL) == math.inf


def test_gain_fit_leaves_a_flagged_point_out_and_lists_it():
    """Gains ∝ L at L = 1, 2, 4, 8 except at L = 4, where the tied network starts at 1.95/√d and
    'crosses' at once (the gain would be huge): the point is excluded, named, and the fit is L^1."""
    Ls = [1, 2, 4, 8]
    steps = np.geomspace(1, 1e6, 200)
    steps[0] = 0.0

    def rising(t_cross, start=1.0):
        # exponential growth from start/√d through 2/√d at t_cross
        rate = math.log(2 / start) / t_cross
        return (start / math.sqrt(D) * np.exp(rate * steps))[None, :].clip(max=1.0)

    pairs = {L: ((steps, rising(1000.0 * L)), (steps, rising(1000.0, 1.95 if L == 4 else 1.0))) for L in Ls}
    fit = ac.gain_fit(pairs, LEVEL, seed=0, names=("untied", "tied"))
    assert math.isnan(fit["gain"][2]) and all(math.isfinite(g) for i, g in enumerate(fit["gain"]) if i != 2)
    assert fit["exponent"] == pytest.approx(1.0, abs=0.02)
    assert math.isnan(fit["low"])                          # one replicate per point: no interval
    assert fit["excluded"] == [{"L": 4, "network": "tied", "start": pytest.approx(1.95 / math.sqrt(D)),
                                "level": LEVEL}]


def test_flag_fires_on_the_authors_tied_random_start_that_crossed_at_step_86():
    """linear-random-sequencelenght, tied network, L = 10, their one seed (replicate 0 of our key):
    its random start is 1.95/√d, so the 2/√d crossing is flagged; over 32 replicates the
    seed-mean start is ≈ 0.8/√d (E|g| for g standard normal) and nothing is flagged."""
    from ssi.experiments.common import seed_key
    from ssi.sgd import simulate

    config = yaml.safe_load((ROOT / "config" / "authors.yaml").read_text())
    name = "linear_random_sequencelenght"
    spec = config["authors"]["experiments"][name]
    prob = authors.problem(spec, "tied_network", 10)
    key = seed_key(config["seed"], authors.EXPERIMENT, name, "tied_network", "10")
    run = simulate(prob, D, authors.their_lr(spec, 10), 200, authors_spec.replicates(spec), seed=key,
                   engine=config["engine"], points_per_decade=10, init="random")
    curves = common.overlap_curves(run)
    assert curves.shape[0] == spec["decide_seeds"] == 32
    assert curves[0, 0] * math.sqrt(D) == pytest.approx(1.95, abs=0.01)
    assert ac.start_flagged(curves[:1], LEVEL)
    assert not ac.start_flagged(curves, LEVEL)
    assert 0.6 < ac.start_overlap(curves) * math.sqrt(D) < 1.0


def test_their_run_is_the_first_replicates_of_the_many_seed_run():
    """Replicate r draws the same numbers whatever the replicate count, so the decide_seeds run
    holds their one-seed run as replicate 0 (tied and untied, random and overlapped starts)."""
    from ssi.sgd import simulate

    config = yaml.safe_load((ROOT / "config" / "authors.yaml").read_text())
    for name in ("linear_random_sequencelenght", "linear_overlapped_sequencelenght"):
        spec = config["authors"]["experiments"][name]
        for student in spec["students"]:
            prob = authors.problem(spec, student, 5)
            kw = dict(seed=(1, 2, 3), engine="reduced", points_per_decade=10, **authors_jobs.sim_kwargs(spec))
            one = common.overlap_curves(simulate(prob, 200, 0.015, 300, 1, **kw))
            three = common.overlap_curves(simulate(prob, 200, 0.015, 300, 3, **kw))
            np.testing.assert_array_equal(one[0], three[0])


@pytest.mark.parametrize("change, message", [({"decide_seeds": 1}, "must exceed seeds"),
                                             ({"decide_seeds": 8, "stop_level": 0.5}, "stop_level: null")])
def test_bad_decide_seeds_fail_naming_the_key(change, message):
    config = yaml.safe_load((ROOT / "config" / "authors.yaml").read_text())
    config["authors"]["experiments"]["nulldivergence"].update(change)
    with pytest.raises(ValueError, match=rf"authors\.experiments\.nulldivergence\.decide_seeds: .*{message}"):
        authors.validate(config)


def test_every_one_seed_production_experiment_is_also_run_to_decide():
    """Each experiment of config/authors.yaml that a verdict rests on (production, C4/C5) and that
    they ran with one seed per point has decide_seeds ≥ 32; job plans cover every replicate."""
    config = yaml.safe_load((ROOT / "config" / "authors.yaml").read_text())
    one_seed = [n for n, s in config["authors"]["experiments"].items()
                if s["role"] == "production" and s["seeds"] == 1]
    assert len(one_seed) == 6
    for name in one_seed:
        assert config["authors"]["experiments"][name].get("decide_seeds", 0) >= 32, name
