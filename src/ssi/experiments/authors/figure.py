"""The authors' experiments, the figures: one per experiment file (and the C4 protocol candidates)."""
from __future__ import annotations

import json
import math

import numpy as np

from ...io import load_result
from ...escape import AUTHORS
from . import candidates as authors_candidates
from . import verdicts as authors_verdicts
from .jobs import load_point
from .numbers import none_to_nan, summarise
from .spec import ESCAPED, EXPERIMENT, authors_api, point_L, stems, sweep_key, value_key


# --- figures ------------------------------------------------------------------------------------
def figure_names(config) -> list[str]:
    """One figure per experiment file, plus the C4 protocol candidates when configured."""
    extra = [authors_candidates.FIGURE] if authors_candidates.stems(config) else []
    return list(config[EXPERIMENT]["experiments"]) + extra


def _kind(student: str) -> str:
    """Our network kind ("tied", "untied", "attention") of one of their student names."""
    return authors_api().STUDENT_NAMES[student]


#: their loss names -> words (their "square" is the mean squared error; "frobenius" the unsquared norm)
LOSS_TEXT = {"square": "mean-squared-error loss", "frobenius": r"loss $\Vert y - \hat{y}\Vert_{F}$ (not squared)"}
#: their start names -> words
INIT_TEXT = {"overlapped": "overlapped start", "random": "random start"}


def _figure_title(spec) -> str:
    """One line: target, students, d, T, seeds, start, loss (their file name is the figure's name)."""
    from ...plotting import label, number

    students = " and ".join(label(s) for s in spec["students"])
    start = INIT_TEXT.get(spec.get("init"), "")
    return (f"{label(spec['target'])}, {students}, $d$ = {spec['d']}, {number(float(spec['T']))} steps, "
            f"{spec['seeds']} seed{'s' if spec['seeds'] != 1 else ''}, " + (f"{start}, " if start else "")
            + LOSS_TEXT.get(spec["loss"], f"{spec['loss']} loss"))


def _short(spec) -> str:
    """What a verdict row of one experiment is about, in words (their file name is not shown)."""
    target = spec["target"]
    if target in authors_verdicts.CLAIMED_GAIN:
        return f"{spec['claim']} gain"
    if target in authors_verdicts.NULL_TARGETS:
        return f"{spec['claim']} null target"
    if target == "positional_semantic_model":
        return f"{spec['claim']} " + ("semantic to positional" if len(spec["sweep"]["omega"]) > 1 else "end point")
    return str(spec["claim"])


#: words of the candidates' headline for the protocol labels of ssi.experiments.authors.candidates
_PROTOCOL_WORDS = {"(ii) untied alone": "untied steps alone ∝",
                   "(i) untied/attention": "gain untied/attention (each at its best $\\eta$) ∝",
                   "(ii) ": "", "(i) ": "",
                   "scales with L (sqrt)": "scales as $\\sqrt{L}$", "scales with L (linear)": "scales as $L$"}


def _visible_length(text: str) -> int:
    """About how many characters ``text`` shows (mathtext commands and braces not counted)."""
    import re

    return len(re.sub(r"\\[a-zA-Z]+|[${}^_]", "", text))


def finding_line(row: dict, short: str | None = None, width: int = 112) -> str:
    """The finding of a verdict row (:func:`ssi.plotting.finding_text`) in words a figure shows:
    ``short`` instead of the row's own (a config file name), their network names in words,
    d^-½ as mathtext; broken into lines of at most about ``width`` characters, after the verdict
    and between the headline's parts (its "; ") where it can."""
    import textwrap

    from ...plotting import finding_text, label

    row = dict(row)
    if short is not None or ".yaml" in row["short"] or "_" in row["short"]:
        row["short"] = short or row.get("claim", "")
    text = row["headline"]
    for theirs in authors_api().STUDENT_NAMES:
        text = text.replace(theirs, label(theirs))
    for old, new in _PROTOCOL_WORDS.items():
        text = text.replace(old, new)
    row["headline"] = text.replace("·d^-½", "/$\\sqrt{d}$").replace("_", " ")
    head = finding_text(row, headline=False) + ":"
    body = finding_text(row)[len(head) + 1:]
    parts = body.split("; ")
    pieces = [head] + [p + (";" if i < len(parts) - 1 else "") for i, p in enumerate(parts)]
    lines, line = [], ""
    for piece in pieces:
        joined = f"{line} {piece}" if line else piece
        if _visible_length(joined) <= width:
            line = joined
            continue
        if line:
            lines.append(line)
        wrapped = textwrap.wrap(piece, width) or [""]
        lines += wrapped[:-1]
        line = wrapped[-1]
    lines.append(line)
    return "\n".join(lines)


