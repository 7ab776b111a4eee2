"""Claim C4: tied vs untied feed-forward networks — the gain T_untied/T_tied against L.

Four parts (claim C4; reference parameters from the authors' published configurations):

* **Escape vs L.** For each configured case (an SIE 1, 2 and 3 target with a feed-forward
  activation) and each L, tied (one w for all tokens) and untied (one w_l per token)
  students start at m_l = m₀ = sign·d^(−1/2) for every token (positive sign: the paper's
  theory convention; the authors' "overlapped" code start gives m₀ = o/√((1−o)² + o²) ≈ 1.1/√d
  for o = 1/√d, docs/theory.md, "The authors' conventions") and are trained by one-pass SGD (reduced engine). Two
  learning-rate protocols: ``same_lr`` — one η for every L and both networks; ``best_lr`` —
  for each (network, L) the η that minimises the ODE's escape time to ``escape_level``
  (bounded search in ``lr_search``). The escape time is read on the replicate mean of the
  overlap (tied |m|; untied the authors' "l2" overlap (mean_l m_l²)^(1/2)) at two thresholds:
  the authors' 2/√d and the macroscopic ``escape_level``; the median of per-replicate
  crossings of ``escape_level`` is also kept. SGD stops when every replicate's |mean_l m_l|
  has passed ``escape_level`` (the RMS overlap is ≥ |mean|, so both thresholds are reached
  before) or at ``horizon`` × the ODE's escape steps.
* **Gain.** gain(L) = T_untied/T_tied per protocol and threshold, with the log-log slope in L
  and a bootstrap interval (replicates resampled within each (network, L)); the ODE's gain
  beside it. For token-symmetric targets and initial states the untied ODE stays on
  m_l = m, Q_l = 1 and its right-hand side is the tied one divided by L
  (``integrate_ode(token_symmetric=True)`` integrates that one token), so the ODE's gain is
  exactly L at any η — the ODE's best η is then the same for both networks.
* **Null cases.** Token-antisymmetric targets (z₁ − z₂, (z₁² − z₂²)/√2) are invisible to the
  tied student (SIE ∞: the loss does not depend on m); the untied one learns them
  (w_1 → w*, w_2 → −w*: mean_l m_l stays 0, so the untied overlap shown is the RMS one).
* **Attention.** The trace-reduced attention student vs the untied square-activation network
  on (1/√L)Σ h₂(z*_l), L = 3..9, one η for both (the authors' comparison).
"""
from __future__ import annotations

import math

import numpy as np

from ..hermite import sie
from ..io import load_result, save_result
from ..ode import escape_time, integrate_ode
from ..problems import Problem
from ..sgd import simulate
from .claim_text import finite, interval
from .common import (ProgressLog, bootstrap_slope, crossing_time, loglog_slope, mean_crossing, overlap_curves,
                     seed_key)

EXPERIMENT = "tied_untied"
NETWORKS = ("tied", "untied")
PROTOCOLS = ("same_lr", "best_lr")
#: escape thresholds: the authors' 2/√d and the macroscopic escape_level
THRESHOLDS = ("authors", "macro")


# --- problems, points, files -------------------------------------------------------------------
def problem(spec: dict, L: int, network: str) -> Problem:
    """The (target, activation) of a case or null run as a tied or untied feed-forward student."""
    try:
        return Problem(L=int(L), target=spec["target"], student=network, activation=spec.get("activation", "relu"))
    except ValueError as err:
        raise ValueError(f"config {EXPERIMENT} (target {spec['target']}, L={L}, {network}): {err}") from None


def attention_problem(spec: dict, L: int, network: str) -> Problem:
    """Part 4: attention with the trace reduction ("attention") or the untied network ("untied")."""
    if network == "attention":
        return Problem(L=int(L), target=spec["target"], student="attention", reduction="trace")
    return Problem(L=int(L), target=spec["target"], student="untied", activation=spec["activation"])


def stems(config, kind):
    """Result stems: "ode" per case, "sgd" per (case, protocol, network), "null" per run,
    "attention" per network."""
    root = f"{config['results_dir']}/{EXPERIMENT}"
    section = config[EXPERIMENT]
    if kind == "ode":
        return {c: f"{root}/ode_{c}" for c in section["cases"]}
    if kind == "sgd":
        return {(c, p, n): f"{root}/sgd_{c}_{p}_{n}" for c in section["cases"] for p in PROTOCOLS
                for n in NETWORKS}
    if kind == "null":
        return {r: f"{root}/null_{r}" for r in section["null_targets"]["runs"]}
    if kind == "attention":
        return {n: f"{root}/attention_{n}" for n in ("attention", "untied")}
    raise ValueError(f"kind={kind!r} is unknown; allowed: ode, sgd, null, attention")


def initial_overlap(spec: dict, d: int) -> float:
    """m₀ = sign·d^(−1/2) for every token (``m0_sign`` of the case, default +1)."""
    return float(spec.get("m0_sign", 1)) * d ** -0.5


# --- ODE: best learning rates and escape times -------------------------------------------------
#: the ODE gives up when the overlap falls to this fraction of |m₀| (the noise has won)
GIVE_UP = 0.25


def _ode_steps(prob, d, lr, level, m0, t_max):
    kwargs = {"token_symmetric": True, "overlap": "rms"} if not prob.tied else {}
    return escape_time(prob, d, lr, level, m0, t_max=t_max, give_up_below=GIVE_UP * abs(m0), **kwargs)


