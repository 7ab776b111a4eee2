"""Claim C1: the weak-recovery time scales with d as the sequence information exponent (SIE) says.

The claim: T = O(d) for SIE 1, O(d log² d) for SIE 2, O(d^(k−1)) for SIE k ≥ 3. For each
configured case (one problem, one learning-rate schedule η(d), docs/theory.md, "The ODE") and each d:

* **SGD.** ``replicates`` one-pass SGD runs (reduced engine; the explicit R^d engine at
  ``explicit_dims`` as a check) start at m₀ = d^(−1/2). The weak-recovery time at a level is
  the authors' definition: the first step at which the **replicate-averaged** overlap reaches
  the level (between log-spaced records the step is interpolated log-linearly, see
  :func:`ssi.escape.crossing_time`). Two levels, the ``early`` and ``macro`` escapes of the
  section's ``escape`` block (:mod:`ssi.escape`): the authors' early one, a multiple of
  d^(−1/2), and a macroscopic one. A run stops once the mean
  has reached the macroscopic level and ``overshoot`` times that step is done (a case may
  override the section's ``overshoot``): the first crossing of the mean is then known
  exactly, and the margin lets bootstrap resamples of the replicates cross too. A resample
  that has not crossed by the end of the run is censored: it counts as the last simulated
  step (a lower bound), and the number of censored resamples is reported with each time.
* **Sign convention.** If R(m) = R(−m) (even targets, e.g. He₂ and He₄ sums with the
  matched student) a replicate may escape to −m*, and the averaged quantity is |m|; otherwise
  (odd targets) it is the signed m, so that an excursion to m < 0 never counts as recovery.
* **ODE.** :func:`ssi.escape_time` (docs/theory.md, "The ODE", with the SGD-noise term) from the same m₀
  with the same η(d), at both levels, at every ``ode_dims``.
* **Theory.** Expanding the ODE near m = 0 (drift η k c_k m^(k−1), docs/theory.md, "The ODE") gives
  steps ∝ d^p (log d)^b / η(d) with, for the macroscopic level, (p, b) = (1, 0) for k = 1,
  (1, 1) for k = 2, (k/2, 0) for k ≥ 3; for the early level (½, 0) for k = 1 (m only has to
  move by d^(−1/2) at a speed η), (1, 0) for k = 2 and (k/2, 0) for k ≥ 3. With the
  schedules of that section (constant η for k = 1, η ∝ 1/log d for k = 2, η ∝ d^(−(k−2)/2)
  for k ≥ 3) the macroscopic law is the claim's d, d log² d, d^(k−1). The "predicted
  exponent" of a fit is the log-log slope of this law over the same d as the data.
"""
from __future__ import annotations

import math

import numpy as np

from ...hermite import sie
from ...io import load_result, save_result
from ...ode import escape_time
from ...population import population_loss
from ...sgd import simulate
from ...verdicts import Approach, Verdict, exponent_verdict
from ..claim_text import finite, interval, span
from ... import escape
from ...escape import censor, mean_crossing
from ..common import (ProgressLog, check_dimensions, describe_schedule, fit_exponent, learning_rate,
                     loglog_slope, problem_from_spec, seed_key, t_max)

EXPERIMENT = "escape_vs_d"
#: the two weak-recovery levels: the authors' early one (× d^(−1/2)) and a macroscopic one
LEVELS = ("early", "macro")
#: bootstrap quantiles of the error bars (±1 standard deviation of a normal)
BAR_QUANTILES = (0.16, 0.84)
#: the claimed-law guide lines start at this fraction of the ODE's steps at its smallest d
GUIDE_OFFSET = 1 / 3

#: the figures, in the figures folder without suffix (ssi.experiments.registry)
FIGURES = ("escape_vs_d",)


