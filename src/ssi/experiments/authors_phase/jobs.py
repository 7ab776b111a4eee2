"""The authors' phase diagram, the jobs: the reference derivatives and one diagram (their rule,
with their quadrature and our landscape, and ours; refined where they differ)."""
from __future__ import annotations

import time

import numpy as np

from ... import phase
from ...io import load_result, save_result
from .basis import coefficient_rows, gh_basis
from .refine import central1, central2, reference_derivatives, refine_cells
from .rule import EXPERIMENT, SOURCES, AuthorsRule
from ..common import ProgressLog
from ..semantic_positional.jobs import load_landscape


# --- configuration and results ------------------------------------------------------------------------
def check_spec(config) -> dict:
    """The ``authors_phase`` section of ``config``; a ValueError names a missing or bad key."""
    section = config.get(EXPERIMENT)
    if not isinstance(section, dict):
        raise ValueError(f"config {EXPERIMENT}: missing; expected keys polar_grid, diagrams, reference, refine")
    for name, spec in section["diagrams"].items():
        if not (isinstance(spec.get("fast"), bool) and int(spec.get("resolution", 0)) >= 3
                and int(spec.get("points", 0)) >= 1):
            raise ValueError(f"config {EXPERIMENT}.diagrams.{name}: needs fast (true/false), resolution (≥ 3) "
                             f"and points (≥ 1); got {spec!r}")
    return section


def stems(config, kind=None) -> dict:
    """Result stems: "reference" and one per configured diagram name (``kind`` "reference" or
    "diagram": only those)."""
    section = check_spec(config)
    root = f"{config['results_dir']}/{EXPERIMENT}"
    out = {"reference": f"{root}/reference", **{name: f"{root}/diagram_{name}" for name in section["diagrams"]}}
    if kind is None:
        return out
    if kind not in ("reference", "diagram"):
        raise ValueError(f"kind={kind!r}: allowed None, 'reference', 'diagram'")
    return {k: v for k, v in out.items() if (k == "reference") == (kind == "reference")}


def reference_point(config, out_stem, log=None) -> None:
    """Direct-quadrature derivatives at the corners and the origin (:func:`reference_derivatives`),
    two coarser settings for their error, and the same derivatives by the authors' 4-D rule at
    the configured point counts (their quadrature error where the classification is decided)."""
    spec = check_spec(config)["reference"]
    progress = ProgressLog(log, f"{EXPERIMENT} reference")
    start = time.monotonic()
    ref = reference_derivatives(spec["c_points"], spec["e_points"], spec["step"])
    coarse = reference_derivatives(spec["check_c_points"], spec["check_e_points"], spec["step"])
    wide = reference_derivatives(spec["c_points"], spec["e_points"], 2 * spec["step"])
    arrays = {f"ref_{k}": v for k, v in ref.items()}
    arrays.update({f"err_{k}": np.abs(ref[k] - coarse[k]) + np.abs(ref[k] - wide[k]) for k in ref})
    gh_points = [int(n) for n in spec["gh_points"]]
    arrays["gh_points"] = np.array(gh_points)
    for k in ref:
        arrays[f"gh_{k}"] = np.zeros((len(gh_points), 6))
    for i, n in enumerate(gh_points):
        f = lambda e, m, n=n: gh_basis(e, m, n)  # noqa: E731
        h = float(spec["step"])
        pos_slope = central1(f, (1.0, 0.0), h, 0)
        m = 1.0 - h * np.arange(4.0)
        v = f(np.zeros(4), m)
        sem_slope = (11 * v[:, 0] - 18 * v[:, 1] + 9 * v[:, 2] - 2 * v[:, 3]) / (6 * h)
        vals = {"pos_slope": pos_slope, "pos_curv": central2(f, (1.0, 0.0), h, 1) - pos_slope,
                "sem_slope": sem_slope, "sem_curv": central2(f, (0.0, 1.0), h, 0) - sem_slope,
                "hess_ee": central2(f, (0.0, 0.0), 5 * h, 0), "hess_mm": central2(f, (0.0, 0.0), 5 * h, 1)}
        for k, val in vals.items():
            arrays[f"gh_{k}"][i] = val
        progress.note(f"{n}-point 4-D rule done")
    progress.note(f"done in {time.monotonic() - start:.1f} s")
    save_result(out_stem, arrays, {"experiment": EXPERIMENT, "config": spec})


def load_reference(config):
    """(reference derivatives, their error bounds) saved by :func:`reference_point`."""
    return read_reference(stems(config)["reference"])


def read_reference(stem):
    """(reference derivatives, their error bounds) of the result ``stem`` (path without suffix)."""
    data, _ = load_result(stem)
    ref = {k[4:]: data[k] for k in data if k.startswith("ref_")}
    err = {k[4:]: data[k] for k in data if k.startswith("err_")}
    return ref, err


def diagram_point(config, name: str, out_stem, log=None) -> None:
    """The authors' rule (their quadrature and our landscape) and ours on diagram ``name``'s
    (a, ω) grid, and the refined classification of every cell where they differ
    (:func:`diagram_cells` with the inputs the config names)."""
    section = check_spec(config)
    if name not in section["diagrams"]:
        raise ValueError(f"diagram={name!r} is not configured; allowed: {', '.join(section['diagrams'])}")
    diagram_cells(section, section["diagrams"][name], name, load_landscape(config), load_reference(config),
                  out_stem, log)


