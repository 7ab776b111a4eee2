"""The authors' experiments, the figures: one per experiment file (and the C4 protocol candidates)."""
from __future__ import annotations

import json
import math

import numpy as np

from ..io import load_result
from . import authors_candidates, authors_verdicts
from .authors_jobs import load_point
from .authors_numbers import none_to_nan, summarise
from .authors_spec import ESCAPED, EXPERIMENT, authors_api, stems, sweep_key, value_key


# --- figures ------------------------------------------------------------------------------------
def figure_names(config) -> list[str]:
    """One figure per experiment file, plus the C4 protocol candidates when configured."""
    extra = [authors_candidates.FIGURE] if authors_candidates.stems(config) else []
    return list(config[EXPERIMENT]["experiments"]) + extra


#: line styles of up to two students in one figure (ODE: dotted, thin)
_STUDENT_STYLES = ("-", (0, (5, 2)))
_ODE_STYLE = (0, (1, 1.2))


def _figure_title(spec) -> str:
    """One line: target, students, d, T, seeds, loss (their file name is the figure's name)."""
    from ..plotting import label, number

    students = " and ".join(label(s) for s in spec["students"])
    return (f"{label(spec['target'])}, {students}, $d$ = {spec['d']}, {number(float(spec['T']))} steps, "
            f"{spec['seeds']} seed{'s' if spec['seeds'] != 1 else ''}, {spec['loss']} loss")


def verdict_text(config, numbers, name) -> str | None:
    """The claim this experiment tests, measured against the paper (None for exploratory runs)."""
    from ..plotting import law, verdict_line

    spec = config[EXPERIMENT]["experiments"][name]
    e = numbers["experiments"][name]
    if spec["role"] == "exploratory" or spec["claim"] not in ("C4", "C5"):
        return None
    if spec["target"] in authors_verdicts.CLAIMED_GAIN:
        key, g = authors_verdicts.gain_of(name, numbers)
        if g is None:
            return "gain: no law (a network never reached $2/\\sqrt{d}$)"
        claimed = authors_verdicts.CLAIMED_GAIN[spec["target"]]
        basis = g.get("decide") or g                   # the many-seed rerun decides when there is one
        measured = law("L", basis.get("exponent"), basis.get("low"), basis.get("high"))
        if g.get("decide"):
            measured += f" ({basis['seeds']} seeds)"
        paper = "$L$" if claimed == 1 else f"$L^{{{claimed:g}}}$"
        return "gain " + verdict_line(measured, paper)
    if spec["target"] in authors_verdicts.NULL_TARGETS:
        c = authors_verdicts.null_counts(spec, e)
        return (f"measured ({c['seeds']} seeds): tied stays below {authors_verdicts.NULL_FACTOR:g}$\\,d^{{-1/2}}$ "
                f"in {c['tied_below']}/{c['tied']}, untied rises above in {c['untied_above']}/{c['untied']} "
                "· paper: the tied network never learns")
    if spec["target"] == "positional_semantic_model" and len(spec["sweep"]["omega"]) > 1:
        sw = e.get("switch_omega")
        measured = (f"switch at $\\omega$ = {sw:.3f}" if sw is not None and math.isfinite(sw)
                    else "no switch by the end")
        return f"measured: {measured} · paper: semantic, then positional as $\\omega$ grows"
    if spec["target"] == "positional_semantic_model":
        r = e["rows"][0]
        share = r.get("share_semantic")
        share = "n/a" if share is None or not math.isfinite(share) else f"{share:.0%}"
        return f"measured: {share} end semantic · paper: the runs end at the global (semantic) minimum"
    return None