# --- points and result files ----------------------------------------------------------------
def points(config):
    """(case, d, engine) triples of the configured SGD runs (reduced at ``dims``, explicit at
    ``explicit_dims``)."""
    out = []
    for case, spec in config[EXPERIMENT]["cases"].items():
        out += [(case, d, "reduced") for d in spec["dims"]]
        out += [(case, d, "explicit") for d in spec.get("explicit_dims", [])]
    return out


def stems(config, kind):
    """Result stems (path without suffix): kind "sgd" keyed by (case, d, engine), "ode" by case."""
    root = f"{config['results_dir']}/{EXPERIMENT}"
    if kind == "sgd":
        return {(c, d, e): f"{root}/sgd_{c}_d{d}_{e}" for c, d, e in points(config)}
    if kind == "ode":
        return {c: f"{root}/ode_{c}" for c in config[EXPERIMENT]["cases"]}
    raise ValueError(f"kind={kind!r} is unknown; allowed: sgd, ode")


def case_problem(config, case):
    """(case spec, Problem) of one configured case."""
    spec = config[EXPERIMENT]["cases"][case]
    return spec, problem_from_spec(spec["problem"], f"{EXPERIMENT}.cases.{case}.problem")


def escapes(section) -> dict:
    """The two escapes of the section, ``{"early": Escape, "macro": Escape}`` (:mod:`ssi.escape`)."""
    named = escape.named(section, EXPERIMENT)
    if sorted(named) != sorted(LEVELS):
        raise ValueError(f"config {EXPERIMENT}.escape: the escapes {', '.join(LEVELS)} are required, got {sorted(named)}")
    return {name: named[name] for name in LEVELS}


def levels(section, d: int) -> dict:
    """The two weak-recovery levels at dimension d, ``{"early": ..., "macro": ...}``."""
    return {name: esc.value(d) for name, esc in escapes(section).items()}


def is_symmetric(problem, tol: float = 1e-9) -> bool:
    """True if the population loss is even in m (R(m) = R(−m) on a grid of m): then −m* is as
    good a solution as +m* and the escape is measured on |m|."""
    m = np.array([0.1, 0.3, 0.5, 0.8])
    plus, minus = population_loss(problem, m=m), population_loss(problem, m=-m)
    return bool(np.allclose(plus, minus, rtol=0.0, atol=tol * max(1.0, float(np.max(np.abs(plus))))))


def overlap_statistic(m, symmetric: bool):
    """The per-replicate overlap that is averaged: |m| for symmetric problems, m otherwise."""
    return np.abs(m) if symmetric else np.asarray(m)


def overshoot(config, case) -> float:
    """The case's ``overshoot`` if set, else the section's."""
    section = config[EXPERIMENT]
    return float(section["cases"][case].get("overshoot", section["overshoot"]))


# --- simulation ---------------------------------------------------------------------------------
def mean_stopper(level: float, overshoot: float, symmetric: bool):
    """A ``stop_when`` predicate for :func:`ssi.sgd.simulate`: True once the replicate mean of the
    overlap statistic has reached ``level`` and ``overshoot`` times that step has been simulated."""
    state = {"crossed": None}

    def stop(done, m):
        if state["crossed"] is None and overlap_statistic(m, symmetric).mean() >= level:
            state["crossed"] = done
        return state["crossed"] is not None and done >= overshoot * state["crossed"]

    return stop


