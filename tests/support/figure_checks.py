"""The figure checks: what a reader would trip over in a drawn matplotlib figure.

The test suite runs them on every committed figure, redrawn from its committed numbers and
figure data (tests/workflow/test_committed_figures.py), and on the figures of a quick run.

:func:`problems` returns what a reader would trip over, one sentence per problem:

* a legend box over plotted data (points, line segments, error bars; an image or a filled
  contour under an axes' own legend counts as covered data too);
* a legend entry whose key matches nothing drawn with data (:func:`legend_entry_problems`: a
  proxy for a series that is not there, a region colour no region has, a marker of another
  shape or fill);
* text over text, or off the figure (titles, labels, tick labels, legend entries, annotations);
* text whose colour has a WCAG 2 contrast ratio under :data:`MIN_CONTRAST` against the
  background it lies on (:func:`contrast_ratio`, :func:`text_background`);
* a log axis spanning less than a decade with tick labels in ``a × 10^b`` form, or with
  fewer than two labelled ticks;
* an axis with tick labels and no label; a title of more than one line; a one-symbol y label
  rotated (a rotated ω reads as 3);
* a ``_`` or ``^`` outside mathtext in any visible text (code names and ASCII exponents);
* two series of one axes (labelled lines and collections, or the categories of a
  categorical colour map) whose colours are closer than :data:`MIN_COLOUR_DISTANCE`, in
  normal vision or under simulated deuteranopia, protanopia or tritanopia;
* panels showing one quantity with a continuous colour map (images, meshes, contours with the
  same colour-bar label, or all of them when they have no colour bar) in different colour maps
  or on different norms, so that one colour would mean two values (:func:`colour_map_problems`).

Colour-vision deficiency is simulated with the matrices of Machado, Oliveira & Fernandes
(2009), "A physiologically-based model for simulation of color vision deficiency", IEEE TVCG
15(6), severity 1.0, applied to linear sRGB; distances are CIE 1976 ΔE*ab in CIELAB (D65).
Contrast is the WCAG 2 contrast ratio (W3C, "Web Content Accessibility Guidelines 2.2",
definitions of *relative luminance* and *contrast ratio*).
"""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
from matplotlib.backend_bases import RendererBase
from matplotlib.collections import Collection, LineCollection, PathCollection, QuadMesh
from matplotlib.colors import BoundaryNorm, ListedColormap, to_rgba
from matplotlib.contour import ContourSet
from matplotlib.image import AxesImage
from matplotlib.legend import Legend
from matplotlib.lines import Line2D
from matplotlib.markers import MarkerStyle
from matplotlib.offsetbox import DrawingArea, OffsetBox, TextArea
from matplotlib.patches import FancyArrowPatch, Patch, Rectangle
from matplotlib.text import Text
from matplotlib.transforms import Bbox, IdentityTransform


from ssi.legibility import MIN_CONTRAST, contrast_ratio, covered_by, linear_rgb

#: smallest CIE76 ΔE*ab between two series of one axes, in every simulated vision: about six
#: times the distance two flat patches need to look different, for thin lines and small markers.
MIN_COLOUR_DISTANCE = 15.0
#: text boxes may touch by this many pixels (anti-aliasing, glyph side bearings)
TEXT_TOLERANCE_PX = 1.0
#: two colours (0–255 sRGB channels) are one colour when no channel differs by more than this
COLOUR_TOLERANCE = 2
#: a ListedColormap of at most this many colours is categorical (regions), not continuous
MAX_CATEGORIES = 16

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
    return _encoded(linear_rgb(rgb) @ CVD_MATRICES[vision].T)


def to_lab(rgb) -> np.ndarray:
    """CIELAB (D65) of sRGB colours (..., 3) in [0, 1]."""
    xyz = linear_rgb(np.asarray(rgb, float)[..., :3]) @ _SRGB_TO_XYZ.T / _WHITE_D65
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