def key_number(config, numbers, name) -> str | None:
    """The gain of an exploratory experiment (no verdict row): T_untied/T_tied against L, SGD and
    ODE, from the numbers (None when it has none)."""
    from ...plotting import law

    spec = config[EXPERIMENT]["experiments"][name]
    if spec["role"] != "exploratory":
        return None
    key, g = authors_verdicts.gain_of(name, numbers)
    if g is None:
        return None
    interval = "" if math.isfinite(g.get("low", math.nan)) else " (one seed per point, no interval)"
    ode = g.get("ode_exponent")
    only = f" ($L \\leq {int(spec['ode_max_L'])}$)" if "ode_max_L" in spec else ""
    ode = f"; ODE{only} {law('L', ode)}" if ode is not None and math.isfinite(ode) else ""
    return (f"exploratory (no claim of the paper): gain $T_{{\\rm untied}}/T_{{\\rm tied}}$ "
            f"at ${AUTHORS.level_tex()}$ "
            f"∝ {law('L', g['exponent'], g.get('low'), g.get('high'))}{interval}{ode}")


def verdict_text(config, numbers, name) -> str | None:
    """The claim this experiment tests, measured against the paper (None for exploratory runs)."""
    from ...plotting import law, verdict_line

    spec = config[EXPERIMENT]["experiments"][name]
    e = numbers["experiments"][name]
    if spec["role"] == "exploratory" or spec["claim"] not in ("C4", "C5"):
        return None
    if spec["target"] in authors_verdicts.CLAIMED_GAIN:
        key, g = authors_verdicts.gain_of(name, numbers)
        if g is None:
            return f"gain: no law (a network never reached ${AUTHORS.level_tex()}$)"
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


def _pack(items, width: int = 42) -> str:
    """``items`` (words or names, none broken) joined by spaces into lines of about ``width`` characters."""
    lines = [""]
    for item in items:
        joined = f"{lines[-1]} {item}".strip()
        if lines[-1] and _visible_length(joined) > width:
            lines.append(item)
        else:
            lines[-1] = joined
    return "\n".join(lines)


def _listed(items) -> list[str]:
    """``items`` with a comma after each but the last."""
    return [f"{x}," for x in items[:-1]] + list(items[-1:])


def _row_of(verdicts, key):
    """The verdict row whose key is ``key`` (None when there is none)."""
    return next((r for r in verdicts or () if r.get("key") == key), None)


