"""Claim C3: positional encoding (PE) can strictly lower the SIE and shorten the escape.

Two parts, L = 2, attention student with the trace reduction, opposite PE (p₂ = −p₁):

* **Landscape.** The population loss R(e, m) on the disk e² + m² ≤ 1 for each configured
  target, without and with PE, with the Hessian of R at (0, 0) (central finite differences
  of :func:`ssi.population_loss`) and its eigen-directions. Without PE the student never
  sees e (no vector is added to the tokens), so R depends on m only: the disk is drawn with
  R(e, m) = R(0, m) (vertical stripes) and the Hessian has the eigenvalue 0 along e. The
  panel titles give the SIE computed by :func:`ssi.hermite.sie_report` under both of the
  package's definitions: "overlap" (lowest degree of a Taylor monomial of R that involves m,
  the default) and "joint" (any monomial, pure-e ones included).
* **Escape.** For the target ``he4_sum_plus_diff`` = −(h₄(z₁) + h₄(z₂)) + (z₁ − z₂)/√2, the
  attention student without PE sees only the even, token-symmetric He₄ part: SIE 4, with a
  descending −0.069 m⁴ term. With opposite PE the antisymmetric part enters through an m·e
  term (Taylor coefficient −0.354): SIE 2. One-pass SGD (reduced engine, ``replicates`` per
  d, m₀ = d^(−1/2), e₀ = 0, each replicate stopped at its crossing of the
  ``escape.replicates`` level, :mod:`ssi.escape`) and the ODE (:func:`ssi.escape_time`) give the escape time against d;
  ``summarise`` fits log-log exponents with bootstrap intervals over replicates.

The escape is timed as |m|: R is invariant under (m, e) → (−m, −e) with PE and under
m → −m without, so a replicate can escape to either sign.
"""
from __future__ import annotations

import math

import numpy as np

from ...hermite import sie_report
from ...io import load_result, save_result
from ...ode import escape_time, integrate_ode
from ...population import population_loss
from ...problems import Problem
from ...sgd import simulate
from ...verdicts import DIFFERS, EXPONENT_WIDTH, UNDECIDED, Verdict, check, width_check
from ..claim_text import interval
from ... import escape
from ...escape import crossing_time, recorded_crossings
from ..common import (ProgressLog, check_dimensions, describe_schedule, fit_exponent, learning_rate,
                     loglog_slope, problem_from_spec, seed_key, t_max)

EXPERIMENT = "positional"
#: PE settings of the landscape panels (columns)
LANDSCAPE_PE = ("none", "opposite")
#: |eigenvalue| below which the Hessian counts as flat in that direction (the central-difference
#: truncation error of a quartic term at the default step 1e-3 is ~1e-7)
FLAT = 1e-5

#: the figures, in the figures folder without suffix (ssi.experiments.registry)
FIGURES = ("positional_landscape", "positional_escape")


# --- points and result files ----------------------------------------------------------------
def points(config):
    """(case, d) pairs of the configured SGD runs."""
    return [(case, d) for case, spec in config[EXPERIMENT]["cases"].items() for d in spec["dims"]]


def stems(config, kind):
    """Result stems (path without suffix): kind "sgd" keyed by (case, d), "ode" by case,
    "landscape" by target."""
    root = f"{config['results_dir']}/{EXPERIMENT}"
    section = config[EXPERIMENT]
    if kind == "sgd":
        return {(c, d): f"{root}/sgd_{c}_d{d}" for c, d in points(config)}
    if kind == "ode":
        return {c: f"{root}/ode_{c}" for c in section["cases"]}
    if kind == "landscape":
        return {t: f"{root}/landscape_{t}" for t in section["landscape"]["targets"]}
    raise ValueError(f"kind={kind!r} is unknown; allowed: sgd, ode, landscape")


def landscape_problem(config, target: str, pe: str) -> Problem:
    """The landscape panel's problem: the configured base problem with ``target`` and ``pe``."""
    return section_problem(config[EXPERIMENT]["landscape"], target, pe)


def section_problem(section, target: str, pe: str) -> Problem:
    """:func:`landscape_problem` from the config section ``positional.landscape``."""
    base = dict(section["problem"], target=target, pe=pe)
    return problem_from_spec(base, f"{EXPERIMENT}.landscape (target {target}, pe {pe})")


def _case(config, case):
    spec = config[EXPERIMENT]["cases"][case]
    problem = problem_from_spec(spec["problem"], f"{EXPERIMENT}.cases.{case}.problem")
    return spec, problem


