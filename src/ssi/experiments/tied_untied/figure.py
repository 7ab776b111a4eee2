"""Claim C4, tied vs untied, the figures: escape steps, gain, null cases, attention.

Every figure speaks the visual grammar of :mod:`ssi.plotting`: SGD as markers (a marker and a
colour per network, :data:`~ssi.plotting.MARKERS` / :data:`~ssi.plotting.COLOURS`; filled at the
macroscopic escape level, open at the authors' early one), the ODE as solid lines in the colour of
what it is, the paper's law a grey dashed line, a threshold a grey dotted one."""
from __future__ import annotations

import math
import re

import numpy as np

from ...io import load_result
from ...verdicts import PRECEDENCE
from .jobs import EXPERIMENT, NETWORKS, PROTOCOLS, THRESHOLDS, escapes, stems
from .numbers import fit_of, summarise

#: words that a line break never separates from their neighbours
_GLUED = ("=", "≈", "−", "×", "<", ">", "≤", "≥")


def _visible_length(word: str) -> int:
    return len(re.sub(r"\$|\\[a-zA-Z]+|[{}^_]", "", word))


def wrap(text: str, chars: int) -> str:
    """``text`` broken into lines of at most ``chars`` visible characters (mathtext markup not
    counted), at spaces outside ``$…$`` only and never beside a relation or a minus sign
    ("$d$ = 1000", "z₁ − z₂" stay whole)."""
    words, glue = [], False
    for word in text.split(" "):
        if words and (glue or words[-1].count("$") % 2 or word in _GLUED):   # inside mathtext: no break
            words[-1] += " " + word
        else:
            words.append(word)
        glue = word in _GLUED
    lines, line, n = [], [], 0
    for word in words:
        v = _visible_length(word)
        if line and n + 1 + v > chars:
            lines.append(" ".join(line))
            line, n = [word], v
        else:
            n += v + (1 if line else 0)
            line.append(word)
    return "\n".join(lines + [" ".join(line)])


