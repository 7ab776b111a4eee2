"""Legibility checks run on a drawn matplotlib figure, before it is saved.

:func:`problems` returns what a reader would trip over, one sentence per problem:

* a legend box over plotted data (points, line segments, error bars; an image or a filled
  contour under an axes' own legend counts as covered data too);
* text over text, or off the figure (titles, labels, tick labels, legend entries, annotations);
* a log axis spanning less than a decade with tick labels in ``a × 10^b`` form, or with
  fewer than two labelled ticks;
* an axis with tick labels and no label; a title of more than one line; a one-symbol y label
  rotated (a rotated ω reads as 3);
* a ``_`` or ``^`` outside mathtext in any visible text (code names and ASCII exponents);
* two series of one axes (labelled lines and collections, or the categories of a
  categorical colour map) whose colours are closer than :data:`MIN_COLOUR_DISTANCE`, in
  normal vision or under simulated deuteranopia, protanopia or tritanopia.

Colour-vision deficiency is simulated with the matrices of Machado, Oliveira & Fernandes
(2009), "A physiologically-based model for simulation of color vision deficiency", IEEE TVCG
15(6), severity 1.0, applied to linear sRGB; distances are CIE 1976 ΔE*ab in CIELAB (D65).
"""
from __future__ import annotations

import re

import numpy as np
from matplotlib.collections import LineCollection, PathCollection, PolyCollection, QuadMesh
from matplotlib.colors import ListedColormap, to_rgba
from matplotlib.legend import Legend
from matplotlib.lines import Line2D
from matplotlib.text import Text
from matplotlib.transforms import Bbox

#: smallest CIE76 ΔE*ab between two series of one axes, in every simulated vision: about six
#: times the distance two flat patches need to look different, for thin lines and small markers.
MIN_COLOUR_DISTANCE = 15.0
#: text boxes may touch by this many pixels (anti-aliasing, glyph side bearings)
TEXT_TOLERANCE_PX = 1.0

#: Machado et al. (2009), table of severity 1.0: linear-sRGB matrices
CVD_MATRICES = {
    "deuteranopia": np.array([[0.367322, 0.860646, -0.227968],
                              [0.280085, 0.672501, 0.047413],
                              [-0.011820, 0.042940, 0.968881]]),
    "protanopia": np.array([[0.152286, 1.052583, -0.204868],
                            [0.114503, 0.786281, 0.099216],
                            [-0.003882, -0.048116, 1.051998]]),
    "tritanopia": np.array([[1.255528, -0.076749, -0.178779],
                            [-0.078411, 0.930809, 0.147602],
                            [0.004733, 0.691367, 0.303900]]),
}
VISIONS = ("normal", *CVD_MATRICES)

_SRGB_TO_XYZ = np.array([[0.4124564, 0.3575761, 0.1804375],
                         [0.2126729, 0.7151522, 0.0721750],
                         [0.0193339, 0.1191920, 0.9503041]])
_WHITE_D65 = np.array([0.95047, 1.0, 1.08883])


# --- colour -------------------------------------------------------------------------------------
def _linear(rgb):
    rgb = np.asarray(rgb, float)
    return np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)


def _encoded(lin):
    lin = np.clip(lin, 0.0, 1.0)
    return np.where(lin <= 0.0031308, 12.92 * lin, 1.055 * lin ** (1 / 2.4) - 0.055)


def simulate_vision(rgb, vision: str) -> np.ndarray:
    """sRGB colours (..., 3) in [0, 1] as seen with ``vision`` (one of :data:`VISIONS`)."""
    rgb = np.asarray(rgb, float)[..., :3]
    if vision == "normal":
        return rgb
    if vision not in CVD_MATRICES:
        raise ValueError(f"vision={vision!r} is unknown; allowed: {', '.join(VISIONS)}")
    return _encoded(_linear(rgb) @ CVD_MATRICES[vision].T)


def to_lab(rgb) -> np.ndarray:
    """CIELAB (D65) of sRGB colours (..., 3) in [0, 1]."""
    xyz = _linear(np.asarray(rgb, float)[..., :3]) @ _SRGB_TO_XYZ.T / _WHITE_D65
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.stack([116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])], axis=-1)


def colour_distance(a, b, vision: str = "normal") -> float:
    """CIE76 ΔE*ab between two sRGB colours as seen with ``vision``."""
    la, lb = to_lab(simulate_vision(to_rgba(a)[:3], vision)), to_lab(simulate_vision(to_rgba(b)[:3], vision))
    return float(np.linalg.norm(la - lb))