def plot_experiment(config, numbers, name, out_paths, row: dict | None = None) -> None:
    """(a) Overlap against SGD steps, one colour per swept value (colour bar; one colour per network
    or overlap when there is one value): SGD seed mean as markers (± one standard error over
    seeds), the ODE as lines. (b) The summary against L or ω: steps to the authors' escape level,
    :data:`ssi.escape.AUTHORS` (the null targets: the final overlap against the noise level; C5:
    the final overlaps and the escaped share), SGD as run (filled) and in the many-seed rerun
    (open), the ODE as lines. First line: the finding of the verdict ``row``
    (:func:`finding_line`), or an exploratory file's gain (:func:`key_number`)."""
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import Normalize
    from matplotlib.lines import Line2D
    from matplotlib.ticker import MaxNLocator, NullFormatter

    from ... import plotting
    from ...plotting import (BLACK, COLOURS, FINDING_SIZE, MARKERS, ODE_STYLE, SGD_STYLE, THRESHOLD_STYLE, WIDTH_DOUBLE,
                            label, limits_to_data, new_figure, panel_letters, place_legends, plain_log_ticks,
                            wrap_to_width, save_figure)
    import matplotlib.pyplot as plt

    spec = config[EXPERIMENT]["experiments"][name]
    entry = numbers["experiments"][name]
    d = int(spec["d"])
    ode, _ = load_result(stems(config, "ode")[name])
    key = sweep_key(spec)
    values = spec["sweep"][key]
    semantic = spec["target"] == "positional_semantic_model"
    null = spec["target"] in authors_verdicts.NULL_TARGETS
    single = len(values) == 1              # one value: colours name the networks (or m and e), not L
    fig, (ax, ax2) = new_figure(ncols=2, nrows=1, width=WIDTH_DOUBLE, height=4.4, squeeze=True,
                                gridspec_kw={"width_ratios": [2, 1] if single else [1, 1]})
    cmap = plt.get_cmap(plotting.ORDERED_CMAP)
    norm = Normalize(min(values), max(values) if max(values) > min(values) else min(values) + 1)
    shown = values if len(values) <= 12 else [values[i] for i in np.linspace(0, len(values) - 1, 6).round().astype(int)]

    def colour(v, concept):
        return COLOURS[concept] if single else cmap(norm(v))

    ms = plotting.TRAJECTORY_MARKERSIZE
    first_move, ode_cut, many = [], False, False
    sgd, odes = [], []                       # (steps, curves (R, K), colour, marker); (t, m, colour)
    for student in spec["students"]:
        kind = _kind(student)
        for v in shown:
            steps, ov, e = load_point(config, name, student, v)
            keep = steps > 0
            mean = ov.mean(axis=0)[keep]
            moved = np.flatnonzero(mean > mean[0] + 0.1 * (mean.max() - mean[0])) if mean.size else []
            if len(moved):
                first_move.append(steps[keep][moved[0]])
            for curves, concept in ([(ov, "semantic"), (np.abs(e), "positional")] if semantic else [(ov, kind)]):
                sgd.append((steps[keep], curves[:, keep], colour(v, concept), MARKERS[concept]))
            tag = f"t_{student}_{value_key(v)}"
            if tag in ode:
                t, m = ode[tag] * d, ode[f"m_{student}_{value_key(v)}"]
                t, m = t[t > 0], m[t > 0]
                top = int(np.argmax(m)) if m.size else 0
                if kind == "untied" and 0 < top < m.size - 1 and m[top] > 1.05 * m[-1]:
                    t, m, ode_cut = t[:top + 1], m[:top + 1], True       # see the note below
                odes.append((t, m, colour(v, "semantic" if semantic else kind)))
    # start a decade before the first mean curve leaves its start: the plateau before is flat
    left = max(1.0, 10 ** (math.floor(math.log10(min(first_move))) - 1) if first_move else 1.0)
    right = max([s_[-1] for s_, *_ in sgd if s_.size] + [t[-1] for t, *_ in odes if t.size])
    means = [c.mean(axis=0) for _, c, *_ in sgd] + [m for _, m, _ in odes]
    top_y = max(float(np.nanmax(x)) for x in means if x.size)
    low_y = min(0.0, min(float(np.nanmin(x)) for x in means if x.size))
    for steps, curves, c, marker in sgd:
        mean = curves.mean(axis=0)
        se = curves.std(axis=0, ddof=1) / math.sqrt(curves.shape[0]) if curves.shape[0] > 1 else None
        many |= se is not None
        idx = plotting.thin_by_distance(steps, mean, (left, right), (low_y, top_y))
        ax.errorbar(steps[idx], mean[idx], yerr=None if se is None else se[idx], color=c,
                    **{**SGD_STYLE, "marker": marker, "markersize": ms})
    for t, m, c in odes:
        ax.plot(t, m, color=c, **ODE_STYLE)
    ode_drawn = bool(odes)
    ax.axhline(AUTHORS.value(d), zorder=0.5, **THRESHOLD_STYLE)
    ax.set_xscale("log")
    ax.set_xlim(left, None)
    ax.set_xlabel("SGD steps")
    untied_here = any(_kind(s) == "untied" for s in spec["students"])
    ax.set_ylabel(r"overlaps $|m|$ and $|e|$" if semantic else
                  "overlap" + ("\n(untied: RMS over tokens)" if untied_here else ""))
    if not single:                           # one colour per swept value: a colour bar says which
        bar = fig.colorbar(ScalarMappable(norm=norm, cmap=cmap), ax=ax, shrink=0.9, pad=0.02)
        bar.ax.set_ylabel(label("L") if key == "L" else label("omega"), rotation=0, va="center", ha="left")
        if key == "L":
            bar.locator = MaxNLocator(integer=True)
            bar.update_ticks()
    neutral = BLACK
    spread = " ± s.e." if many else ""
    if semantic:
        style_handles = [Line2D([], [], ls="none", marker=MARKERS[c], ms=ms, color=colour(values[0], c) if single
                                else neutral, label=f"{sym}: SGD, seed mean{spread}")
                         for c, sym in (("semantic", "$|m|$"), ("positional", "$|e|$"))]
    else:
        style_handles = [Line2D([], [], ls="none", marker=MARKERS[_kind(s)], ms=ms,
                                color=COLOURS[_kind(s)] if single else neutral,
                                label=f"{label(s)}: SGD, seed mean{spread}") for s in spec["students"]]
    beyond = "ode_max_L" in spec and max(point_L(spec, v) for v in values) > int(spec["ode_max_L"])
    ode_only = f" ($L \\leq {int(spec['ode_max_L'])}$ only)" if beyond else ""
    if ode_drawn:
        style_handles.append(Line2D([], [], color=neutral, **ODE_STYLE, label="ODE" + ode_only))
    style_handles.append(Line2D([], [], **THRESHOLD_STYLE, label=f"${AUTHORS.level_tex()}$"))
    left_notes = []
    if spec["stop_level"] is not None:
        left_notes.append(f"SGD runs may stop early, once their\nmean overlap reaches {float(spec['stop_level']):g}")
    if ode_cut:
        left_notes.append("untied ODE drawn to its peak: past it the\nODE leaves its sphere $|W|^{2} = Ld$ (unstable\n"
                          "in the equations; SGD renormalises)\nand its overlap falls with the norm")

    rows = entry["rows"]
    right_handles, right_notes = [], []
    if semantic:
        om = np.array([r["omega"] for r in rows])
        se = np.array([r["final_overlap_sd"] / math.sqrt(r["seeds"]) if r["seeds"] > 1 else math.nan for r in rows])
        ax2.errorbar(om, [r["final_overlap_mean"] for r in rows], yerr=np.where(np.isfinite(se), se, 0.0),
                     color=COLOURS["semantic"], **{**SGD_STYLE, "marker": MARKERS["semantic"]})
        ax2.errorbar(om, [r["final_abs_e_mean"] for r in rows], color=COLOURS["positional"],
                     **{**SGD_STYLE, "marker": MARKERS["positional"]})
        ax2.errorbar(om, [r["share_escaped"] for r in rows], color=COLOURS["sgd"], zorder=1.5,   # under m and e
                     **{**SGD_STYLE, "marker": plotting.SHARE_MARKER, "markersize": 3.0})
        right_handles = [Line2D([], [], ls="none", marker=MARKERS["semantic"], ms=3.5, color=COLOURS["semantic"],
                                label=r"final $|m|$, seed mean" + (" ± s.e." if np.isfinite(se).any() else "")),
                         Line2D([], [], ls="none", marker=MARKERS["positional"], ms=3.5, color=COLOURS["positional"],
                                label=r"final $|e|$, seed mean"),
                         Line2D([], [], ls="none", marker=plotting.SHARE_MARKER, ms=3.0, color=COLOURS["sgd"],
                                label=rf"share of runs with $\sqrt{{m^2 + e^2}} \geq {ESCAPED:g}$")]
        sw = entry.get("switch_omega")
        if sw is not None and np.isfinite(sw):
            ax2.axvline(sw, zorder=0.5, **THRESHOLD_STYLE)
            right_handles.append(Line2D([], [], **THRESHOLD_STYLE, label=rf"switch at $\omega$ = {sw:.3f}"))
        ax2.set_xlabel(label("omega"))
        ax2.set_ylabel("final overlap, share of runs")
        ax2.set_ylim(-0.03, 1.05)
        if len(om) == 1:                     # one ω: a narrow window around it
            ax2.set_xlim(om[0] - 0.05, om[0] + 0.05)
            ax2.set_xticks([om[0]], [f"{om[0]:g}"])
    else:
        crossing = not null and any(np.isfinite(r["steps_mean_authors"]) for r in rows)
        n_se = authors_verdicts.NULL_STANDARD_ERRORS if null else 1.0
        decided = entry.get("decide")
        ys = []
        level = authors_verdicts.NULL_FACTOR / math.sqrt(d)

        def final(rs):
            y = np.array([r["final_overlap_mean"] for r in rs], float)
            err = np.array([n_se * r["final_overlap_sd"] / math.sqrt(r["seeds"]) if r["seeds"] > 1 else math.nan
                            for r in rs], float)
            return y, err

        bars = f" ± {n_se:g} s.e." if n_se != 1 else " ± s.e."
        ode_line = False
        missing, flagged = [], []
        for student in spec["students"]:
            kind = _kind(student)
            colour_s, marker = COLOURS[kind], MARKERS[kind]
            mine = [r for r in rows if r["student"] == student]
            Ls = np.array([r["L"] for r in mine], float)
            if crossing:
                y, err = np.array([r["steps_mean_authors"] for r in mine], float), None
                yo = np.array([r.get("ode_steps_authors", math.nan) for r in mine], float)
                missing += [f"{label(student)} $L$ = {int(r['L'])}" for r, v in zip(mine, y)
                            if not np.isfinite(v) and not r.get("start_flagged_authors")]
                flagged += [f"{label(student)} $L$ = {int(r['L'])}" for r in mine if r.get("start_flagged_authors")]
            else:
                y, err = final(mine)
                yo = np.array([ode[f"m_{student}_{value_key(int(L))}"][-1] if f"m_{student}_{value_key(int(L))}" in ode
                               else math.nan for L in Ls], float)
            seeds_run = mine[0]["seeds"] if mine else spec["seeds"]
            if np.isfinite(y).any():
                ax2.errorbar(Ls, y, yerr=None if err is None or not np.isfinite(err).any()
                             else np.where(np.isfinite(err), err, 0.0),
                             color=colour_s, zorder=3, label=label(student), **{**SGD_STYLE, "marker": marker})
                right_handles.append(Line2D([], [], ls="none", marker=marker, ms=3.5, color=colour_s,
                                            label=f"{label(student)}: SGD as run, {seeds_run} seed"
                                                  + ("s" if seeds_run != 1 else "")
                                                  + ("" if crossing or seeds_run == 1 else bars)))
            ys.append(y)
            if np.isfinite(yo).any():
                ax2.plot(Ls, yo, color=colour_s, zorder=2, **ODE_STYLE)
                ys.append(yo)
                ode_line = True
            if decided:                        # the many-seed rerun that decides, beside their run
                mine = [r for r in decided["rows"] if r["student"] == student]
                if crossing:
                    ym, err = np.array([r["steps_mean_authors"] for r in mine], float), None
                else:
                    ym, err = final(mine)
                if np.isfinite(ym).any():
                    ax2.errorbar([r["L"] for r in mine], ym, yerr=None if err is None or not np.isfinite(err).any()
                                 else np.where(np.isfinite(err), err, 0.0), color=colour_s, zorder=3,
                                 **{**SGD_STYLE, "marker": marker, "mfc": "none"})
                    ys.append(ym if err is None else np.r_[ym - np.nan_to_num(err), ym + np.nan_to_num(err)])
                    right_handles.append(Line2D([], [], ls="none", marker=marker, ms=3.5, mfc="none", color=colour_s,
                                                label=f"{label(student)}: SGD, {decided['seeds']} seeds"
                                                      + ("" if crossing else bars)))
        if ode_line:
            right_handles.append(Line2D([], [], color=BLACK, **ODE_STYLE,
                                        label="ODE" + ("" if crossing else " at the end") + ode_only))
        if null:
            ax2.axhline(level, zorder=0.5, **THRESHOLD_STYLE)
            ys.append(np.array([level]))
            right_handles.append(Line2D([], [], **THRESHOLD_STYLE,
                                        label=rf"${authors_verdicts.NULL_FACTOR:g}/\sqrt{{d}}$: noise level"))
        if missing:
            right_notes.append(_pack(["not reached by the end:"]
                                     + _listed(missing[:4] + (["…"] if len(missing) > 4 else []))))
        if flagged:                        # docs/theory.md, "Crossings of the authors' level"
            right_notes.append(_pack(["start already near the level,", "not a crossing:"]
                                     + _listed(flagged[:3] + (["…"] if len(flagged) > 3 else []))))
        ax2.set_ylabel(f"steps to {AUTHORS.level_text()}, seed mean" if crossing else
                       "final overlap, seed mean")
        all_L = np.array([r["L"] for r in rows], float)
        limits_to_data(ax2, x=all_L)
        log_y = crossing or null
        limits_to_data(ax2, y=np.concatenate(ys) if ys else None, log=log_y)
        if log_y:
            ax2.set_yscale("log")
        distinct = np.unique(all_L)
        ax2.set_xscale("log" if len(distinct) > 1 else "linear")
        ax2.set_xlabel(label("L"))
        plain_log_ticks(ax2)
        if len(distinct) <= 6:               # a few L: each one labelled
            ax2.set_xticks(distinct, [f"{L:g}" for L in distinct])
            ax2.xaxis.set_minor_formatter(NullFormatter())
    top = finding_line(row, _short(spec)) if row else key_number(config, numbers, name)
    heading = (top + "\n" if top else "") + _figure_title(spec)
    heading = "\n".join(wrap_to_width(fig, line, FINDING_SIZE, fig.get_figwidth() * 72 - 10) for line in heading.split("\n"))
    fig.suptitle(heading, x=0.01, ha="left", multialignment="left", fontsize=FINDING_SIZE)
    if row is None:                          # no finding line: the verdict heads the summary's legend
        verdict = verdict_text(config, numbers, name)
        if verdict:
            right_notes.insert(0, verdict.replace(" · ", "\n").replace(", untied", ",\nuntied"))
    panel_letters([ax, ax2])
    place_legends([(ax2, {"handles": right_handles, "title": "\n".join(right_notes) or None, "alignment": "left"}),
                   (ax, {"handles": style_handles, "title": "\n".join(left_notes) or None, "alignment": "left"})])
    for path in out_paths:
        save_figure(fig, path)
    plt.close(fig)