def best_learning_rate(prob, d, level, m0, bounds, t_max):
    """η in ``bounds`` minimising the ODE's steps to ``level`` (bounded search in log η).

    Returns (η, steps); steps is inf when no η in the bounds escapes by ``t_max``.
    """
    def cost(log_lr):
        steps = _ode_steps(prob, d, math.exp(log_lr), level, m0, t_max)
        return math.log(steps) if math.isfinite(steps) else 1e3 + log_lr  # no escape: push towards smaller η

    from scipy.optimize import minimize_scalar  # here: not every job of the family needs scipy

    res = minimize_scalar(cost, bounds=(math.log(bounds[0]), math.log(bounds[1])), method="bounded",
                          options={"xatol": 0.02})
    lr = float(math.exp(res.x))
    return lr, _ode_steps(prob, d, lr, level, m0, t_max)


def ode_case(config, case: str, out_stem, log=None) -> None:
    """For every ODE L of a case: best η per network, and escape steps at both thresholds under both protocols."""
    section = config[EXPERIMENT]
    spec = section["cases"][case]
    d, level = int(spec["d"]), float(section["escape_level"])
    m0 = initial_overlap(spec, d)
    Ls = np.array(sorted(set(spec["Ls"]) | set(spec.get("ode_Ls", []))), dtype=int)
    levels = {"authors": 2 / math.sqrt(d), "macro": level}
    t_max = float(spec["ode_t_max"])
    progress = ProgressLog(log, f"{EXPERIMENT} ODE {case}")
    lr = {p: np.zeros((len(NETWORKS), Ls.size)) for p in PROTOCOLS}
    steps = {(p, k): np.zeros((len(NETWORKS), Ls.size)) for p in PROTOCOLS for k in THRESHOLDS}
    for j, L in enumerate(Ls):
        for i, net in enumerate(NETWORKS):
            prob = problem(spec, L, net)
            lr["same_lr"][i, j] = float(spec["same_lr"])
            # the untied ODE (token-symmetric state) is the tied one slowed by L at every η, so
            # its best η is the tied one (tests/test_tied_untied.py checks the two searches agree)
            # best_lr_factor < 1 backs off from a cliff: at SIE 3 the ODE's escape time falls
            # with η until the noise wins, so its minimiser sits on the edge of non-escape
            lr["best_lr"][i, j] = (float(spec.get("best_lr_factor", 1.0))
                                   * best_learning_rate(prob, d, level, m0, spec["lr_search"], t_max)[0]
                                   if net == "tied" else lr["best_lr"][0, j])
            for p in PROTOCOLS:
                for k in THRESHOLDS:
                    steps[(p, k)][i, j] = _ode_steps(prob, d, lr[p][i, j], levels[k], m0, t_max)
        progress.note(f"L={L}: best η tied {lr['best_lr'][0, j]:.4g}, untied {lr['best_lr'][1, j]:.4g}; "
                      f"macro steps same η {steps[('same_lr', 'macro')][:, j].tolist()}, "
                      f"best η {steps[('best_lr', 'macro')][:, j].tolist()}")
    arrays = {"Ls": Ls, **{f"lr_{p}": v for p, v in lr.items()},
              **{f"steps_{p}_{k}": v for (p, k), v in steps.items()}}
    save_result(out_stem, arrays, {"experiment": EXPERIMENT, "case": case, "d": d, "m0": m0,
                                   "levels": levels, "config": spec})


def _ode_lookup(config, case, protocol, network, L):
    data, _ = load_result(stems(config, "ode")[case])
    j = int(np.nonzero(data["Ls"] == L)[0][0])
    i = NETWORKS.index(network)
    return float(data[f"lr_{protocol}"][i, j]), float(data[f"steps_{protocol}_macro"][i, j])


# --- SGD --------------------------------------------------------------------------------------
def sgd_point(config, case: str, protocol: str, network: str, out_stem, log=None) -> None:
    """SGD replicates of one (case, protocol, network) at every L of the case."""
    section = config[EXPERIMENT]
    spec = section["cases"][case]
    d, level = int(spec["d"]), float(section["escape_level"])
    replicates = int(section["replicates"])
    m0 = initial_overlap(spec, d)
    progress = ProgressLog(log, f"{EXPERIMENT} {case} {protocol} {network} d={d} ({replicates} replicates)")
    arrays, lrs, horizons = {}, {}, {}
    for L in spec["Ls"]:
        prob = problem(spec, L, network)
        lr, ode_steps = _ode_lookup(config, case, protocol, network, L)
        if not math.isfinite(ode_steps):
            raise ValueError(f"config {EXPERIMENT}.cases.{case}: the ODE does not escape at L={L}, "
                             f"{network}, {protocol} (η = {lr:.4g}) by ode_t_max; change same_lr or lr_search")
        steps = int(math.ceil(float(section["horizon"]) * ode_steps))
        key = seed_key(config["seed"], EXPERIMENT, case, protocol, network, int(L))
        progress.note(f"L={L}: η = {lr:.5g}, up to {steps} steps")
        run = simulate(prob, d, lr, steps, replicates, seed=key, engine=config["engine"], m0=m0,
                       threshold=level, stop_at_threshold=True,
                       points_per_decade=section["points_per_decade"], progress=progress)
        arrays[f"steps_L{L}"] = run.steps
        arrays[f"overlap_L{L}"] = overlap_curves(run)
        lrs[int(L)], horizons[int(L)] = lr, steps
    save_result(out_stem, arrays, {"experiment": EXPERIMENT, "case": case, "protocol": protocol,
                                   "network": network, "d": d, "m0": m0, "lr": lrs, "horizon_steps": horizons,
                                   "replicates": replicates, "engine": config["engine"],
                                   "escape_level": level, "config": spec})


def escape_samples(steps, curves, level):
    """Crossing of the replicate-mean curve, and per-replicate crossings (inf: not reached)."""
    mean = crossing_time(steps, curves.mean(axis=0), level)
    each = np.array([crossing_time(steps, c, level) for c in curves])
    return mean, np.where(np.isnan(each), np.inf, each)