def sgd_point(config, case: str, d: int, engine: str, out_stem, log=None) -> None:
    """Replicates of one (case, d, engine); saves the recorded m (R, K) and the run's metadata."""
    spec, problem = case_problem(config, case)
    section = config[EXPERIMENT]
    lr = learning_rate(spec["schedule"], d)
    steps = int(round(t_max(spec, d) * d))
    key = seed_key(config["seed"], EXPERIMENT, case, d, engine)
    replicates = spec.get("replicates", section["replicates"])
    symmetric = is_symmetric(problem)
    lev = levels(section, d)
    progress = ProgressLog(log, f"{EXPERIMENT} {case} d={d} {engine} ({replicates} replicates in lockstep)")
    run = simulate(problem, d, lr, steps, replicates, seed=key, engine=engine, m0=d ** -0.5,
                   points_per_decade=section["points_per_decade"], progress=progress,
                   stop_when=mean_stopper(lev["macro"], overshoot(config, case), symmetric))
    m_stat = overlap_statistic(run.m, symmetric)
    crossings = {name: mean_crossing(run.steps, m_stat, level) for name, level in lev.items()}
    progress.note(f"stopped at step {int(run.steps[-1])} of {steps}; mean crossings {crossings}")
    save_result(out_stem, {"steps": run.steps, "m": run.m},
                {"experiment": EXPERIMENT, "case": case, "d": d, "engine": engine, "lr": lr,
                 "steps_max": steps, "steps_done": int(run.steps[-1]), "replicates": replicates,
                 "seed_key": list(key), "m0": d ** -0.5, "symmetric": symmetric, "levels": lev,
                 "config": spec})


def ode_point(config, case: str, out_stem, log=None) -> None:
    """ODE escape steps at both levels at every ``ode_dims`` of a case."""
    spec, problem = case_problem(config, case)
    section = config[EXPERIMENT]
    progress = ProgressLog(log, f"{EXPERIMENT} ODE {case}")
    dims = np.array(spec["ode_dims"], dtype=int)
    arrays = {"dims": dims}
    for name in LEVELS:
        arrays[f"steps_{name}"] = np.array([
            escape_time(problem, int(d), learning_rate(spec["schedule"], int(d)), levels(section, int(d))[name],
                        t_max=100 * t_max(spec, int(d))) for d in dims])
        progress.note(f"{name}: escape steps {dict(zip(dims.tolist(), arrays[f'steps_{name}'].tolist()))}")
    save_result(out_stem, arrays, {"experiment": EXPERIMENT, "case": case, "config": spec,
                                   "levels": {n: esc.level_text() for n, esc in escapes(section).items()}})


# --- theory ---------------------------------------------------------------------------------------
def law_powers(k: int, level: str) -> tuple[float, float]:
    """(p, b) of steps ∝ d^p (log d)^b / η(d) for SIE k at the "early" or "macro" level (module doc)."""
    if k == 1:
        return (0.5 if level == "early" else 1.0), 0.0
    if k == 2:
        return 1.0, (0.0 if level == "early" else 1.0)
    return k / 2.0, 0.0


def predicted_steps(k: int, level: str, schedule: dict, dims) -> np.ndarray:
    """The small-m law d^p (log d)^b / η(d) (arbitrary prefactor) at ``dims``."""
    p, b = law_powers(k, level)
    return np.array([d ** p * math.log(d) ** b / learning_rate(schedule, d) for d in dims], float)


def claimed_law(k: int) -> str:
    """The law of claim C1 for SIE k."""
    return {1: "d", 2: "d log² d"}.get(k, f"d^{k - 1}")


def claimed_steps(k: int, dims) -> np.ndarray:
    """The claimed law (arbitrary prefactor) at ``dims``: d, d log² d or d^(k−1)."""
    dims = np.asarray(dims, float)
    if k == 1:
        return dims
    if k == 2:
        return dims * np.log(dims) ** 2
    return dims ** (k - 1)


# --- numbers ------------------------------------------------------------------------------------
def _load_point(stem):
    data, meta = load_result(stem)
    m_stat = overlap_statistic(data["m"], meta["symmetric"])
    return data["steps"].astype(float), m_stat, meta


def censored_crossing(steps, m_stat, level) -> float:
    """:func:`mean_crossing`, with the last simulated step (a lower bound) when the mean has not
    reached ``level`` by the end of the run."""
    return censor(mean_crossing(steps, m_stat, level), steps[-1])


def _bootstrap(steps, m_stat, level, seed, n):
    """Mean-crossing steps of ``n`` resamples of the replicates, and how many were censored."""
    rng = np.random.default_rng(seed)
    R = m_stat.shape[0]
    raw = np.array([mean_crossing(steps, m_stat[rng.integers(0, R, R)], level) for _ in range(n)])
    return np.where(np.isinf(raw), float(steps[-1]), raw), int(np.isinf(raw).sum())


