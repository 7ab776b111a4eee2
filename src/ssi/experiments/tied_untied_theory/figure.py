"""The C4 theory figure: gain against L from the reduced SIE-2 ODE, with the asymptotic laws and
the SGD measurements (docs/results/tied_untied.md, "The gain's exponent from the ODE near m = 0").

Three panels, one quantity on each y axis: (a) the gain T_untied/T_tied of the ReLU networks under
four learning-rate protocols, with the paper's L²; (b) the gain of an untied network over trace
attention; (c) each network's escape time alone at its best η, relative to its first L. The ODE is a
solid line in the colour of its protocol (a, b) or network (c), its law as L → ∞ a dash-dotted line in
the same colour, SGD markers in the same colour (filled at the macroscopic escape level, with 95 %
intervals where the replicates are at hand; open at the authors' early level)."""
from __future__ import annotations

import math
import re

import numpy as np

from ...io import load_result
from .. import tied_untied_theory as theory
from ..tied_untied.figure import PAPER_GAIN, guide_line, legend_line, legend_marker, rows_for, sgd_points, wrap

FIGURE = "tied_untied_theory"


#: panels: (title, y label, [(comparison, words, colour: a protocol of ssi.plotting.PROTOCOL_STYLE or a network,
#: relative to the first L)]). The asymptotic law is drawn through the ODE at the first L
#: (feed-forward) or the last (attention, whose laws hold only as L → ∞).
PANELS = [
    (r"ReLU networks, target $\Sigma_l\, h_2$", "gain, untied / tied time", [
        ("same_lr", r"one $\eta$ for both", "same_lr", False),
        ("best_lr", r"each at its best $\eta$", "best_lr", False),
        ("authors_sqrt", r"tied at $\eta\sqrt{L}$, untied at $\eta$ (the authors')", "authors_sqrt", False),
        ("linear_lr", r"tied at $\eta L$, untied at $\eta$", "linear_lr", False)]),
    ("untied network / attention", "gain, untied / attention time", [
        ("untied_over_attention", r"untied ReLU, target $\Sigma_l\, h_2$, each at its best $\eta$", "best_lr", False),
        ("square_over_attention", r"untied square, target $L^{-1/2}\Sigma_l\, h_2$, one $\eta$ for both", "same_lr",
         False)]),
    (r"each alone, at its best $\eta$", "relative escape time", [
        ("tied_alone", r"tied ReLU, target $\Sigma_l\, h_2$", "tied", True),
        ("untied_alone", r"untied ReLU, target $\Sigma_l\, h_2$", "untied", True),
        ("attention_alone", r"attention, target $\Sigma_l\, h_2$", "attention", True)]),
]
#: visible characters per legend line (three panels side by side on a double-column width)
LABEL_WIDTH = 30

#: the figures, in the figures folder without suffix (ssi.experiments.registry)
FIGURES = ("tied_untied_theory",)


def _colour_marker(key):
    from ... import plotting
    from ...plotting import COLOURS, MARKERS

    if key in plotting.PROTOCOL_STYLE:
        return plotting.PROTOCOL_STYLE[key]
    return COLOURS[key], MARKERS[key]


def _d_of(m) -> str:
    """The dimension of an SGD series, from its points or its description."""
    ds = {p["d"] for p in m["points"] if "d" in p}
    if ds:
        return ", ".join(str(d) for d in sorted(ds))
    found = re.search(r"d = (\d+)", m.get("text", ""))
    return found.group(1) if found else "?"