def closest_pair(colours, visions=VISIONS):
    """(distance, vision, i, j) of the two colours of ``colours`` that are closest in any vision."""
    rgb = np.array([to_rgba(c)[:3] for c in colours])
    best = (np.inf, None, -1, -1)
    for vision in visions:
        lab = to_lab(simulate_vision(rgb, vision))
        dist = np.linalg.norm(lab[:, None] - lab[None], axis=-1)
        dist[np.diag_indices(len(rgb))] = np.inf
        i, j = np.unravel_index(np.argmin(dist), dist.shape)
        if dist[i, j] < best[0]:
            best = (float(dist[i, j]), vision, int(i), int(j))
    return best


# --- geometry -----------------------------------------------------------------------------------
def _segments_hit_box(p0, p1, box: Bbox) -> bool:
    """Whether any segment p0[i]–p1[i] (display coordinates) meets ``box`` (Liang–Barsky)."""
    ok = np.all(np.isfinite(p0), axis=1) & np.all(np.isfinite(p1), axis=1)
    p0, p1 = p0[ok], p1[ok]
    if not len(p0):
        return False
    d = p1 - p0
    t0, t1 = np.zeros(len(p0)), np.ones(len(p0))
    inside = np.ones(len(p0), bool)
    for dim, lo, hi in ((0, box.x0, box.x1), (1, box.y0, box.y1)):
        for p, q in ((-d[:, dim], p0[:, dim] - lo), (d[:, dim], hi - p0[:, dim])):
            parallel = p == 0
            inside &= ~(parallel & (q < 0))
            with np.errstate(divide="ignore", invalid="ignore"):
                r = q / p
            t0 = np.where(~parallel & (p < 0), np.maximum(t0, r), t0)
            t1 = np.where(~parallel & (p > 0), np.minimum(t1, r), t1)
    return bool(np.any(inside & (t0 <= t1)))


def _points_in_box(points, box: Bbox, pad: float = 0.0) -> bool:
    points = points[np.all(np.isfinite(points), axis=1)]
    return bool(np.any((points[:, 0] >= box.x0 - pad) & (points[:, 0] <= box.x1 + pad)
                       & (points[:, 1] >= box.y0 - pad) & (points[:, 1] <= box.y1 + pad)))


def _line_hits(line: Line2D, box: Bbox) -> bool:
    xy = line.get_transform().transform(np.column_stack(line.get_data()).astype(float))
    pad = 0.5 * line.get_markersize() * line.figure.dpi / 72 if line.get_marker() not in (None, "None", "", " ") else 0
    if line.get_linestyle() not in ("None", "", " ") and len(xy) > 1 and _segments_hit_box(xy[:-1], xy[1:], box):
        return True
    return pad > 0 and _points_in_box(xy, box, pad)


def _collection_hits(coll, box: Bbox) -> bool:
    if isinstance(coll, LineCollection):
        transform = coll.get_transform()
        for seg in coll.get_segments():
            xy = transform.transform(np.asarray(seg, float))
            if len(xy) > 1 and _segments_hit_box(xy[:-1], xy[1:], box):
                return True
        return False
    if isinstance(coll, PathCollection):
        offsets = coll.get_offset_transform().transform(np.asarray(coll.get_offsets(), float))
        sizes = coll.get_sizes()
        pad = 0.5 * np.sqrt(sizes.max()) * coll.figure.dpi / 72 if len(sizes) else 0.0
        return _points_in_box(offsets, box, pad)
    return False


def covered_by(ax, box: Bbox) -> list[str]:
    """Labels (or kinds) of the data artists of ``ax`` that the display box ``box`` covers (data is
    clipped to the axes: only the part of ``box`` inside them counts)."""
    box = Bbox.intersection(box, ax.bbox)
    if box is None or box.width <= 0 or box.height <= 0:
        return []
    hit = []
    for line in ax.lines:
        if line.get_visible() and line.get_gid() != "frame" and _line_hits(line, box):
            hit.append(line.get_label())
    for coll in ax.collections:
        if not coll.get_visible():
            continue
        if isinstance(coll, (QuadMesh, PolyCollection)):
            hit.append(coll.get_label() if not coll.get_label().startswith("_") else "image")
        elif _collection_hits(coll, box):
            hit.append(coll.get_label())
    if any(im.get_visible() for im in ax.images):
        hit.append("image")
    return hit


