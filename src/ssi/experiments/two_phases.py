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

from ..hermite import sie
from ..io import load_result, save_result
from ..ode import integrate_ode
from ..sgd import simulate
from .claim_text import HEADLINE_MAX, finite, percent, power_of_ten, signed, signed_percent
from .. import escape
from ..escape import crossing_time
from .common import (ProgressLog, learning_rate, problem_from_spec,
                     seed_key)

EXPERIMENT = "two_phases"


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
    t_eval = np.unique(np.clip(np.concatenate([[0.0], np.logspace(math.log10(1.0 / d), math.log10(t_max), 400)]),
                               0.0, t_max))
    progress = ProgressLog(log, f"{EXPERIMENT} ODE {case} d={d}")
    sol = integrate_ode(problem, lr, d ** -0.5, 0.0, t_max, t_eval=t_eval)
    progress.note(f"solve_ivp status {sol.status}: {sol.message}")
    save_result(out_stem, {"t": sol.t, "m": sol.m},
                {"experiment": EXPERIMENT, "case": case, "d": d, "lr": lr, "t_max": t_max,
                 "status": int(sol.status), "config": spec})


def summarise(config) -> dict:
    """Escape times of SGD and ODE per case and d: the ``curve`` escape of the config (crossing of
    the replicate-mean curve; the ODE's crossing of the same level) and the replicates' own
    crossings (their ``replicates`` statistic, with their median, standard error and spread)."""
    escapes = escape.named(config[EXPERIMENT], EXPERIMENT)
    level = escapes["curve"].value()
    if escapes["replicates"].value() != level:
        raise ValueError(f"config {EXPERIMENT}.escape: curve and replicates must share one level")
    sgd_files, ode_files = stems(config, "sgd"), stems(config, "ode")
    rows = []
    for (case, d), stem in sorted(sgd_files.items()):
        sgd, meta = load_result(stem)
        ode, _ = load_result(ode_files[(case, d)])
        t_sgd = sgd["steps"] / d
        overlap = np.abs(sgd["m"])
        mean = overlap.mean(axis=0)
        # replicate spread of the escape time: each replicate's own crossing
        each = np.array([crossing_time(t_sgd, m, level) for m in overlap])
        complete = bool(np.isfinite(each).all()) and len(each) >= 2
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
        })
    return {"escape_level": level, "rows": rows}