def summarise(config) -> dict:
    """Key numbers: ``rows`` (mean-crossing steps per (case, d, engine) and level, bootstrap bars,
    ODE), ``fits`` (SGD and ODE exponents per case and level, predicted ones), ``explicit``
    (reduced vs explicit engine at the same points, in standard errors)."""
    section = config[EXPERIMENT]
    n_boot = int(section["bootstrap"])
    sgd_files, ode_files = stems(config, "sgd"), stems(config, "ode")
    rows, fits, checks = [], [], []
    for case, spec in section["cases"].items():
        _, problem = case_problem(config, case)
        k = sie(problem)
        ode, _ = load_result(ode_files[case])
        ode_dims = ode["dims"].astype(float)
        loaded = {}
        for (c, d, engine), stem in sgd_files.items():
            if c != case:
                continue
            steps, m_stat, meta = _load_point(stem)
            loaded[(d, engine)] = (steps, m_stat)
            row = {"case": case, "d": d, "engine": engine, "lr": meta["lr"], "replicates": int(m_stat.shape[0]),
                   "steps_done": meta["steps_done"], "symmetric": meta["symmetric"]}
            for name, level in levels(section, d).items():
                boot, censored = _bootstrap(steps, m_stat, level, (config["seed"], d, LEVELS.index(name)), n_boot)
                row[f"{name}_level"] = level
                row[f"{name}_steps"] = mean_crossing(steps, m_stat, level)
                row[f"{name}_low"], row[f"{name}_high"] = (float(np.quantile(boot, q)) for q in BAR_QUANTILES)
                row[f"{name}_se_log"] = float(np.std(np.log(boot)))
                row[f"{name}_censored_resamples"] = censored
                ode_steps = ode[f"steps_{name}"].astype(float)
                i = np.nonzero(ode_dims == d)[0]
                row[f"{name}_ode"] = float(ode_steps[i[0]]) if i.size else math.nan
            rows.append(row)
        dims = sorted(d for d, e in loaded if e == "reduced")
        for name in LEVELS:
            stats = [lambda ms, s=loaded[(d, "reduced")][0], lv=levels(section, d)[name]: censored_crossing(s, ms, lv)
                     for d in dims]
            slope, low, high = fit_exponent(dims, [loaded[(d, "reduced")][1] for d in dims], seed=config["seed"],
                                            statistic=stats)
            ode_steps = ode[f"steps_{name}"].astype(float)
            fits.append({
                "case": case, "level": name, "target": problem.target, "student": problem.student, "L": problem.L,
                "sie": k, "schedule": describe_schedule(spec["schedule"]), "dims": dims,
                "exponent_sgd": slope, "exponent_sgd_low": low, "exponent_sgd_high": high,
                "exponent_ode_same_range": loglog_slope(ode_dims, ode_steps, min(dims), max(dims)),
                "exponent_ode_all": loglog_slope(ode_dims, ode_steps),
                "exponent_predicted_same_range": loglog_slope(dims, predicted_steps(k, name, spec["schedule"], dims)),
                "exponent_predicted_ode_range": loglog_slope(ode_dims, predicted_steps(k, name, spec["schedule"],
                                                                                        ode_dims)),
                "law_powers": list(law_powers(k, name)), "claimed_law": claimed_law(k),
                "exponent_claimed_same_range": loglog_slope(dims, claimed_steps(k, dims)),
                "ode_dims": ode_dims.astype(int).tolist(), "ode_steps": ode_steps.tolist(),
            })
        by_key = {(r["d"], r["engine"]): r for r in rows if r["case"] == case}
        for d in spec.get("explicit_dims", []):
            if (d, "reduced") not in by_key:
                continue
            a, b = by_key[(d, "reduced")], by_key[(d, "explicit")]
            for name in LEVELS:
                se = math.hypot(a[f"{name}_se_log"], b[f"{name}_se_log"])
                diff = math.log(b[f"{name}_steps"]) - math.log(a[f"{name}_steps"])
                checks.append({"case": case, "d": d, "level": name, "reduced": a[f"{name}_steps"],
                               "explicit": b[f"{name}_steps"], "log_ratio": diff, "se_log_ratio": se,
                               "z": diff / se if se > 0 else math.nan})
    esc = escapes(section)
    return {"early_multiple": esc["early"].level, "macro_level": esc["macro"].level,
            "bootstrap": n_boot, "rows": rows, "fits": fits, "explicit": checks}


