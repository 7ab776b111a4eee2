"""Claims C2 and C6: the escape from the saddle, then fast alignment; SGD against the ODE.

For tied students on targets of SIE 1, 2 and 3, one-pass SGD starts at
m₀ = d^(−1/2) (the authors' positive sign) and runs to ``t_max``; the ODE of
docs/theory.md, "The ODE", is integrated from the same point. The figure shows m(t) on a log
time axis (the plateau) and 1 − m on a log scale (the exponential tail).

The overlap is shown and timed as |m|: for targets even under z* → −z* (He₂ sums) the
loss is symmetric under w → −w, and a replicate that the noise sends to the negative
side converges to −m*; its signed value
would drag the replicate mean away from both fixed points.
"""
from __future__ import annotations

import math

import numpy as np

from ...hermite import sie
from ...io import load_result, save_result
from ...ode import integrate_ode
from ...sgd import simulate
from ...sgd.common import record_schedule
from ...verdicts import DIFFERS, REPRODUCED, Verdict, check, combine, escaped_share, rate_verdict
from ..claim_text import HEADLINE_MAX, finite, power_of_ten
from ... import escape
from ...escape import crossing_time
from ..common import (ProgressLog, check_dimensions, learning_rate, problem_from_spec,
                     seed_key)

EXPERIMENT = "two_phases"

#: the figures, in the figures folder without suffix (ssi.experiments.registry)
FIGURES = ("two_phases",)


def points(config):
    """(case, d) pairs of the configured runs."""
    return [(case, d) for case, spec in config[EXPERIMENT]["cases"].items() for d in spec["dims"]]


def stems(config, kind):
    """Result stems (path without suffix) of every point: kind is "sgd" or "ode"."""
    root = config["results_dir"]
    return {(c, d): f"{root}/{EXPERIMENT}/{kind}_{c}_d{d}" for c, d in points(config)}


def _case(config, case):
    spec = config[EXPERIMENT]["cases"][case]
    problem = problem_from_spec(spec["problem"], f"{EXPERIMENT}.cases.{case}.problem")
    return spec, problem


def sgd_point(config, case: str, d: int, out_stem, log=None) -> None:
    """Run the SGD replicates of one (case, d) and save steps, m (R, K)."""
    spec, problem = _case(config, case)
    lr = learning_rate(spec["schedule"], d)
    steps = int(round(spec["t_max"] * d))
    key = seed_key(config["seed"], EXPERIMENT, case, d)
    replicates = spec.get("replicates", config[EXPERIMENT]["replicates"])
    progress = ProgressLog(log, f"{EXPERIMENT} {case} d={d} ({replicates} replicates, steps per replicate)")
    run = simulate(problem, d, lr, steps, replicates, seed=key, engine=config["engine"], m0=d ** -0.5,
                   points_per_decade=config[EXPERIMENT]["points_per_decade"], progress=progress)
    save_result(out_stem, {"steps": run.steps, "m": run.m},
                {"experiment": EXPERIMENT, "case": case, "d": d, "lr": lr, "steps": steps,
                 "replicates": replicates, "engine": config["engine"], "seed_key": list(key),
                 "m0": d ** -0.5, "config": spec})


def ode_point(config, case: str, d: int, out_stem, log=None) -> None:
    """Integrate the ODE for one (case, d) (same η(d) and m₀ = d^(−1/2) as SGD) and save t, m."""
    spec, problem = _case(config, case)
    lr = learning_rate(spec["schedule"], d)
    t_max = float(spec["t_max"])
    # the SGD's own record times are among the output times: C6 compares the two there
    record = record_schedule(int(round(t_max * d)), None, config[EXPERIMENT]["points_per_decade"]) / d
    t_eval = np.unique(np.clip(np.concatenate([[0.0], np.logspace(math.log10(1.0 / d), math.log10(t_max), 400),
                                               record]), 0.0, t_max))
    progress = ProgressLog(log, f"{EXPERIMENT} ODE {case} d={d}")
    sol = integrate_ode(problem, lr, d ** -0.5, 0.0, t_max, t_eval=t_eval)
    progress.note(f"solve_ivp status {sol.status}: {sol.message}")
    save_result(out_stem, {"t": sol.t, "m": sol.m},
                {"experiment": EXPERIMENT, "case": case, "d": d, "lr": lr, "t_max": t_max,
                 "status": int(sol.status), "config": spec})