# --- landscape ----------------------------------------------------------------------------------
def hessian(problem, step: float, **kwargs) -> np.ndarray:
    """Hessian of R at (e, m) = (0, 0) in the coordinates (e, m), by central differences.

    Without PE R does not depend on e: the e row and column are 0.
    """
    h = float(step)
    H = np.zeros((2, 2))
    if problem.pe == "none":
        r0, rp, rm = population_loss(problem, m=np.array([0.0, h, -h]), **kwargs)
        H[1, 1] = (rp - 2 * r0 + rm) / h ** 2
        return H
    e = np.array([0.0, h, -h, 0.0, 0.0, h, h, -h, -h])
    m = np.array([0.0, 0.0, 0.0, h, -h, h, -h, h, -h])
    r = population_loss(problem, m=m, e=e, **kwargs)
    H[0, 0] = (r[1] - 2 * r[0] + r[2]) / h ** 2
    H[1, 1] = (r[3] - 2 * r[0] + r[4]) / h ** 2
    H[0, 1] = H[1, 0] = (r[5] - r[6] - r[7] + r[8]) / (4 * h ** 2)
    return H


def _sie_fields(report) -> dict:
    return {"sie_overlap": report.order, "sie_joint": report.joint_order,
            "descends": report.descends,
            "leading": {str(k): float(v) for k, v in report.leading.items()}, "reason": report.reason}


def landscape_point(config, target: str, out_stem, log=None) -> None:
    """R on the (e, m) grid, the Hessian at (0, 0) and the SIEs, without and with PE, for one target."""
    landscape_target(config[EXPERIMENT]["landscape"], target, out_stem, log)


def landscape_target(section, target: str, out_stem, log=None) -> None:
    """:func:`landscape_point` from the config section ``positional.landscape`` (what it reads)."""
    n = int(section["grid"])
    axis = np.linspace(-1.0, 1.0, n)
    E, M = np.meshgrid(axis, axis)                       # rows: m, columns: e
    inside = E ** 2 + M ** 2 <= 1.0 + 1e-12
    progress = ProgressLog(log, f"{EXPERIMENT} landscape {target} ({n}×{n} grid)")
    arrays, meta = {"axis": axis}, {"experiment": EXPERIMENT, "target": target, "config": section}
    quad = {"n_points": int(section["quadrature_points"])}
    for pe in LANDSCAPE_PE:
        problem = section_problem(section, target, pe)
        R = np.full(E.shape, np.nan)
        if pe == "none":                                 # R(e, m) = R(0, m): one profile
            profile = population_loss(problem, m=axis, **quad)
            R[inside] = np.broadcast_to(profile[:, None], E.shape)[inside]
        else:
            R[inside] = population_loss(problem, m=M[inside], e=E[inside], **quad)
        H = hessian(problem, section["hessian_step"])
        values, vectors = np.linalg.eigh(H)
        report = sie_report(problem)
        arrays[f"R_{pe}"] = R
        arrays[f"R0_{pe}"] = np.array(population_loss(problem, m=0.0))
        arrays[f"hessian_{pe}"] = H
        arrays[f"eigenvalues_{pe}"] = values
        arrays[f"eigenvectors_{pe}"] = vectors           # columns, in (e, m)
        meta[pe] = _sie_fields(report)
        progress.note(f"pe={pe}: SIE {report.order} (joint {report.joint_order}), Hessian {H.tolist()}")
    save_result(out_stem, arrays, meta)


# --- escape ---------------------------------------------------------------------------------------
def sgd_point(config, case: str, d: int, out_stem, log=None) -> None:
    """SGD replicates of one (case, d), each stopped at its ``replicates`` escape (:mod:`ssi.escape`);
    saves steps, m, e and each replicate's crossing step."""
    spec, problem = _case(config, case)
    section = config[EXPERIMENT]
    lr = learning_rate(spec["schedule"], d)
    steps = int(round(t_max(spec, d) * d))
    key = seed_key(config["seed"], EXPERIMENT, case, d)
    replicates = spec.get("replicates", section["replicates"])
    level = escape.of(section, EXPERIMENT, "replicates").value(d)
    progress = ProgressLog(log, f"{EXPERIMENT} {case} d={d} ({replicates} replicates, steps per replicate)")
    run = simulate(problem, d, lr, steps, replicates, seed=key, engine=config["engine"], m0=d ** -0.5,
                   e0=0.0, threshold=level, stop_at_threshold=True,
                   points_per_decade=section["points_per_decade"], progress=progress)
    save_result(out_stem, {"steps": run.steps, "m": run.m, "e": run.e, "crossing": run.crossing},
                {"experiment": EXPERIMENT, "case": case, "d": d, "lr": lr, "steps": steps,
                 "replicates": replicates, "engine": config["engine"], "seed_key": list(key),
                 "m0": d ** -0.5, "e0": 0.0, "escape_level": level, "config": spec})