# --- null cases -----------------------------------------------------------------------------------
def null_point(config, run_name: str, out_stem, log=None) -> None:
    """Tied and untied SGD (no stopping) and their ODEs on one antisymmetric target."""
    section = config[EXPERIMENT]
    spec = section["null_targets"]["runs"][run_name]
    d, L, lr = int(spec["d"]), int(spec["L"]), float(spec["lr"])
    steps = int(round(float(spec["t_max"]) * d))
    replicates = int(section["replicates"])
    progress = ProgressLog(log, f"{EXPERIMENT} null {run_name} d={d} L={L} ({replicates} replicates)")
    arrays, sies = {}, {}
    horizon = float(spec["t_max"])
    t_eval = np.unique(np.clip(np.concatenate([[0.0], np.logspace(math.log10(1.0 / d), math.log10(horizon), 300)]),
                               0.0, horizon))
    for net in NETWORKS:
        prob = problem(spec, L, net)
        key = seed_key(config["seed"], EXPERIMENT, "null", run_name, net)
        run = simulate(prob, d, lr, steps, replicates, seed=key, engine=config["engine"], m0=d ** -0.5,
                       points_per_decade=section["points_per_decade"], progress=progress)
        arrays[f"steps_{net}"] = run.steps
        arrays[f"overlap_{net}"] = overlap_curves(run)
        kwargs = {} if prob.tied else {"overlap": "rms"}
        sol = integrate_ode(prob, lr, d ** -0.5, t_max=float(spec["t_max"]), t_eval=t_eval, **kwargs)
        arrays[f"ode_t_{net}"], arrays[f"ode_m_{net}"] = sol.t, np.abs(sol.m)
        sies[net] = sie(prob)
        progress.note(f"{net}: SIE {sies[net]}, final mean overlap {arrays[f'overlap_{net}'][:, -1].mean():.4f}")
    save_result(out_stem, arrays, {"experiment": EXPERIMENT, "run": run_name, "d": d, "L": L, "lr": lr,
                                   "steps": steps, "replicates": replicates, "sie": sies, "config": spec})


# --- attention vs untied square network --------------------------------------------------------------
def attention_point(config, network: str, out_stem, log=None) -> None:
    """Part 4: SGD and ODE escape of one network at every L, one η for both networks."""
    section = config[EXPERIMENT]
    spec = section["attention"]
    d, lr, level = int(spec["d"]), float(spec["lr"]), float(section["escape_level"])
    replicates = int(section["replicates"])
    m0 = d ** -0.5
    progress = ProgressLog(log, f"{EXPERIMENT} attention part, {network}, d={d} ({replicates} replicates)")
    arrays, meta_L = {}, {}
    quad = {"qmc_log2": int(spec["qmc_log2"])}
    for L in spec["Ls"]:
        prob = attention_problem(spec, L, network)
        kwargs = {"token_symmetric": True, "overlap": "rms"} if not prob.tied else {"quadrature": quad}
        t_ode = float(spec["ode_t_max"])
        sol = integrate_ode(prob, lr, m0, t_max=t_ode, threshold=level, stop_at_threshold=True, **kwargs)
        ode_macro = sol.crossing_time * d
        ode_authors = crossing_time(sol.t * d, np.abs(sol.m), 2 / math.sqrt(d))
        if not math.isfinite(ode_macro):
            raise ValueError(f"config {EXPERIMENT}.attention: the ODE of {network} at L={L} does not escape "
                             f"by ode_t_max={t_ode}")
        steps = int(math.ceil(float(spec.get("horizon", section["horizon"])) * ode_macro))
        key = seed_key(config["seed"], EXPERIMENT, "attention", network, int(L))
        progress.note(f"L={L}: ODE escape {ode_macro:.4g} steps; SGD up to {steps} steps")
        run = simulate(prob, d, lr, steps, replicates, seed=key, engine=config["engine"], m0=m0,
                       threshold=level, stop_at_threshold=True,
                       points_per_decade=section["points_per_decade"], progress=progress)
        arrays[f"steps_L{L}"] = run.steps
        arrays[f"overlap_L{L}"] = overlap_curves(run)
        arrays[f"ode_t_L{L}"], arrays[f"ode_m_L{L}"] = sol.t, np.abs(sol.m)
        meta_L[int(L)] = {"ode_macro": ode_macro, "ode_authors": ode_authors, "horizon": steps,
                          "sie": sie(prob)}
    save_result(out_stem, arrays, {"experiment": EXPERIMENT, "network": network, "d": d, "lr": lr,
                                   "m0": m0, "replicates": replicates, "escape_level": level,
                                   "per_L": meta_L, "config": spec})


# --- numbers ---------------------------------------------------------------------------------------
def _levels(config, d):
    return {"authors": 2 / math.sqrt(d), "macro": float(config[EXPERIMENT]["escape_level"])}