# --- C6: the SGD–ODE gap of the mean trajectory ------------------------------------------------------------
#: bootstrap draws (replicates resampled at every d) of the trajectory gap and of its rate
GAP_DRAWS = 1000
#: a case's gap is fitted against d when it has at least this many dimensions
GAP_MIN_DIMS = 3
#: the rate at which the gap is expected to fall: the mean of R replicates fluctuates about E|m| by
#: O((dR)^(−1/2)) (the increments of m over a unit of t have variance O(1/d)) while E|m| − m_ODE = O(1/d),
#: so sup_t |m̄ − m_ODE| ∝ d^(−1/2) at large d when the trajectory concentrates (SIE 1)
GAP_EXPECTED_RATE = 0.5


def trajectory_gap(t_sgd, overlap, t_ode, m_ode) -> tuple[float, float]:
    """sup over recorded t > 0 of |mean over replicates of |m_SGD|(t) − |m_ODE|(t)|, and the t where it
    is reached. ``overlap``: (R, K) |m| of the replicates at ``t_sgd``; the ODE is read at ``t_sgd``
    (linear interpolation; the ODE jobs output at the SGD's record times, where it is exact)."""
    t_sgd, t_ode = np.asarray(t_sgd, dtype=float), np.asarray(t_ode, dtype=float)
    overlap = np.asarray(overlap, dtype=float)
    if overlap.ndim != 2 or overlap.shape[1] != t_sgd.size:
        raise ValueError(f"trajectory_gap: overlap must be (replicates, {t_sgd.size}), got {overlap.shape}")
    keep = t_sgd > 0
    gap = np.abs(overlap.mean(axis=0) - np.interp(t_sgd, t_ode, np.abs(m_ode)))[keep]
    i = int(np.argmax(gap))
    return float(gap[i]), float(t_sgd[keep][i])


def _gap_draws(t_sgd, overlap, t_ode, m_ode, rng) -> np.ndarray:
    """:data:`GAP_DRAWS` bootstrap values of the sup gap: the replicates resampled with replacement."""
    replicates = overlap.shape[0]
    counts = rng.multinomial(replicates, np.full(replicates, 1.0 / replicates), size=GAP_DRAWS)
    means = counts @ overlap / replicates
    ode = np.interp(t_sgd, t_ode, np.abs(m_ode))
    return np.abs(means - ode)[:, t_sgd > 0].max(axis=1)


def gap_rate(dims, gaps, draws=None) -> dict:
    """The gap's fall with d: ``gaps`` ∝ d^(−rate) by least squares in log–log; with ``draws``
    (n_draws, len(dims)) bootstrap values of the gaps, the rate's 95 % interval is rate ± 1.96 sd of
    the draws' rates (a normal interval: the sup of a resampled mean is biased up, so the draws'
    percentiles need not hold the estimate)."""
    x, y = np.log(np.asarray(dims, dtype=float)), np.log(np.asarray(gaps, dtype=float))
    if x.size < 2 or not np.all(np.isfinite(y)):
        raise ValueError(f"gap_rate: need at least 2 positive gaps, got dims={list(dims)}, gaps={list(gaps)}")
    slope, log_prefactor = np.polyfit(x, y, 1)
    out = {"rate": float(-slope), "prefactor": float(math.exp(log_prefactor)), "rate_low": None, "rate_high": None,
           "rate_se": None}
    if draws is not None:
        rates = -np.polyfit(x, np.log(np.asarray(draws, dtype=float)).T, 1)[0]
        se = float(rates.std(ddof=1))
        out.update(rate_se=se, rate_low=float(-slope - 1.96 * se), rate_high=float(-slope + 1.96 * se))
    return out