# --- the checks ---------------------------------------------------------------------------------
def _visible_texts(fig, renderer):
    """(text object, display box) of every drawn, non-empty text of ``fig``."""
    out = []
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        for axis, coord in ((ax.xaxis, 0), (ax.yaxis, 1)):
            lo, hi = sorted(axis.get_view_interval())
            for which in ("major", "minor"):
                ticks = axis.get_major_ticks() if which == "major" else axis.get_minor_ticks()
                locs = axis.get_majorticklocs() if which == "major" else axis.get_minorticklocs()
                for tick, loc in zip(ticks, locs):
                    if not (lo - 1e-9 * abs(hi - lo) <= loc <= hi + 1e-9 * abs(hi - lo)):
                        continue
                    for label in (tick.label1, tick.label2):
                        if label.get_visible() and label.get_text():
                            out.append(label)
        out += [t for t in (ax.title, ax._left_title, ax._right_title, ax.xaxis.label, ax.yaxis.label)
                if t.get_visible() and t.get_text()]
        out += [t for t in ax.texts if t.get_visible() and t.get_text()]
    for legend in _legends(fig):
        if legend.get_visible():
            out += [t for t in legend.get_texts() + [legend.get_title()] if t.get_visible() and t.get_text()]
    out += [t for t in fig.texts if t.get_visible() and t.get_text()]
    if fig._suptitle is not None and fig._suptitle.get_visible() and fig._suptitle.get_text():
        out.append(fig._suptitle)
    unique = list({id(t): t for t in out}.values())
    return [(t, t.get_window_extent(renderer)) for t in unique]


def _outside_math(text: str) -> str:
    """The parts of ``text`` that mathtext does not typeset (between unescaped $ pairs)."""
    parts = re.split(r"(?<!\\)\$", text)
    return "".join(parts[0::2]) if len(parts) % 2 == 1 else text


def _describe(t: Text) -> str:
    return repr(t.get_text()[:60])


def _check_text(texts, fig_box: Bbox) -> list[str]:
    out = []
    for t, box in texts:
        if (box.x0 < fig_box.x0 - TEXT_TOLERANCE_PX or box.y0 < fig_box.y0 - TEXT_TOLERANCE_PX
                or box.x1 > fig_box.x1 + TEXT_TOLERANCE_PX or box.y1 > fig_box.y1 + TEXT_TOLERANCE_PX):
            out.append(f"text {_describe(t)} runs off the figure")
        plain = _outside_math(t.get_text())
        for char in "_^":
            if char in plain:
                out.append(f"text {_describe(t)} shows a raw {char!r} (use words or mathtext)")
    for i in range(len(texts)):
        ti, bi = texts[i]
        for tj, bj in texts[i + 1:]:
            w = min(bi.x1, bj.x1) - max(bi.x0, bj.x0)
            h = min(bi.y1, bj.y1) - max(bi.y0, bj.y0)
            if w > TEXT_TOLERANCE_PX and h > TEXT_TOLERANCE_PX:
                out.append(f"text {_describe(ti)} overlaps text {_describe(tj)}")
    return out


def _legends(fig) -> list:
    """Every legend of ``fig``: the figure's, each axes' own and those added to axes as artists."""
    found = list(fig.legends)
    for ax in fig.axes:
        found += [child for child in ax.get_children() if isinstance(child, Legend)]
    return list({id(x): x for x in found}.values())


def _check_legends(fig, renderer) -> list[str]:
    out = []
    legends = [(legend, [legend.axes] if legend.axes is not None else fig.axes) for legend in _legends(fig)]
    for legend, axes in legends:
        if not legend.get_visible():
            continue
        box = legend.get_window_extent(renderer)
        for ax in axes:
            if not ax.get_visible() or not ax.bbox.overlaps(box):
                continue
            hit = covered_by(ax, box)
            if hit:
                out.append(f"legend of {_axes_name(ax)} covers plotted data ({', '.join(sorted(set(hit))[:3])})")
    return out


def _axes_name(ax) -> str:
    title = ax.get_title() or ax.get_ylabel() or "an axes"
    return repr(title[:40])