def ode_point(config, case: str, out_stem, log=None) -> None:
    """ODE escape steps at every ``ode_dims`` of a case, and the trajectory at ``trajectory_d``."""
    spec, problem = _case(config, case)
    section = config[EXPERIMENT]
    esc = escape.of(section, EXPERIMENT, "replicates")
    progress = ProgressLog(log, f"{EXPERIMENT} ODE {case}")
    dims = np.array(spec["ode_dims"], dtype=int)
    steps = np.array([escape_time(problem, int(d), learning_rate(spec["schedule"], int(d)), esc,
                                  t_max=100 * t_max(spec, int(d))) for d in dims])
    progress.note(f"escape steps {dict(zip(dims.tolist(), steps.tolist()))}")
    d = int(section["trajectory_d"])
    horizon = t_max(spec, d)
    t_eval = np.unique(np.clip(np.concatenate([[0.0], np.logspace(math.log10(1.0 / d), math.log10(horizon), 400)]),
                               0.0, horizon))
    sol = integrate_ode(problem, learning_rate(spec["schedule"], d), d ** -0.5, 0.0, horizon, t_eval=t_eval)
    progress.note(f"trajectory d={d}: solve_ivp status {sol.status}: {sol.message}")
    save_result(out_stem, {"dims": dims, "escape_steps": steps, "t": sol.t, "m": sol.m, "e": sol.e},
                {"experiment": EXPERIMENT, "case": case, "trajectory_d": d, "escape_level": esc.level,
                 "lr_trajectory": learning_rate(spec["schedule"], d), "status": int(sol.status), "config": spec})


def summarise(config) -> dict:
    """Key numbers: ``rows`` (escape steps per (case, d): SGD replicates and ODE), ``fits`` (fitted
    exponents per case), ``landscape`` (SIEs and Hessian per panel)."""
    section = config[EXPERIMENT]
    escapes = escape.named(section, EXPERIMENT)
    level = escapes["replicates"].value()
    if escapes["curve"].value() != level:
        raise ValueError(f"config {EXPERIMENT}.escape: curve and replicates must share one level")
    sgd_files, ode_files = stems(config, "sgd"), stems(config, "ode")
    all_rows, fits = [], []
    for case, spec in section["cases"].items():
        _, problem = _case(config, case)
        ode, _ = load_result(ode_files[case])
        ode_dims, ode_steps = ode["dims"].astype(float), ode["escape_steps"].astype(float)
        rows, samples, dims = [], [], []
        for d in spec["dims"]:
            sgd, meta = load_result(sgd_files[(case, d)])
            each = recorded_crossings(sgd["crossing"])
            mean_curve = crossing_time(sgd["steps"].astype(float), np.abs(sgd["m"]).mean(axis=0), level)
            median = float(np.median(each))
            rows.append({"case": case, "d": d, "lr": meta["lr"], "replicates": int(each.size),
                         "escaped_replicates": int(np.isfinite(each).sum()),
                         "steps_median": median, "steps_q25": float(np.quantile(each, 0.25)),
                         "steps_q75": float(np.quantile(each, 0.75)),
                         "steps_mean_curve": mean_curve,
                         "steps_ode": float(np.interp(math.log(d), np.log(ode_dims), np.log(ode_steps),
                                                       left=np.nan, right=np.nan))})
            rows[-1]["steps_ode"] = float(math.exp(rows[-1]["steps_ode"])) if math.isfinite(rows[-1]["steps_ode"]) \
                else math.nan
            samples.append(each)
            dims.append(d)
        slope, low, high = fit_exponent(dims, samples, seed=config["seed"])
        all_rows += rows
        fits.append({
            "case": case, "target": problem.target, "pe": problem.pe,
            "schedule": describe_schedule(spec["schedule"]), "dims": dims,
            "exponent_sgd": slope, "exponent_sgd_low": low, "exponent_sgd_high": high,
            "exponent_ode_same_range": loglog_slope(ode_dims, ode_steps, min(dims), max(dims)),
            "exponent_ode_all": loglog_slope(ode_dims, ode_steps),
            "ode_dims": ode_dims.astype(int).tolist(), "ode_steps": ode_steps.tolist(),
        })
    landscape = []
    for target, stem in stems(config, "landscape").items():
        data, meta = load_result(stem)
        for pe in LANDSCAPE_PE:
            landscape.append({"target": target, "pe": pe, "sie_overlap": meta[pe]["sie_overlap"],
                              "sie_joint": meta[pe]["sie_joint"], "descends": meta[pe]["descends"],
                              "hessian": data[f"hessian_{pe}"].tolist(),
                              "eigenvalues": data[f"eigenvalues_{pe}"].tolist()})
    return {"escape_level": level, "rows": all_rows, "fits": fits, "landscape": landscape}


def rows_of(numbers, case) -> list[dict]:
    """The per-d rows of one case in a ``summarise`` record."""
    return [row for row in numbers["rows"] if row["case"] == case]


