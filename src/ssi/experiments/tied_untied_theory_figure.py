"""The C4 theory figure: gain against L from the reduced SIE-2 ODE, with the asymptotic laws and
the SGD measurements (docs/results/tied_untied.md, "The gain's exponent from the ODE near m = 0")."""
from __future__ import annotations

import math
import textwrap

import numpy as np

from ..io import load_result
from . import tied_untied_theory as theory

FIGURE = "tied_untied_theory"
#: panels: (title, [(comparison, label, normalise by the first L)]); the asymptotic law is drawn
#: from the first L (feed-forward) or the last L (attention, whose laws hold only as L → ∞)
PANELS = [
    (r"tied vs untied ReLU networks, target $\sum_l h_2(z^\star_l)$", "first", [
        ("same_lr", r"one $\eta$ for both", False),
        ("best_lr", r"each at its best $\eta$", False),
        ("authors_sqrt", r"untied at $\eta$, tied at $\eta\sqrt{L}$ (the authors' runs)", False),
        ("linear_lr", r"untied at $\eta$, tied at $\eta L$", False),
        ("untied_alone", r"untied alone at its best $\eta$: $T(L)/T(1)$", True)]),
    ("trace attention as the tied network", "last", [
        ("untied_over_attention", r"untied / attention, each at its best $\eta$", False),
        ("attention_alone", r"attention alone at its best $\eta$: $T(L)/T(2)$", True),
        ("square_over_attention", r"untied square / attention, one $\eta$, target $L^{-1/2}\sum_l h_2$", False)]),
]


#: characters per legend line (two panels side by side on a double-column width)
LABEL_WIDTH = 58


def _exp(v):
    return "n/a" if v is None or not math.isfinite(v) else f"{v:.2f}"


def plot(config, out_paths, numbers=None, load=load_result) -> None:
    """Two panels (feed-forward tied vs untied; attention): reduced-ODE gain (lines) at the authors'
    threshold, asymptotic law (dotted), SGD (markers; 95 % intervals where the replicates are at
    hand; time ratios T(L)/T(L₀) of SGD are drawn from the ODE's value at their first L).

    ``numbers``: the result's key numbers (computed from the results when None); ``load(stem)``
    reads a result file (the notebooks pass the committed figure data instead of results/)."""
    import matplotlib.pyplot as plt

    from ..plotting import PALETTE, WIDTH_DOUBLE, new_figure, plain_log_ticks, save_figure

    if numbers is None:
        numbers = theory.summarise(config)
    results, _ = load(theory.stem(config))
    rows = {r["key"]: r for r in numbers["comparisons"]}
    spec = {c[0]: c for c in theory.COMPARISONS}
    fig, axes = new_figure(ncols=2, nrows=1, width=WIDTH_DOUBLE, height=5.6, squeeze=True)
    for ax, (title, anchor, items) in zip(axes, PANELS):
        for i, (key, label, normalise) in enumerate(items):
            colour, row = PALETTE[i], rows[key]
            Ls, gain = theory.gain_curve(results, spec[key][2], spec[key][3], "authors")
            ok = np.isfinite(gain) & (gain > 0)
            x, y = Ls[ok].astype(float), gain[ok] / (gain[ok][0] if normalise else 1.0)
            stop = row["no_escape_from_L_closed_form"]
            tail = f"; tied stops escaping at L ≈ {stop:.0f}" if stop and math.isfinite(stop) else ""
            ax.plot(x, y, color=colour, lw=1.4, ls="--" if key == "best_lr" else "-",
                    label=f"{label}\nODE $L^{{{_exp(row['exponent_ode_small_authors'])}}}$ at small L, "
                          f"law $L^{{{row['asymptotic']:g}}}$ (dotted){tail}")
            j = 0 if anchor == "first" else -1
            law = y[j] * (x / x[j]) ** row["asymptotic"]
            ax.plot(x, law, color=colour, lw=0.8, ls=":")
            for m, marker in zip(row["sgd"], ("o", "s")):
                px = np.array([p["L"] for p in m["points"]], float)
                py = np.array([np.nan if p["gain"] is None else p["gain"] for p in m["points"]], float)
                if normalise:
                    py = py / py[0] * np.interp(np.log(px[0]), np.log(x), y)
                err = None
                if m["points"] and "low" in m["points"][0]:
                    err = [py - [p["low"] for p in m["points"]], [p["high"] for p in m["points"]] - py]
                ax.errorbar(px, py, yerr=err, fmt=marker, color=colour, ms=3.5, mfc="none", elinewidth=0.8,
                            label=textwrap.fill(f"{m['text']}: $L^{{{m['exponent']:.2f}}}$ "
                                                f"[{_exp(m['low'])}, {_exp(m['high'])}]", LABEL_WIDTH))
        ax.set(xscale="log", yscale="log", xlabel="sequence length L",
               ylabel=r"gain $T_{\rm untied}/T_{\rm tied}$, or $T(L)/T(L_0)$", title=title)
        plain_log_ticks(ax)
        ax.legend(fontsize=5, frameon=False, loc="upper left", bbox_to_anchor=(0.0, -0.13), ncol=1)
    fig.suptitle(f"SIE 2: escape from $m_0 = d^{{-1/2}}$ to $2/\\sqrt{{d}}$, d = {numbers['d']}; "
                 f"fixed-η protocols at η = {numbers['lr']:g}, "
                 f"square vs attention at η = {numbers['attention_lr']:g}",
                 fontsize=7)
    for path in out_paths:
        save_figure(fig, path)
    plt.close(fig)