def plot(config, out_paths, numbers=None, load=load_result, verdicts: list[dict] | None = None) -> None:
    """Three panels (:data:`PANELS`): the reduced ODE's gain or time against L (solid), its
    asymptotic law (dash-dotted), SGD (markers; 95 % intervals where the replicates are at hand; times
    relative to the first L of SGD are drawn from the ODE's value at their first L), and in (a) the
    paper's law L² (grey dashed).

    ``numbers``: the result's key numbers (computed from the results when None); ``load(stem)``
    reads a result file (the notebooks pass the committed figure data instead of results/);
    ``verdicts``: the rows of the verdict file whose result is ``tied_untied_theory`` (None or []: no
    finding line)."""
    from matplotlib.legend_handler import HandlerTuple
    from matplotlib.lines import Line2D
    import matplotlib.pyplot as plt

    from ...plotting import (FIT_STYLE, LAW_STYLE, ODE_STYLE, OPEN_FACE, SGD_STYLE, WIDTH_DOUBLE, claimed_law_tex, finding_title, panel_letters, new_figure, place_legends,
                            plain_log_ticks, save_figure)
    from ..tied_untied.jobs import escapes

    if numbers is None:
        numbers = theory.summarise(config)
    results, _ = load(theory.stem(config))
    rows = {r["key"]: r for r in numbers["comparisons"]}
    spec = {c[0]: c for c in theory.COMPARISONS}
    esc = escapes(config["tied_untied"])
    level = {"macro": esc["macro"].symbol(), "authors": f"${esc['authors'].level_tex()}$"}
    fig, axes = new_figure(ncols=3, nrows=1, width=WIDTH_DOUBLE, height=5.8, squeeze=True)
    requests, firsts = [], set()
    for p, (ax, (title, ylabel, items)) in enumerate(zip(axes, PANELS)):
        handles, texts, laws, groups = [], [], [], {}
        curves = {}
        for key, words, style, relative in items:
            Ls, gain = theory.gain_curve(results, spec[key][2], spec[key][3], "authors")
            ok = np.isfinite(gain) & (gain > 0)
            curves[key] = (Ls[ok].astype(float), gain[ok] / (gain[ok][0] if relative else 1.0))
        for n, (key, words, style, relative) in enumerate(items):
            colour, marker = _colour_marker(style)
            row = rows[key]
            x, y = curves[key]
            # a line that a later one covers exactly (one η and best η: both L) is drawn wider, seen round it
            covered = any(k2 != key and np.array_equal(curves[k2][0], x) and np.allclose(curves[k2][1], y, rtol=1e-3)
                          for k2, *_ in items[n + 1:])
            ax.plot(x, y, color=colour, **{**ODE_STYLE, **({"linewidth": 2.6} if covered else {})}, zorder=2,
                    label=f"ODE {key}")
            j = -1 if spec[key][2].startswith("attention") or (spec[key][3] or "").startswith("attention") else 0
            ax.plot(x, y[j] * (x / x[j]) ** row["asymptotic"], color=colour, **FIT_STYLE, zorder=1.5)
            laws.append(colour)
            stop = row["no_escape_from_L_closed_form"]
            tail = f"; tied stops escaping at $L$ ≈ {stop:.0f}" if stop and math.isfinite(stop) else ""
            first = f" (first $L$ = {x[0]:g})" if relative and x[0] != 1 else ""
            if relative:
                firsts.add(f"{x[0]:g}")
            law = claimed_law_tex("L", row["asymptotic"])
            # the key: the ODE's line, with the case's SGD marker as drawn (filled at the macroscopic
            # level, open at the early one only, none without SGD)
            drawn = {m["threshold"] for m in row["sgd"]}
            key_marker = ({"marker": marker, "ms": SGD_STYLE["markersize"],
                           "mfc": colour if "macro" in drawn else OPEN_FACE} if drawn else {})
            handles.append(Line2D([], [], color=colour, **key_marker, **ODE_STYLE))
            texts_note = " (wide line: under the next)" if covered else ""
            texts.append(wrap(f"{words}{first}{texts_note}; law {law}{tail}", LABEL_WIDTH))
            for m in row["sgd"]:
                px = np.array([q["L"] for q in m["points"]], float)
                py = np.array([np.nan if q["gain"] is None else q["gain"] for q in m["points"]], float)
                if relative:
                    py = py / py[0] * np.interp(np.log(px[0]), np.log(x), y)
                err = None
                if m["points"] and "low" in m["points"][0]:
                    err = [py - [q["low"] for q in m["points"]], [q["high"] for q in m["points"]] - py]
                filled = m["threshold"] == "macro"
                sgd_points(ax, px, py, colour, marker, filled=filled, yerr=err, label=f"SGD {key} {m['threshold']}")
                group = groups.setdefault(m["threshold"], {"markers": [], "d": set(), "bars": False})
                group["markers"].append(legend_marker(colour, marker, filled))
                group["d"].add(_d_of(m))
                group["bars"] |= err is not None
        if p == 0:
            x = curves[items[0][0]][0]
            guide_line(ax, x, x ** PAPER_GAIN[2][0], LAW_STYLE)
            handles.append(legend_line(LAW_STYLE["color"], {k: v for k, v in LAW_STYLE.items() if k != "color"}))
            texts.append(f"the paper's law, {PAPER_GAIN[2][1]}")
        handles.append(tuple(legend_line(c, FIT_STYLE) for c in laws))
        texts.append(r"dash-dotted: the ODE's law as $L\to\infty$")
        for thr in ("macro", "authors"):
            if thr in groups:
                g = groups[thr]
                handles.append(tuple(g["markers"]))
                texts.append(wrap(f"SGD, mean reaches {level[thr]}, $d$ = {', '.join(sorted(g['d'], key=int))}"
                                  + (", 95 % intervals" if g["bars"] else ""), LABEL_WIDTH))
        ax.set(xscale="log", yscale="log", xlabel="sequence length $L$", ylabel=ylabel, title=title)
        plain_log_ticks(ax)
        requests.append((ax, dict(handles=handles, labels=texts, inside=False, outside="below",
                                  handler_map={tuple: HandlerTuple(ndivide=None, pad=0.3)}, alignment="left")))
    finding_title(fig, rows_for(verdicts, FIGURE), extra=f" · paper: gain ∝ {PAPER_GAIN[2][1]}")
    footer = (f"Lines: the reduced ODE at SIE 2, escape from $m_0 = d^{{-1/2}}$ to {level['authors']} at "
              f"$d$ = {numbers['d']}; fixed $\\eta$ = {numbers['lr']:g} in (a), {numbers['attention_lr']:g} "
              "for the square network against attention in (b); in (c) each time relative to the network's "
              f"time at its first $L$ ({', '.join(sorted(firsts, key=float))}).")
    fig.supxlabel(wrap(footer, int(fig.get_figwidth() * 72 / (0.55 * 7.5))), fontsize=7.5)
    panel_letters(axes)
    place_legends(requests)
    for path in out_paths:
        save_figure(fig, path)
    plt.close(fig)