# --- the checks ---------------------------------------------------------------------------------
def _titles(ax) -> list[Text]:
    """The three title texts of ``ax`` (centre, left, right): the Text children of ``ax`` that are
    not among ``ax.texts``. Their strings must be those of ``ax.get_title(loc)``, or this raises:
    a matplotlib that held other texts there would otherwise change the checks silently."""
    own = {id(t) for t in ax.texts}
    titles = [c for c in ax.get_children() if isinstance(c, Text) and id(c) not in own]
    if sorted(t.get_text() for t in titles) != sorted(ax.get_title(loc) for loc in ("center", "left", "right")):
        raise RuntimeError(f"the Text children of {ax!r} are not its three titles")
    return titles


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
        out += [t for t in (*_titles(ax), ax.xaxis.label, ax.yaxis.label) if t.get_visible() and t.get_text()]
        out += [t for t in ax.texts if t.get_visible() and t.get_text()]
    for legend in _legends(fig):
        if legend.get_visible():
            out += [t for t in legend.get_texts() + [legend.get_title()] if t.get_visible() and t.get_text()]
    # the suptitle among them: Figure.suptitle makes its Text with Figure.text
    if fig.get_suptitle() and not any(t.get_text() == fig.get_suptitle() for t in fig.texts):
        raise RuntimeError("the suptitle of the figure is not among its texts")
    out += [t for t in fig.texts if t.get_visible() and t.get_text()]
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
    for title in _titles(ax):
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
        if not isinstance(cmap, ListedColormap) or cmap.N > MAX_CATEGORIES or artist.get_array() is None:
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


# --- legend entries -------------------------------------------------------------------------------
_NO_LINE = ("None", "none", "", " ")
_NO_MARKER = (None, "None", "none", "", " ")
_WHITE = (255, 255, 255)


def _rgb8(colour, alpha=None):
    """0–255 sRGB of ``colour`` (``alpha`` overriding its own), or None when it is transparent."""
    rgba = to_rgba(colour, alpha)
    return None if rgba[3] <= 0 else tuple(int(round(255 * x)) for x in rgba[:3])


def _rgb8_rows(rgba) -> np.ndarray:
    return np.round(255 * np.asarray(rgba, float).reshape(-1, 4)[:, :3]).astype(np.int16)


def _close(a, b) -> bool:
    return max(abs(x - y) for x, y in zip(a, b)) <= COLOUR_TOLERANCE


def _is_ink(rgb) -> bool:
    """Black or nearly: the colour of a style key, which names a kind of mark drawn in any colour."""
    return max(rgb) <= 40 and max(rgb) - min(rgb) <= 8


def _dash(pattern):
    """Comparable form of an unscaled (offset, dashes) pattern: None for a solid line."""
    return None if not pattern[1] else tuple(round(float(x), 2) for x in pattern[1])


class _DashRecorder(RendererBase):
    """A renderer that draws nothing and keeps the (offset, dashes) of the last path handed to it
    (a dashed line with a gap colour draws its gaps first)."""

    def __init__(self):
        super().__init__()
        self.dashes = None

    def draw_path(self, gc, path, transform, rgbFace=None):
        self.dashes = gc.get_dashes()

    def draw_markers(self, *args, **kwargs):
        pass


def _unscaled_dashes(artist) -> list:
    """The (offset, dashes) patterns of ``artist`` before scaling by its line width: one for a
    Line2D or a Patch, one per item for a Collection (its line styles, not cycled to its widths).

    matplotlib has no getter for them (``Line2D.get_linestyle()`` says ``'--'`` for every
    (offset, dashes) tuple, (0, None) too; a Collection's ``get_linestyle()`` is scaled by its
    widths), so a blank artist of the kind takes the artist's properties (``update_from``, as a
    legend key does) at line width 1, where scaling changes nothing: a
    collection then tells its patterns (``get_linestyle``); a line or a patch draws on a renderer
    that keeps the dashes of its graphics context (``GraphicsContextBase.get_dashes``)."""
    if isinstance(artist, Collection):
        blank = Collection()
        blank.update_from(artist)
        blank.set_linewidth(1)
        return list(blank.get_linestyle())
    if isinstance(artist, Line2D) and artist.get_linestyle() in _NO_LINE:
        return [(0, None)]                # draws no line (matplotlib keeps it as solid)
    blank = Line2D([0, 1], [0, 0]) if isinstance(artist, Line2D) else Rectangle((0, 0), 1, 1)
    blank.update_from(artist)
    blank.set(linewidth=1, visible=True, path_effects=[], transform=IdentityTransform())
    if isinstance(blank, Patch):
        blank.set_edgecolor("k")          # a patch with no edge colour draws no dashes
    recorder = _DashRecorder()
    blank.draw(recorder)
    if recorder.dashes is None:
        raise RuntimeError(f"{artist!r} drew no line: its dash pattern is unknown")
    return [recorder.dashes]