# --- figures ------------------------------------------------------------------------------------


def _sie_tex(meta_pe) -> str:
    k, j = meta_pe["sie_overlap"], meta_pe["sie_joint"]
    k = r"$\infty$" if k is None or (isinstance(k, float) and math.isinf(k)) else k
    j = r"$\infty$" if j is None or (isinstance(j, float) and math.isinf(j)) else j
    return f"SIE {k}" if k == j else f"SIE {k}; joint SIE {j}"


#: the words of a positional encoding in the column headers
LABEL_OF_PE = {"opposite": r"opposite ($p_2 = -p_1$)"}


def _encoding_text(pe) -> str:
    return "no positional encoding" if pe == "none" else f"{LABEL_OF_PE.get(pe, pe)} positional encoding"


def plot_landscape(config, out_paths, load=load_result, verdicts: list[dict] | None = None) -> None:
    """Columns: without PE, with opposite PE; rows: targets. R − R(0,0) on the disk, the Hessian's
    eigen-directions at (0, 0) (descending vermilion, ascending blue, flat black) with their
    eigenvalues; ``verdicts`` (the C3 row) above the panels."""
    from matplotlib.colors import TwoSlopeNorm
    from matplotlib.lines import Line2D

    from ... import plotting
    from ...plotting import BLACK, WIDTH_DOUBLE, apply_style, finding_title, label, number, panel_letters, save_figure
    import matplotlib.pyplot as plt

    files = stems(config, "landscape")
    targets = list(files)
    apply_style()
    fig = plt.figure(figsize=(WIDTH_DOUBLE, 2.45 * len(targets) + 1.0), layout="constrained")
    finding_title(fig, verdicts)
    columns = fig.subfigures(1, len(LANDSCAPE_PE), wspace=0.03)
    axes = np.array([column.subplots(len(targets), 1, squeeze=False)[:, 0] for column in columns]).T
    for column, pe in zip(columns, LANDSCAPE_PE):
        column.suptitle(_encoding_text(pe), fontsize=8)
    data = {target: load(files[target]) for target in targets}
    change = {(target, pe): data[target][0][f"R_{pe}"] - float(data[target][0][f"R0_{pe}"])
              for target in targets for pe in LANDSCAPE_PE}
    # one colour scale and one set of contour levels for every panel: a colour is one value of R throughout
    span = max(max(float(np.nanmax(np.abs(R))) for R in change.values()), 1e-12)
    norm, levels = TwoSlopeNorm(0.0, -span, span), np.linspace(-span, span, 25)
    for col, pe in enumerate(LANDSCAPE_PE):
        for row, target in enumerate(targets):
            arrays, meta = data[target]
            axis = arrays["axis"]
            ax = axes[row, col]
            R = change[(target, pe)]
            image = ax.pcolormesh(axis, axis, R, shading="auto", cmap=plotting.LOSS_CHANGE_CMAP, norm=norm,
                                  rasterized=True)
            if np.nanmax(R) - np.nanmin(R) > 1e-9:
                ax.contour(axis, axis, R, levels=levels, colors=BLACK, linewidths=0.4)
            values, vectors = arrays[f"eigenvalues_{pe}"], arrays[f"eigenvectors_{pe}"]
            for value, vector in zip(values, vectors.T):
                kind = "descending" if value < -FLAT else ("ascending" if value > FLAT else "flat")
                colour = plotting.EIGEN_COLOURS[kind]
                text = f"$\\lambda = {value:+.3f}$" if kind != "flat" else r"$\lambda \approx 0$"
                for sign in (1, -1):
                    ax.annotate("", xy=(0.55 * sign * vector[0], 0.55 * sign * vector[1]), xytext=(0, 0),
                                arrowprops={"arrowstyle": "->", "color": colour, "lw": 1.4})
                ax.text(0.8 * vector[0], 0.8 * vector[1], text, color=plotting.text_colour(colour), fontsize=7.5,
                        fontweight="bold",
                        ha="center", va="center", bbox={"fc": "white", "ec": "none", "alpha": 0.8, "pad": 0.5})
            ax.add_patch(plt.Circle((0, 0), 1.0, fill=False, lw=0.8, color=BLACK))
            ax.set_aspect("equal")
            ax.set_xlim(-1.05, 1.05)
            ax.set_ylim(-1.05, 1.05)
            ax.set_title(f"{label(target)}: {_sie_tex(meta[pe])}")
            ax.set_xlabel("positional overlap $e$")
            ax.set_ylabel("overlap $m$")
    columns[-1].colorbar(image, ax=list(axes[:, -1]), shrink=0.5, label="$R(e, m) - R(0, 0)$, every panel")
    words = {"descending": r"descending ($\lambda < 0$)", "ascending": r"ascending ($\lambda > 0$)",
             "flat": rf"flat ($|\lambda| \leq$ {number(FLAT)})"}
    handles = [Line2D([], [], color=plotting.EIGEN_COLOURS[kind], lw=1.4, label=text)
               for kind, text in words.items()]
    fig.legend(handles=handles, loc="outside lower center", ncol=3, frameon=False, title_fontsize=7.5,
               title="eigen-directions of the Hessian of $R$ at (0, 0); joint SIE: the Taylor terms in $e$ alone "
                     "count too")
    panel_letters(axes.T)
    for path in out_paths:
        save_figure(fig, path)
    plt.close(fig)