# --- the protocol candidates (ssi.experiments.authors.candidates) -------------------------------------
#: words, colour and marker kind of the families (a colour of ssi.plotting.COLOURS, or "sky")
FAMILY_TEXT = {"untied_H2sum": (r"untied network, $\Sigma\,\mathrm{He}_2$", "untied"),
               "tied_H2sum": (r"tied network, $\Sigma\,\mathrm{He}_2$", "tied"),
               "attention_H2sum": (r"attention, $\Sigma\,\mathrm{He}_2$", "attention"),
               "tied_inversesqrtH2sum": (r"tied network, $\Sigma\,\mathrm{He}_2/\sqrt{L}$", "sky")}
#: words of the gains; each is drawn in the colour and marker of the family it divides by (the
#: untied steps alone in the untied family's)
GAIN_TEXT = {"i_untied_over_attention": r"untied / attention, each at its best $\eta$",
             "ii_untied_alone": "untied steps alone (a constant tied time)",
             "ii_untied_over_tied_normalised": r"untied / tied network on $\Sigma\,\mathrm{He}_2/\sqrt{L}$",
             "untied_over_tied": r"untied / tied network, both on $\Sigma\,\mathrm{He}_2$"}
#: the gains that answer the authors' question (each with the paper's L² drawn through its first point)
CANDIDATES = ("i_untied_over_attention", "ii_untied_alone")
#: the key of this figure's row in the verdict file
VERDICT_KEY = "candidates"