def summarise(config, load=load_result) -> dict:
    """Escape times of SGD and ODE per case and d: the ``curve`` escape of the config (crossing of
    the replicate-mean curve; the ODE's crossing of the same level) and the replicates' own
    crossings (their ``replicates`` statistic, with their median, standard error and spread); the
    SGD–ODE gap of the mean trajectory (:func:`trajectory_gap`, 95 % bootstrap interval over
    replicates) per case and d, and its fall with d per case (:func:`gap_rate`; ``gap_fits``).
    ``load(stem)`` reads a result."""
    escapes = escape.named(config[EXPERIMENT], EXPERIMENT)
    level = escapes["curve"].value()
    if escapes["replicates"].value() != level:
        raise ValueError(f"config {EXPERIMENT}.escape: curve and replicates must share one level")
    sgd_files, ode_files = stems(config, "sgd"), stems(config, "ode")
    rows, draws = [], {}
    for (case, d), stem in sorted(sgd_files.items()):
        sgd, meta = load(stem)
        ode, _ = load(ode_files[(case, d)])
        t_sgd = sgd["steps"] / d
        overlap = np.abs(sgd["m"])
        mean = overlap.mean(axis=0)
        # replicate spread of the escape time: each replicate's own crossing
        each = np.array([crossing_time(t_sgd, m, level) for m in overlap])
        complete = bool(np.isfinite(each).all()) and len(each) >= 2
        gap, gap_t = trajectory_gap(t_sgd, overlap, ode["t"], ode["m"])
        rng = np.random.default_rng(np.random.SeedSequence(seed_key(config["seed"], EXPERIMENT, "gap", case, d)))
        draws[(case, d)] = _gap_draws(t_sgd, overlap, ode["t"], ode["m"], rng)
        rows.append({
            "case": case, "d": d, "lr": meta["lr"], "replicates": int(sgd["m"].shape[0]),
            "t_escape_sgd_mean_curve": crossing_time(t_sgd, mean, level),
            "t_escape_sgd_replicate_median": float(np.nanmedian(each)) if np.isfinite(each).any() else math.nan,
            "escaped_replicates": int(np.isfinite(each).sum()),
            # mean, standard error and spread of the replicates' own escape times (every replicate escaped)
            "t_escape_sgd_replicate_mean": escapes["replicates"].steps(t_sgd, overlap) if complete else math.nan,
            "t_escape_sgd_replicate_se": float(each.std(ddof=1) / math.sqrt(len(each))) if complete else math.nan,
            "t_escape_sgd_replicate_sd": float(each.std(ddof=1)) if complete else math.nan,
            "t_escape_ode": crossing_time(ode["t"], np.abs(ode["m"]), level),
            "abs_m_final_sgd_mean": float(mean[-1]),
            "abs_m_final_ode": float(abs(ode["m"][-1])),
            # sup over t of |mean |m_SGD| − |m_ODE||, where it is reached, and the bootstrap's sd of it
            "gap_sup": gap, "gap_sup_t": gap_t, "gap_sup_se": float(draws[(case, d)].std(ddof=1)),
        })
    fits = []
    for case in config[EXPERIMENT]["cases"]:
        dims = sorted(r["d"] for r in rows if r["case"] == case)
        fit = {"case": case, "dims": dims, "expected_rate": GAP_EXPECTED_RATE, "excluded": None}
        if len(dims) < GAP_MIN_DIMS:
            fit["excluded"] = f"{len(dims)} d only (at least {GAP_MIN_DIMS} fit a rate)"
        else:
            gaps = [next(r["gap_sup"] for r in rows if r["case"] == case and r["d"] == d) for d in dims]
            fit.update(gap_rate(dims, gaps, np.column_stack([draws[(case, d)] for d in dims])))
        fits.append(fit)
    return {"escape_level": level, "rows": rows, "gap_fits": fits}


#: markers of the exponential tail (linear time axis) per trajectory
TAIL_MARKERS = 10