def _shape(path):
    """Comparable, scale-free form of a marker path."""
    vertices = np.asarray(path.vertices, float)
    scale = float(np.abs(vertices).max()) if vertices.size else 1.0
    codes = None if path.codes is None else tuple(int(c) for c in path.codes)
    return codes, tuple(np.round(vertices / (scale or 1.0), 2).ravel().tolist())


_MARKER_SHAPES: dict = {}


def _line_marker_shape(line: Line2D):
    marker = line.get_marker()
    key = marker if isinstance(marker, (str, int)) else None
    if key is None or key not in _MARKER_SHAPES:
        style = MarkerStyle(marker, fillstyle=line.get_fillstyle())
        shape = _shape(style.get_path().transformed(style.get_transform()))
        if key is None:
            return shape
        _MARKER_SHAPES[key] = shape
    return _MARKER_SHAPES[key]


def _marker_identity(face, edge, edge_width):
    """(filled, colour) of a marker: filled markers are known by their face, open ones (face none or
    white) by their edge; None when nothing of it is drawn."""
    f = _rgb8(face)
    if f is not None and f != _WHITE:
        return True, f
    e = _rgb8(edge) if edge_width > 0 else None
    return None if e is None else (False, e)


def _line_marks(line: Line2D, needs_data: bool = True) -> list[tuple]:
    """What ``line`` draws: ("line", dashes, colour) and ("marker", shape, filled, colour); with
    ``needs_data`` only the parts its finite points draw (two for a line, one for a marker)."""
    if not line.get_visible():
        return []
    n = 2
    if needs_data:
        xy = np.asarray(line.get_xydata(), float).reshape(-1, 2)
        n = int(np.all(np.isfinite(xy), axis=1).sum())
    alpha, marks = line.get_alpha(), []
    if n >= 2 and line.get_linestyle() not in _NO_LINE and line.get_linewidth() > 0:
        colour = _rgb8(line.get_color(), alpha)
        if colour is not None:
            marks.append(("line", _dash(_unscaled_dashes(line)[0]), colour))
    if n >= 1 and line.get_marker() not in _NO_MARKER and line.get_markersize() > 0:
        ident = _marker_identity(to_rgba(line.get_markerfacecolor(), alpha),
                                 to_rgba(line.get_markeredgecolor(), alpha), line.get_markeredgewidth())
        if ident is not None:
            marks.append(("marker", _line_marker_shape(line), *ident))
    return marks