def _check_axes(ax) -> list[str]:
    out = []
    for title in (ax.title, ax._left_title, ax._right_title):
        if "\n" in title.get_text():
            out.append(f"title {_describe(title)} has more than one line")
    ylabel = ax.yaxis.label
    glyphs = re.sub(r"\\[a-zA-Z]+", "x", re.sub(r"[${}\s]", "", ylabel.get_text()))
    if len(glyphs) == 1 and ylabel.get_rotation() != 0:
        out.append(f"y label {_describe(ylabel)} is one symbol, rotated (reads as another glyph)")
    for axis, name in ((ax.xaxis, "x"), (ax.yaxis, "y")):
        lo, hi = sorted(axis.get_view_interval())
        labels = []
        for ticks, locs in ((axis.get_major_ticks(), axis.get_majorticklocs()),
                            (axis.get_minor_ticks(), axis.get_minorticklocs())):
            labels += [t.label1.get_text() for t, loc in zip(ticks, locs)
                       if lo * (1 - 1e-9) <= loc <= hi * (1 + 1e-9) and t.label1.get_visible() and t.label1.get_text()]
        if labels and not axis.label.get_text():
            out.append(f"{name} axis of {_axes_name(ax)} has tick labels but no label")
        if axis.get_scale() == "log" and lo > 0 and hi / lo < 10:
            if any("times" in s or "10^{" in s for s in labels):
                out.append(f"{name} axis of {_axes_name(ax)} spans less than a decade: tick labels "
                           f"{labels[:3]} are not plain numbers")
            if axis.get_ticklabels() and len(labels) < 2:
                out.append(f"{name} axis of {_axes_name(ax)} spans less than a decade with {len(labels)} "
                           "labelled tick(s)")
    return out


def _series_colours(ax) -> list[tuple]:
    """Distinct RGB colours of the labelled series of ``ax`` (alpha ignored: the same colour at two
    alphas is one series drawn twice, e.g. SGD points and the ODE line of one case)."""
    colours = []
    for artist in list(ax.lines) + list(ax.collections):
        if not artist.get_visible() or artist.get_label().startswith("_") or artist.get_gid() == "guide":
            continue
        if isinstance(artist, Line2D):
            c = artist.get_color() if artist.get_linestyle() not in ("None", "", " ") else artist.get_markerfacecolor()
            if isinstance(c, str) and c == "none":
                c = artist.get_markeredgecolor()
            colours.append(to_rgba(c)[:3])
        elif isinstance(artist, (PathCollection, LineCollection)):
            fc = artist.get_facecolor() if len(artist.get_facecolor()) else artist.get_edgecolor()
            if len(fc):
                colours.append(tuple(np.round(fc[0][:3], 6)))
    return list(dict.fromkeys(tuple(round(float(x), 6) for x in c) for c in colours))


def _category_colours(ax) -> list[tuple]:
    """Colours of the categories shown by a categorical colour map (e.g. a phase diagram)."""
    out = []
    for artist in list(ax.collections) + list(ax.images):
        cmap = getattr(artist, "get_cmap", lambda: None)()
        if not isinstance(cmap, ListedColormap) or cmap.N > 16 or artist.get_array() is None:
            continue
        values = np.unique(np.ma.compressed(artist.get_array()))
        rgba = artist.to_rgba(values)
        out += [tuple(c[:3]) for c in np.atleast_2d(rgba)]
    return list(dict.fromkeys(tuple(round(float(x), 6) for x in c) for c in out))


def _check_colours(ax) -> list[str]:
    out = []
    for kind, colours in (("series", _series_colours(ax)), ("categories", _category_colours(ax))):
        if len(colours) < 2:
            continue
        dist, vision, i, j = closest_pair(colours)
        if dist < MIN_COLOUR_DISTANCE:
            hexes = ["#%02x%02x%02x" % tuple(int(round(255 * v)) for v in colours[k]) for k in (i, j)]
            out.append(f"{kind} of {_axes_name(ax)}: colours {hexes[0]} and {hexes[1]} are ΔE {dist:.1f} apart "
                       f"({vision}); at least {MIN_COLOUR_DISTANCE:g} needed")
    return out


def problems(fig) -> list[str]:
    """Every legibility problem of ``fig`` (drawn here with its own renderer), as sentences."""
    fig.draw_without_rendering()
    renderer = fig.canvas.get_renderer()
    out = _check_text(_visible_texts(fig, renderer), fig.bbox)
    out += _check_legends(fig, renderer)
    for ax in fig.axes:
        if ax.get_visible() and ax.axison:
            out += _check_axes(ax)
        if ax.get_visible():
            out += _check_colours(ax)
    return out


class IllegibleFigure(ValueError):
    """A figure failed :func:`problems`; the message lists every problem."""


def check(fig, name: str = "figure") -> None:
    """Raise :class:`IllegibleFigure` naming every problem of ``fig``."""
    found = problems(fig)
    if found:
        raise IllegibleFigure(f"{name} is not legible:\n  - " + "\n  - ".join(found))


__all__ = ["MIN_COLOUR_DISTANCE", "CVD_MATRICES", "VISIONS", "simulate_vision", "to_lab", "colour_distance",
           "closest_pair", "covered_by", "problems", "check", "IllegibleFigure"]