def case_colours(n):
    """The colours of the first ``n`` escape cases (no PE: SIE 4 purple; with PE: orange, sky blue)."""
    from ...plotting import ORANGE, PURPLE, SKY, VERMILION

    return (PURPLE, ORANGE, SKY, VERMILION)[:n]


def plot_escape(config, out_paths, numbers=None, load=load_result, verdicts: list[dict] | None = None) -> None:
    """Escape steps vs d (SGD medians with quartile bars, ODE lines) and, at trajectory_d, the replicates'
    median |m|(t) and e(t) (quartile bars) against the ODE; the first panel's legend states the measured
    exponents and the ODE's; ``verdicts`` (the C3 row) above the panels."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    from ... import plotting
    from ...plotting import (COLOURS, MARKERS, ODE_STYLE, SGD_STYLE, THRESHOLD_STYLE, WIDTH_DOUBLE, finding_title,
                            label, law, limits_to_data, new_figure, number, panel_letters, place_legend,
                            plain_log_ticks, save_figure, schedule_tex, thin_records)
    import matplotlib.pyplot as plt

    section = config[EXPERIMENT]
    numbers = summarise(config) if numbers is None else numbers
    sgd_files, ode_files = stems(config, "sgd"), stems(config, "ode")
    d_traj = int(section["trajectory_d"])
    fig, axes = new_figure(ncols=3, nrows=1, width=WIDTH_DOUBLE, height=3.9, squeeze=False)
    finding_title(fig, verdicts)
    ax_t, ax_m, ax_e = axes[0]
    colours = case_colours(len(numbers["fits"]))
    style = dict(SGD_STYLE, marker=MARKERS["attention"])
    handles, fitted, xs, ys = [], [], [], []
    for i, entry in enumerate(numbers["fits"]):
        case = entry["case"]
        spec, problem = _case(config, case)
        colour = colours[i]
        report = sie_report(problem)
        name = "no encoding" if problem.pe == "none" else "opposite encoding"
        handles.append(Patch(color=colour, label=f"{name}, SIE {report.order}, {schedule_tex(spec['schedule'])}"))
        rows = rows_of(numbers, case)
        d = np.array([r["d"] for r in rows], float)
        med = np.array([r["steps_median"] for r in rows], float)
        q25 = np.array([r["steps_q25"] for r in rows], float)
        q75 = np.array([r["steps_q75"] for r in rows], float)
        ok = np.isfinite(med)
        ax_t.errorbar(d[ok], med[ok], yerr=[med[ok] - q25[ok], np.where(np.isfinite(q75[ok]), q75[ok], med[ok]) - med[ok]],
                      color=colour, **style, zorder=3)
        ax_t.plot(entry["ode_dims"], entry["ode_steps"], color=colour, **ODE_STYLE, zorder=2)
        xs += [d[ok], np.asarray(entry["ode_dims"], float)]
        ys += [med[ok], np.asarray(entry["ode_steps"], float)]
        fitted.append(Line2D([], [], color=colour, linestyle="none", marker=style["marker"],
                             markersize=style["markersize"],
                             label=f"{law('d', entry['exponent_sgd'], entry['exponent_sgd_low'], entry['exponent_sgd_high'])}"
                                   f" · ODE {law('d', entry['exponent_ode_same_range'])}"))
        if (case, d_traj) in sgd_files:
            sgd, _ = load(sgd_files[(case, d_traj)])
            t = sgd["steps"] / d_traj
            j = thin_records(t, per_decade=plotting.TRAJECTORY_MARKERS_PER_DECADE)
            overlap = np.abs(sgd["m"][:, j])
            sign = np.sign(sgd["m"][:, -1:])
            aligned = np.where(sign == 0, 1.0, sign) * sgd["e"][:, j]
            for ax, values in ((ax_m, overlap), (ax_e, aligned)):
                low, mid, high = np.quantile(values, [0.25, 0.5, 0.75], axis=0)
                ax.errorbar(t[j], mid, yerr=[mid - low, high - mid], color=colour, **dict(style, markersize=2.5),
                            zorder=3)
        ode, _ = load(ode_files[case])
        keep = ode["t"] > 0
        ax_m.plot(ode["t"][keep], np.abs(ode["m"][keep]), color=colour, **ODE_STYLE, zorder=2)
        ax_e.plot(ode["t"][keep], np.sign(ode["m"][keep][-1] or 1.0) * ode["e"][keep], color=colour, **ODE_STYLE,
                  zorder=2)
    limits_to_data(ax_t, x=np.concatenate(xs), y=np.concatenate(ys))
    ax_t.set_xscale("log")
    ax_t.set_yscale("log")
    ax_t.set_xlabel(label("d"))
    ax_t.set_ylabel(f"steps until {escape.of(config[EXPERIMENT], EXPERIMENT, 'replicates').symbol()}")
    ax_t.set_title("escape time")
    plain_log_ticks(ax_t)
    for ax in (ax_m, ax_e):
        ax.set_xscale("log")
        ax.set_xlabel(label("t"))
    ax_m.axhline(numbers["escape_level"], **THRESHOLD_STYLE, zorder=1)
    ax_m.set_ylabel("overlap $|m|$")
    ax_e.set_ylabel(r"$e$, signed as the final $m$")
    ax_m.set_title(f"$d$ = {number(d_traj)}: overlap")
    ax_e.set_title(f"$d$ = {number(d_traj)}: positional overlap")
    handles += [Line2D([], [], ls="none", marker=style["marker"], color=COLOURS["sgd"], ms=style["markersize"],
                       label="SGD, median of the replicates, quartile bars"),
                Line2D([], [], color=COLOURS["sgd"], **ODE_STYLE, label="ODE"),
                Line2D([], [], **THRESHOLD_STYLE, label=f"escape level {number(numbers['escape_level'])}")]
    fig.legend(handles=handles, loc="outside lower center", ncol=2, frameon=False)
    place_legend(ax_t, handles=fitted, title="median escape ∝ SGD [95 %] · ODE", title_fontsize=7.5, alignment="left",
                 handletextpad=0.3)
    panel_letters(axes[0])
    for path in out_paths:
        save_figure(fig, path)
    plt.close(fig)


def plot(config, out_paths, numbers=None, load=load_result, verdicts: list[dict] | None = None) -> None:
    """Both figures: paths whose name contains "landscape" get the landscape, the others the escape.

    ``numbers``: :func:`summarise` (computed when None); ``load(stem)`` reads a result
    (ssi.experiments.figure_data: results/ or the figure data); ``verdicts``: the verdict file's rows of
    this result (C3), stated above the panels of both figures."""
    landscape = [p for p in out_paths if "landscape" in str(p).rsplit("/", 1)[-1]]
    escape = [p for p in out_paths if p not in landscape]
    if landscape:
        plot_landscape(config, landscape, load, verdicts=verdicts)
    if escape:
        plot_escape(config, escape, numbers, load, verdicts=verdicts)


def _exp(x):
    return "n/a" if x is None else f"{x:.2f}"


C3_RULE = ("on the escape target, at one η schedule for both: reproduced when the code's SIE is lower with PE than "
           "without, the median escape with PE takes fewer steps at every d run both ways, and the 95 % intervals of "
           "the SGD escape exponents (each decisive by the rule of ssi.verdicts) are separated, the one with PE below; "
           "differs when the SIE does not drop, the escape is not shorter at every d or the decisive intervals do not "
           "separate; undecided without a same-η pair or with an interval too wide")


#: the paper's own example of C3 (its first figure: L = 2 attention, trace reduction, p₂ = −p₁)
PAPER_EXAMPLE = "he4_sum"
C3_EXAMPLE_RULE = ("on the paper's own example, Σ He₄ at L = 2 (attention, trace reduction), from the exact Taylor "
                   "expansion of R(e, m) at (0, 0) without and with the opposite encoding (ssi.information_exponent): "
                   "reproduced when the encoding lowers the SIE of m (the lowest order of a term with m) and the "
                   "leading form with m descends, so that small overlaps grow faster; differs when the SIE of m does "
                   "not drop (a lower joint SIE from pure-e terms alone moves no overlap with the teacher) or the "
                   "leading form rises in every direction with m ≠ 0 (m = 0 is then a local minimum that small "
                   "overlaps return to); undecided when the example is not among the landscape's targets")


def _landscape_of(numbers, target) -> dict:
    """pe -> the landscape entry of ``target`` (empty when it is not among the targets)."""
    return {e["pe"]: e for e in numbers["landscape"] if e["target"] == target}


def c3_example_verdict(numbers) -> Verdict:
    """Verdict of C3 on the paper's own example (rule :data:`C3_EXAMPLE_RULE`)."""
    entries = _landscape_of(numbers, PAPER_EXAMPLE)
    if set(entries) != set(LANDSCAPE_PE):
        return Verdict(UNDECIDED, f"the paper's example {PAPER_EXAMPLE} is not among the landscape's targets")
    plain, pe = entries["none"], entries[LANDSCAPE_PE[1]]
    if not pe["sie_overlap"] < plain["sie_overlap"]:
        joint = (f"; the joint SIE {plain['sie_joint']} → {pe['sie_joint']} only through pure-e terms"
                 if pe["sie_joint"] < plain["sie_joint"] else "")
        return Verdict(DIFFERS, f"SIE of m stays {pe['sie_overlap']} with PE{joint}")
    return check(bool(pe["descends"]), f"the SIE of m drops {plain['sie_overlap']} → {pe['sie_overlap']} and descends",
                 f"the SIE of m drops {plain['sie_overlap']} → {pe['sie_overlap']}, but its leading form rises "
                 "in every direction")