def plot(config, out_paths, numbers=None, load=load_result) -> None:
    """The two-phases figure: m(t) (log t) and 1 − m (log) per case; SGD replicates thin, their
    mean solid, ODE dashed; each top panel states the SGD and ODE escape times.

    ``load(stem)`` reads a result (ssi.experiments.figure_data: results/ or the figure data);
    ``numbers`` is not needed here."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    from ..plotting import (BLACK, SKY, WIDTH_DOUBLE, label, new_figure, number, place_legend,
                            plain_log_ticks, save_figure, schedule_tex, sie_text, student_text)
    import matplotlib.pyplot as plt

    sgd_files, ode_files = stems(config, "sgd"), stems(config, "ode")
    cases = list(config[EXPERIMENT]["cases"])
    fig, axes = new_figure(ncols=len(cases), nrows=2, width=WIDTH_DOUBLE, height=4.2, squeeze=False)
    level = escape.of(config[EXPERIMENT], EXPERIMENT, "curve").value()
    dim_colours = (BLACK, SKY)
    all_dims = sorted({d for (_, d) in sgd_files})
    notes = []
    for col, case in enumerate(cases):
        spec, problem = _case(config, case)
        k = sie(problem)
        dims = sorted(d for (c, d) in sgd_files if c == case)
        top, bottom = axes[0, col], axes[1, col]
        escapes = []
        for d in dims:
            colour = dim_colours[all_dims.index(d) % len(dim_colours)]
            sgd, meta = load(sgd_files[(case, d)])
            ode, _ = load(ode_files[(case, d)])
            t = sgd["steps"] / d
            keep = t > 0
            overlap = np.abs(sgd["m"])
            for m in overlap:
                top.plot(t[keep], m[keep], color=colour, lw=0.3, alpha=0.3)
            mean = overlap.mean(axis=0)
            top.plot(t[keep], mean[keep], color=colour, lw=1.0, label=f"d {d}")
            bottom.plot(t, np.clip(1 - mean, 1e-6, None), color=colour, lw=1.0, label=f"d {d}")
            keep_ode = ode["t"] > 0
            ode_overlap = np.abs(ode["m"])
            top.plot(ode["t"][keep_ode], ode_overlap[keep_ode], color=colour, lw=1.8, alpha=0.6, ls="--")
            bottom.plot(ode["t"], np.clip(1 - ode_overlap, 1e-6, None), color=colour, lw=1.8, alpha=0.6, ls="--")
            t_sgd = crossing_time(t[keep], mean[keep], level)
            t_ode = crossing_time(ode["t"], ode_overlap, level)
            escapes.append(f"$d$ = {number(d)}: SGD {number(t_sgd, 3)}, ODE {number(t_ode, 3)}")
        bottom.set_yscale("log")
        top.set_xscale("log")
        top.set_ylim(-0.03, 1.03)
        top.set_title(f"{sie_text(k)}: {label(spec['problem']['target'])}, "
                      f"{student_text(spec['problem']['student'], spec['problem'].get('activation'))}", fontsize=7)
        top.set_xlabel(label("t"))
        bottom.set_xlabel(label("t"))
        top.set_ylabel(r"overlap $|m|$")
        bottom.set_ylabel(r"$1 - \overline{|m|}$ (log)")
        plain_log_ticks(bottom)
        notes.append((top, f"{schedule_tex(spec['schedule'])}; the mean reaches {level:g} at $t$ =\n"
                           + "\n".join(escapes)))
    handles = [Patch(color=dim_colours[i % len(dim_colours)], label=f"$d$ = {number(d)}") for i, d in enumerate(all_dims)]
    handles += [Line2D([], [], color="k", lw=0.3, label="SGD replicates"),
                Line2D([], [], color="k", lw=1.0, label="SGD, mean of replicates"),
                Line2D([], [], color="k", lw=1.8, alpha=0.6, ls="--", label="ODE")]
    fig.legend(handles=handles, loc="outside lower center", ncol=5, frameon=False)
    for ax, text in notes:
        place_legend(ax, handles=[], title=text, title_fontsize=6, alignment="left")
    for path in out_paths:
        save_figure(fig, path)
    plt.close(fig)


#: C2: a case whose replicates all escaped "reaches the second phase" when its mean final |m| is
#: within this of the ODE's
C2_FINAL_TOL = 0.05
C2_RULE = ("reproduced when in every case the replicate mean of |m| reaches the escape level before t_max and every "
           f"case whose replicates all escaped ends within {C2_FINAL_TOL:g} of the ODE's final |m|; partly when some "
           "case's mean never escapes or a fully escaped case ends away from the ODE; differs when no case escapes")
#: C6: SGD's mean escape time may differ from the ODE's by this fraction of the ODE's ...
C6_TOLERANCE = 0.05
#: ... plus this many standard errors of the mean before the point counts against the ODE
C6_SE = 3.0
C6_RULE = ("per case and d whose replicates all escaped: the gap between the mean of the replicates' own escape "
           f"times and the ODE's escape time; a point is off when the gap exceeds {100 * C6_TOLERANCE:g} % of the "
           f"ODE's time by more than {C6_SE:g} standard errors of the mean; reproduced when no point is off; "
           "partly when points are off only below the largest d of their case; differs when a point is off at the "
           "largest d of a case; undecided when no case has all its replicates escaped")


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


def excess_in_se(row):
    """How far |t̄_SGD − t_ODE| exceeds ``C6_TOLERANCE``·t_ODE, in standard errors of the mean (negative:
    within the tolerance); None as for :func:`gap_in_se`."""
    stats = _escape_stats(row)
    if stats is None:
        return None
    mean, se, ode = stats
    return (abs(mean - ode) - C6_TOLERANCE * ode) / se


def c2_verdict(rows) -> str:
    """Verdict of C2 from the rows of the numbers file (rule :data:`C2_RULE`)."""
    escaped = [finite(r["t_escape_sgd_mean_curve"]) for r in rows]
    if not any(escaped):
        return "differs"
    complete = [r for r in rows if r["escaped_replicates"] == r["replicates"]]
    aligned = all(abs(r["abs_m_final_sgd_mean"] - r["abs_m_final_ode"]) <= C2_FINAL_TOL for r in complete)
    return "reproduced" if all(escaped) and aligned else "partly"


def c6_verdict(rows) -> str:
    """Verdict of C6 from the rows of the numbers file (rule :data:`C6_RULE`)."""
    by_case = {}
    for r in rows:
        excess = excess_in_se(r)
        if excess is not None:
            by_case.setdefault(r["case"], []).append((r["d"], excess > C6_SE))
    if not by_case:
        return "undecided"
    trends = [sorted(v) for v in by_case.values()]
    if any(t[-1][1] for t in trends):
        return "differs"
    return "partly" if any(off for t in trends for _, off in t) else "reproduced"


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


def _c6_headline(rows) -> str:
    by_case = {}
    for r in rows:
        z = gap_in_se(r)
        if z is not None:
            by_case.setdefault(r["case"], []).append((r["d"], relative_gap(r), z))
    if not by_case:
        return "no case with every replicate escaped: SGD and ODE escape times not compared"

    def text(with_se):
        parts = [f"{c.replace('sie', 'SIE ')} " + ", ".join(
                     signed_percent(g) + (f" ({signed(z)} SE)" if with_se else "") + f" at {power_of_ten(d)}"
                     for d, g, z in sorted(v)) for c, v in by_case.items()]
        return "SGD − ODE mean escape time: " + "; ".join(parts)

    full = text(True)
    return full if len(full) <= HEADLINE_MAX else text(False)


def _c6_measured(rows) -> str:
    parts = []
    for r in rows:
        z = gap_in_se(r)
        where = f"{r['case']} d={r['d']:.0e}"
        if z is None:
            parts.append(f"{where}: {r['escaped_replicates']}/{r['replicates']} replicates escaped, not compared")
            continue
        mean, se, sd = r["t_escape_sgd_replicate_mean"], r["t_escape_sgd_replicate_se"], r["t_escape_sgd_replicate_sd"]
        parts.append(f"{where}: t̄_SGD = {mean:.3g} ± {se:.2g} ({r['replicates']} replicates, run-to-run sd {sd:.2g} "
                     f"= {percent(sd / mean, '.0f')} of t), t_ODE = {r['t_escape_ode']:.3g}, gap "
                     f"{signed_percent(relative_gap(r))} = {signed(z)} SE")
    return "escape time (|m| reaches the level) of each replicate: " + "; ".join(parts)


def escape_table(numbers) -> str:
    """Markdown table of the escape times in the numbers file: per case and d, the replicates that
    escaped, their mean escape time ± SE and run-to-run spread, the ODE's, and the gap in SE."""
    lines = ["| target | d | escaped | SGD: mean ± SE | run-to-run sd | ODE | gap |",
             "|---|---|---|---|---|---|---|"]
    for r in numbers["rows"]:
        z = gap_in_se(r)
        if z is None:
            censored = r["escaped_replicates"] < r["replicates"]
            sgd, sd, gap = "n/a (not every replicate escaped)" if censored else "n/a", "n/a", "n/a"
        else:
            mean, se, spread = (r["t_escape_sgd_replicate_mean"], r["t_escape_sgd_replicate_se"],
                                r["t_escape_sgd_replicate_sd"])
            sgd, sd = f"{mean:.3g} ± {se:.2g}", f"{spread:.2g} ({percent(spread / mean, '.0f')})"
            gap = f"{signed_percent(relative_gap(r))} ({signed(z)} SE)"
        ode = f"{r['t_escape_ode']:.3g}" if finite(r["t_escape_ode"]) else "not reached"
        lines.append(f"| {r['case'].replace('sie', 'SIE ')} | {power_of_ten(r['d'])} | "
                     f"{r['escaped_replicates']}/{r['replicates']} | {sgd} | {sd} | {ode} | {gap} |")
    return "\n".join(lines)


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
        "verdict": c2_verdict(numbers["rows"]),
        "figure": "figures/two_phases.png",
        "command": command,
        "rule": C2_RULE,
    }]
    if numbers["rows"]:
        rows.append({
            "claim": "C6 ODE describes SGD",
            "paper": "(m, e) follow a deterministic ODE as d → ∞",
            "measured": _c6_measured(numbers["rows"]),
            "headline": _c6_headline(numbers["rows"]),
            "verdict": c6_verdict(numbers["rows"]),
            "figure": "figures/two_phases.png",
            "command": command,
            "rule": C6_RULE,
        })
    return rows