def _per_item(coll):
    """(face rgba, edge rgba, edge width) arrays of ``coll``, one row per drawn item (cycled)."""
    faces = np.asarray(coll.get_facecolor(), float).reshape(-1, 4)
    edges = np.asarray(coll.get_edgecolor(), float).reshape(-1, 4)
    widths = np.asarray(coll.get_linewidth(), float).ravel()
    n = max(len(faces), len(edges), 1)

    def cycle(a, shape):
        if len(a) == n:
            return a
        if not len(a):
            return np.zeros(shape)
        return np.tile(a, (-(-n // len(a)),) + (1,) * (a.ndim - 1))[:n]

    return cycle(faces, (n, 4)), cycle(edges, (n, 4)), cycle(widths, (n,))


def _has_data(coll) -> bool:
    if isinstance(coll, PathCollection):
        offsets = np.asarray(coll.get_offsets(), float).reshape(-1, 2)
        return bool(np.all(np.isfinite(offsets), axis=1).any())
    if isinstance(coll, LineCollection):
        return any(len(seg) >= 2 for seg in coll.get_segments())
    if isinstance(coll, QuadMesh):
        array = coll.get_array()
        return array is not None and np.ma.count(array) > 0
    return any(len(p.vertices) for p in coll.get_paths())


class _Drawn:
    """What the data artists of some axes draw: line styles, markers, and every colour."""

    def __init__(self):
        self.lines, self.markers, self.hatches = set(), set(), set()
        self._colours, self._unique = [], None

    def add_colours(self, rows) -> None:
        rows = np.asarray(rows, np.int16).reshape(-1, 3)
        if len(rows):
            self._colours.append(rows)
            self._unique = None

    @property
    def colours(self) -> np.ndarray:
        if self._unique is None:
            rows = np.concatenate(self._colours) if self._colours else np.zeros((0, 3), np.int16)
            packed = (rows[:, 0].astype(np.int64) << 16) | (rows[:, 1].astype(np.int64) << 8) | rows[:, 2]
            packed = np.unique(packed)
            self._unique = np.stack([packed >> 16, (packed >> 8) & 255, packed & 255], axis=1)
        return self._unique

    @property
    def empty(self) -> bool:
        return not (self.lines or self.markers or self._colours)

    def update(self, other: "_Drawn") -> None:
        self.lines |= other.lines
        self.markers |= other.markers
        self.hatches |= other.hatches
        self._colours += other._colours
        self._unique = None

    def add_marks(self, marks) -> None:
        for mark in marks:
            (self.lines if mark[0] == "line" else self.markers).add(mark)
            self.add_colours([mark[-1]])

    def add_colour_map(self, mappable) -> None:
        """Every colour of a continuous colour map between those of the least and the greatest value
        that ``mappable`` maps (a coarse mesh hits a few of them; a patch naming a value is fair)."""
        cmap, norm, array = mappable.get_cmap(), mappable.norm, mappable.get_array()
        if (array is None or np.ndim(array) not in (1, 2) or isinstance(norm, BoundaryNorm)
                or (isinstance(cmap, ListedColormap) and cmap.N <= MAX_CATEGORIES)):
            return
        values = np.ma.compressed(np.ma.masked_invalid(array))
        if values.size:
            lo, hi = np.clip(np.sort(np.ma.filled(norm(np.array([values.min(), values.max()], float)), np.nan)), 0, 1)
            if np.isfinite(lo) and np.isfinite(hi):
                self.add_colours(_rgb8_rows(cmap(np.linspace(lo, hi, 256))))

    def add_collection(self, coll) -> None:
        if not coll.get_visible() or not _has_data(coll):
            return
        self.add_colour_map(coll)
        faces, edges, widths = _per_item(coll)
        f8, e8 = _rgb8_rows(faces), _rgb8_rows(edges)
        shown_face, shown_edge = faces[:, 3] > 0, (edges[:, 3] > 0) & (widths > 0)
        self.add_colours(f8[shown_face])
        self.add_colours(e8[shown_edge])
        if coll.get_hatch():
            self.hatches.add(coll.get_hatch())
        if isinstance(coll, PathCollection):
            filled = shown_face & ~np.all(f8 == 255, axis=1)
            ok = filled | shown_edge
            idents = {(bool(fl), tuple(int(x) for x in c))
                      for fl, c in zip(filled[ok], np.where(filled[:, None], f8, e8)[ok])}
            for shape in {_shape(p) for p in coll.get_paths()}:
                self.markers.update(("marker", shape, fl, c) for fl, c in idents)
        elif isinstance(coll, LineCollection) or (isinstance(coll, ContourSet) and not coll.filled):
            dashes = {_dash(p) for p in _unscaled_dashes(coll)}
            for c in {tuple(int(x) for x in row) for row in e8[shown_edge]}:
                self.lines.update(("line", d, c) for d in dashes)

    def add_patch(self, patch) -> None:
        """A patch's colours; an arrow or an outline (a patch not filled) also draws a line."""
        if not patch.get_visible():
            return
        if patch.get_fill() and not isinstance(patch, FancyArrowPatch):
            self.add_colours([c for c in (_rgb8(patch.get_facecolor()),) if c is not None])
        edge = _rgb8(patch.get_edgecolor()) if patch.get_linewidth() > 0 else None
        if edge is not None:
            self.add_colours([edge])
            if isinstance(patch, FancyArrowPatch) or not patch.get_fill():
                self.lines.add(("line", _dash(_unscaled_dashes(patch)[0]), edge))
        if patch.get_hatch():
            self.hatches.add(patch.get_hatch())

    def add_image(self, image, most: int = 250_000) -> None:
        array = image.get_array()
        if not image.get_visible() or array is None or np.ma.count(array) == 0:
            return
        self.add_colour_map(image)
        step = max(1, int(np.ceil(np.sqrt(array.shape[0] * array.shape[1] / most))))
        array = array[::step, ::step]
        rgba = image.to_rgba(array) if array.ndim == 2 else np.asarray(array, float)
        rgba = np.asarray(rgba, float).reshape(-1, rgba.shape[-1])
        if rgba.max() > 1:
            rgba = rgba / 255
        if rgba.shape[1] == 3:
            rgba = np.column_stack([rgba, np.ones(len(rgba))])
        self.add_colours(_rgb8_rows(rgba)[rgba[:, 3] > 0])


def _drawn_in(ax) -> _Drawn:
    """What the data artists of ``ax`` draw (lines, collections, patches, images with data)."""
    drawn = _Drawn()
    for line in ax.lines:
        if line.get_gid() != "frame":
            drawn.add_marks(_line_marks(line))
    for coll in ax.collections:
        drawn.add_collection(coll)
    for patch in ax.patches:
        drawn.add_patch(patch)
    for text in ax.texts:
        arrow = getattr(text, "arrow_patch", None)
        if arrow is not None and text.get_visible():
            drawn.add_patch(arrow)
    for image in ax.images:
        drawn.add_image(image)
    return drawn


def _key_marks(artists) -> list[tuple]:
    """What a legend key draws, as the marks :class:`_Drawn` holds; ("colour", hatch, colour) for a
    patch (a colour key)."""
    marks = []
    for artist in artists:
        if not artist.get_visible():
            continue
        if isinstance(artist, Line2D):
            marks += _line_marks(artist, needs_data=False)
        elif isinstance(artist, Patch):
            face = _rgb8(artist.get_facecolor()) if artist.get_fill() else None
            edge = _rgb8(artist.get_edgecolor()) if artist.get_linewidth() > 0 else None
            if face or edge:
                marks.append(("colour", artist.get_hatch() or None, face or edge))
        elif isinstance(artist, Collection):
            faces, edges, widths = _per_item(artist)
            face = _rgb8(faces[0]) if faces[0, 3] > 0 else None
            edge = _rgb8(edges[0]) if widths[0] > 0 else None
            if isinstance(artist, PathCollection):
                ident = _marker_identity(faces[0], edges[0], widths[0])
                if ident is not None:
                    marks += [("marker", _shape(p), *ident) for p in artist.get_paths()[:1]]
            elif isinstance(artist, LineCollection):
                if edge:
                    marks.append(("line", _dash(_unscaled_dashes(artist)[0]), edge))
            elif face or edge:
                marks.append(("colour", artist.get_hatch() or None, face or edge))
    return marks


def _matches(mark, drawn: _Drawn) -> bool:
    kind, colour = mark[0], mark[-1]
    if kind == "colour":
        hatch = mark[1]
        colours = drawn.colours
        found = bool(len(colours)) and bool(np.any(np.max(np.abs(colours - np.array(colour)), axis=1)
                                                   <= COLOUR_TOLERANCE))
        return found and (hatch is None or hatch in drawn.hatches)
    pool, style = drawn.lines if kind == "line" else drawn.markers, mark[1:-1]
    if mark in pool:
        return True
    ink = _is_ink(colour)
    return any(m[1:-1] == style and (ink or _close(m[-1], colour)) for m in pool)


def _hex(rgb) -> str:
    return "#%02x%02x%02x" % tuple(int(v) for v in rgb)


def _describe_mark(mark) -> str:
    if mark[0] == "line":
        return f"line {_hex(mark[2])}" + ("" if mark[1] is None else " dashed")
    if mark[0] == "marker":
        return f"{'filled' if mark[2] else 'open'} marker {_hex(mark[3])}"
    return f"colour {_hex(mark[2])}" + (f" hatched {mark[1]!r}" if mark[1] else "")


def legend_entries(legend) -> list[tuple[str, list]]:
    """(label, artists of its key) of every entry of ``legend``, as drawn in the legend box."""
    entries = []

    def walk(box):
        parts = box.get_children()
        keys = [p for p in parts if isinstance(p, DrawingArea)]
        texts = [p for p in parts if isinstance(p, TextArea)]
        if keys and texts:                   # one entry: its key's drawing and its label
            entries.append((texts[0].get_text(), list(keys[0].get_children())))
            return
        for part in parts:
            if isinstance(part, OffsetBox):
                walk(part)

    walk(legend.get_children()[0])           # the legend's box (its title and its entries)
    return entries


def _is_colorbar(ax) -> bool:
    """Whether ``ax`` holds a colour bar (matplotlib labels the axes it makes for one "<colorbar>")."""
    return ax.get_label() == "<colorbar>"


def _twins(ax) -> list:
    """``ax`` and the Axes twinned with it (``twinx``, ``twiny``, and their twins in turn): the Axes
    that share its x or y axis in its place. Axes sharing an axis in another place
    (``plt.subplots(sharex=True)``, an inset) are not twins.

    In its place: the same subplot spec, or, when a colour bar has taken part of the cell (without
    a layout engine it puts the axes into a grid inside its cell, its twin staying), the same
    top-level cell and overlapping; axes placed without a subplot spec, the same position."""
    def same_place(a, b) -> bool:
        spec_a, spec_b = a.get_subplotspec(), b.get_subplotspec()
        if spec_a is None or spec_b is None:
            return bool(np.allclose(a.get_position().bounds, b.get_position().bounds, rtol=0, atol=1e-9))
        if spec_a == spec_b:
            return True
        common = Bbox.intersection(a.get_position(), b.get_position())
        return (spec_a.get_topmost_subplotspec() == spec_b.get_topmost_subplotspec() and common is not None
                and common.width > 1e-9 and common.height > 1e-9)

    group = [ax]
    for a in group:                       # grows as twins are found
        for b in (*a.get_shared_x_axes().get_siblings(a), *a.get_shared_y_axes().get_siblings(a)):
            if all(b is not g for g in group) and same_place(a, b):
                group.append(b)
    return group


def legend_entry_problems(fig) -> list[str]:
    """Legend entries whose key matches nothing drawn with data, one sentence each.

    The rule: every visible part of an entry's key, as the legend draws it (a line, a marker, a
    patch; each part of a tuple key; the marker, bar and caps of an error bar), must match a mark
    drawn with data (finite points; a line needs two) in the scope of the legend: its axes and
    their twins, or every axes but colour bars for a figure legend and for the legend of an axes
    that draws nothing (a blank axes holding a legend for the figure).

    * a line matches a line of the same colour and dash pattern (of a Line2D, a LineCollection
      such as error bars, contour lines, an arrow (an annotation's too) or a patch's outline);
    * a marker matches a marker of the same shape (a Line2D's or a scatter's), the same fill
      (open: face none or white) and the same colour (a filled marker's face, an open one's edge);
    * a key in black (:func:`_is_ink`) is a *style key*: it names a kind of mark (SGD markers,
      an ODE line) drawn in the colours of the cases and matches that line or marker in any colour;
    * a patch is a colour key: its face (else its edge) colour and hatch must be drawn by some
      data artist: a line, a marker, a filled region (fill_between, a bar, a span), or a cell of
      an image, mesh or filled contour (the colours it maps its data to; for a continuous colour
      map also every colour of the map between its least and greatest value, not the whole map;
      for a categorical one only the categories present).

    Colours compare in sRGB within :data:`COLOUR_TOLERANCE`, alpha ignored (the same colour at two
    alphas is one series); line width and marker size are not compared. An entry whose key draws
    nothing (a text-only note) is not checked. A proxy handle (``Line2D([], [])``, a Patch) thus
    passes when the data it stands for is drawn, and an artist with empty data fails unless another
    draws the same."""
    out = []
    per_axes = {}

    def drawn_of(axes) -> _Drawn:
        drawn = _Drawn()
        for ax in axes:
            if id(ax) not in per_axes:
                per_axes[id(ax)] = _drawn_in(ax)
            drawn.update(per_axes[id(ax)])
        return drawn

    panels = [a for a in fig.axes if a.get_visible() and not _is_colorbar(a)]
    for legend in _legends(fig):
        if not legend.get_visible():
            continue
        axes, where = panels, "figure legend"
        if legend.axes is not None:
            axes = [a for a in _twins(legend.axes) if a.get_visible()]
            where = f"legend of {_axes_name(legend.axes)}"
        drawn = None
        for label, artists in legend_entries(legend):
            marks = _key_marks(artists)
            if not marks:
                continue
            if drawn is None:
                drawn = drawn_of(axes)
                if drawn.empty:           # a blank axes that holds a legend for the figure
                    drawn = drawn_of(panels)
            missing = list(dict.fromkeys(_describe_mark(m) for m in marks if not _matches(m, drawn)))
            if missing:
                out.append(f"{where}: entry {label[:50]!r} matches nothing drawn ({', '.join(missing)})")
    return out


# --- text contrast --------------------------------------------------------------------------------

def _over(top, bottom) -> tuple:
    """``top`` (RGBA) composited over the opaque ``bottom`` (RGB)."""
    top = to_rgba(top)
    return tuple(top[3] * t + (1 - top[3]) * b for t, b in zip(top[:3], bottom[:3]))


def _layers(fig) -> list[tuple]:
    """((x0, y0, x1, y1) display extents, face RGBA) of what a figure paints under its texts, in
    drawing order: the figure, its subfigures, the axes with a visible background (by zorder)."""
    painted = []
    stack = [fig]
    while stack:
        f = stack.pop(0)
        painted.append((f.bbox, f.patch))
        stack += list(getattr(f, "subfigs", []))
    axes = sorted((ax for ax in fig.axes if ax.get_visible() and ax.axison and ax.get_frame_on()),
                  key=lambda a: a.get_zorder())
    painted += [(ax.bbox, ax.patch) for ax in axes]
    return [(tuple(box.extents), to_rgba(patch.get_facecolor())) for box, patch in painted
            if patch.get_visible() and patch.get_fill()]


def text_background(t: Text, box: Bbox, layers, legend=None) -> tuple:
    """Opaque RGB under the centre of ``t`` (display box ``box``): white paper, the layers
    (:func:`_layers`) that contain it, then the frame of its ``legend`` and its own bbox patch."""
    x, y = (box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2
    colour = (1.0, 1.0, 1.0)
    for (x0, y0, x1, y1), face in layers:
        if x0 <= x <= x1 and y0 <= y <= y1:
            colour = _over(face, colour)
    frame = legend.legendPatch if legend is not None and legend.get_frame_on() else None
    patch = t.get_bbox_patch()
    for p in (frame, patch):
        if p is not None and p.get_visible() and p.get_fill():
            colour = _over(p.get_facecolor(), colour)
    return colour


def _check_contrast(fig, texts) -> list[str]:
    """Texts (``texts``: (text, display box) pairs) whose WCAG 2 contrast ratio with their background
    is under :data:`MIN_CONTRAST`, one sentence each (the same sentence once, with its count).

    The text's colour, with its alpha, is composited over its background (:func:`text_background`):
    white paper, the face of the figure, of its subfigures and of every axes (drawn with its
    frame) under the centre of the text, then the frame of the text's legend and the text's own
    bbox patch, each with its alpha. Data under a text (an image, a mesh) is not looked at."""
    layers = _layers(fig)
    legend_of = {}
    for legend in _legends(fig):
        for t in legend.get_texts() + [legend.get_title()]:
            legend_of[id(t)] = legend
    out: dict = {}
    for t, box in texts:
        if not t.get_text().strip():
            continue
        rgba = to_rgba(t.get_color(), t.get_alpha())
        if rgba[3] <= 0:                  # drawn in no colour: nothing to read
            continue
        background = text_background(t, box, layers, legend_of.get(id(t)))
        colour = _over(rgba, background)
        ratio = contrast_ratio(colour, background)
        if ratio < MIN_CONTRAST:
            sentence = (f"text {_describe(t)} in {_hex(np.round(255 * np.array(colour)))} on "
                        f"{_hex(np.round(255 * np.array(background)))} has contrast {ratio:.2f}:1; at least "
                        f"{MIN_CONTRAST:g}:1 needed")
            out[sentence] = out.get(sentence, 0) + 1
    return [s if n == 1 else f"{s} ({n} such texts)" for s, n in out.items()]


# --- colour maps across panels --------------------------------------------------------------------
def _continuous_mappables(ax) -> list:
    """The images, meshes and filled contours of ``ax`` that map data with a continuous colour map
    (not a ListedColormap of at most :data:`MAX_CATEGORIES` colours); its contour lines only when
    it has none of those."""
    def continuous(artist) -> bool:
        cmap, array = artist.get_cmap(), artist.get_array()
        return (artist.get_visible() and array is not None and np.ndim(array) in (1, 2)
                and not (isinstance(cmap, ListedColormap) and cmap.N <= MAX_CATEGORIES))

    filled = [im for im in ax.images if isinstance(im, AxesImage) and continuous(im)]
    filled += [c for c in ax.collections if isinstance(c, QuadMesh) or (isinstance(c, ContourSet) and c.filled)
               if continuous(c)]
    if filled:
        return filled
    return [c for c in ax.collections if isinstance(c, ContourSet) and not c.filled and continuous(c)]


def _colour_scale(mappable) -> tuple:
    """(colour map name, norm class, vmin, vmax, other norm parameters): equal scales draw one
    value in one colour."""
    norm = mappable.norm
    extra = []
    for name in ("vcenter", "halfrange", "linthresh", "linscale", "base", "gamma", "boundaries"):
        try:
            value = getattr(norm, name)
        except (AttributeError, ValueError):
            continue
        if value is not None and not callable(value):
            extra.append((name, tuple(f"{v:.6g}" for v in np.atleast_1d(np.asarray(value, float)))))
    limits = tuple(f"{v:.6g}" if v is not None else "None" for v in (norm.vmin, norm.vmax))
    return (mappable.get_cmap().name, type(norm).__name__, *limits, tuple(extra))


def _scale_text(scale) -> str:
    name, norm, vmin, vmax, extra = scale
    more = "".join(f", {k} {'/'.join(v)}" for k, v in extra)
    return f"{name} {norm} [{vmin}, {vmax}{more}]"


def colour_map_problems(fig) -> list[str]:
    """Panels that show one quantity in continuous colour on different scales, one sentence each.

    Continuous mappables (:func:`_continuous_mappables`) of different axes show one quantity when
    their colour bars carry the same label, or when neither has a labelled colour bar (all such of
    a figure form one group). Within a group every one must use the same colour map (by name) and
    the same norm (class, vmin, vmax and its other parameters), so that one colour means one value
    across panels. Colour bars' own axes are not panels."""
    groups: dict = {}
    for ax in fig.axes:
        if not ax.get_visible() or _is_colorbar(ax):
            continue
        for m in _continuous_mappables(ax):
            bar = getattr(m, "colorbar", None)
            long_axis = None if bar is None else bar.ax.yaxis if bar.orientation == "vertical" else bar.ax.xaxis
            label = long_axis.get_label().get_text().strip() if long_axis is not None else ""
            groups.setdefault(label, []).append((ax, _colour_scale(m)))
    out = []
    for label, members in groups.items():
        scales = {}
        for ax, scale in members:
            scales.setdefault(scale, []).append(ax)
        if len(scales) < 2 or len({id(ax) for ax, _ in members}) < 2:
            continue
        quantity = f"colour bar {label!r}" if label else "no labelled colour bar"
        where = "; ".join(f"{_scale_text(scale)} in {', '.join(dict.fromkeys(_axes_name(a) for a in axes))}"
                          for scale, axes in scales.items())
        out.append(f"panels sharing a continuous colour scale ({quantity}) map it differently: {where}")
    return out


def problems(fig) -> list[str]:
    """Every legibility problem of ``fig`` (drawn here with its own renderer), as sentences."""
    fig.draw_without_rendering()
    renderer = fig.canvas.get_renderer()
    texts = _visible_texts(fig, renderer)
    out = _check_text(texts, fig.bbox)
    out += _check_contrast(fig, texts)
    out += _check_legends(fig, renderer)
    out += legend_entry_problems(fig)
    for ax in fig.axes:
        if ax.get_visible() and ax.axison:
            out += _check_axes(ax)
        if ax.get_visible():
            out += _check_colours(ax)
    out += colour_map_problems(fig)
    return out


def saved_figure_problems(draw) -> dict:
    """Figure file stem -> :func:`problems` of every figure that ``draw()`` hands to
    :func:`ssi.plotting.save_figure` (each figure once, its pdf and png alike); nothing is written."""
    import pytest

    from ssi import plotting

    found, seen = {}, set()

    def record(fig, path):
        if id(fig) not in seen:
            seen.add(id(fig))
            found[Path(path).stem] = problems(fig)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(plotting, "save_figure", record)
        draw()
    return found
