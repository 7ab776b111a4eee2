"""Claim C4, tied vs untied, the figures: escape steps, gain, null cases, attention."""
from __future__ import annotations

import math

import numpy as np

from ..io import load_result
from .tied_untied_jobs import EXPERIMENT, NETWORKS, PROTOCOLS, THRESHOLDS, escapes, stems
from .tied_untied_numbers import fit_of, summarise


# --- figures ------------------------------------------------------------------------------------
FIGURE_NAMES = ("escape", "gain", "null", "attention")
PROTOCOL_TEXT = {"same_lr": "same η for both", "best_lr": "best η per network (ODE)"}
#: the gain law the paper claims per SIE (claim C4): exponent of L, and its words
PAPER_GAIN = {1: (1, "$L$"), 2: (2, "$L^{2}$"), 3: (1, "$L$ or constant")}


def sie_words(k) -> str:
    """The SIE ``k`` in words ("∞" for an SIE that is not finite)."""
    # an SIE is an integer or ∞; a numbers file read back from JSON holds ∞ as null (nan)
    return "∞" if k is None or (isinstance(k, float) and not math.isfinite(k)) else str(k)


def _case_title(spec, k, d):
    from ..plotting import label, sie_text

    return f"{sie_text(k)}: {label(spec['target'])}, {label(spec.get('activation', 'relu'))}, $d$ = {d}"


def _markers():
    """(level, protocol) -> marker style: filled for the macro level, open for the authors' one; circle
    same η, square best η."""
    return {("macro", "same_lr"): ("o", True), ("authors", "same_lr"): ("o", False),
            ("macro", "best_lr"): ("s", True), ("authors", "best_lr"): ("s", False)}


def _marker_handles(colour, esc, protocols=PROTOCOLS):
    """Legend handles of the SGD markers; ``esc`` the section's escapes (:func:`escapes`)."""
    from matplotlib.lines import Line2D

    from ..plotting import label

    out = []
    for (thr, protocol), (marker, filled) in _markers().items():
        if protocol in protocols:
            out.append(Line2D([], [], ls="", marker=marker, color=colour, mfc=colour if filled else "white",
                              label=f"SGD, {esc[thr].symbol()}" + (f", {label(protocol)}" if len(protocols) > 1 else "")))
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
                            label=f"{label(net)}, {escapes(section)[thr].symbol()}")
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
    esc = escapes(config[EXPERIMENT])
    macro, authors = esc["macro"].level_tex(), esc["authors"].level_tex()
    handles += [Line2D([], [], ls="", marker="o", color="k", label=f"SGD, mean reaches {esc['macro'].symbol()}"),
                Line2D([], [], ls="", marker="o", color="k", mfc="white", label=f"SGD, mean reaches ${authors}$"),
                Line2D([], [], ls="", marker="x", color="k",
                       label=f"SGD, median replicate at ${esc['macro_replicates'].level_tex()}$"),
                Line2D([], [], color="k", lw=1.0, label=f"ODE, ${macro}$"),
                Line2D([], [], color="k", lw=1.0, ls=":", label=f"ODE, ${authors}$")]
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

    from ..plotting import (COLOURS, WIDTH_DOUBLE, guide, label, limits_to_data, new_figure, place_legends,
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
    handles = _marker_handles(COLOURS["sgd"], escapes(config[EXPERIMENT]))
    handles += [Line2D([], [], color=COLOURS["ode"], lw=1.4,
                       label="ODE (the same for both protocols)" if one_ode else "ODE (dashed: best η)"),
                Line2D([], [], color=COLOURS["guide"], lw=0.8, ls=":", label=r"$\propto L$"),
                Line2D([], [], color=COLOURS["guide"], lw=0.8, ls="-.", label=r"$\propto L^{2}$")]
    fig.legend(handles=handles, loc="outside lower center", ncol=4, frameon=False)
    # after the figure legend; placed together, since one placed below its axes moves the others
    place_legends([(ax, dict(handles=[], title=text, title_fontsize=6, alignment="left"))
                   for ax, text in zip(axes[0], verdicts)])
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
    esc = escapes(config[EXPERIMENT])
    macro, authors = esc["macro"].level_tex(), esc["authors"].level_tex()
    handles += [Line2D([], [], ls="", marker="o", color="k", label=f"SGD, mean reaches {esc['macro'].symbol()}"),
                Line2D([], [], ls="", marker="o", color="k", mfc="white", label=f"SGD, mean reaches ${authors}$"),
                Line2D([], [], color="k", lw=1.0, label=f"ODE (${macro}$; dotted ${authors}$; dashed at right)")]
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


