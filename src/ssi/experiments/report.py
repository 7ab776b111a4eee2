"""The key numbers of a result as an HTML table, for `snakemake --report`."""
from __future__ import annotations

import html
import json
from pathlib import Path

from ..io import atomic_write_text


def _rows(value, prefix=""):
    if isinstance(value, dict):
        for key in sorted(value):
            yield from _rows(value[key], f"{prefix}.{key}" if prefix else str(key))
    elif isinstance(value, list) and value and all(isinstance(v, (dict, list)) for v in value):
        for i, item in enumerate(value):
            yield from _rows(item, f"{prefix}[{i}]")
    else:
        yield prefix, value


def _cell(value) -> str:
    if isinstance(value, float):
        return f"{value:.6g}"
    if value is None:
        return "–"
    if isinstance(value, list):
        return "[" + ", ".join(_cell(v) for v in value) + "]"
    return str(value)


def numbers_table(record: dict, title: str) -> str:
    """A standalone HTML page: one row per number of ``record`` (dotted key path, value to 6
    significant digits), the ``provenance`` record last."""
    numbers = {k: v for k, v in record.items() if k != "provenance"}
    parts = ["<!DOCTYPE html>", '<html><head><meta charset="utf-8">', f"<title>{html.escape(title)}</title>",
             "<style>body{font-family:sans-serif;font-size:13px}table{border-collapse:collapse}"
             "td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}td.v{font-family:monospace}</style>",
             "</head><body>", f"<h2>{html.escape(title)}</h2>"]
    for heading, content in (("Key numbers", numbers), ("Provenance", record.get("provenance", {}))):
        parts.append(f"<h3>{heading}</h3><table><tr><th>key</th><th>value</th></tr>")
        parts += [f'<tr><td>{html.escape(k)}</td><td class="v">{html.escape(_cell(v))}</td></tr>'
                  for k, v in _rows(content)]
        parts.append("</table>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def write_numbers_table(numbers_path, out_path, log=None) -> None:
    """Write :func:`numbers_table` of a numbers file (``figures/numbers/<name>.json``)."""
    record = json.loads(Path(numbers_path).read_text())
    atomic_write_text(out_path, numbers_table(record, f"Key numbers: {Path(numbers_path).name}"))
    if log:
        atomic_write_text(log, f"{out_path}: table of {numbers_path}\n")