def _c3_example_headline(numbers) -> str:
    entries = _landscape_of(numbers, PAPER_EXAMPLE)
    plain, pe = entries["none"], entries[LANDSCAPE_PE[1]]
    rising = [e for e in (plain, pe) if not e["descends"]]
    ascending = [v for v in pe["eigenvalues"] if v > FLAT]
    return (f"joint SIE {plain['sie_joint']} → {pe['sie_joint']} with PE, from a rising pure-e term"
            + (f" (curvature {max(ascending):+.3f})" if ascending else "")
            + f"; SIE of m {plain['sie_overlap']} → {pe['sie_overlap']}"
            + ("; m = 0 a local minimum " + ("both ways" if len(rising) == 2 else "without PE" if rising[0] is plain
                                              else "with PE") if rising else ""))


def _same_lr_pair(numbers):
    """(no-PE fit, PE fit) run at the same η schedule, or None."""
    plain = [f for f in numbers["fits"] if f["pe"] == "none"]
    for f in plain:
        for g in numbers["fits"]:
            if g["pe"] != "none" and g["schedule"] == f["schedule"] and g["target"] == f["target"]:
                return f, g
    return None


def _median_ratios(numbers, plain, with_pe) -> list[tuple[int, float]]:
    a = {r["d"]: r["steps_median"] for r in rows_of(numbers, plain["case"])}
    b = {r["d"]: r["steps_median"] for r in rows_of(numbers, with_pe["case"])}
    return [(d, a[d] / b[d]) for d in sorted(set(a) & set(b)) if a[d] is not None and b[d] is not None]