def summarise(config) -> dict:
    """Key numbers: escape steps per (case, protocol, network, L), gains and fitted exponents
    (SGD with bootstrap interval, ODE), null-case final overlaps, attention escape steps."""
    section = config[EXPERIMENT]
    seed = int(config["seed"])
    rows, fits = [], []
    for case, spec in section["cases"].items():
        d = int(spec["d"])
        levels = _levels(config, d)
        ode, _ = load_result(stems(config, "ode")[case])
        Ls = [int(L) for L in spec["Ls"]]
        sgd_sie = sie(problem(spec, Ls[-1], "tied"))
        for protocol in PROTOCOLS:
            data = {n: load_result(stems(config, "sgd")[(case, protocol, n)]) for n in NETWORKS}
            for L in Ls:
                row = {"case": case, "protocol": protocol, "L": L, "d": d}
                for n in NETWORKS:
                    arr, meta = data[n]
                    steps, curves = arr[f"steps_L{L}"].astype(float), arr[f"overlap_L{L}"]
                    j = int(np.nonzero(ode["Ls"] == L)[0][0])
                    row[f"lr_{n}"] = meta["lr"][str(L)] if str(L) in meta["lr"] else meta["lr"][L]
                    for k, lev in levels.items():
                        row[f"steps_{n}_{k}"] = mean_crossing(steps, curves, lev)
                        row[f"ode_{n}_{k}"] = float(ode[f"steps_{protocol}_{k}"][NETWORKS.index(n), j])
                    _, each = escape_samples(steps, curves, levels["macro"])
                    row[f"median_{n}_macro"] = float(np.median(each))
                    row[f"escaped_{n}"] = int(np.isfinite(each).sum())
                    row[f"replicates_{n}"] = int(each.size)
                for k in THRESHOLDS:
                    row[f"gain_{k}"] = row[f"steps_untied_{k}"] / row[f"steps_tied_{k}"]
                    row[f"gain_ode_{k}"] = row[f"ode_untied_{k}"] / row[f"ode_tied_{k}"]
                rows.append(row)
            for k, lev in levels.items():
                samples = {(n, L): data[n][0][f"overlap_L{L}"] for n in NETWORKS for L in Ls}

                def gains(pick):
                    def crossing(n, L):
                        return mean_crossing(data[n][0][f"steps_L{L}"].astype(float), pick(n, L), lev)

                    return np.array([crossing("untied", L) / crossing("tied", L) for L in Ls])

                point = gains(lambda n, L: samples[(n, L)])
                slope, low, high = bootstrap_slope(Ls, samples, gains, seed=seed)
                mine = [r for r in rows if r["case"] == case and r["protocol"] == protocol]
                ode_gain = np.array([r[f"gain_ode_{k}"] for r in mine])
                ode_Ls = ode["Ls"].astype(float)
                with np.errstate(invalid="ignore"):     # inf/inf where the ODE does not escape
                    ode_all = ode[f"steps_{protocol}_{k}"][1] / ode[f"steps_{protocol}_{k}"][0]
                fits.append({"case": case, "protocol": protocol, "threshold": k, "level": lev,
                             "target": spec["target"], "activation": spec.get("activation", "relu"),
                             "sie": sgd_sie, "d": d, "Ls": Ls, "gain": point.tolist(),
                             "exponent_sgd": slope, "exponent_sgd_low": low, "exponent_sgd_high": high,
                             "exponent_ode": loglog_slope(Ls, ode_gain),
                             "exponent_ode_all": loglog_slope(ode_Ls, ode_all),
                             "ode_Ls": ode_Ls.astype(int).tolist(), "ode_gain": ode_all.tolist()})
    null = []
    for name, stem in stems(config, "null").items():
        arr, meta = load_result(stem)
        entry = {"run": name, "target": meta["config"]["target"], "L": meta["L"], "d": meta["d"],
                 "lr": meta["lr"], "steps": meta["steps"], "noise_level": meta["d"] ** -0.5}
        for n in NETWORKS:
            curves = arr[f"overlap_{n}"]
            entry[f"sie_{n}"] = meta["sie"][n]
            entry[f"final_overlap_{n}"] = float(curves[:, -1].mean())
            entry[f"final_overlap_{n}_sd"] = float(curves[:, -1].std(ddof=1))
            entry[f"max_overlap_{n}"] = float(curves.mean(axis=0).max())
            entry[f"final_ode_{n}"] = float(arr[f"ode_m_{n}"][-1])
        null.append(entry)
    attention = []
    spec = section["attention"]
    levels = _levels(config, int(spec["d"]))
    loaded = {n: load_result(s) for n, s in stems(config, "attention").items()}
    for L in spec["Ls"]:
        row = {"L": int(L), "d": int(spec["d"]), "lr": float(spec["lr"])}
        for n, (arr, meta) in loaded.items():
            per = meta["per_L"][str(L)] if str(L) in meta["per_L"] else meta["per_L"][int(L)]
            for k, lev in levels.items():
                row[f"steps_{n}_{k}"] = mean_crossing(arr[f"steps_L{L}"].astype(float), arr[f"overlap_L{L}"], lev)
            row[f"ode_{n}_macro"], row[f"ode_{n}_authors"] = per["ode_macro"], per["ode_authors"]
            row[f"sie_{n}"] = per["sie"]
        row["ratio_macro"] = row["steps_untied_macro"] / row["steps_attention_macro"]
        row["ratio_ode_macro"] = row["ode_untied_macro"] / row["ode_attention_macro"]
        attention.append(row)
    return {"escape_level": float(section["escape_level"]), "rows": rows, "fits": fits, "null": null,
            "attention": attention}


def fit_of(numbers, case, protocol, threshold) -> dict:
    """The fit record of one (case, protocol, threshold) in a ``summarise`` record."""
    for f in numbers["fits"]:
        if (f["case"], f["protocol"], f["threshold"]) == (case, protocol, threshold):
            return f
    raise KeyError((case, protocol, threshold))


# --- figures ------------------------------------------------------------------------------------
FIGURE_NAMES = ("escape", "gain", "null", "attention")
_PROTOCOL_TEXT = {"same_lr": "same η for both", "best_lr": "best η per network (ODE)"}
#: the gain law the paper claims per SIE (claim C4): exponent of L, and its words
PAPER_GAIN = {1: (1, "$L$"), 2: (2, "$L^{2}$"), 3: (1, "$L$ or constant")}


def _sie_text(k) -> str:
    # an SIE is an integer or ∞; a numbers file read back from JSON holds ∞ as null (nan)
    return "∞" if k is None or (isinstance(k, float) and not math.isfinite(k)) else str(k)


def _case_title(spec, k, d):
    from ..plotting import label, sie_text

    return f"{sie_text(k)}: {label(spec['target'])}, {label(spec.get('activation', 'relu'))}, $d$ = {d}"


def _markers():
    """(level, protocol) -> marker style: filled for m̄ = 0.5, open for 2/√d; circle same η, square best η."""
    return {("macro", "same_lr"): ("o", True), ("authors", "same_lr"): ("o", False),
            ("macro", "best_lr"): ("s", True), ("authors", "best_lr"): ("s", False)}