# --- figure -------------------------------------------------------------------------------------
def _fmt(x):
    return "n/a" if x is None or not math.isfinite(x) else f"{x:.2f}"


#: the paper's law of claim C1 for SIE k, as mathtext
def claimed_law_tex(k: int) -> str:
    """The escape-time law the paper claims for SIE ``k``, in TeX (d, d log² d, d^(k−1))."""
    return {1: "$d$", 2: r"$d\,\log^{2} d$"}.get(k, f"$d^{{{k - 1}}}$")


def _verdict(fit, level) -> str:
    """One line: SIE k: measured d^slope [interval] · the theory's (early) or paper's (macro) law."""
    from ...plotting import law

    measured = law("d", fit["exponent_sgd"], fit["exponent_sgd_low"], fit["exponent_sgd_high"])
    if level == "macro":
        reference = f"paper {claimed_law_tex(fit['sie'])}"
        if fit["sie"] == 2:
            reference += f" (slope {fit['exponent_claimed_same_range']:.2f})"
    else:
        reference = f"theory {law('d', fit['exponent_predicted_same_range'])}"
    return f"SIE {fit['sie']}: measured {measured} · {reference}"


def plot(config, out_paths, numbers=None, load=load_result, verdicts: list[dict] | None = None) -> None:
    """Steps to the early and to the macroscopic level vs d, one panel each: SGD (bootstrap bars),
    explicit-engine checks, ODE lines and the law of the level as a guide under them; each
    panel states the measured exponents against the theory's (early) or the paper's (macro).

    Drawn from ``numbers`` (:func:`summarise`, computed when None) alone; ``load`` is not needed.
    ``verdicts``: the verdict file's rows of this result (C1, one per SIE), stated above the panels."""
    from fractions import Fraction

    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    from ... import plotting
    from ...plotting import (COLOURS, LAW_STYLE, MARKERS, ODE_STYLE, SGD_STYLE, WIDTH_DOUBLE, label, limits_to_data,
                            new_figure, panel_letters, place_legends, save_figure, schedule_tex, sie_colour)
    from ...plotting import finding_title
    import matplotlib.pyplot as plt

    section = config[EXPERIMENT]
    numbers = summarise(config) if numbers is None else numbers
    fig, axes = new_figure(ncols=2, nrows=1, width=WIDTH_DOUBLE, height=4.9, squeeze=False)
    finding_title(fig, verdicts)
    titles = {name: f"steps until the mean overlap reaches ${esc.level_tex()}$"
              for name, esc in escapes(section).items()}
    verdicts_of, case_handles = {}, []
    for col, name in enumerate(LEVELS):
        ax = axes[0, col]
        xs, ys, lines = [], [], []
        for case in section["cases"]:
            spec, problem = case_problem(config, case)
            fit = next(f for f in numbers["fits"] if f["case"] == case and f["level"] == name)
            colour = sie_colour(fit["sie"])
            for engine, style in (("reduced", dict(SGD_STYLE, marker=MARKERS["sgd"])), ("explicit", plotting.EXPLICIT_STYLE)):
                rows = [r for r in numbers["rows"] if r["case"] == case and r["engine"] == engine]
                if not rows:
                    continue
                d = np.array([r["d"] for r in rows], float)
                y = np.array([r[f"{name}_steps"] for r in rows])
                lo = np.array([r[f"{name}_low"] for r in rows])
                hi = np.array([r[f"{name}_high"] for r in rows])
                hi = np.where(np.isfinite(hi), hi, y)
                ax.errorbar(d, y, yerr=[np.maximum(y - lo, 0), np.maximum(hi - y, 0)], color=colour, **style, zorder=3,
                            label=f"SIE {fit['sie']}" if engine == "reduced" else "_explicit")
                xs.append(d)
                ys.append(y)
            od, os_ = np.array(fit["ode_dims"], float), np.array(fit["ode_steps"], float)
            ax.plot(od, os_, color=colour, **ODE_STYLE, zorder=2)
            reference = (claimed_steps(fit["sie"], od) if name == "macro"
                         else predicted_steps(fit["sie"], name, spec["schedule"], od))
            j = np.nonzero(np.isfinite(os_))[0]
            if j.size:                          # a third of the ODE at its smallest d: parallel, not on top
                guide_y = GUIDE_OFFSET * reference * os_[j[0]] / reference[j[0]]
                (g,) = ax.plot(od, guide_y, **LAW_STYLE, zorder=1)
                g.set_gid("guide")
            xs.append(od)
            ys.append(os_)
            if col == 0:
                case_handles.append(Patch(color=colour, label=f"SIE {fit['sie']}: {label(problem.target)}, "
                                                               f"{schedule_tex(spec['schedule'])}"))
            lines.append(_verdict(fit, name))
        verdicts_of[name] = "\n".join(lines)
        limits_to_data(ax, x=np.concatenate(xs), y=np.concatenate(ys))
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel(label("d"))
        ax.set_ylabel("SGD steps")
        ax.set_title(titles[name])
    offset = Fraction(GUIDE_OFFSET).limit_denominator(100)
    handles = case_handles + [
        Line2D([], [], color=COLOURS["sgd"], linestyle="none", marker=MARKERS["sgd"],
               markersize=SGD_STYLE["markersize"], label="SGD (reduced engine), 16–84 % bootstrap bars"),
        Line2D([], [], color=COLOURS["sgd"], linestyle="none", marker=plotting.EXPLICIT_STYLE["marker"], markerfacecolor="none",
               markersize=plotting.EXPLICIT_STYLE["markersize"], label=r"SGD, explicit $\mathbb{R}^{d}$ engine"),
        Line2D([], [], color=COLOURS["sgd"], **ODE_STYLE, label="ODE"),
        Line2D([], [], **LAW_STYLE, label=f"law of the level at {offset} of the ODE: theory (a), paper (b)")]
    fig.legend(handles=handles, loc="outside lower center", ncol=2, frameon=False)
    place_legends([(axes[0, col], {"handles": [], "title": verdicts_of[name], "title_fontsize": 7.5,
                                   "alignment": "left"}) for col, name in enumerate(LEVELS)])
    panel_letters(axes[0])
    for path in out_paths:
        save_figure(fig, path)
    plt.close(fig)