def plot_candidates(config, numbers: dict, out_paths, verdicts: list[dict] | None = None) -> None:
    """(a) Steps to the authors' escape level (:data:`ssi.escape.AUTHORS`) against L per family
    (SGD seed mean as markers, the ODE as lines); (b) the gains, each with its measured law, and
    the paper's L² (dashed). First line: the finding of the verdict row keyed "candidates" among
    ``verdicts`` (none without it)."""
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    from ...plotting import (COLOURS, LAW_STYLE, MARKERS, ODE_STYLE, SGD_STYLE, SKY, WIDTH_DOUBLE, law,
                            limits_to_data, new_figure, place_legends, plain_log_ticks, save_figure)
    from ...plotting import FINDING_SIZE, panel_letters

    fig, (ax, ax2) = new_figure(ncols=2, nrows=1, width=WIDTH_DOUBLE, height=3.6, squeeze=True)
    colours = {key: (SKY if kind == "sky" else COLOURS[kind]) for key, (_, kind) in FAMILY_TEXT.items()}
    markers = {key: MARKERS["tied" if kind == "sky" else kind] for key, (_, kind) in FAMILY_TEXT.items()}
    handles, xs, ys = [], [], []
    for key, f in numbers["families"].items():
        ax.errorbar(f["Ls"], f["steps_sgd"], color=colours[key], zorder=3, label=key,
                    **{**SGD_STYLE, "marker": markers[key]})
        ax.plot(f["Ls"], f["steps_ode"], color=colours[key], zorder=2, **ODE_STYLE)
        handles.append(Line2D([], [], marker=markers[key], ms=3.5, color=colours[key], **ODE_STYLE,
                              label=f"{FAMILY_TEXT[key][0]}: SGD {law('L', f['exponent_sgd'], f['low'], f['high'])}, "
                                    f"ODE {law('L', f['exponent_ode'])}"))
        xs.append(np.asarray(f["Ls"], float))
        ys += [np.asarray(f["steps_sgd"], float), np.asarray(f["steps_ode"], float)]
    limits_to_data(ax, x=np.concatenate(xs), y=np.concatenate(ys))
    ax.set(xscale="log", yscale="log", xlabel="$L$", ylabel=f"steps to {AUTHORS.level_text()}\nseed mean")
    ax.set_title(r"each network at its ODE-best $\eta$")
    plain_log_ticks(ax)
    gain_handles, xs, ys = [], [], []
    law_drawn = False
    for name, g in numbers["gains"].items():
        family = authors_candidates.GAINS[name][1] or authors_candidates.GAINS[name][0]          # the family it divides by (or the untied steps)
        colour, marker = colours[family], markers[family]
        ax2.errorbar(g["Ls"], g["gain_sgd"], color=colour, zorder=3, label=name, **{**SGD_STYLE, "marker": marker})
        ax2.plot(g["Ls"], g["gain_ode"], color=colour, zorder=2, **ODE_STYLE)
        gain_handles.append(Line2D([], [], marker=marker, ms=3.5, color=colour, **ODE_STYLE,
                                   label=f"{GAIN_TEXT[name]}: {law('L', g['exponent_sgd'], g['low'], g['high'])}"))
        Ls = np.asarray(g["Ls"], float)
        xs.append(Ls)
        ys += [np.asarray(g["gain_sgd"], float), np.asarray(g["gain_ode"], float)]
        y0 = g["gain_sgd"][0] if g["gain_sgd"] else None
        if name in CANDIDATES and y0 and math.isfinite(y0):
            (line,) = ax2.plot(Ls, y0 * (Ls / Ls[0]) ** 2, zorder=0.5, **LAW_STYLE)
            line.set_gid("guide")
            law_drawn = True
    if law_drawn:
        gain_handles.append(Line2D([], [], **LAW_STYLE, label=r"paper: $\propto L^{2}$ (through the first point)"))
    limits_to_data(ax2, x=np.concatenate(xs), y=np.concatenate(ys))
    ax2.set(xscale="log", yscale="log", xlabel="$L$", ylabel="gain (ratio of steps)")
    ax2.set_title(f"gains at $d$ = {numbers['d']}")
    plain_log_ticks(ax2)
    row = next((r for r in verdicts or () if r.get("key") == VERDICT_KEY), None)
    if row:
        fig.suptitle(finding_line(row), x=0.01, ha="left", multialignment="left", fontsize=FINDING_SIZE)
    panel_letters([ax, ax2])
    title = {"title": "points: SGD, seed mean; lines: ODE", "alignment": "left"}
    place_legends([(ax2, {"handles": gain_handles, **title}), (ax, {"handles": handles, **title})])
    for path in out_paths:
        save_figure(fig, path)
    plt.close(fig)


def plot(config, out_paths, numbers=None, verdicts: list[dict] | None = None) -> None:
    """One figure per experiment; a path goes to the experiment named by its file name.

    ``numbers``: the numbers file as read back (JSON null as nan,
    :func:`ssi.experiments.figure_data.numbers_from_json`); computed from the results when None.
    ``verdicts``: the rows of the verdict file whose result is "authors" (a figure's row has its
    name as ``key``; the candidates' row the key "candidates"): each figure's first line states
    its row's finding. None or []: no finding line."""
    from ..audit import clean_for_json

    if numbers is None:
        numbers = clean_for_json(summarise(config))
        numbers = json.loads(json.dumps(numbers), parse_constant=float)
        none_to_nan(numbers)
    for name in figure_names(config):
        paths = [p for p in out_paths if str(p).rsplit("/", 1)[-1].rsplit(".", 1)[0] == name]
        if paths and name == authors_candidates.FIGURE:
            plot_candidates(config, numbers["candidates"], paths, verdicts=verdicts)
        elif paths:
            plot_experiment(config, numbers, name, paths, row=_row_of(verdicts, name))