def along(x, y, n: int, xlog: bool = True, ylog: bool = False, yspan=None, phase: float = 0.0):
    """Indices of ``n`` points spread evenly along the drawn curve (x, y) (arc length on the axes,
    log where the axis is, y measured against ``yspan``): where a trajectory's SGD markers go.
    ``phase`` (a fraction of the spacing) shifts them, so that two curves that coincide show both."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    ok = np.flatnonzero(np.isfinite(x) & np.isfinite(y) & ((x > 0) if xlog else True) & ((y > 0) if ylog else True))
    if ok.size <= n:
        return ok
    X = np.log10(x[ok]) if xlog else x[ok]
    Y = np.log10(y[ok]) if ylog else y[ok]
    lo, hi = (np.log10(yspan) if ylog else np.asarray(yspan, float)) if yspan is not None else (Y.min(), Y.max())
    X = (X - X.min()) / max(X.max() - X.min(), 1e-12)
    Y = (Y - lo) / max(hi - lo, 1e-12)
    s = np.concatenate([[0.0], np.cumsum(np.hypot(np.diff(X), np.diff(Y)))])
    targets = np.minimum((np.arange(n) + phase) * s[-1] / (n - 1), s[-1])
    return ok[np.unique(np.searchsorted(s, targets).clip(0, ok.size - 1))]


def rows_for(verdicts, figure: str) -> list[dict]:
    """The verdict rows whose figure is ``figure`` (e.g. ``tied_untied_gain``)."""
    return [r for r in verdicts or () if str(r.get("figure", "")).rsplit("/", 1)[-1].split(".")[0] == figure]


# --- figures ------------------------------------------------------------------------------------
FIGURE_NAMES = ("escape", "gain", "null", "attention")
#: the figures, in the figures folder without suffix (ssi.experiments.registry)
FIGURES = tuple(f"tied_untied_{name}" for name in FIGURE_NAMES)
PROTOCOL_TEXT = {"same_lr": "same η for both", "best_lr": "best η per network (ODE)"}
#: the gain law the paper claims per SIE (claim C4): exponent of L, and its words
PAPER_GAIN = {1: (1, "$L$"), 2: (2, "$L^{2}$"), 3: (1, "$L$ or constant")}
#: the gain exponents the paper allows per SIE, drawn as its laws (ssi.experiments.tied_untied.claimed_gain)
PAPER_EXPONENTS = {1: (1.0,), 2: (2.0,)}
PAPER_EXPONENTS_HIGH_SIE = (1.0, 0.0)


def sie_words(k) -> str:
    """The SIE ``k`` in words ("∞" for an SIE that is not finite)."""
    # an SIE is an integer or ∞; a numbers file read back from JSON holds ∞ as null (nan)
    return "∞" if k is None or (isinstance(k, float) and not math.isfinite(k)) else str(k)


def _case_title(spec, k, d):
    from ...plotting import label, sie_text

    target = label(spec["target"]).removesuffix(" target")
    return f"{sie_text(k)}: {target}, {label(spec.get('activation', 'relu'))}, $d$ = {d}"


def sgd_points(ax, x, y, colour, marker, filled=True, yerr=None, **kwargs):
    """SGD as markers (with error bars when ``yerr`` is given), never joined (SGD_STYLE)."""
    from ...plotting import OPEN_FACE, SGD_STYLE

    kwargs.setdefault("zorder", 3)
    return ax.errorbar(x, y, yerr=yerr, color=colour, mec=colour, mfc=colour if filled else OPEN_FACE,
                       **{**SGD_STYLE, "marker": marker}, **kwargs)


def legend_marker(colour, marker, filled=True):
    """A legend handle: an SGD marker (open: ``filled`` False)."""
    from ...plotting import OPEN_FACE
    from matplotlib.lines import Line2D

    from ...plotting import SGD_STYLE

    return Line2D([], [], ls="none", marker=marker, ms=SGD_STYLE["markersize"] + 0.5, color=colour, mec=colour,
                  mfc=colour if filled else OPEN_FACE)


def legend_line(colour, style):
    """A legend handle: a line in ``colour`` and ``style``."""
    from matplotlib.lines import Line2D

    return Line2D([], [], color=colour, **style)


def ticks_at(ax, values, most: int = 6) -> None:
    """Major ticks of a log x axis at the few ``values`` of the runs (at most ``most``), each labelled."""
    from matplotlib.ticker import NullFormatter

    values = np.unique(np.asarray(values, float))
    if 1 < values.size <= most:
        ax.set_xticks(values, [f"{v:g}" for v in values])
        ax.xaxis.set_minor_formatter(NullFormatter())


def figure_legend(fig, items, ncol, **kwargs):
    """A legend under the panels from (handle or tuple of handles, text) items."""
    from matplotlib.legend_handler import HandlerTuple

    handles, texts = zip(*items)
    return fig.legend(handles, texts, loc="outside lower center", ncol=ncol, frameon=False,
                      handler_map={tuple: HandlerTuple(ndivide=None, pad=0.3)}, **kwargs)


def plot_escape(config, numbers, out_paths, load=load_result, verdicts=None) -> None:
    """Rows: cases; columns: protocols. Escape steps vs L: SGD (the replicate mean's crossings,
    filled at the macroscopic level, open at the authors' one; the median replicate's crossing ×),
    the ODE (lines: thick at the macroscopic level, thin at the authors' one). ``verdicts``: unused
    (the gain figure states the finding)."""
    from ... import plotting
    from ...plotting import (ODE_SECOND_LEVEL_STYLE, panel_letters, COLOURS, MARKERS, ODE_STYLE, WIDTH_DOUBLE, label, limits_to_data, new_figure,
                            plain_log_ticks, save_figure)
    import matplotlib.pyplot as plt

    section = config[EXPERIMENT]
    cases = list(section["cases"])
    fig, axes = new_figure(ncols=2, nrows=len(cases), width=WIDTH_DOUBLE, height=2.0 * len(cases) + 0.7,
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
                    y = np.array([x[f"steps_{net}_{thr}"] for x in rows])
                    sgd_points(ax, Ls, y, colour, MARKERS[net], filled=thr == "macro",
                               label=f"{label(net)}, {escapes(section)[thr].symbol()}")
                    ode_y = np.asarray(ode[f"steps_{protocol}_{thr}"][i], float)
                    ax.plot(ode["Ls"], ode_y, color=colour, **(ODE_STYLE if thr == "macro" else ODE_SECOND_LEVEL_STYLE),
                            zorder=2)
                    ys += [y, ode_y]
                med = np.array([x[f"median_{net}_macro"] for x in rows])
                ax.plot(Ls, med, ls="none", marker=plotting.MEDIAN_MARKER, color=colour, ms=4, zorder=4)
            limits_to_data(ax, x=np.concatenate([Ls, np.asarray(ode["Ls"], float)]), y=np.concatenate(ys))
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_xlabel(label("L"))
            ax.set_ylabel("steps to escape")
            ax.set_title(f"{_case_title(spec, k, spec['d'])} · {label(protocol)}")
            plain_log_ticks(ax)
            ticks_at(ax, np.concatenate([Ls, np.asarray(ode["Ls"], float)]))
    esc = escapes(section)
    authors = esc["authors"].level_tex()
    both = lambda make: tuple(make(n) for n in NETWORKS)  # noqa: E731
    items = [(legend_line(COLOURS[n], {"linestyle": "none", "marker": MARKERS[n]}), label(n)) for n in NETWORKS]
    items += [(both(lambda n: legend_marker(COLOURS[n], MARKERS[n])), f"SGD, mean reaches {esc['macro'].symbol()}"),
              (both(lambda n: legend_marker(COLOURS[n], MARKERS[n], filled=False)), f"SGD, mean reaches ${authors}$"),
              (both(lambda n: legend_marker(COLOURS[n], plotting.MEDIAN_MARKER)),
               f"SGD, median replicate reaches ${esc['macro_replicates'].level_tex()}$"),
              (both(lambda n: legend_line(COLOURS[n], ODE_STYLE)), f"ODE, {esc['macro'].symbol()}"),
              (both(lambda n: legend_line(COLOURS[n], ODE_SECOND_LEVEL_STYLE)), f"ODE, ${authors}$")]
    figure_legend(fig, items, ncol=4)
    panel_letters(axes)
    for path in out_paths:
        save_figure(fig, path)
    plt.close(fig)


def gain_verdict(fits: dict, k) -> str:
    """The verdict of a gain panel, three lines: the measured laws (same η, best η), the paper's."""
    from ...plotting import law

    lines = [f"measured {law('L', f['exponent_sgd'], f['exponent_sgd_low'], f['exponent_sgd_high'])}, "
             f"{'one' if p == 'same_lr' else 'best'} $\\eta$" for p, f in fits.items()]
    return "\n".join(lines + [f"paper {PAPER_GAIN.get(k, (None, 'none'))[1]}"])


def _row_of_sie(rows, k):
    return next((r for r in rows if r.get("short") == f"C4 SIE {sie_words(k)}"), None)


def plot_gain(config, numbers, out_paths, load=load_result, verdicts=None) -> None:
    """One panel per case: gain vs L, both protocols (colour and marker) and escape levels (filled,
    open), the ODE's gain (one line when both protocols give the same), the paper's law (through the
    ODE at the first L); the axes fitted to the data; each panel's verdict with the measured laws.
    ``verdicts``: the verdict rows of the result; the most telling one (differs first) is the
    figure's first line."""
    from ... import plotting
    from ...plotting import (finding_title, panel_letters, COLOURS, LAW_STYLE, ODE_STYLE, VERDICT_STYLE, WIDTH_DOUBLE, label,
                            limits_to_data, new_figure, place_legends, plain_log_ticks, save_figure)
    import matplotlib.pyplot as plt

    section = config[EXPERIMENT]
    cases = list(section["cases"])
    rows = rows_for(verdicts, "tied_untied_gain")
    fig, axes = new_figure(ncols=len(cases), nrows=1, width=WIDTH_DOUBLE, height=3.9, squeeze=False)
    notes, one_ode, lead = [], True, None
    for c, case in enumerate(cases):
        ax = axes[0, c]
        spec = section["cases"][case]
        xs, ys = [], []
        for protocol in PROTOCOLS:
            for thr in THRESHOLDS:
                fit = fit_of(numbers, case, protocol, thr)
                g = np.asarray(fit["gain"], float)
                sgd_points(ax, fit["Ls"], g, plotting.protocol_colour(protocol), plotting.protocol_marker(protocol),
                           filled=thr == "macro", label=f"SGD, {label(protocol)}, {escapes(section)[thr].symbol()}")
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
            ax.plot(ode_L, ode_gain, color=COLOURS["ode"], **ODE_STYLE, zorder=2,
                    alpha=1.0 if protocol == "same_lr" else 0.5, label=f"ODE, {label(protocol)}")
            xs.append(ode_L)
            ys.append(ode_gain)
        x_all, y_all = np.concatenate(xs), np.concatenate(ys)
        k = fit_of(numbers, case, "same_lr", "macro")["sie"]
        # the paper's law(s), through the ODE's gain at the first L
        grid = np.geomspace(np.nanmin(x_all), np.nanmax(x_all), 50)
        L0, g0 = odes[0][1][0], odes[0][2][0]
        for exponent in PAPER_EXPONENTS.get(k, PAPER_EXPONENTS_HIGH_SIE):
            guide_line(ax, grid, g0 * (grid / L0) ** exponent, LAW_STYLE, zorder=2.5)   # seen on the ODE line
        limits_to_data(ax, x=x_all, y=y_all)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel(label("L"))
        ax.set_ylabel("gain, untied / tied time")
        ax.set_title(_case_title(spec, k, spec["d"]))
        plain_log_ticks(ax)
        ticks_at(ax, np.concatenate(xs[:len(PROTOCOLS) * len(THRESHOLDS)]), most=5)
        text = gain_verdict({p: fit_of(numbers, case, p, "macro") for p in PROTOCOLS}, k)
        row = _row_of_sie(rows, k)
        if row is not None:
            text = f"{VERDICT_STYLE[row['verdict']][1]} {row['verdict']}\n" + text
            if lead is None or PRECEDENCE.index(row["verdict"]) < PRECEDENCE.index(lead[0]["verdict"]):
                lead = (row, k)
        notes.append(text)
        one_ode &= same
    if lead is not None:
        finding_title(fig, [lead[0]], extra=f" · paper: gain ∝ {PAPER_GAIN.get(lead[1], (None, 'n/a'))[1]}")
    esc = escapes(section)
    every = lambda filled: tuple(legend_marker(plotting.protocol_colour(p), plotting.protocol_marker(p), filled) for p in PROTOCOLS)  # noqa: E731
    items = [(legend_marker(plotting.protocol_colour(p), plotting.protocol_marker(p)), f"SGD, {label(p)}") for p in PROTOCOLS]
    items += [(every(True), f"filled: mean reaches {esc['macro'].symbol()}"),
              (every(False), f"open: mean reaches ${esc['authors'].level_tex()}$"),
              (legend_line(COLOURS["ode"], ODE_STYLE), "ODE, both protocols" if one_ode else "ODE (light: best η for each)"),
              (_guide_handle(LAW_STYLE), "the paper's law")]
    figure_legend(fig, items, ncol=3)
    panel_letters(axes)
    # after the figure legend; placed together, since one placed below its axes moves the others
    place_legends([(ax, dict(handles=[], title=text, title_fontsize=7.5, alignment="left"))
                   for ax, text in zip(axes[0], notes)])
    for path in out_paths:
        save_figure(fig, path)
    plt.close(fig)


def guide_line(ax, x, y, style, **kwargs):
    """A guide (:func:`ssi.plotting.guide`: under the data, out of the legend checks' colours) in
    one of the grammar's guide styles (LAW_STYLE, THRESHOLD_STYLE)."""
    from ...plotting import guide

    return guide(ax, x, y, color=style["color"], ls=style["linestyle"], lw=style["linewidth"], **kwargs)


def _guide_handle(style):
    return legend_line(style["color"], {"linestyle": style["linestyle"], "linewidth": style["linewidth"]})


def plot_null(config, numbers, out_paths, load=load_result, verdicts=None) -> None:
    """One panel per null run: the overlap against time of the tied network (stays at the noise level)
    and the untied one (learns): SGD (the replicate mean with its 95 % interval, markers along the
    curve), the ODE (lines), the start d^(-1/2) (dotted). ``verdicts``: the null-target row is the
    figure's first line."""
    from ...plotting import (finding_title, panel_letters, COLOURS, MARKERS, ODE_STYLE, THRESHOLD_STYLE, WIDTH_DOUBLE, label, new_figure, number,
                            place_legends, save_figure, sie_text)
    import matplotlib.pyplot as plt

    files = stems(config, "null")
    names = list(files)
    ncols = min(3, len(names))
    nrows = -(-len(names) // ncols)
    fig, axes = new_figure(ncols=ncols, nrows=nrows, width=WIDTH_DOUBLE, height=2.3 * nrows + 1.3, squeeze=False)
    ylim = (1e-3, 1.5)
    sies, notes, replicates, untied_sies = {}, [], set(), {}
    for idx, name in enumerate(names):
        ax = axes[idx // ncols, idx % ncols]
        arr, meta = load(files[name])
        d = meta["d"]
        for i, net in enumerate(NETWORKS):
            colour = COLOURS[net]
            sies[net] = meta["sie"][net]
            t = arr[f"steps_{net}"] / d
            keep = t > 0
            curves = np.asarray(arr[f"overlap_{net}"], float)[:, keep]
            n = curves.shape[0]
            replicates.add(n)
            mean = curves.mean(axis=0)
            half = 1.96 * curves.std(axis=0, ddof=1) / math.sqrt(n) if n > 1 else None
            at = along(t[keep], mean, 14, xlog=True, ylog=True, yspan=ylim, phase=0.5 * i)
            sgd_points(ax, t[keep][at], mean[at], colour, MARKERS[net], yerr=None if half is None else half[at],
                       label=label(net))
            tt = arr[f"ode_t_{net}"]
            ax.plot(tt[tt > 0], arr[f"ode_m_{net}"][tt > 0], color=colour, **ODE_STYLE, zorder=2)
        ax.set_xscale("log")
        ax.set_yscale("log")
        xlim = ax.get_xlim()
        guide_line(ax, xlim, [d ** -0.5] * 2, THRESHOLD_STYLE)
        ax.set_xlim(xlim)
        ax.set_ylim(*ylim)
        ax.set_xlabel(label("t"))
        ax.set_ylabel("overlap")
        ax.set_title(f"{label(meta['config']['target'])}, $L$ = {meta['L']}, $d$ = {number(d, 1)}")
        row = next((n for n in numbers["null"] if n["run"] == name), None)
        if row is not None:
            noise = row["noise_level"]
            text = (f"$\\eta$ = {number(meta['lr'])}\nend, in $d^{{-1/2}}$:\n"
                    f"tied {row['final_overlap_tied'] / noise:.1f}\nuntied {row['final_overlap_untied'] / noise:.1f}")
            untied_sies.setdefault(meta["sie"]["untied"], label(meta["config"]["target"]))
            notes.append((ax, text))
    for idx in range(len(names), nrows * ncols):
        axes[idx // ncols, idx % ncols].set_visible(False)
    finding_title(fig, rows_for(verdicts, "tied_untied_null"), extra=" · paper: the tied network never learns")
    both = lambda make: tuple(make(n) for n in NETWORKS)  # noqa: E731
    items = [(legend_line(COLOURS["tied"], {"linestyle": "none", "marker": MARKERS["tied"]}),
              f"{label('tied')} ({sie_text(sies['tied'])}), overlap $|m|$"),
             (legend_line(COLOURS["untied"], {"linestyle": "none", "marker": MARKERS["untied"]}),
              "untied network (" + ", ".join(f"{sie_text(k)} on {t}" for k, t in untied_sies.items())
              + r"), overlap $(\overline{m_l^{2}})^{1/2}$"),
             (both(lambda n: legend_marker(COLOURS[n], MARKERS[n])),
              "SGD, mean of " + ("/".join(str(r) for r in sorted(replicates))) + " replicates, 95 % interval"),
             (both(lambda n: legend_line(COLOURS[n], ODE_STYLE)), "ODE"),
             (_guide_handle(THRESHOLD_STYLE), r"$d^{-1/2}$, the start")]
    figure_legend(fig, items, ncol=2)
    panel_letters(axes)
    place_legends([(ax, dict(handles=[], title=text, title_fontsize=7.5, alignment="left")) for ax, text in notes])
    for path in out_paths:
        save_figure(fig, path)
    plt.close(fig)


def plot_attention(config, numbers, out_paths, load=load_result, verdicts=None) -> None:
    """Escape steps vs L of attention (trace) and the untied square network (SGD markers, ODE lines),
    and the mean overlap against time of each (one shade per L). ``verdicts``: unused (no claim row
    names this figure)."""
    from ... import plotting
    from ...plotting import ODE_SECOND_LEVEL_STYLE, panel_letters
    from matplotlib.ticker import FuncFormatter, NullFormatter

    from ...plotting import (COLOURS, MARKERS, ODE_STYLE, WIDTH_DOUBLE, label, limits_to_data, new_figure, number,
                            plain_log_ticks, save_figure)
    import matplotlib.pyplot as plt

    spec = config[EXPERIMENT]["attention"]
    rows = numbers["attention"]
    Ls = np.array([r["L"] for r in rows], float)
    fig, axes = new_figure(ncols=3, nrows=1, width=WIDTH_DOUBLE, height=3.0, squeeze=False,
                           gridspec_kw={"width_ratios": [1.4, 1, 1]})
    ax, *ax_m = axes[0]
    files = stems(config, "attention")
    esc = escapes(config[EXPERIMENT])
    ys = []
    nets = ("attention", "untied")
    names = {"attention": "attention", "untied": f"untied {label(spec['activation'])} network"}
    n_L = len(spec["Ls"])
    shade = lambda colour, j: plotting.shades(colour, n_L)[j]  # noqa: E731
    for net, axm in zip(nets, ax_m):
        colour, marker = COLOURS[net], MARKERS[net]
        for thr in THRESHOLDS:
            y = np.array([r[f"steps_{net}_{thr}"] for r in rows], float)
            yo = np.array([r[f"ode_{net}_{thr}"] for r in rows], float)
            sgd_points(ax, Ls, y, colour, marker, filled=thr == "macro", label=f"{names[net]}, {esc[thr].symbol()}")
            ax.plot(Ls, yo, color=colour, **(ODE_STYLE if thr == "macro" else ODE_SECOND_LEVEL_STYLE), zorder=2)
            ys += [y, yo]
        arr, _ = load(files[net])
        d = int(spec["d"])
        for j, L in enumerate(spec["Ls"]):
            t = arr[f"steps_L{L}"] / d
            keep = t > 0
            m = arr[f"overlap_L{L}"].mean(axis=0)[keep]
            at = along(t[keep], m, 10, xlog=False)
            sgd_points(axm, t[keep][at], m[at], shade(colour, j), marker)
            tt = arr[f"ode_t_L{L}"]
            axm.plot(tt[tt > 0], arr[f"ode_m_L{L}"][tt > 0], color=shade(colour, j), **ODE_STYLE, zorder=2)
        axm.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:,.0f}".replace(",", "\u2009")))
        axm.set_xlabel(label("t"))
        axm.set_ylabel("overlap, mean of replicates")
        axm.set_title(names[net])
    for get, put in ((lambda a: a.get_ylim(), lambda a, v: a.set_ylim(*v)), (lambda a: a.get_xlim(), lambda a, v: a.set_xlim(*v))):
        span = (min(get(a)[0] for a in ax_m), max(get(a)[1] for a in ax_m))
        for a in ax_m:
            put(a, span)
    limits_to_data(ax, x=Ls, y=np.concatenate(ys))
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(label("L"))
    ax.set_ylabel("steps to escape")
    ax.set_title(f"{label(spec['target']).removesuffix(' target')}, $d$ = {spec['d']}, $\\eta$ = {number(spec['lr'])} for both")
    plain_log_ticks(ax)
    ax.set_xticks(Ls, [f"{L:g}" for L in Ls])      # the few L of the runs, each labelled
    ax.xaxis.set_minor_formatter(NullFormatter())
    authors = esc["authors"].level_tex()
    pair = lambda make: tuple(make(n) for n in nets)  # noqa: E731
    items = [(legend_line(COLOURS[n], {"linestyle": "none", "marker": MARKERS[n]}), names[n]) for n in nets]
    items += [(pair(lambda n: legend_marker(COLOURS[n], MARKERS[n])), f"SGD, mean reaches {esc['macro'].symbol()}"),
              (pair(lambda n: legend_marker(COLOURS[n], MARKERS[n], filled=False)), f"SGD, mean reaches ${authors}$"),
              (pair(lambda n: legend_line(COLOURS[n], ODE_STYLE)), f"ODE, {esc['macro'].symbol()}"),
              (pair(lambda n: legend_line(COLOURS[n], ODE_SECOND_LEVEL_STYLE)), f"ODE, ${authors}$"),
              (tuple(legend_line(shade(COLOURS["untied"], j), ODE_STYLE) for j in range(n_L)),
               "b, c: $L$ = " + ", ".join(str(L) for L in spec["Ls"]) + ", light to dark")]
    figure_legend(fig, items, ncol=4)
    panel_letters(axes)
    for path in out_paths:
        save_figure(fig, path)
    plt.close(fig)


def figure_data_reduction(file: str, key: str, array):
    """What the figures read of a result array (ssi.experiments.figure_data): the attention figure
    draws the replicate mean of each overlap curve, so the extract keeps that mean."""
    if file.startswith(f"{EXPERIMENT}/attention_") and key.startswith("overlap_L"):
        return array.mean(axis=0, keepdims=True)
    return array


def plot(config, out_paths, numbers=None, load=load_result, verdicts: list[dict] | None = None) -> None:
    """The four figures; a path goes to the figure whose name (``tied_untied_<name>``) it carries.

    ``numbers``: :func:`summarise` (computed when None); ``load(stem)`` reads a result
    (ssi.experiments.figure_data: results/ or the figure data); ``verdicts``: the rows of the
    verdict file whose result is ``tied_untied`` (None or []: the figures carry no finding line)."""
    numbers = summarise(config) if numbers is None else numbers
    makers = {"escape": plot_escape, "gain": plot_gain, "null": plot_null, "attention": plot_attention}
    for name, maker in makers.items():
        paths = [p for p in out_paths if str(p).rsplit("/", 1)[-1].startswith(f"tied_untied_{name}.")]
        if paths:
            maker(config, numbers, paths, load, verdicts=verdicts)
