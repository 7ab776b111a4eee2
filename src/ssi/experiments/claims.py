"""The claims table: each claim of the paper (C1–C6) next to what this repository measured.

Rows come from the numbers files: ``figures/numbers/<stem>.json`` is read through
``ssi.experiments.<stem>.claim_rows`` (keys: :data:`ssi.experiments.claim_text.ROW_KEYS`) and
written once, with their verdicts, to the verdict file ``figures/VERDICTS.json``
(:func:`verdict_content`, :mod:`ssi.verdicts`). Two renderings read that file, both templates of
the page generator (workflow/pagegen): the README's short table (headline and verdict) and
figures/CLAIMS.md (the full measured text, the verdicts' reasons, the verdict rules and the
commands); this module gives them the terms, the titles and the cell and anchor rules.
"""
from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from ..escape import AUTHORS, AUTHORS_MACRO
from .. import verdicts
from .audit import load_numbers
from . import registry
from .claim_text import check_row


#: the terms of the full measured texts of figures/CLAIMS.md; the early and the macro level are the authors'
#: escape levels (ssi.escape.AUTHORS, AUTHORS_MACRO), the two levels of the config's escape_vs_d and tied_untied
TERMS_FULL = ("Terms: the overlap m is the cosine between the student's and the teacher's weights (untied networks: "
              "the root mean square over tokens); m̄ its mean over replicates; an escape time is the first step at "
              f"which m̄ reaches a level: the *early level* {AUTHORS.level_text()} (the authors' threshold, twice the "
              f"starting overlap d^-½) or the *macro* (macroscopic) level {AUTHORS_MACRO.level_text()}; t = steps/d; "
              "the *gain* is T_untied/T_tied; "
              "d^x and L^x are log-log slopes with their 95 % bootstrap interval over replicates in brackets; z "
              "compares the explicit and the reduced engine (difference of log escape times in standard errors).")


def collect_rows(config, numbers_files) -> list[dict]:
    """Every row of every numbers file, in claim order (C1 … C6; a result's own rows keep their order);
    each row also names its ``result`` (the numbers file's stem)."""
    rows = []
    for path in sorted(map(str, numbers_files)):
        stem = Path(path).stem
        claim_rows = registry.get(stem).function("claim_rows")
        rows += [{**check_row(row), "result": stem} for row in claim_rows(config, load_numbers(path))]
    rows.sort(key=lambda row: _claim_number(row["claim"]))
    return rows


def verdict_content(config, numbers_files) -> dict:
    """The content of the verdict file (:func:`ssi.verdicts.verdict_file`) from the numbers files."""
    return verdicts.verdict_file([verdicts.entry(row, row["result"]) for row in collect_rows(config, numbers_files)])


def _claim_number(label: str) -> int:
    """The n of a row label "Cn …" (rows without one go last)."""
    match = re.match(r"C(\d+)", label)
    return int(match.group(1)) if match else 1_000_000


def cell(text: str) -> str:
    """``text`` fit for a Markdown table cell: "|" escaped (once), no line breaks."""
    return re.sub(r"(?<!\\)\|", r"\\|", " ".join(str(text).split()))




#: the title of the claims page of the paper's config, and of the authors' config
TITLE = "Claims and what this repository measured"
AUTHORS_TITLE = "The authors' experiments: claims and what this repository measured"


def page_title(config) -> str:
    """The title of the claims page of ``config`` (the authors' config has a section ``authors``)."""
    return AUTHORS_TITLE if "authors" in config else TITLE


def anchor(title: str) -> str:
    """GitHub's anchor of a heading: lowercase, letters, digits, '-' and '_' kept, spaces → '-'."""
    keep = "".join(ch for ch in title.lower()
                   if ch in " -_" or unicodedata.category(ch)[0] in "LMN" or unicodedata.category(ch) == "Pc")
    return keep.replace(" ", "-")




