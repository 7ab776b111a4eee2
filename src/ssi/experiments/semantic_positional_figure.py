"""Claim C5, semantic vs positional, the figures: the two diagrams, the transition, the long run."""
from __future__ import annotations

import math

import numpy as np

from .. import escape, phase
from ..io import load_result
from .semantic_positional_jobs import EXPERIMENT, load_landscape, problem, runs, stems
from .semantic_positional_numbers import fmt, load_long, load_transition, summarise


# --- figures ---------------------------------------------------------------------------------------
def sie_text(config, omegas, a) -> str:
    """The SIEs :func:`ssi.hermite.sie` computes at (a, ω) for the given ω, for legends.

    At ω = 1 the target is the constant A(a) (no z*): every overlap coefficient vanishes and
    the SIE is undetermined/infinite; it is reported as such.
    """
    from ..hermite import SIEUndetermined, sie

    values = set()
    for omega in omegas:
        try:
            values.add(str(sie(problem(config, omega, a))))
        except SIEUndetermined:
            values.add("∞ (ω = 1: constant target)")
    return "SIE " + " / ".join(sorted(values))


def plot_diagram(config, out_paths, numbers=None, load=load_result) -> None:
    """The two phase diagrams (full square and the authors' zoom), regions in the colour-blind-safe
    colours of ssi.plotting.REGION_COLOURS; the line of the SGD runs and the long run marked."""
    from matplotlib.colors import ListedColormap
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    from ..plotting import REGION_COLOURS, WIDTH_DOUBLE, new_figure, save_figure
    import matplotlib.pyplot as plt

    fig, axes = new_figure(ncols=2, nrows=1, width=WIDTH_DOUBLE, height=3.6, squeeze=False)
    cmap = ListedColormap(REGION_COLOURS)
    lr = config[EXPERIMENT]["long_run"]
    a_sgd = config[EXPERIMENT]["transition"]["a"]
    titles = {"full": "the whole square", "zoom": "zoom on the boundary"}
    for ax, (name, stem) in zip(axes[0], stems(config, "diagram").items()):
        dg, _ = load(stem)
        ax.pcolormesh(dg["a"], dg["omega"], dg["region"], cmap=cmap, vmin=-0.5, vmax=7.5, shading="nearest",
                      rasterized=True)
        # the SGD runs sit at a = 1, the right edge: a thick bar over the frame, not a line under it
        ax.plot([a_sgd] * 2, [dg["omega"][0], dg["omega"][-1]], color="k", lw=3.0, clip_on=False, zorder=4)
        ax.plot([math.sqrt(lr["a2"])], [lr["omega"]], marker="*", color="w", mec="k", ms=10, zorder=5)
        ax.set_xlim(dg["a"][0], dg["a"][-1])
        ax.set_ylim(dg["omega"][0], dg["omega"][-1])
        ax.set_xlabel("pattern strength $a$")
        ax.set_ylabel(r"positional weight $\omega$")
        ax.set_title(f"{titles.get(name, name)}: {dg['a'].size} × {dg['omega'].size} points", fontsize=7)
    present = sorted(set(np.unique(load(stems(config, "diagram")["full"])[0]["region"]))
                     | set(np.unique(load(stems(config, "diagram")["zoom"])[0]["region"])))
    handles = [Patch(color=REGION_COLOURS[k], label=phase.REGION_NAMES[k]) for k in present]
    handles += [Line2D([], [], color="k", lw=3.0, label=f"$a$ = {a_sgd:g}: the SGD runs of the transition figure"),
                Line2D([], [], ls="", marker="*", color="w", mec="k", ms=10,
                       label=rf"the long run ($a^2$ = {lr['a2']:g}, $\omega$ = {lr['omega']:g})")]
    fig.legend(handles=handles, loc="outside lower center", ncol=2, frameon=False, fontsize=6.5)
    for path in out_paths:
        save_figure(fig, path)
    plt.close(fig)


