"""Claim C5, semantic vs positional, the figures: the two diagrams, the transition, the long run."""
from __future__ import annotations

import math

import numpy as np

from ... import escape, phase
from ...io import load_result
from .jobs import EXPERIMENT, load_landscape, problem, runs, stems
from .numbers import fmt, load_long, load_transition, summarise

#: the figures, in the figures folder without suffix (ssi.experiments.registry)
FIGURES = tuple(f"semantic_positional_{name}" for name in ("diagram", "transition", "long"))


# --- figures ---------------------------------------------------------------------------------------
def sie_text(config, omegas, a) -> str:
    """The SIEs :func:`ssi.hermite.sie` computes at (a, ω) for the given ω, for legends.

    At ω = 1 the target is the constant A(a) (no z*): every overlap coefficient vanishes and
    the SIE is undetermined/infinite; it is reported as such.
    """
    from ...hermite import SIEUndetermined, sie

    values = set()
    for omega in omegas:
        try:
            values.add(str(sie(problem(config, omega, a))))
        except SIEUndetermined:
            values.add("∞ (ω = 1: constant target)")
    return "SIE " + " / ".join(sorted(values))


def plot_diagram(config, out_paths, numbers=None, load=load_result, verdicts=None) -> None:
    """The two phase diagrams (full square and the authors' zoom), regions in the colour-blind-safe
    colours of ssi.plotting.REGION_COLOURS; the line of the SGD runs and the long run marked.
    ``verdicts``: the claim rows whose finding heads the figure (none: no finding line)."""
    from matplotlib.colors import ListedColormap
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    from ...plotting import OPEN_FACE, finding_title, panel_letters, COLOURS, REGION_COLOURS, WIDTH_DOUBLE, new_figure, save_figure
    import matplotlib.pyplot as plt

    fig, axes = new_figure(ncols=2, nrows=1, width=WIDTH_DOUBLE, height=3.9 if verdicts else 3.6, squeeze=False)
    cmap = ListedColormap(REGION_COLOURS)
    lr = config[EXPERIMENT]["long_run"]
    a_sgd = config[EXPERIMENT]["transition"]["a"]
    titles = {"full": "the whole square", "zoom": "zoom on the boundary"}
    place = {"ls": "", "marker": "*", "color": OPEN_FACE, "mec": COLOURS["sgd"], "ms": 10}
    for ax, (name, stem) in zip(axes[0], stems(config, "diagram").items()):
        dg, _ = load(stem)
        ax.pcolormesh(dg["a"], dg["omega"], dg["region"], cmap=cmap, vmin=-0.5, vmax=7.5, shading="nearest",
                      rasterized=True)
        # the SGD runs sit at a = 1, the right edge: a thick bar over the frame, not a line under it
        ax.plot([a_sgd] * 2, [dg["omega"][0], dg["omega"][-1]], color=COLOURS["sgd"], lw=3.0, clip_on=False,
                zorder=4)
        ax.plot([math.sqrt(lr["a2"])], [lr["omega"]], zorder=5, **place)
        ax.set_xlim(dg["a"][0], dg["a"][-1])
        ax.set_ylim(dg["omega"][0], dg["omega"][-1])
        ax.set_xlabel("pattern strength $a$")
        ax.set_ylabel(r"positional weight $\omega$")
        ax.set_title(f"{titles.get(name, name)}: {dg['a'].size} × {dg['omega'].size} points")
    present = sorted(set(np.unique(load(stems(config, "diagram")["full"])[0]["region"]))
                     | set(np.unique(load(stems(config, "diagram")["zoom"])[0]["region"])))
    handles = [Patch(color=REGION_COLOURS[k], label=phase.REGION_NAMES[k]) for k in present]
    handles += [Line2D([], [], color=COLOURS["sgd"], lw=3.0,
                       label=f"$a$ = {a_sgd:g}: the SGD runs of the transition figure"),
                Line2D([], [], **place,
                       label=rf"the long run ($a$ = {math.sqrt(lr['a2']):g}, $\omega$ = {lr['omega']:g})")]
    fig.legend(handles=handles, loc="outside lower center", ncol=2, frameon=False, fontsize=7, columnspacing=1.0,
               handlelength=1.2, handletextpad=0.5, borderaxespad=0.2)
    panel_letters(axes.ravel())
    finding_title(fig, verdicts)
    for path in out_paths:
        save_figure(fig, path)
    plt.close(fig)