C1_RULE = ("the SGD exponent of d against the claimed law's local slope over the SGD range, by the decisiveness rule of ssi.verdicts; "
           "reproduced asymptotically when the ODE (same d) agrees with the SGD and the ODE's local slope tends to the "
           "claimed law's")


def c1_verdict(fit: dict) -> Verdict:
    """Verdict of C1 for one case from its macroscopic-level fit (rule :data:`C1_RULE`)."""
    claimed = fit["exponent_claimed_same_range"]
    dims, steps = fit.get("ode_dims") or [], fit.get("ode_steps") or []
    approach = None
    if len(dims) >= 3 and all(finite(s) and s > 0 for s in steps):
        approach = Approach.from_curve(dims, steps, list(claimed_steps(fit["sie"], dims)),
                                       fit["exponent_ode_same_range"])
    return exponent_verdict(fit["exponent_sgd"], fit["exponent_sgd_low"], fit["exponent_sgd_high"],
                            round(claimed, 6), name="exponent of d", approach=approach)



def validate(config) -> None:
    """Checks of the ``escape_vs_d`` section the schema cannot express; ValueError naming the key."""
    section = config["escape_vs_d"]
    levels = escape.named(section, "escape_vs_d")
    for case, spec in section["cases"].items():
        where = f"escape_vs_d.cases.{case}"
        problem = problem_from_spec(spec["problem"], f"{where}.problem")
        for key in ("dims", "explicit_dims", "ode_dims"):
            check_dimensions(problem, f"{where}.{key}", spec.get(key, []))
            for d in spec.get(key, []):
                if levels["early"].value(d) >= levels["macro"].value(d):
                    raise ValueError(f"config {where}.{key}: d={d} is too small; the early level "
                                     f"{levels['early'].level_text()} = {levels['early'].value(d):.3g} must lie "
                                     f"below the macro level {levels['macro'].value(d):g}")
        for d in spec.get("explicit_dims", []):
            if d not in spec["dims"]:
                raise ValueError(f"config {where}.explicit_dims: d={d} is not in {where}.dims; the explicit "
                                 f"engine checks the reduced one at the same points")
        for d in spec["dims"]:
            if d not in spec["ode_dims"]:
                raise ValueError(f"config {where}.ode_dims: d={d} of {where}.dims is missing; the ODE "
                                 f"prediction is reported at every SGD point")