def _sie_drop(numbers, target) -> tuple:
    sies = {e["pe"]: e["sie_overlap"] for e in numbers["landscape"] if e["target"] == target}
    plain, pe = sies.get("none"), sies.get(LANDSCAPE_PE[1])
    plain = math.inf if plain is None else plain
    pe = math.inf if pe is None else pe
    return plain, pe


def c3_verdict(numbers) -> Verdict:
    """Verdict of C3 from the numbers file (rule :data:`C3_RULE`)."""
    pair = _same_lr_pair(numbers)
    if pair is None:
        return Verdict(UNDECIDED, "no escape measured with and without PE at the same η")
    plain, with_pe = pair
    sie_plain, sie_pe = _sie_drop(numbers, plain["target"])
    ratios = _median_ratios(numbers, plain, with_pe)
    faster = bool(ratios) and all(r > 1 for _, r in ratios)
    if not sie_pe < sie_plain:
        return Verdict(DIFFERS, f"the SIE does not drop with PE ({sie_plain} → {sie_pe})")
    if not faster:
        return Verdict(DIFFERS, "the escape with PE is not shorter at every d")
    for name, fit in (("with PE", with_pe), ("without PE", plain)):
        too_wide = width_check(fit["exponent_sgd_low"], fit["exponent_sgd_high"], EXPONENT_WIDTH,
                               f"exponent of d {name}")
        if too_wide:
            return too_wide
    low, high = with_pe["exponent_sgd_high"], plain["exponent_sgd_low"]
    return check(low < high, f"SIE {sie_plain} → {sie_pe}; exponent with PE below the one without, "
                             f"fewer steps at every d",
                 f"exponent intervals with and without PE overlap ({low:.2f} ≥ {high:.2f})")


def _c3_headline(numbers) -> str:
    pair = _same_lr_pair(numbers)
    if pair is None:
        return "no escape measured with and without PE at the same η"
    plain, with_pe = pair
    sie_plain, sie_pe = _sie_drop(numbers, plain["target"])
    ratios = [r for _, r in _median_ratios(numbers, plain, with_pe)]
    span_text = f"; {min(ratios):.0f}–{max(ratios):.0f}× fewer steps" if ratios else ""
    return (f"SIE {sie_plain} → {sie_pe} with PE; median escape ∝ d^{interval(with_pe['exponent_sgd'], with_pe['exponent_sgd_low'], with_pe['exponent_sgd_high'])}"
            f" with PE, d^{interval(plain['exponent_sgd'], plain['exponent_sgd_low'], plain['exponent_sgd_high'])} "
            f"without (same η){span_text}")



