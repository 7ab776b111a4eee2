"""What the tables of docs/results/tied_untied.md read, from the numbers file of claim C4 (the page
generator's template ``_tied_untied.md.j2`` lays them out)."""
from __future__ import annotations

import math

from ...escape import Escape
from .jobs import PROTOCOLS

#: the two escape thresholds of the numbers file: the macroscopic one and the authors' early one
THRESHOLDS = ("macro", "authors")


def level_text(fit) -> str:
    """The level of a fit of the numbers file as the page writes it (:meth:`ssi.escape.Escape.level_text`):
    the ``authors`` threshold is a multiple of d^(−1/2), the others a number."""
    if fit["threshold"] == "authors":
        return Escape(round(fit["level"] * math.sqrt(fit["d"]), 9), per_sqrt_d=True).level_text()
    return Escape(fit["level"]).level_text()


def _fit(fits, case, protocol, threshold):
    for f in fits:
        if (f["case"], f["protocol"], f["threshold"]) == (case, protocol, threshold):
            return f
    return None


def fit_rows(numbers) -> list[dict]:
    """Per SIE case and protocol with a fit: the case's setup (target, activation, d, L), the
    protocol's first and last tied η, and its fits at both thresholds (the authors' may be None)."""
    out = []
    for case in dict.fromkeys(f["case"] for f in numbers["fits"]):
        rows = [r for r in numbers["rows"] if r["case"] == case]
        fit = next(f for f in numbers["fits"] if f["case"] == case)
        Ls = sorted({r["L"] for r in rows})
        for protocol in PROTOCOLS:
            macro, authors = (_fit(numbers["fits"], case, protocol, t) for t in THRESHOLDS)
            protocol_rows = sorted((r for r in rows if r["protocol"] == protocol), key=lambda r: r["L"])
            if macro is None or not protocol_rows:
                continue
            first, last = protocol_rows[0]["lr_tied"], protocol_rows[-1]["lr_tied"]
            out.append({"case": case, "fit": fit, "Ls": Ls, "protocol": protocol, "macro": macro, "authors": authors,
                        "lr": (first,) if abs(first - last) <= 1e-9 * abs(first) else (first, last)})
    return out


def context(numbers) -> dict:
    """What the page's tables read: the numbers file (``n``), the two thresholds' levels in words
    (``levels``, from the first fit at each) and :func:`fit_rows`."""
    return {"n": numbers, "fits": fit_rows(numbers),
            "levels": {t: level_text(next(f for f in numbers["fits"] if f["threshold"] == t)) for t in THRESHOLDS}}