def plot_transition(config, out_paths, numbers=None, load=load_result, verdicts=None) -> None:
    """Final |m| and |e| vs ω per run (SGD runs, their means with standard errors, ODE end points,
    the diagram's switches); each title gives the ω where SGD switches from semantic to positional.
    ``verdicts``: the claim rows whose finding heads the figure (none: no finding line)."""
    from matplotlib.legend_handler import HandlerTuple
    from matplotlib.lines import Line2D

    from ... import plotting
    from ...plotting import (finding_title, panel_letters, COLOURS, LAW_STYLE, MARKERS, ODE_STYLE, SGD_STYLE, THRESHOLD_STYLE, WIDTH_DOUBLE,
                            label, new_figure, number, save_figure)
    import matplotlib.pyplot as plt

    numbers = summarise(config) if numbers is None else numbers
    ode, _ = load(stems(config, "ode")["ode"])
    names = list(runs(config))
    ncols = 2 if len(names) > 1 else 1
    nrows = -(-len(names) // ncols)
    fig, axes = new_figure(ncols=ncols, nrows=nrows, width=WIDTH_DOUBLE,
                           height=2.2 * nrows + 1.0 + (0.35 if verdicts else 0.0), squeeze=False)
    pred = numbers["prediction"]
    sgd = {**SGD_STYLE, "markersize": 2.5}
    runs_style = {"s": 1.5, "alpha": 0.25, "lw": 0, "rasterized": True}
    not_escaped = {"ls": "none", "marker": plotting.SHARE_MARKER, "ms": 2.5, "color": COLOURS["sgd"]}
    concepts = (("m", "semantic"), ("e", "positional"))
    for idx, name in enumerate(names):
        ax = axes[idx // ncols, idx % ncols]
        omegas, steps, m, e = load_transition(config, name, load)
        row = next(r for r in numbers["transition"] if r["run"] == name)
        for val, (key, concept) in zip((np.abs(m[:, :, -1]), np.abs(e[:, :, -1])), concepts):
            colour = COLOURS[concept]
            jitter = np.linspace(-0.004, 0.004, val.shape[1])
            ax.scatter((omegas[:, None] + jitter[None]).ravel(), val.ravel(), color=colour, **runs_style)
            error = val.std(axis=1, ddof=1) / math.sqrt(val.shape[1]) if val.shape[1] > 1 else None
            ax.errorbar(omegas, val.mean(axis=1), yerr=error, color=colour, zorder=3,
                        **{**sgd, "marker": MARKERS[concept]})
            ax.plot(ode[f"{name}_omega"], np.abs(ode[f"{name}_{key}"]), color=colour, zorder=4, **ODE_STYLE)
        if pred["switch_global"] == pred["switch_global"]:
            ax.axvline(pred["switch_global"], zorder=1, **THRESHOLD_STYLE)
        if pred["switch_dynamics"] == pred["switch_dynamics"]:
            ax.axvline(pred["switch_dynamics"], zorder=1, **LAW_STYLE)
        share = np.asarray(row["not_escaped_fraction"], float)
        ax.plot(omegas[share > 0], share[share > 0], zorder=2, **not_escaped)
        ax.set_ylim(-0.03, 1.03)
        ax.set_xlim(-0.02, 1.02)
        ax.set_xlabel(label("omega"))
        ax.set_ylabel("final overlap")
        switch = row["switch_sgd"]
        switch = ("no switch by then" if switch is None or switch != switch
                  else f"switch at $\\omega$ = {switch:.3f}")
        ax.set_title(f"$d$ = {row['d']}, $t$ = {number(row['t'])}, {row['replicates']} runs: {switch}")
    for idx in range(len(names), nrows * ncols):
        axes[idx // ncols, idx % ncols].set_visible(False)
    symbols = {"semantic": r"semantic overlap $|m|$", "positional": r"positional overlap $|e|$"}
    handles = [(Line2D([], [], color=COLOURS[concept], ls="none", marker="o", ms=1.5, alpha=0.5),
                Line2D([], [], color=COLOURS[concept], ls="none", marker=MARKERS[concept], ms=sgd["markersize"]))
               for _key, concept in concepts]
    labels = [f"{symbols[concept]}: runs, mean ± s.e." for _key, concept in concepts]
    handles += [Line2D([], [], **not_escaped),
                tuple(Line2D([], [], color=COLOURS[concept], **ODE_STYLE) for _key, concept in concepts),
                Line2D([], [], **LAW_STYLE),
                Line2D([], [], **THRESHOLD_STYLE)]
    labels += [f"share of runs not escaped ({escape.of(config[EXPERIMENT], EXPERIMENT).symbol('<')}), if any",
               r"ODE from overlap $d^{-1/2}$: $|m|$, $|e|$",
               rf"paper: SGD switches with the initial direction ($\omega$ = {fmt(pred['switch_dynamics'], '.3f')})",
               rf"switch of the global minimum ($\omega$ = {fmt(pred['switch_global'], '.3f')})"]
    fig.legend(handles, labels, loc="outside lower center", ncol=2, frameon=False,
               handler_map={tuple: HandlerTuple(ndivide=None, pad=0.6)}, handlelength=3.6, columnspacing=1.2)
    panel_letters(axes.ravel())
    finding_title(fig, verdicts)
    for path in out_paths:
        save_figure(fig, path)
    plt.close(fig)


def plot_long(config, out_paths, numbers=None, load=load_result, verdicts=None) -> None:
    """Long-run trajectories in the first quadrant of the (e, m) disk over the loss, and |m|, |e|
    against time; the title counts where the runs end. ``verdicts``: the claim rows whose verdict
    heads the figure (their headline is the diagram's and the transition's, not shown here)."""
    from matplotlib.legend_handler import HandlerTuple
    from matplotlib.lines import Line2D

    from ... import plotting
    from ...plotting import OPEN_FACE, finding_title, panel_letters, COLOURS, MARKERS, ODE_STYLE, WIDTH_DOUBLE, YELLOW, label, new_figure, number, save_figure
    import matplotlib.pyplot as plt

    section = config[EXPERIMENT]
    spec = section["long_run"]
    a, omega = math.sqrt(float(spec["a2"])), float(spec["omega"])
    land = load_landscape(config, load)
    numbers = (summarise(config) if numbers is None else numbers)["long_run"]
    steps, m, e = load_long(config, load)
    ode, _ = load(stems(config, "ode")["ode"])
    fig, axes = new_figure(ncols=2, nrows=1, width=WIDTH_DOUBLE, height=3.5 if verdicts else 3.3, squeeze=False)
    ax, ax_t = axes[0]
    r = np.linspace(0, 1, 201)
    th = np.linspace(0, math.pi / 2, 201)
    Rr, Th = np.meshgrid(r, th)
    E, M = Rr * np.cos(Th), Rr * np.sin(Th)
    R = land.loss(a, omega, E, M)
    image = ax.contourf(E, M, R, levels=30, cmap=plotting.loss_cmap())
    fig.colorbar(image, ax=ax, shrink=0.85, label="loss $R(e, m)$")
    dots = {"ls": "none", "ms": 1.2, "alpha": 0.5, "rasterized": True}
    ends = {"ls": "none", "marker": "o", "color": OPEN_FACE, "mec": COLOURS["sgd"], "ms": 3}
    for i in range(m.shape[0]):
        ax.plot(np.abs(e[i]), np.abs(m[i]), marker=MARKERS["sgd"], color=COLOURS["sgd"], **dots)
        ax.plot(abs(e[i, -1]), abs(m[i, -1]), zorder=4, **ends)
    ax.plot(np.abs(ode["long_e"]), np.abs(ode["long_m"]), color=COLOURS["ode"], zorder=3, **ODE_STYLE)
    star = {"ls": "none", "marker": "*", "ms": 12, "mec": COLOURS["sgd"]}
    for k, mn in enumerate(numbers["minima"]):
        ax.plot(mn["e"], mn["m"], color=YELLOW if k == 0 else OPEN_FACE, clip_on=False, zorder=5, **star)
    ax.set_aspect("equal")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_xlabel("positional overlap $|e|$")
    ax.set_ylabel("semantic overlap $|m|$")
    ax.set_title(rf"$a$ = {a:g}, $\omega$ = {omega:g}, $d$ = {spec['d']}, "
                 f"{number(float(spec['steps']))} steps", pad=9)
    t = steps / int(spec["d"])
    keep = t > 0
    for key, concept, values in (("m", "semantic", m), ("e", "positional", e)):
        colour = COLOURS[concept]
        for i in range(values.shape[0]):
            ax_t.plot(t[keep], np.abs(values[i, keep]), marker=MARKERS[concept], color=colour, **dots)
        ax_t.plot(ode["long_t"][1:], np.abs(ode[f"long_{key}"][1:]), color=colour, zorder=3, **ODE_STYLE)
    ax_t.set_xscale("log")
    ax_t.set_xlabel(label("t"))
    ax_t.set_ylabel("overlap")
    ax_t.set_title(f"{numbers['semantic']} of {numbers['replicates']} runs end semantic, "
                   f"{numbers['positional']} positional")
    legend_dots = {"ls": "none", "ms": 2.5}
    handles = [(Line2D([], [], marker=MARKERS["sgd"], color=COLOURS["sgd"], **legend_dots),
                Line2D([], [], **{**ends, "ms": 4})),
               Line2D([], [], color=COLOURS["ode"], **ODE_STYLE),
               Line2D([], [], **{**star, "ms": 10}, color=YELLOW),
               (Line2D([], [], marker=MARKERS["semantic"], color=COLOURS["semantic"], **legend_dots),
                Line2D([], [], color=COLOURS["semantic"], **ODE_STYLE)),
               (Line2D([], [], marker=MARKERS["positional"], color=COLOURS["positional"], **legend_dots),
                Line2D([], [], color=COLOURS["positional"], **ODE_STYLE))]
    labels = ["a: SGD runs (dots) and their ends (circles)", "a: the ODE", "a: global minimum (semantic)",
              r"b: semantic overlap $|m|$, SGD runs and ODE", r"b: positional overlap $|e|$, SGD runs and ODE"]
    fig.legend(handles, labels, loc="outside lower center", ncol=2, frameon=False,
               handler_map={tuple: HandlerTuple(ndivide=None, pad=0.6)})
    panel_letters(axes.ravel())
    finding_title(fig, verdicts, headline=False)
    for path in out_paths:
        save_figure(fig, path)
    plt.close(fig)


def figure_data_reduction(file: str, key: str, array):
    """What the figures read of a result array (ssi.experiments.figure_data): the transition figure
    reads only the final record of each SGD run (and no step), so the extract keeps that record."""
    if file.startswith(f"{EXPERIMENT}/sgd_") and key in ("m", "e", "steps"):
        return array[..., -1:]
    return array


def plot(config, out_paths, numbers=None, load=load_result, verdicts: list[dict] | None = None) -> None:
    """All three figures, dispatched on the file name (diagram, transition, long).

    ``numbers``: :func:`summarise` (computed once when None and a figure needs it); ``load(stem)``
    reads a result (ssi.experiments.figure_data: results/ or the figure data); ``verdicts``: the
    rows of the verdict file whose result is this one, stated as each figure's first line (None or
    []: no finding line)."""
    groups = {"diagram": plot_diagram, "transition": plot_transition, "long": plot_long}
    for key, fn in groups.items():
        paths = [p for p in out_paths if f"semantic_positional_{key}." in str(p).rsplit("/", 1)[-1]]
        if paths:
            if numbers is None and key != "diagram":
                numbers = summarise(config)
            fn(config, paths, numbers, load, verdicts=verdicts)