def plot(config, out_paths, numbers=None, load=load_result, verdicts: list[dict] | None = None) -> None:
    """The two-phases figure: per case, the replicate mean of |m| against log t (the plateau and the
    escape) and 1 − that mean on a log scale against t (the exponential tail), SGD markers with 95 %
    bars against the ODE's line, one colour per d; the escape level dotted; a note gives the times at
    which the mean and the ODE reach it (from ``numbers``). The last column: the SGD–ODE gap of the
    mean trajectory against d (C6) with its 95 % bootstrap bars and fitted rate.

    ``load(stem)`` reads a result (ssi.experiments.figure_data: results/ or the figure data);
    ``numbers``: the numbers file's content (computed by :func:`summarise` when not given);
    ``verdicts``: the verdict file's rows of this result (C2, C6), stated above the panels."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    from ... import plotting
    from ...plotting import (COLOURS, MARKERS, ODE_STYLE, SGD_STYLE, THRESHOLD_STYLE, WIDTH_DOUBLE, finding_title,
                            label, limits_to_data, new_figure, number, panel_letters, place_legend,
                            plain_log_ticks, save_figure, schedule_tex, sie_text, student_text, thin_records)
    import matplotlib.pyplot as plt

    sgd_files, ode_files = stems(config, "sgd"), stems(config, "ode")
    cases = list(config[EXPERIMENT]["cases"])
    numbers = numbers if numbers is not None else summarise(config, load)
    by_point = {(r["case"], r["d"]): r for r in numbers["rows"]}
    fig, axes = new_figure(ncols=len(cases) + 1, nrows=2, width=WIDTH_DOUBLE, height=5.6, squeeze=False)
    finding_title(fig, verdicts)
    level = escape.of(config[EXPERIMENT], EXPERIMENT, "curve").value()
    all_dims = sorted({d for (_, d) in sgd_files})
    colour_of = dict(zip(all_dims, plotting.shades(COLOURS["sgd"], len(all_dims))))
    sgd_style = dict(SGD_STYLE, markersize=2.5)
    notes, leaves = [], False
    for col, case in enumerate(cases):
        spec, problem = _case(config, case)
        k = sie(problem)
        marker = MARKERS.get(spec["problem"]["student"], MARKERS["sgd"])
        dims = sorted(d for (c, d) in sgd_files if c == case)
        top, bottom = axes[0, col], axes[1, col]
        escapes, tail_sgd, tail_ode = [], [], []
        for d in dims:
            colour = colour_of[d]
            sgd, _ = load(sgd_files[(case, d)])
            ode, _ = load(ode_files[(case, d)])
            t = sgd["steps"] / d
            overlap = np.abs(sgd["m"])
            mean = overlap.mean(axis=0)
            half = 1.96 * overlap.std(axis=0, ddof=1) / math.sqrt(overlap.shape[0])
            i = thin_records(t, per_decade=plotting.TRAJECTORY_MARKERS_PER_DECADE)
            top.errorbar(t[i], mean[i], yerr=half[i], color=colour, **dict(sgd_style, marker=marker), zorder=3)
            keep_ode = ode["t"] > 0
            ode_overlap = np.abs(ode["m"])
            top.plot(ode["t"][keep_ode], ode_overlap[keep_ode], color=colour, **ODE_STYLE, zorder=2)
            # the tail: 1 − mean |m|; its 95 % bar is cut where it would reach 0 (a log axis)
            i = thin_records(t, n=TAIL_MARKERS)
            tail = 1 - mean[i]
            bottom.errorbar(t[i], tail, yerr=[np.minimum(half[i], (1 - 1e-9) * tail), half[i]], color=colour,
                            **dict(sgd_style, marker=marker), zorder=3)
            ode_tail = 1 - ode_overlap
            bottom.plot(ode["t"], np.where(ode_tail > 0, ode_tail, np.nan), color=colour, **ODE_STYLE, zorder=2)
            tail_sgd.append(tail[tail > 0])
            tail_ode.append((ode["t"], ode_tail, colour))
            row = by_point.get((case, d), {})
            escapes.append(f"$d$ = {number(d)}: {number(row.get('t_escape_sgd_mean_curve'), 3)}, "
                           f"{number(row.get('t_escape_ode'), 3)}")
        top.axhline(level, **THRESHOLD_STYLE, zorder=1)
        top.set_xscale("log")
        top.set_ylim(-0.03, 1.03)
        bottom.set_yscale("log")
        # the axis spans the SGD's tail and at most a decade below it: an ODE reaching |m| = 1 leaves it
        sgd_low = np.concatenate(tail_sgd)
        lowest = sgd_low.min() / 10 if sgd_low.size else 0.0
        limits_to_data(bottom, y=np.concatenate([sgd_low] + [v[v >= lowest] for _, v, _ in tail_ode]))
        floor = bottom.get_ylim()[0]
        for t_ode, v, colour in tail_ode:        # where the ODE leaves the axis: a mark on its lower edge
            below = np.nonzero(v < floor)[0]
            if below.size:
                bottom.plot(t_ode[below[0]], floor, color=colour, **plotting.ODE_EXIT_STYLE, clip_on=False, zorder=4)
                leaves = True
        top.set_title(f"{sie_text(k)}: {label(spec['problem']['target'])}")
        top.set_xlabel(label("t"))
        bottom.set_xlabel(label("t"))
        top.set_ylabel(r"overlap $\overline{|m|}$")
        bottom.set_ylabel(r"$1{-}\overline{|m|}$")      # no spaces: a rotated "1" alone measures as small type
        plain_log_ticks(bottom)
        notes.append((top, f"{student_text(spec['problem']['student'], spec['problem'].get('activation'))},\n"
                           f"{schedule_tex(spec['schedule'])}\nescape $t$ (SGD, ODE):\n" + "\n".join(escapes)))
    _gap_panel(axes[0, -1], axes[1, -1], config, numbers)
    axes[0, -1].set_title(r"gap of $\overline{|m|}$ over $t$")
    handles = [Patch(color=colour_of[d], label=f"$d$ = {number(d)}") for d in all_dims]
    handles += [Line2D([], [], color=COLOURS["sgd"], linestyle="none", marker=MARKERS["sgd"],
                       markersize=sgd_style["markersize"], label="SGD, mean of the replicates, 95 % bars"),
                Line2D([], [], color=COLOURS["sgd"], **ODE_STYLE, label="ODE"),
                Line2D([], [], **THRESHOLD_STYLE, label=f"escape level {number(level)}")]
    if leaves:
        handles.append(Line2D([], [], color=COLOURS["sgd"], **plotting.ODE_EXIT_STYLE, label="the ODE leaves the axis here"))
    fig.legend(handles=handles, loc="outside lower center", ncol=4, frameon=False)
    for ax, text in notes:
        place_legend(ax, handles=[], title=text, title_fontsize=7.5, alignment="left")
    panel_letters(list(axes[0]) + list(axes[1, :-1]))
    for path in out_paths:
        save_figure(fig, path)
    plt.close(fig)


def _gap_panel(ax, below, config, numbers) -> None:
    """C6: sup_t |mean |m_SGD| − |m_ODE|| against d per case (95 % bootstrap bars), its fitted rate and
    the d^(−1/2) the fluctuations of the mean give, on ``ax``; its legend, with the cases not
    compared and why, on ``below`` (an axis left blank)."""
    from matplotlib.lines import Line2D

    from ...plotting import COLOURS, FIT_STYLE, LAW_STYLE, SGD_STYLE, label, limits_to_data, number, sie_colour

    fits = {f["case"]: f for f in numbers.get("gap_fits", [])}
    anchor, shown = None, []
    for case in config[EXPERIMENT]["cases"]:
        fit = fits.get(case)
        if fit is None or _excluded(fit) is not None:
            continue
        k = sie(_case(config, case)[1])
        rows = sorted((r for r in numbers["rows"] if r["case"] == case), key=lambda r: r["d"])
        d = np.array([r["d"] for r in rows], dtype=float)
        gap = np.array([r["gap_sup"] for r in rows])
        bar = 1.96 * np.array([r["gap_sup_se"] for r in rows])
        colour = sie_colour(k)
        shown.append((d, np.concatenate([gap + bar, np.maximum(gap - bar, gap / 10)])))  # a bar to 0 leaves the axis
        ax.errorbar(d, gap, yerr=[np.minimum(bar, (1 - 1e-9) * gap), bar], color=colour, **SGD_STYLE, zorder=3,
                    label=f"{_case_label(case)}: $r$ = {fit['rate']:.2f}\n[{fit['rate_low']:.2f}, {fit['rate_high']:.2f}]")
        ax.plot(d, fit["prefactor"] * d ** -fit["rate"], color=colour, **FIT_STYLE, zorder=2)
        anchor = anchor or (d, gap[0] * (d / d[0]) ** -GAP_EXPECTED_RATE)
    handles, labels = ax.get_legend_handles_labels()
    if handles:
        handles.append(Line2D([], [], color=COLOURS["sgd"], **FIT_STYLE))
        labels.append("fitted $d^{-r}$")
    if anchor is not None:
        (line,) = ax.plot(*anchor, **LAW_STYLE, zorder=1)
        line.set_gid("guide")
        handles.append(line)
        labels.append(f"$r$ = {number(GAP_EXPECTED_RATE)}: noise\nof the mean")
    for f in numbers.get("gap_fits", []):
        if _excluded(f) is None:
            continue
        rows = [r for r in numbers["rows"] if r["case"] == f["case"]]
        handles.append(Line2D([], [], ls="none"))
        labels.append(f"{_case_label(f['case'])} left out:\n{len(f['dims'])} $d$, no rate\n("
                      + ",\n".join(f"{r['escaped_replicates']}/{r['replicates']} escaped" for r in rows) + ")")
    if handles:
        below.legend(handles, labels, loc="upper left", frameon=False,
                     title="fit ∝ $d^{-r}$, 95 % bars",
                     title_fontsize=7.5, handlelength=1.8, alignment="left")
    ax.set_xscale("log")
    ax.set_yscale("log")
    if shown:
        limits_to_data(ax, x=np.concatenate([x for x, _ in shown]), y=np.concatenate([y for _, y in shown]))
    ax.set_xlabel(label("d"))
    ax.set_ylabel("largest gap")
    below.set_axis_off()


#: C2: a case whose replicates all escaped "reaches the second phase" when its mean final |m| is
#: within this of the ODE's
C2_FINAL_TOL = 0.05
C2_RULE = ("per case: undecided when fewer than half of its replicates escaped by t_max (the rule of ssi.verdicts); "
           "reproduced when the replicate mean of |m| reaches the escape level before t_max and, for a case whose "
           f"replicates all escaped, ends within {C2_FINAL_TOL:g} of the ODE's final |m|; differs otherwise; the row "
           "takes the first of differs, undecided, reproduced of its cases")
C6_RULE = ("per case with at least " + str(GAP_MIN_DIMS) + " dimensions: the SGD–ODE gap of the mean trajectory, "
           "sup over recorded t in (0, t_max] of |mean of the replicates' |m| − the ODE's |m||, fitted as ∝ d⁻ʳ "
           "(least squares in log–log; 95 % interval r ± 1.96 sd of " + str(GAP_DRAWS) + " bootstrap fits, the "
           "replicates resampled at every d); by the rule of ssi.verdicts (rate_verdict) against no fall (r = 0) and "
           f"the expected r = {GAP_EXPECTED_RATE:g}: decided when the interval is at most "
           f"{GAP_EXPECTED_RATE / 2:g} wide, reproduced when it lies above 0, differs when it holds 0; a case "
           "with fewer dimensions is not compared and the row says why; the row takes the first of differs, "
           "undecided, reproduced of its cases")


def _escape_stats(row):
    mean, se, ode = (row.get("t_escape_sgd_replicate_mean"), row.get("t_escape_sgd_replicate_se"),
                     row.get("t_escape_ode"))
    if not (finite(mean) and finite(se) and finite(ode)) or se <= 0 or ode <= 0:
        return None
    return mean, se, ode


def gap_in_se(row):
    """(t̄_SGD − t_ODE)/SE of one row of the numbers file: the replicates' mean escape time against the
    ODE's, in standard errors of that mean; None when some replicate did not escape (the mean of the
    escaped ones would be biased early) or the ODE did not escape."""
    stats = _escape_stats(row)
    return None if stats is None else (stats[0] - stats[2]) / stats[1]


def relative_gap(row):
    """(t̄_SGD − t_ODE)/t_ODE of one row of the numbers file; None as for :func:`gap_in_se`."""
    stats = _escape_stats(row)
    return None if stats is None else (stats[0] - stats[2]) / stats[2]


def c2_verdict(rows) -> Verdict:
    """Verdict of C2 from the rows of the numbers file (rule :data:`C2_RULE`)."""
    parts, labels = [], []
    for r in rows:
        labels.append(f"{r['case'].replace('sie', 'SIE ')}, d = {power_of_ten(r['d'])}")
        few = escaped_share(int(r["escaped_replicates"]), int(r["replicates"]), "replicates")
        if few:
            parts.append(few)
        elif not finite(r["t_escape_sgd_mean_curve"]):
            parts.append(Verdict(DIFFERS, "the replicate mean of |m| never reaches the level"))
        elif r["escaped_replicates"] == r["replicates"]:
            gap = abs(r["abs_m_final_sgd_mean"] - r["abs_m_final_ode"])
            parts.append(check(gap <= C2_FINAL_TOL, f"escapes, then |m| ends {gap:.3f} from the ODE's",
                               f"|m| ends {gap:.3f} from the ODE's (more than {C2_FINAL_TOL:g})"))
        else:
            parts.append(Verdict(REPRODUCED, f"the mean escapes ({r['escaped_replicates']}/{r['replicates']} "
                                             "replicates escaped)"))
    return combine(parts, label=labels)


def _case_label(case) -> str:
    return case.replace("sie", "SIE ")


def _excluded(fit):
    """Why a case is left out of C6 (a string), or None (JSON null reads back as nan in the figures)."""
    reason = fit.get("excluded")
    return reason if isinstance(reason, str) else None


def _not_compared(numbers) -> list[str]:
    """Why each case left out of C6 is left out (its dimensions and how many replicates escaped)."""
    out = []
    for fit in numbers.get("gap_fits", []):
        if _excluded(fit) is None:
            continue
        rows = [r for r in numbers["rows"] if r["case"] == fit["case"]]
        escaped = ", ".join(f"{r['escaped_replicates']}/{r['replicates']} replicates escaped at d = "
                            f"{power_of_ten(r['d'])}" for r in rows)
        dims = ", ".join(power_of_ten(d) for d in fit["dims"])
        out.append(f"{_case_label(fit['case'])} not compared: d = {dims} only, no rate ({escaped})")
    return out


def c6_verdict(numbers) -> Verdict:
    """Verdict of C6 from the numbers file (rule :data:`C6_RULE`): one part per case with a fitted rate;
    the cases left out are named in the reason."""
    fits = [f for f in numbers.get("gap_fits", []) if _excluded(f) is None]
    parts = [rate_verdict(f["rate"], f["rate_low"], f["rate_high"], f["expected_rate"], "sup-gap") for f in fits]
    verdict = combine(parts, label=[_case_label(f["case"]) for f in fits])
    left_out = _not_compared(numbers)
    if not left_out:
        return verdict
    return Verdict(verdict.word, "; ".join([verdict.reason, *left_out]), verdict.interval)


def _c2_headline(rows, level) -> str:
    ends = [r for r in rows if r["escaped_replicates"] == r["replicates"] and finite(r["t_escape_sgd_mean_curve"])]
    slow = [r for r in rows if r["escaped_replicates"] < r["replicates"]]
    text = ""
    if ends:
        r = max(ends, key=lambda r: r["t_escape_sgd_mean_curve"])
        text = (f"{r['case'].replace('sie', 'SIE ')}, d = {power_of_ten(r['d'])}: escape at t = "
                f"{r['t_escape_sgd_mean_curve']:.3g} (ODE {r['t_escape_ode']:.3g}), then |m| → "
                f"{r['abs_m_final_sgd_mean']:.2f} (ODE {r['abs_m_final_ode']:.2f})")
    for r in slow:
        text += (f"; {r['case'].replace('sie', 'SIE ')}, d = {power_of_ten(r['d'])}: "
                 f"{r['escaped_replicates']}/{r['replicates']} replicates escaped by t_max")
    return text


def _c6_headline(numbers) -> str:
    fits = [f for f in numbers.get("gap_fits", []) if _excluded(f) is None]
    if not fits:
        return "no case with enough dimensions: the SGD–ODE gap's fall with d not fitted"
    parts = []
    for f in fits:
        rows = sorted((r for r in numbers["rows"] if r["case"] == f["case"]), key=lambda r: r["d"])
        parts.append(f"{_case_label(f['case'])} r = {f['rate']:.2f} [{f['rate_low']:.2f}, {f['rate_high']:.2f}] "
                     f"({rows[0]['gap_sup']:.2g} at {power_of_ten(rows[0]['d'])} → {rows[-1]['gap_sup']:.2g} at "
                     f"{power_of_ten(rows[-1]['d'])})")
    text = "sup over t of the mean's SGD − ODE gap in |m|, ∝ d⁻ʳ: " + "; ".join(parts)
    return text if len(text) <= HEADLINE_MAX else "SGD − ODE sup gap of the mean ∝ d⁻ʳ: " + "; ".join(
        f"{_case_label(f['case'])} r = {f['rate']:.2f} [{f['rate_low']:.2f}, {f['rate_high']:.2f}]" for f in fits)


def _c6_measured(numbers) -> str:
    parts = []
    for f in numbers.get("gap_fits", []):
        if _excluded(f) is not None:
            continue
        rows = sorted((r for r in numbers["rows"] if r["case"] == f["case"]), key=lambda r: r["d"])
        points = ", ".join(f"{r['gap_sup']:.3g} ± {r['gap_sup_se']:.2g} (t = {r['gap_sup_t']:.3g}) at "
                           f"{power_of_ten(r['d'])}" for r in rows)
        parts.append(f"{_case_label(f['case'])} ({rows[0]['replicates']} replicates): {points}; fit ∝ d⁻ʳ, "
                     f"r = {f['rate']:.3f} [{f['rate_low']:.3f}, {f['rate_high']:.3f}] (expected {f['expected_rate']:g})")
    return ("sup over t of |mean |m_SGD| − |m_ODE|| ± bootstrap sd (where it is reached): "
            + "; ".join(parts + _not_compared(numbers)))


def validate(config) -> None:
    """Checks of the ``two_phases`` section the schema cannot express; ValueError naming the key."""
    for case, spec in config["two_phases"]["cases"].items():
        where = f"two_phases.cases.{case}"
        problem = problem_from_spec(spec["problem"], f"{where}.problem")
        check_dimensions(problem, f"{where}.dims", spec["dims"])
    escape.named(config["two_phases"], "two_phases")


def claim_rows(config, numbers) -> list[dict]:
    """Claims-table rows for C2 and C6."""
    level = numbers["escape_level"]
    parts = []
    for row in numbers["rows"]:
        sgd, ode = row["t_escape_sgd_mean_curve"], row["t_escape_ode"]
        median = row["t_escape_sgd_replicate_median"]
        escaped = f"{row['escaped_replicates']}/{row['replicates']} replicates escaped"
        if sgd is None or ode is None:
            parts.append(f"{row['case']} d={row['d']:.0e}: mean not escaped by t_max ({escaped})")
            continue
        median_text = "n/a" if median is None else f"{median:.3g}"
        parts.append(f"{row['case']} d={row['d']:.0e}: t_SGD={sgd:.3g} (median over escaped replicates {median_text}, "
                     f"{escaped}), t_ODE={ode:.3g}, final mean |m| {row['abs_m_final_sgd_mean']:.3f} "
                     f"(ODE {row['abs_m_final_ode']:.3f})")
    command = "snakemake --cores all two_phases_plot"
    rows = [{
        "claim": "C2 two phases",
        "paper": "long escape from m ≈ d^(-1/2), then fast (exponential) alignment",
        "measured": f"time t = steps/d for the replicate mean of \\|m\\| to reach {level}: " + "; ".join(parts),
        "headline": _c2_headline(numbers["rows"], level),
        **c2_verdict(numbers["rows"]).fields(),
        "figure": "figures/two_phases.png",
        "command": command,
        "rule": C2_RULE,
    }]
    if numbers["rows"]:
        rows.append({
            "claim": "C6 ODE describes SGD",
            "paper": "(m, e) follow a deterministic ODE as d → ∞",
            "measured": _c6_measured(numbers),
            "headline": _c6_headline(numbers),
            **c6_verdict(numbers).fields(),
            "figure": "figures/two_phases.png",
            "command": command,
            "rule": C6_RULE,
        })
    return rows