def _marker_handles(colour, protocols=PROTOCOLS):
    from matplotlib.lines import Line2D

    from ..plotting import label

    out = []
    for (thr, protocol), (marker, filled) in _markers().items():
        if protocol in protocols:
            out.append(Line2D([], [], ls="", marker=marker, color=colour, mfc=colour if filled else "white",
                              label=f"SGD, {label(thr)}" + (f", {label(protocol)}" if len(protocols) > 1 else "")))
    return out


def plot_escape(config, numbers, out_paths, load=load_result) -> None:
    """Rows: cases; columns: protocols. Escape steps vs L (SGD mean-curve crossings, ODE lines)."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    from ..plotting import COLOURS, WIDTH_DOUBLE, label, limits_to_data, new_figure, plain_log_ticks, save_figure
    import matplotlib.pyplot as plt

    section = config[EXPERIMENT]
    cases = list(section["cases"])
    fig, axes = new_figure(ncols=2, nrows=len(cases), width=WIDTH_DOUBLE, height=2.0 * len(cases) + 0.6,
                           squeeze=False)
    ode_files = stems(config, "ode")
    for r, case in enumerate(cases):
        spec = section["cases"][case]
        ode, _ = load(ode_files[case])
        for c, protocol in enumerate(PROTOCOLS):
            ax = axes[r, c]
            rows = [x for x in numbers["rows"] if x["case"] == case and x["protocol"] == protocol]
            Ls = np.array([x["L"] for x in rows], float)
            k = fit_of(numbers, case, protocol, "macro")["sie"]
            ys = []
            for i, net in enumerate(NETWORKS):
                colour = COLOURS[net]
                for thr in THRESHOLDS:
                    marker, filled = _markers()[(thr, "same_lr")]
                    y = np.array([x[f"steps_{net}_{thr}"] for x in rows])
                    ax.plot(Ls, y, marker, color=colour, mfc=colour if filled else "white", zorder=3,
                            label=f"{label(net)}, {label(thr)}")
                    ode_y = np.asarray(ode[f"steps_{protocol}_{thr}"][i], float)
                    ax.plot(ode["Ls"], ode_y, color=colour, lw=1.0, ls="-" if thr == "macro" else ":", zorder=2)
                    ys += [y, ode_y]
                med = np.array([x[f"median_{net}_macro"] for x in rows])
                ax.plot(Ls, med, "x", color=colour, ms=4, zorder=3)
            limits_to_data(ax, x=np.concatenate([Ls, np.asarray(ode["Ls"], float)]), y=np.concatenate(ys))
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_xlabel(label("L"))
            ax.set_ylabel("steps to escape")
            ax.set_title(f"{_case_title(spec, k, spec['d'])} · {label(protocol)}", fontsize=7)
            plain_log_ticks(ax)
    handles = [Patch(color=COLOURS[n], label=label(n)) for n in NETWORKS]
    handles += [Line2D([], [], ls="", marker="o", color="k", label=r"SGD, mean reaches $\bar m = 0.5$"),
                Line2D([], [], ls="", marker="o", color="k", mfc="white", label=r"SGD, mean reaches $2/\sqrt{d}$"),
                Line2D([], [], ls="", marker="x", color="k", label=r"SGD, median replicate at $0.5$"),
                Line2D([], [], color="k", lw=1.0, label=r"ODE, $0.5$"),
                Line2D([], [], color="k", lw=1.0, ls=":", label=r"ODE, $2/\sqrt{d}$")]
    fig.legend(handles=handles, loc="outside lower center", ncol=4, frameon=False)
    for path in out_paths:
        save_figure(fig, path)
    plt.close(fig)


def gain_verdict(fits: dict, k) -> str:
    """The verdict of a gain panel, three lines: the measured laws (same η, best η), the paper's."""
    from ..plotting import law

    lines = [f"measured {law('L', f['exponent_sgd'], f['exponent_sgd_low'], f['exponent_sgd_high'])} "
             f"({'same' if p == 'same_lr' else 'best'} $\\eta$)" for p, f in fits.items()]
    return "\n".join(lines + [f"paper {PAPER_GAIN.get(k, (None, 'none'))[1]}"])