def validate(config) -> None:
    """Checks of the ``positional`` section the schema cannot express; ValueError naming the key."""
    section = config["positional"]
    for target in section["landscape"]["targets"]:
        for pe in LANDSCAPE_PE:
            landscape_problem(config, target, pe)
    for case, spec in section["cases"].items():
        where = f"positional.cases.{case}"
        problem = problem_from_spec(spec["problem"], f"{where}.problem")
        for key in ("dims", "ode_dims"):
            check_dimensions(problem, f"{where}.{key}", spec[key])
        if section["trajectory_d"] not in spec["dims"]:
            raise ValueError(f"config positional.trajectory_d: d={section['trajectory_d']} is not in "
                             f"{where}.dims; the trajectories are drawn from the SGD runs at that d")
    escape.named(section, "positional")


def claim_rows(config, numbers) -> list[dict]:
    """Claims-table row for C3."""
    parts = []
    for entry in numbers["landscape"]:
        parts.append(f"{entry['target']} {'no PE' if entry['pe'] == 'none' else 'PE'}: SIE "
                     f"{entry['sie_overlap'] if entry['sie_overlap'] is not None else '∞'}"
                     + (f" (joint {entry['sie_joint']})" if entry["sie_joint"] != entry["sie_overlap"] else ""))
    fits = []
    for entry in numbers["fits"]:
        fits.append(f"{entry['case']} ({entry['schedule']}): steps ∝ d^{_exp(entry['exponent_sgd'])} "
                    f"[{_exp(entry['exponent_sgd_low'])}, {_exp(entry['exponent_sgd_high'])}] SGD over "
                    f"d = {entry['dims'][0]}–{entry['dims'][-1]}, ODE "
                    f"d^{_exp(entry['exponent_ode_same_range'])} on the same range")
    by_case = {e["case"]: {r["d"]: r for r in rows_of(numbers, e["case"])} for e in numbers["fits"]}
    names = list(by_case)
    ratio = []
    for other in names[1:]:
        shared = sorted(set(by_case[names[0]]) & set(by_case[other]))
        pairs = [(d, by_case[names[0]][d]["steps_median"], by_case[other][d]["steps_median"]) for d in shared]
        pairs = [f"{a / b:.3g}× at d={d}" for d, a, b in pairs if a is not None and b is not None]
        if pairs:
            ratio.append(f"{names[0]} / {other}: " + ", ".join(pairs))
    example = []
    if _landscape_of(numbers, PAPER_EXAMPLE):
        entries = _landscape_of(numbers, PAPER_EXAMPLE)
        example = [{
            "claim": "C3 positional encoding, the paper's example",
            "paper": "the opposite encoding lowers the SIE of Σ He₄ from 4 to 2 and so shortens the escape",
            "measured": (f"{PAPER_EXAMPLE} (L=2 attention, trace): " + "; ".join(
                f"{'no PE' if pe == 'none' else 'PE'}: SIE of m {e['sie_overlap']}, joint SIE {e['sie_joint']}, "
                f"leading form with m {'descends' if e['descends'] else 'rises in every direction'}, Hessian "
                "eigenvalues at (0, 0) " + ", ".join(f"{v:+.3f}" for v in e["eigenvalues"])
                for pe, e in entries.items())
                + "; see figures/positional_landscape.png"),
            "headline": _c3_example_headline(numbers),
            **c3_example_verdict(numbers).fields(),
            "figure": "figures/positional_landscape.png",
            "command": "snakemake --cores all positional_plot",
            "rule": C3_EXAMPLE_RULE,
        }]
    return example + [{
        "claim": "C3 positional encoding, the repository's target" if example else "C3 positional encoding",
        "paper": "PE can strictly lower the SIE (e.g. 4 → 2) and shorten the escape",
        "measured": ("SIE by the code (L=2 attention, trace): " + "; ".join(parts)
                     + ". Escape of he4_sum_plus_diff (median of replicates, |m| = "
                     + f"{numbers['escape_level']}): " + "; ".join(fits)
                     + (". Ratio of median escape steps: " + "; ".join(ratio) if ratio else "")
                     + "; see figures/positional_landscape.png, figures/positional_escape.png"),
        "headline": _c3_headline(numbers),
        **c3_verdict(numbers).fields(),
        "figure": "figures/positional_escape.png",
        "command": "snakemake --cores all positional_plot",
        "rule": C3_RULE,
    }]
