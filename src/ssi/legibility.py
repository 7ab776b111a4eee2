"""What a reader sees of a drawn figure, for laying it out: the data a box would cover, and the
contrast of a text colour on its background.

:func:`ssi.plotting.place_legend` puts a legend where :func:`covered_by` finds no data;
:func:`ssi.plotting.text_colour` darkens a colour until :func:`contrast_ratio` with white reaches
:data:`MIN_CONTRAST`. The figure checks built on these (text over text, legend entries without
data, contrast, colour distances, colour maps across panels) run in the test suite on the
committed figures (``tests/support/figure_checks.py``), not when a figure is saved.

Contrast is the WCAG 2 contrast ratio (W3C, "Web Content Accessibility Guidelines 2.2",
definitions of *relative luminance* and *contrast ratio*).
"""
from __future__ import annotations

import numpy as np
from matplotlib.collections import LineCollection, PathCollection, PolyCollection, QuadMesh
from matplotlib.colors import to_rgba
from matplotlib.lines import Line2D
from matplotlib.transforms import Bbox

#: smallest WCAG 2 contrast ratio of a text against its background (success criterion 1.4.3,
#: level AA, for text of normal size: every text of a figure printed at 7–9 pt is)
MIN_CONTRAST = 4.5


def linear_rgb(rgb):
    """Linear-light channels of sRGB values in [0, 1] (the sRGB transfer curve inverted)."""
    rgb = np.asarray(rgb, float)
    return np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)


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


# --- text contrast --------------------------------------------------------------------------------
def relative_luminance(colour) -> float:
    """WCAG 2 relative luminance of an sRGB colour: 0.2126 R + 0.7152 G + 0.0722 B of its linear
    channels (the sRGB curve; WCAG's 0.03928 threshold and this 0.04045 differ on no 8-bit value)."""
    r, g, b = linear_rgb(to_rgba(colour)[:3])
    return float(0.2126 * r + 0.7152 * g + 0.0722 * b)


def contrast_ratio(a, b) -> float:
    """WCAG 2 contrast ratio (L_light + 0.05) / (L_dark + 0.05) of two opaque colours: 1 to 21."""
    la, lb = relative_luminance(a), relative_luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)



__all__ = ["MIN_CONTRAST", "linear_rgb", "covered_by", "relative_luminance", "contrast_ratio"]