def plot_gain(config, numbers, out_paths, load=load_result) -> None:
    """One panel per case: gain vs L, both protocols and thresholds, ODE gain, L and L² guides
    (under the data, the axes fitted to the data), the measured law against the paper's."""
    from matplotlib.lines import Line2D

    from ..plotting import (COLOURS, WIDTH_DOUBLE, guide, label, limits_to_data, new_figure, place_legend,
                            plain_log_ticks, save_figure)
    import matplotlib.pyplot as plt

    section = config[EXPERIMENT]
    cases = list(section["cases"])
    fig, axes = new_figure(ncols=len(cases), nrows=1, width=WIDTH_DOUBLE, height=2.9, squeeze=False)
    verdicts, one_ode = [], True
    for c, case in enumerate(cases):
        ax = axes[0, c]
        spec = section["cases"][case]
        xs, ys = [], []
        for protocol in PROTOCOLS:
            for thr in THRESHOLDS:
                fit = fit_of(numbers, case, protocol, thr)
                marker, filled = _markers()[(thr, protocol)]
                g = np.asarray(fit["gain"], float)
                ax.plot(fit["Ls"], g, marker, color=COLOURS["sgd"], mfc=COLOURS["sgd"] if filled else "white",
                        zorder=3, label=f"SGD {thr} {protocol}")
                xs.append(np.asarray(fit["Ls"], float))
                ys.append(g)
        odes = []
        for protocol in PROTOCOLS:
            fit = fit_of(numbers, case, protocol, "macro")
            ode_L, ode_gain = np.array(fit["ode_Ls"], float), np.array(fit["ode_gain"], float)
            ok = np.isfinite(ode_gain) & (ode_gain > 0)     # the ODE may not escape beyond the SGD range
            odes.append((protocol, ode_L[ok], ode_gain[ok]))
        shared, i0, i1 = np.intersect1d(odes[0][1], odes[1][1], return_indices=True)
        same = shared.size > 1 and np.allclose(odes[0][2][i0], odes[1][2][i1], rtol=1e-3)
        if same:          # one line, over the union of both L ranges
            union = {**dict(zip(odes[1][1], odes[1][2])), **dict(zip(odes[0][1], odes[0][2]))}
            Ls_ode = np.array(sorted(union))
            odes[0] = (odes[0][0], Ls_ode, np.array([union[L] for L in Ls_ode]))
        for protocol, ode_L, ode_gain in odes[:1] if same else odes:
            ax.plot(ode_L, ode_gain, color=COLOURS["ode"], lw=1.4, ls="-" if protocol == "same_lr" else "--",
                    zorder=2, label=f"ODE {protocol}")
            xs.append(ode_L)
            ys.append(ode_gain)
        x_all, y_all = np.concatenate(xs), np.concatenate(ys)
        grid = np.geomspace(np.nanmin(x_all), np.nanmax(x_all), 50)
        y0 = 0.6 * np.nanmin(y_all[y_all > 0])    # the guides fan out from under the lowest point
        guide(ax, grid, y0 * grid / grid[0], ls=":")
        guide(ax, grid, y0 * (grid / grid[0]) ** 2, ls="-.")
        limits_to_data(ax, x=x_all, y=y_all)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel(label("L"))
        ax.set_ylabel(r"gain $T_{\mathrm{untied}}\,/\,T_{\mathrm{tied}}$")
        k = fit_of(numbers, case, "same_lr", "macro")["sie"]
        ax.set_title(_case_title(spec, k, spec["d"]), fontsize=7)
        plain_log_ticks(ax)
        verdicts.append(gain_verdict({p: fit_of(numbers, case, p, "macro") for p in PROTOCOLS}, k))
        one_ode &= same
    handles = _marker_handles(COLOURS["sgd"])
    handles += [Line2D([], [], color=COLOURS["ode"], lw=1.4,
                       label="ODE (the same for both protocols)" if one_ode else "ODE (dashed: best η)"),
                Line2D([], [], color=COLOURS["guide"], lw=0.8, ls=":", label=r"$\propto L$"),
                Line2D([], [], color=COLOURS["guide"], lw=0.8, ls="-.", label=r"$\propto L^{2}$")]
    fig.legend(handles=handles, loc="outside lower center", ncol=4, frameon=False)
    for ax, text in zip(axes[0], verdicts):     # after the figure legend: the axes have their final place
        place_legend(ax, handles=[], title=text, title_fontsize=6, alignment="left")
    for path in out_paths:
        save_figure(fig, path)
    plt.close(fig)