def diagram_cells(section, spec, name: str, land: phase.Landscape, reference, out_stem, log=None) -> None:
    """:func:`diagram_point` from what it reads.

    Parameters
    ----------
    section : dict
        The ``authors_phase`` config section (``polar_grid``, ``refine``, ``reference``; its
        ``diagrams`` are not read).
    spec : dict
        The diagram's entry of ``section["diagrams"]``.
    name : str
        The diagram's name (recorded).
    land : phase.Landscape
        The semantic/positional landscape (:func:`ssi.experiments.semantic_positional.read_landscape`).
    reference : tuple
        (reference derivatives, their error bounds) (:func:`read_reference`).
    out_stem, log : path
        The result file without suffix, and the progress log.
    """
    ref, err = reference
    a0, a1, na = spec["a"]
    w0, w1, nw = spec["omega"]
    a_values, omega_values = np.linspace(a0, a1, int(na)), np.linspace(w0, w1, int(nw))
    progress = ProgressLog(log, f"{EXPERIMENT} {name} ({int(nw)} ω × {int(na)} a)")
    seconds = {}
    start = time.monotonic()
    rule = AuthorsRule(int(spec["resolution"]), bool(spec["fast"]))
    bases = {"gh": rule.bases("gh", n_points=int(spec["points"])), "spline": rule.bases("spline", land)}
    seconds["bases"] = time.monotonic() - start
    progress.note(f"basis on the {rule.resolution}² (e, m) grid: {seconds['bases']:.1f} s")
    arrays = {"a": a_values, "omega": omega_values}
    for source in SOURCES:
        t = time.monotonic()
        res = rule.classify(a_values, omega_values, bases[source])
        seconds[f"their_rule_{source}"] = time.monotonic() - t
        for k in ("region", "n_minima", "global_e", "global_m", "v_e", "H_ee", "H_mm", "pos_ok", "sem_ok",
                  "grid_used"):
            arrays[f"{source}_{k}"] = res[k]
        progress.note(f"their rule, loss from {source}: {seconds[f'their_rule_{source}']:.1f} s")
    t = time.monotonic()
    ours = phase.phase_diagram(land, phase.polar_grid(land, *section["polar_grid"]), a_values, omega_values)
    seconds["our_rule"] = time.monotonic() - t
    arrays.update(ours_region=ours.region, ours_n_minima=ours.n_minima, ours_global_e=ours.global_e,
                  ours_global_m=ours.global_m, ours_hessian_ee=ours.hessian_ee, ours_hessian_mm=ours.hessian_mm)
    progress.note(f"our rule: {seconds['our_rule']:.1f} s")
    # quadrature: their n-point 4-D rule against our landscape on their grid (inside the disk)
    inside = rule.inside
    diff = np.abs(bases["gh"]["grid"][:, inside] - bases["spline"]["grid"][:, inside])
    arrays["quad_basis_max"] = diff.max(axis=1)
    arrays["quad_basis_argmax_e"] = rule.grid_e[inside][diff.argmax(axis=1)]
    arrays["quad_basis_argmax_m"] = rule.grid_m[inside][diff.argmax(axis=1)]
    A, W = np.meshgrid(a_values, omega_values)
    rows = coefficient_rows(A.ravel(), W.ravel())
    delta = bases["gh"]["grid"][:, inside] - bases["spline"]["grid"][:, inside]
    # max over (e, m) per (a, ω), in blocks (the full product would be cells × grid points)
    arrays["quad_loss_max"] = np.concatenate([np.abs(rows[i:i + 256] @ delta).max(axis=1)
                                              for i in range(0, rows.shape[0], 256)]).reshape(A.shape)
    # refinement of every cell where either version of their rule differs from ours
    t = time.monotonic()
    differ = (arrays["gh_region"] != ours.region) | (arrays["spline_region"] != ours.region)
    idx = np.flatnonzero(differ)
    glob_diff = ((arrays["gh_region"].ravel()[idx] ^ ours.region.ravel()[idx]) & 1).astype(bool)
    fine = refine_cells(land, A.ravel()[idx], W.ravel()[idx], ref, section["refine"]["polar_grid"],
                        section["reference"]["c_points"], section["reference"]["e_points"], direct_check=glob_diff)
    seconds["refine"] = time.monotonic() - t
    arrays["refined_index"] = idx
    for k, v in fine.items():
        arrays[f"refined_{k}"] = np.asarray(v)
    rows_idx = coefficient_rows(A.ravel()[idx], W.ravel()[idx])
    for k, e in err.items():
        arrays[f"refined_err_{k}"] = np.abs(rows_idx) @ e
    progress.note(f"refined {idx.size} cells: {seconds['refine']:.1f} s")
    save_result(out_stem, arrays, {"experiment": EXPERIMENT, "diagram": name, "config": spec,
                                   "polar_grid": section["polar_grid"], "refine": section["refine"]})