def claim_rows(config, numbers) -> list[dict]:
    """Claims-table rows for C1: one per case (SIE), predicted vs fitted exponents at both levels."""
    out = []
    for case in config[EXPERIMENT]["cases"]:
        fits = {f["level"]: f for f in numbers["fits"] if f["case"] == case}
        f = fits["macro"]
        parts = []
        for name in LEVELS:
            e = fits[name]
            parts.append(f"{name} level: SGD d^{_fmt(e['exponent_sgd'])} [{_fmt(e['exponent_sgd_low'])}, "
                         f"{_fmt(e['exponent_sgd_high'])}], ODE d^{_fmt(e['exponent_ode_same_range'])}, "
                         f"predicted d^{_fmt(e['exponent_predicted_same_range'])}")
        checks = [c for c in numbers["explicit"] if c["case"] == case]
        check = ("; explicit vs reduced engine: " + ", ".join(
            f"d={c['d']} {c['level']} z={_fmt(c['z'])}" for c in checks)) if checks else ""
        out.append({
            "claim": f"C1 escape vs d, SIE {f['sie']}",
            "paper": f"weak recovery takes O({f['claimed_law']}) steps",
            "measured": (f"{f['target']}, {f['student']} student, L={f['L']}, SIE {f['sie']} (computed), "
                         f"{f['schedule']}, d = {f['dims'][0]}–{f['dims'][-1]} (SGD), "
                         f"{f['ode_dims'][0]}–{f['ode_dims'][-1]} (ODE): " + "; ".join(parts)
                         + f"; ODE over its whole range d^{_fmt(f['exponent_ode_all'])} (macro), claimed "
                         f"{f['claimed_law']} has local slope {_fmt(f['exponent_claimed_same_range'])} on the SGD range"
                         + check + "; see figures/escape_vs_d.png"),
            "headline": (f"escape ∝ d^{interval(f['exponent_sgd'], f['exponent_sgd_low'], f['exponent_sgd_high'])}"
                         f" over d = {span(f['dims'])}; the law {f['claimed_law']} has slope "
                         f"{_fmt(f['exponent_claimed_same_range'])} there (ODE {_fmt(f['exponent_ode_same_range'])})"),
            **c1_verdict(f).fields(),
            "figure": "figures/escape_vs_d.png",
            "command": "snakemake --cores all escape_vs_d_plot",
            "rule": f"escape = {escapes(config[EXPERIMENT])['macro'].words()}: {C1_RULE}",
        })
    return out