def plot_null(config, numbers, out_paths, load=load_result) -> None:
    """One panel per null run: overlap(t) of tied (noise level) and untied (learns), SGD and ODE."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    from ..plotting import (COLOURS, WIDTH_DOUBLE, guide, label, new_figure, number, place_legend,
                            save_figure, sie_text)
    import matplotlib.pyplot as plt

    files = stems(config, "null")
    names = list(files)
    ncols = min(3, len(names))
    nrows = -(-len(names) // ncols)
    fig, axes = new_figure(ncols=ncols, nrows=nrows, width=WIDTH_DOUBLE, height=2.0 * nrows + 0.5, squeeze=False)
    sies, notes = {}, []
    for idx, name in enumerate(names):
        ax = axes[idx // ncols, idx % ncols]
        arr, meta = load(files[name])
        d = meta["d"]
        for i, net in enumerate(NETWORKS):
            colour = COLOURS[net]
            sies[net] = meta["sie"][net]
            t = arr[f"steps_{net}"] / d
            keep = t > 0
            curves = arr[f"overlap_{net}"]
            for cur in curves:
                ax.plot(t[keep], cur[keep], color=colour, lw=0.3, alpha=0.3)
            ax.plot(t[keep], curves.mean(axis=0)[keep], color=colour, lw=1.4, label=label(net))
            tt = arr[f"ode_t_{net}"]
            ax.plot(tt[tt > 0], arr[f"ode_m_{net}"][tt > 0], color="k", lw=0.9, ls="--")
        guide(ax, ax.get_xlim(), [d ** -0.5] * 2, ls=":")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_ylim(1e-3, 1.5)
        ax.set_xlabel(label("t"))
        ax.set_ylabel("overlap")
        ax.set_title(f"{label(meta['config']['target'])}, $L$ = {meta['L']}, $d$ = {number(d, 1)}, "
                     f"$\\eta$ = {number(meta['lr'])}", fontsize=6.5)
        row = next((n for n in numbers["null"] if n["run"] == name), None)
        if row is not None:
            noise = row["noise_level"]
            text = (f"tied ends at {row['final_overlap_tied'] / noise:.1f}$\\,d^{{-1/2}}$\n"
                    f"untied ({sie_text(meta['sie']['untied'])}) at {row['final_overlap_untied'] / noise:.1f}$\\,d^{{-1/2}}$\n"
                    "paper: tied never learns")
            notes.append((ax, text))
    for idx in range(len(names), nrows * ncols):
        axes[idx // ncols, idx % ncols].set_visible(False)
    handles = [Patch(color=COLOURS[n], label=f"{label(n)}" + (f" ({sie_text(sies['tied'])})" if n == "tied" else "")
                     + ": replicates thin, mean thick"
                     + (r", overlap $|m|$" if n == "tied" else r", overlap $(\overline{m_l^{2}})^{1/2}$"))
               for n in NETWORKS]
    handles += [Line2D([], [], color="k", lw=0.9, ls="--", label="ODE"),
                Line2D([], [], color=COLOURS["guide"], lw=0.8, ls=":", label=r"$d^{-1/2}$ (the start)")]
    fig.legend(handles=handles, loc="outside lower center", ncol=2, frameon=False)
    for ax, text in notes:
        place_legend(ax, handles=[], title=text, title_fontsize=6, alignment="left")
    for path in out_paths:
        save_figure(fig, path)
    plt.close(fig)


def plot_attention(config, numbers, out_paths, load=load_result) -> None:
    """Escape steps vs L of attention (trace) and the untied square network (SGD and ODE), and m(t)."""
    from matplotlib.lines import Line2D
    from matplotlib.ticker import NullFormatter
    from matplotlib.patches import Patch

    from ..plotting import (COLOURS, WIDTH_DOUBLE, label, limits_to_data, new_figure, number, plain_log_ticks,
                            save_figure)
    import matplotlib.pyplot as plt

    spec = config[EXPERIMENT]["attention"]
    rows = numbers["attention"]
    Ls = np.array([r["L"] for r in rows], float)
    fig, axes = new_figure(ncols=2, nrows=1, width=WIDTH_DOUBLE, height=2.8, squeeze=False)
    ax, ax_m = axes[0]
    files = stems(config, "attention")
    ys = []
    names = {"attention": "attention", "untied": f"untied {label(spec['activation'])} network"}
    for i, net in enumerate(("attention", "untied")):
        colour = COLOURS[net]
        for thr in THRESHOLDS:
            marker, filled = _markers()[(thr, "same_lr")]
            y = np.array([r[f"steps_{net}_{thr}"] for r in rows], float)
            yo = np.array([r[f"ode_{net}_{thr}"] for r in rows], float)
            ax.plot(Ls, y, marker, color=colour, mfc=colour if filled else "white", zorder=3, label=f"{net} {thr}")
            ax.plot(Ls, yo, color=colour, lw=1.0, ls="-" if thr == "macro" else ":", zorder=2)
            ys += [y, yo]
        arr, _ = load(files[net])
        d = int(spec["d"])
        for j, L in enumerate(spec["Ls"]):
            t = arr[f"steps_L{L}"] / d
            keep = t > 0
            ax_m.plot(t[keep], arr[f"overlap_L{L}"].mean(axis=0)[keep], color=colour, lw=0.6 + 0.4 * j,
                      label=names[net] if j == 0 else None)
            tt = arr[f"ode_t_L{L}"]
            ax_m.plot(tt[tt > 0], arr[f"ode_m_L{L}"][tt > 0], color="k", lw=0.5, ls="--")
    limits_to_data(ax, x=Ls, y=np.concatenate(ys))
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(label("L"))
    ax.set_ylabel("steps to escape")
    ax.set_title(f"{label(spec['target'])}, $d$ = {spec['d']}, $\\eta$ = {number(spec['lr'])} for both",
                 fontsize=7)
    plain_log_ticks(ax)
    ax.set_xticks(Ls, [f"{L:g}" for L in Ls])      # the few L of the runs, each labelled
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax_m.set_xscale("log")
    ax_m.set_xlabel(label("t"))
    ax_m.set_ylabel("overlap, mean of replicates")
    ax_m.set_title(f"$L$ = {', '.join(str(L) for L in spec['Ls'])} (thicker: larger $L$)", fontsize=7)
    handles = [Patch(color=COLOURS[n], label=names[n]) for n in ("attention", "untied")]
    handles += [Line2D([], [], ls="", marker="o", color="k", label=r"SGD, mean reaches $\bar m = 0.5$"),
                Line2D([], [], ls="", marker="o", color="k", mfc="white", label=r"SGD, mean reaches $2/\sqrt{d}$"),
                Line2D([], [], color="k", lw=1.0, label=r"ODE ($0.5$; dotted $2/\sqrt{d}$; dashed at right)")]
    fig.legend(handles=handles, loc="outside lower center", ncol=3, frameon=False)
    for path in out_paths:
        save_figure(fig, path)
    plt.close(fig)


def figure_data_reduction(file: str, key: str, array):
    """What the figures read of a result array (ssi.experiments.figure_data): the attention figure
    draws the replicate mean of each overlap curve, so the extract keeps that mean."""
    if file.startswith(f"{EXPERIMENT}/attention_") and key.startswith("overlap_L"):
        return array.mean(axis=0, keepdims=True)
    return array


def plot(config, out_paths, numbers=None, load=load_result) -> None:
    """The four figures; a path goes to the figure whose name (``tied_untied_<name>``) it carries.

    ``numbers``: :func:`summarise` (computed when None); ``load(stem)`` reads a result
    (ssi.experiments.figure_data: results/ or the figure data)."""
    numbers = summarise(config) if numbers is None else numbers
    makers = {"escape": plot_escape, "gain": plot_gain, "null": plot_null, "attention": plot_attention}
    for name, maker in makers.items():
        paths = [p for p in out_paths if str(p).rsplit("/", 1)[-1].startswith(f"tied_untied_{name}.")]
        if paths:
            maker(config, numbers, paths, load)


def _x(v, fmt=".2f"):
    return "n/a" if v is None or (isinstance(v, float) and not math.isfinite(v)) else format(v, fmt)


#: the gain exponents the paper claims, by SIE (SIE ≥ 3: "∝ L or constant")
CLAIMED_GAIN = {1: (1.0,), 2: (2.0,)}
CLAIMED_GAIN_HIGH_SIE = (1.0, 0.0)
#: a null-target run "stays at the noise level" when its final overlap is ≤ NULL_FACTOR·d^(−1/2)
NULL_FACTOR = 1.5
C4_RULE = ("gain = T_untied/T_tied at the macroscopic escape (mean overlap 0.5); claimed exponent L^1 (SIE 1), L^2 "
           "(SIE 2), L^1 or L^0 (SIE ≥ 3): reproduced when a claimed exponent lies in the 95 % interval of the SGD "
           "exponent under both learning-rate protocols (one η; each network at its ODE-best η); partly when under "
           "one of them only; differs when under neither")
C4_NULL_RULE = (f"reproduced when every tied run ends within {NULL_FACTOR:g}·d^-½ of zero overlap and every untied run "
                "ends above it; partly when the tied runs stay but some untied run does not rise above it; differs "
                "when a tied run rises above it")


def claimed_gain(k) -> tuple:
    """The gain exponents claim C4 allows at SIE ``k``."""
    return CLAIMED_GAIN.get(k, CLAIMED_GAIN_HIGH_SIE)


def c4_verdict(fits) -> str:
    """Verdict of C4 at one SIE from its macroscopic fits, one per protocol (rule :data:`C4_RULE`)."""
    inside = []
    for f in fits:
        low, high = f["exponent_sgd_low"], f["exponent_sgd_high"]
        if not (finite(low) and finite(high)):
            return "undecided"
        inside.append(any(low <= c <= high for c in claimed_gain(f["sie"])))
    if all(inside):
        return "reproduced"
    return "partly" if any(inside) else "differs"


def c4_null_verdict(null) -> str:
    """Verdict of the C4 null targets (rule :data:`C4_NULL_RULE`)."""
    still = all(n["final_overlap_tied"] <= NULL_FACTOR * n["noise_level"] for n in null)
    learnt = all(n["final_overlap_untied"] > NULL_FACTOR * n["noise_level"] for n in null)
    if not null:
        return "undecided"
    if not still:
        return "differs"
    return "reproduced" if learnt else "partly"


def _claim_law(k) -> str:
    return " or ".join("constant" if c == 0 else ("L" if c == 1 else ("L²" if c == 2 else f"L^{c:g}")) for c in claimed_gain(k))


def claim_rows(config, numbers) -> list[dict]:
    """Claims-table rows for C4: one per SIE (fitted gain exponent per protocol), one for the null targets."""
    command = "snakemake --cores all tied_untied_plot"
    rows = []
    for case, spec in config[EXPERIMENT]["cases"].items():
        parts = []
        for protocol in PROTOCOLS:
            f = fit_of(numbers, case, protocol, "macro")
            a = fit_of(numbers, case, protocol, "authors")
            parts.append(f"SIE {_sie_text(f['sie'])} ({spec['target']}, d={f['d']}, L={f['Ls'][0]}–{f['Ls'][-1]}), "
                         f"{_PROTOCOL_TEXT[protocol]}: gain ∝ L^{_x(f['exponent_sgd'])} "
                         f"[{_x(f['exponent_sgd_low'])}, {_x(f['exponent_sgd_high'])}] at m̄ = {f['level']:g}, "
                         f"L^{_x(a['exponent_sgd'])} [{_x(a['exponent_sgd_low'])}, {_x(a['exponent_sgd_high'])}] "
                         f"at 2/√d; ODE L^{_x(f['exponent_ode'])}")
        fits = {p: fit_of(numbers, case, p, "macro") for p in PROTOCOLS}
        f = fits["same_lr"]
        measured = "; ".join(parts)
        if f["sie"] == 2 and numbers.get("attention"):
            att = ", ".join(f"L={r['L']}: {_x(r['ratio_macro'], '.2g')} (ODE {_x(r['ratio_ode_macro'], '.2g')})"
                            for r in numbers["attention"])
            measured += f". Attention (trace) vs untied square on (1/√L)Σh₂, T_untied/T_attention: {att}"
        rows.append({
            "claim": f"C4 tied vs untied, SIE {_sie_text(f['sie'])}",
            "paper": f"gain T_untied/T_tied ∝ {_claim_law(f['sie'])}",
            "measured": measured + "; see figures/tied_untied_gain.png",
            "headline": (f"gain ∝ L^{interval(f['exponent_sgd'], f['exponent_sgd_low'], f['exponent_sgd_high'])} at one η, "
                         f"L^{interval(fits['best_lr']['exponent_sgd'], fits['best_lr']['exponent_sgd_low'], fits['best_lr']['exponent_sgd_high'])}"
                         f" at each network's best η (d = {f['d']}, L = {f['Ls'][0]}–{f['Ls'][-1]})"),
            "verdict": c4_verdict(fits.values()),
            "figure": "figures/tied_untied_gain.png",
            "command": command,
            "rule": C4_RULE,
        })
    null = numbers["null"]
    still = sum(n["final_overlap_tied"] <= NULL_FACTOR * n["noise_level"] for n in null)
    learnt = sum(n["final_overlap_untied"] > NULL_FACTOR * n["noise_level"] for n in null)
    rows.append({
        "claim": "C4 null targets",
        "paper": "targets the tied network never learns (gain 0) while the untied one does",
        "measured": "final mean overlap: " + "; ".join(
            f"{n['target']} L={n['L']} d={n['d']}: tied SIE {_sie_text(n['sie_tied'])} ends at "
            f"{_x(n['final_overlap_tied'], '.3f')} (d^-½ = {n['noise_level']:.3f}), untied SIE "
            f"{_sie_text(n['sie_untied'])} at {_x(n['final_overlap_untied'], '.2f')}" for n in null)
        + "; see figures/tied_untied_null.png",
        "headline": (f"tied overlap stays within {NULL_FACTOR:g}·d^-½ in {still}/{len(null)} runs "
                     f"(z₁ − z₂, (z₁² − z₂²)/√2; L = {min(n['L'] for n in null)}–{max(n['L'] for n in null)}); "
                     f"the untied one rises above it in {learnt}/{len(null)}"),
        "verdict": c4_null_verdict(null),
        "figure": "figures/tied_untied_null.png",
        "command": command,
        "rule": C4_NULL_RULE,
    })
    return rows