def plot_transition(config, out_paths, numbers=None, load=load_result) -> None:
    """Final |m| and |e| vs ω per run (SGD runs and means, ODE end points, the diagram's switches);
    each title gives the ω where SGD switches from semantic to positional."""
    from matplotlib.lines import Line2D

    from ..plotting import (BLACK, COLOURS, GREEN, GUIDE, PURPLE, WIDTH_DOUBLE, label, new_figure, number,
                            save_figure)
    import matplotlib.pyplot as plt

    numbers = summarise(config) if numbers is None else numbers
    ode, _ = load(stems(config, "ode")["ode"])
    names = list(runs(config))
    ncols = 2 if len(names) > 1 else 1
    nrows = -(-len(names) // ncols)
    fig, axes = new_figure(ncols=ncols, nrows=nrows, width=WIDTH_DOUBLE, height=2.2 * nrows + 0.8, squeeze=False)
    pred = numbers["prediction"]
    for idx, name in enumerate(names):
        ax = axes[idx // ncols, idx % ncols]
        omegas, steps, m, e = load_transition(config, name, load)
        row = next(r for r in numbers["transition"] if r["run"] == name)
        for val, key, colour in ((np.abs(m[:, :, -1]), "m", COLOURS["semantic"]),
                                 (np.abs(e[:, :, -1]), "e", COLOURS["positional"])):
            jitter = np.linspace(-0.004, 0.004, val.shape[1])
            ax.scatter((omegas[:, None] + jitter[None]).ravel(), val.ravel(), s=1.5, color=colour, alpha=0.25,
                       lw=0, rasterized=True)
            ax.plot(omegas, val.mean(axis=1), color=colour, lw=1.2, label=key, zorder=3)
            ax.plot(ode[f"{name}_omega"], np.abs(ode[f"{name}_{key}"]), color=BLACK, lw=0.9, ls="--", zorder=4)
        ax.step(pred["omega"], np.array(pred["global_positional"], float), where="mid", color=GUIDE, lw=0.8,
                ls=":", zorder=2)
        ax.plot(omegas, row["not_escaped_fraction"], color=GREEN, lw=0.8, label="not escaped", zorder=2)
        if pred["switch_dynamics"] == pred["switch_dynamics"]:
            ax.axvline(pred["switch_dynamics"], color=PURPLE, lw=0.8, ls="-.", zorder=1)
        ax.set_ylim(-0.03, 1.03)
        ax.set_xlim(-0.02, 1.02)
        ax.set_xlabel(label("omega"))
        ax.set_ylabel("final overlap")
        switch = row["switch_sgd"]
        switch = ("no switch by then" if switch is None or switch != switch
                  else f"switch at $\\omega$ = {switch:.3f}")
        ax.set_title(f"$d$ = {row['d']}, $t$ = {number(row['t'])}, {row['replicates']} runs: {switch}", fontsize=7)
    for idx in range(len(names), nrows * ncols):
        axes[idx // ncols, idx % ncols].set_visible(False)
    handles = [Line2D([], [], color=COLOURS["semantic"], lw=1.2, label=r"semantic overlap $|m|$ (runs, mean)"),
               Line2D([], [], color=COLOURS["positional"], lw=1.2, label=r"positional overlap $|e|$ (runs, mean)"),
               Line2D([], [], color=BLACK, lw=0.9, ls="--", label=r"ODE from $d^{-1/2}$"),
               Line2D([], [], color=GREEN, lw=0.8,
                      label=f"share not escaped ({escape.of(config[EXPERIMENT], EXPERIMENT).symbol('<')})"),
               Line2D([], [], color=PURPLE, lw=0.8, ls="-.",
                      label=rf"diagram: the initial direction turns positional ($\omega$ = {fmt(pred['switch_dynamics'], '.3f')})"),
               Line2D([], [], color=GUIDE, lw=0.8, ls=":",
                      label=rf"diagram: the global minimum turns positional ($\omega$ = {fmt(pred['switch_global'], '.3f')})")]
    fig.legend(handles=handles, loc="outside lower center", ncol=2, frameon=False, fontsize=6.5)
    for path in out_paths:
        save_figure(fig, path)
    plt.close(fig)


def plot_long(config, out_paths, numbers=None, load=load_result) -> None:
    """Long-run trajectories in the first quadrant of the (e, m) disk over the loss contours, and
    |m|, |e| against time; the title counts where the runs end."""
    from matplotlib.lines import Line2D

    from ..plotting import COLOURS, WIDTH_DOUBLE, YELLOW, label, new_figure, number, save_figure
    import matplotlib.pyplot as plt

    section = config[EXPERIMENT]
    spec = section["long_run"]
    a, omega = math.sqrt(float(spec["a2"])), float(spec["omega"])
    land = load_landscape(config, load)
    numbers = (summarise(config) if numbers is None else numbers)["long_run"]
    steps, m, e = load_long(config, load)
    ode, _ = load(stems(config, "ode")["ode"])
    fig, axes = new_figure(ncols=2, nrows=1, width=WIDTH_DOUBLE, height=3.2, squeeze=False)
    ax, ax_t = axes[0]
    r = np.linspace(0, 1, 201)
    th = np.linspace(0, math.pi / 2, 201)
    Rr, Th = np.meshgrid(r, th)
    E, M = Rr * np.cos(Th), Rr * np.sin(Th)
    R = land.loss(a, omega, E, M)
    image = ax.contourf(E, M, R, levels=30, cmap="viridis")
    ax.contour(E, M, R, levels=30, colors="k", linewidths=0.2)
    fig.colorbar(image, ax=ax, shrink=0.85, label="loss $R(e, m)$")
    for i in range(m.shape[0]):
        ax.plot(np.abs(e[i]), np.abs(m[i]), color="w", lw=0.4, alpha=0.6)
        ax.plot(abs(e[i, -1]), abs(m[i, -1]), "o", color="w", mec="k", ms=3)
    ax.plot(np.abs(ode["long_e"]), np.abs(ode["long_m"]), color=COLOURS["ode"], lw=1.6, ls="--")
    for k, mn in enumerate(numbers["minima"]):
        ax.plot(mn["e"], mn["m"], marker="*", color=YELLOW if k == 0 else "w", ms=12, mec="k", clip_on=False,
                zorder=5)
    ax.set_aspect("equal")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_xlabel("positional overlap $|e|$")
    ax.set_ylabel("semantic overlap $|m|$")
    ax.set_title(rf"$a^2$ = {spec['a2']:g}, $\omega$ = {omega:g}, $d$ = {spec['d']}, "
                 f"{number(float(spec['steps']))} steps", fontsize=7, pad=9)
    t = steps / int(spec["d"])
    keep = t > 0
    for i in range(m.shape[0]):
        ax_t.plot(t[keep], np.abs(m[i, keep]), color=COLOURS["semantic"], lw=0.4, alpha=0.5)
        ax_t.plot(t[keep], np.abs(e[i, keep]), color=COLOURS["positional"], lw=0.4, alpha=0.5)
    ax_t.plot(ode["long_t"][1:], np.abs(ode["long_m"][1:]), color=COLOURS["semantic"], lw=1.6, ls="--", label="m")
    ax_t.plot(ode["long_t"][1:], np.abs(ode["long_e"][1:]), color=COLOURS["positional"], lw=1.6, ls="--",
              label="e")
    ax_t.set_xscale("log")
    ax_t.set_xlabel(label("t"))
    ax_t.set_ylabel("overlap")
    ax_t.set_title(f"measured: {numbers['semantic']} of {numbers['replicates']} runs end semantic, "
                   f"{numbers['positional']} positional", fontsize=7)
    handles = [Line2D([], [], color=COLOURS["semantic"], lw=1.2, label=r"semantic overlap $|m|$"),
               Line2D([], [], color=COLOURS["positional"], lw=1.2, label=r"positional overlap $|e|$"),
               Line2D([], [], color="w", lw=0.8, label="SGD runs (thin), their ends (dots)"),
               Line2D([], [], color=COLOURS["ode"], lw=1.6, ls="--", label="ODE (right: in the run's colour)"),
               Line2D([], [], ls="", marker="*", color=YELLOW, mec="k", ms=10, label="global minimum (semantic)")]
    for h in handles[2:3]:
        h.set_color("0.6")
    fig.legend(handles=handles, loc="outside lower center", ncol=3, frameon=False, fontsize=6.5)
    for path in out_paths:
        save_figure(fig, path)
    plt.close(fig)


def figure_data_reduction(file: str, key: str, array):
    """What the figures read of a result array (ssi.experiments.figure_data): the transition figure
    reads only the final record of each SGD run (and no step), so the extract keeps that record."""
    if file.startswith(f"{EXPERIMENT}/sgd_") and key in ("m", "e", "steps"):
        return array[..., -1:]
    return array


def plot(config, out_paths, numbers=None, load=load_result) -> None:
    """All three figures, dispatched on the file name (diagram, transition, long).

    ``numbers``: :func:`summarise` (computed once when None and a figure needs it); ``load(stem)``
    reads a result (ssi.experiments.figure_data: results/ or the figure data)."""
    groups = {"diagram": plot_diagram, "transition": plot_transition, "long": plot_long}
    for key, fn in groups.items():
        paths = [p for p in out_paths if f"semantic_positional_{key}." in str(p).rsplit("/", 1)[-1]]
        if paths:
            if numbers is None and key != "diagram":
                numbers = summarise(config)
            fn(config, paths, numbers, load)
