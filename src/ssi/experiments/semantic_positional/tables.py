"""What the tables and sentences of docs/results/semantic_positional.md read, from the numbers file of
claim C5 (the page generator's template ``_semantic_positional.md.j2`` lays them out)."""
from __future__ import annotations


def regions(numbers) -> dict:
    """The phase diagram's boxes (``boxes``: name -> ((a_lo, a_hi), (ω_lo, ω_hi))), every region
    with a nonzero area in one of them (``rows``: region -> areas, in the boxes' order), the
    misaligned dynamics' areas, the grid size and the most local minima at any (a, ω)."""
    boxes = numbers["diagrams"]
    names = list(boxes)
    areas = {region: [boxes[b]["fractions"]["regions"].get(region, 0.0) for b in names]
             for region in boxes[names[0]]["fractions"]["regions"]}
    return {"boxes": [(boxes[b]["a"][:2], boxes[b]["omega"][:2]) for b in names],
            "rows": {region: a for region, a in areas.items() if any(a)},
            "misaligned": [boxes[b]["fractions"]["named"]["misaligned dynamics"] for b in names],
            "grid": boxes[names[0]]["a"][2], "most_minima": max(boxes[b]["max_minima"] for b in names)}


def cost(numbers) -> dict:
    """The SGD steps of the result: per transition run ω values × runs × steps, plus the long run
    (``parts``: (name, steps)), and their ``total``."""
    parts = [(f"`{r['run']}`", len(r["omega"]) * r["replicates"] * r["steps"]) for r in numbers["transition"]]
    long = numbers["long_run"]
    parts.append(("long run", long["replicates"] * long["steps"]))
    return {"parts": parts, "total": sum(steps for _, steps in parts)}


def context(numbers) -> dict:
    """What the page's tables read: the numbers file (``n``), the share of runs not escaped per
    transition run (``not_escaped``), :func:`regions`, :func:`cost`."""
    not_escaped = [sum(r["not_escaped_fraction"]) / len(r["not_escaped_fraction"]) if r["not_escaped_fraction"]
                   else float("nan") for r in numbers["transition"]]
    return {"n": numbers, "not_escaped": not_escaped, "regions": regions(numbers), "cost": cost(numbers)}