def plot_experiment(config, numbers, name, out_paths) -> None:
    """Left: overlap vs steps, one colour per swept value (colour bar; SGD mean thick over its
    replicates, ODE dotted); right: the summary against L or ω, with the verdict."""
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import Normalize
    from matplotlib.lines import Line2D
    from matplotlib.ticker import MaxNLocator, NullFormatter

    from ..plotting import (BLACK, COLOURS, GREEN, GUIDE, WIDTH_DOUBLE, label, limits_to_data, new_figure,
                            place_legends, plain_log_ticks, save_figure)
    import matplotlib.pyplot as plt

    spec = config[EXPERIMENT]["experiments"][name]
    entry = numbers["experiments"][name]
    d = int(spec["d"])
    ode, _ = load_result(stems(config, "ode")[name])
    key = sweep_key(spec)
    values = spec["sweep"][key]
    semantic = spec["target"] == "positional_semantic_model"
    fig, (ax, ax2) = new_figure(ncols=2, nrows=1, width=WIDTH_DOUBLE, height=3.0, squeeze=True)
    cmap = plt.get_cmap("viridis")
    norm = Normalize(min(values), max(values) if max(values) > min(values) else min(values) + 1)
    shown = values if len(values) <= 12 else [values[i] for i in np.linspace(0, len(values) - 1, 6).round().astype(int)]
    styles = dict(zip(spec["students"], _STUDENT_STYLES))
    first_move = []
    for student in spec["students"]:
        for v in shown:
            colour = cmap(norm(v))
            steps, ov, e = load_point(config, name, student, v)
            keep = steps > 0
            for c in ov[:8]:
                ax.plot(steps[keep], c[keep], color=colour, lw=0.3, alpha=0.3, ls=styles[student])
            mean = ov.mean(axis=0)[keep]
            ax.plot(steps[keep], mean, color=colour, lw=1.3, ls=styles[student])
            moved = np.flatnonzero(mean > mean[0] + 0.1 * (mean.max() - mean[0])) if mean.size else []
            if len(moved):
                first_move.append(steps[keep][moved[0]])
            if semantic:
                ax.plot(steps[keep], np.abs(e).mean(axis=0)[keep], color=colour, lw=0.9, ls="-.")
            tag = f"t_{student}_{value_key(v)}"
            if tag in ode:
                t = ode[tag] * d
                ax.plot(t[t > 0], ode[f"m_{student}_{value_key(v)}"][t > 0], color=colour, lw=0.9, ls=_ODE_STYLE)
    ax.axhline(2 / math.sqrt(d), color=GUIDE, lw=0.6, ls=":", zorder=0.5)
    ax.set_xscale("log")
    # start a decade before the first mean curve leaves its start: the plateau before is flat
    left = 10 ** (math.floor(math.log10(min(first_move))) - 1) if first_move else 1.0
    ax.set_xlim(max(1.0, left), None)
    ax.set_xlabel("SGD steps")
    ax.set_ylabel("overlap" + (r" $|m|$, and $|e|$ (dash-dot)" if semantic else ""))
    if len(values) > 1:                      # one colour per swept value: a colour bar says which
        bar = fig.colorbar(ScalarMappable(norm=norm, cmap=cmap), ax=ax, shrink=0.9, pad=0.02)
        bar.ax.set_ylabel(label("L") if key == "L" else label("omega"), rotation=0, va="center", ha="left")
        if key == "L":
            bar.locator = MaxNLocator(integer=True)
            bar.update_ticks()
    style_handles = [Line2D([], [], color=BLACK, lw=1.3, ls=styles[s], label=f"{label(s)}, SGD mean")
                     for s in spec["students"]]
    style_handles += [Line2D([], [], color=BLACK, lw=0.9, ls=_ODE_STYLE, label="ODE"),
                      Line2D([], [], color=GUIDE, lw=0.6, ls=":", label=r"$2/\sqrt{d}$")]
    rows = entry["rows"]
    right_handles = []
    if semantic:
        om = np.array([r["omega"] for r in rows])
        ax2.plot(om, [r["final_overlap_mean"] for r in rows], "o-", ms=3, color=COLOURS["semantic"], label="m")
        ax2.plot(om, [r["final_abs_e_mean"] for r in rows], "s-", ms=3, color=COLOURS["positional"], label="e")
        ax2.plot(om, [r["share_escaped"] for r in rows], "^:", ms=3, color=GREEN, label="escaped")
        right_handles = [Line2D([], [], marker="o", ms=3, color=COLOURS["semantic"], label=r"final $|m|$, mean of seeds"),
                         Line2D([], [], marker="s", ms=3, color=COLOURS["positional"], label=r"final $|e|$, mean of seeds"),
                         Line2D([], [], marker="^", ms=3, ls=":", color=GREEN,
                                label=rf"share with $\sqrt{{m^2 + e^2}} \geq {ESCAPED:g}$")]
        sw = entry.get("switch_omega")
        if sw is not None and np.isfinite(sw):
            ax2.axvline(sw, color=BLACK, lw=0.8, ls="--", zorder=1)
            right_handles.append(Line2D([], [], color=BLACK, lw=0.8, ls="--", label=rf"switch $\omega$ = {sw:.3f}"))
        ax2.set_xlabel(label("omega"))
        ax2.set_ylabel("final overlap, share")
        ax2.set_ylim(-0.03, 1.05)
    else:
        crossing = any(np.isfinite(r["steps_mean_authors"]) for r in rows)
        decided = entry.get("decide")
        ys, missing, flagged = [], [], []
        for student in spec["students"]:
            colour = COLOURS[authors_api().STUDENT_NAMES[student]]
            mine = [r for r in rows if r["student"] == student]
            Ls = np.array([r["L"] for r in mine], float)
            if crossing:
                y = np.array([r["steps_mean_authors"] for r in mine], float)
                yo = np.array([r.get("ode_steps_authors", math.nan) for r in mine], float)
                ax2.plot(Ls, y, "o", ms=3.5, color=colour, zorder=3, label=student)
                ax2.plot(Ls, yo, color=colour, lw=1.0, ls=_ODE_STYLE, zorder=2)
                ys += [y, yo]
                missing += [f"{label(student)} $L$ = {int(r['L'])}" for r, v in zip(mine, y)
                            if not np.isfinite(v) and not r.get("start_flagged_authors")]
                flagged += [f"{label(student)} $L$ = {int(r['L'])}" for r in mine if r.get("start_flagged_authors")]
                if np.isfinite(y).any():
                    right_handles.append(Line2D([], [], marker="o", ms=3.5, ls="", color=colour,
                                                label=f"{label(student)}: SGD, seed mean"))
            else:
                y = np.array([r["final_overlap_mean"] for r in mine], float)
                ax2.plot(Ls, y, "o", ms=3.5, color=colour, zorder=3, label=student)
                ys.append(y)
                right_handles.append(Line2D([], [], marker="o", ms=3.5, ls="", color=colour,
                                            label=f"{label(student)}: final overlap, seed mean"))
            if decided:                        # the many-seed rerun that decides, beside their run
                many = [r for r in decided["rows"] if r["student"] == student]
                ym = np.array([r["steps_mean_authors" if crossing else "final_overlap_mean"] for r in many], float)
                ax2.plot([r["L"] for r in many], ym, "s", ms=3.5, mfc="none", color=colour, zorder=3)
                ys.append(ym)
                right_handles.append(Line2D([], [], marker="s", ms=3.5, ls="", mfc="none", color=colour,
                                            label=f"{label(student)}: mean of {decided['seeds']} seeds"))
        if crossing:
            right_handles.append(Line2D([], [], color=BLACK, lw=1.0, ls=_ODE_STYLE, label="ODE"))
            ax2.set_ylabel("steps to $2/\\sqrt{d}$,\nseed mean")
            ax2.set_yscale("log")
            if missing:
                right_handles.append(Line2D([], [], ls="", label="not reached by the end: " + ", ".join(missing[:4])
                                            + (" …" if len(missing) > 4 else "")))
            if flagged:                        # docs/theory.md, "Crossings of the authors' level"
                right_handles.append(Line2D([], [], ls="", label="start already near the level, not a crossing: "
                                            + ", ".join(flagged[:3]) + (" …" if len(flagged) > 3 else "")))
        else:
            ax2.set_ylabel("final overlap, seed mean")
        all_L = np.array([r["L"] for r in rows], float)
        limits_to_data(ax2, x=all_L)
        limits_to_data(ax2, y=np.concatenate(ys) if ys else None, log=crossing)
        distinct = np.unique(all_L)
        ax2.set_xscale("log" if len(distinct) > 1 else "linear")
        ax2.set_xlabel(label("L"))
        plain_log_ticks(ax2)
        if len(distinct) <= 6:               # a few L: each one labelled
            ax2.set_xticks(distinct, [f"{L:g}" for L in distinct])
            ax2.xaxis.set_minor_formatter(NullFormatter())
    fig.suptitle(_figure_title(spec), fontsize=7)
    verdict = verdict_text(config, numbers, name)
    verdict = verdict.replace(" · ", "\n").replace(", untied", ",\nuntied") if verdict else None
    place_legends([(ax2, {"handles": right_handles, "fontsize": 6, "title": verdict, "title_fontsize": 6,
                          "alignment": "left"}),
                   (ax, {"handles": style_handles, "fontsize": 6})])
    for path in out_paths:
        save_figure(fig, path)
    plt.close(fig)


def plot(config, out_paths, numbers=None) -> None:
    """One figure per experiment; a path goes to the experiment named by its file name.

    ``numbers``: the numbers file as read back (JSON null as nan,
    :func:`ssi.experiments.figure_data.numbers_from_json`); computed from the results when None."""
    from .audit import clean_for_json

    if numbers is None:
        numbers = clean_for_json(summarise(config))
        numbers = json.loads(json.dumps(numbers), parse_constant=float)
        none_to_nan(numbers)
    for name in figure_names(config):
        paths = [p for p in out_paths if str(p).rsplit("/", 1)[-1].rsplit(".", 1)[0] == name]
        if paths and name == authors_candidates.FIGURE:
            authors_candidates.plot(config, numbers["candidates"], paths)
        elif paths:
            plot_experiment(config, numbers, name, paths)


