"""Every place that shows a claim's verdict says what the verdict file says.

Rendered from the committed verdict files (figures/VERDICTS.json, figures/authors/VERDICTS.json)
and compared row by row and claim by claim: the README's headline, the README's claims table,
figures/CLAIMS.md, the README's table of the authors' experiments (and figures/authors/CLAIMS.md),
the summary figure's panel verdicts (:func:`ssi.experiments.summary.panel_text`, the function that
makes its labels) and the notebooks' verdict lines (:func:`ssi.experiments.notebook.claims_text`).

The case this catches: before one verdict file, C4 read "does not" reproduce in the README's
headline, "reproduced" / "differs" / "reproduced" in the claims table's rows, and "partly" in the
summary figure (its panel averaged a "differs" row away): three words for one claim.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from ssi import verdicts
from ssi.experiments import claims, notebook, summary
from pagegen import markers

ROOT = Path(__file__).resolve().parents[2]
PAPER = ROOT / "figures" / "VERDICTS.json"
AUTHORS = ROOT / "figures" / "authors" / "VERDICTS.json"


def _table_verdicts(text: str) -> dict[str, str]:
    """First cell -> verdict cell ("**word**") of every row of the Markdown tables in ``text``."""
    out = {}
    for line in text.splitlines():
        if not line.startswith("| ") or line.startswith("|---"):
            continue
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        words = [c.strip("*") for c in cells if c.startswith("**") and c.endswith("**")]
        if words:
            label = re.fullmatch(r"\[(.+)\]\(#[^)]*\)", cells[0])  # a row label may link to its section
            out[(label.group(1) if label else cells[0]).replace("\\|", "|")] = words[0]
    return out


def _block(text: str, start: str, end: str) -> str:
    return text[text.index(start):text.index(end)]


def disagreements(content: dict, readme: str, claims_md: str, panel_words: dict, notebook_words: dict) -> list[str]:
    """Every place whose verdict differs from the verdict file ``content``, named (empty: all agree).

    ``panel_words``: claim id -> (claim verdict or None, {row label: word}) as the summary shows;
    ``notebook_words``: row label -> word as the notebooks show."""
    problems = []
    rows = {e["row"]: e["verdict"] for e in content["rows"]}
    for where, table in (("README claims table", _table_verdicts(_block(readme, *markers.CLAIMS))),
                         ("figures/CLAIMS.md", _table_verdicts(claims_md))):
        for row, word in rows.items():
            if table.get(row) != word:
                problems.append(f"{where}: {row!r} reads {table.get(row)!r}, the verdict file {word!r}")
    head = readme[readme.index("<!-- gen:finding -->"):]
    head = head[:head.index("<!-- /gen -->")].removeprefix("<!-- gen:finding -->")
    if head != verdicts.headline(content):
        problems.append(f"README headline {head!r} is not the verdict file's {verdicts.headline(content)!r}")
    for word in verdicts.VERDICTS:
        for e in content["rows"]:
            if e["verdict"] != word:
                continue
            section = re.search(rf"\*\*{word}\*\*: ([^;]*)", head, re.I)
            if not section or e["claim"] not in section.group(1):
                problems.append(f"README headline: {e['short']} is not under {word!r}")
    for cid, verdict in content["claims"].items():
        shown, by_row = panel_words.get(cid, (None, {}))
        if shown != verdict:
            problems.append(f"summary figure: {cid} reads {shown!r}, the verdict file {verdict!r}")
        for row, word in by_row.items():
            if rows.get(row) != word:
                problems.append(f"summary figure: {row!r} reads {word!r}, the verdict file {rows.get(row)!r}")
        if verdict != verdicts.DIFFERS and any(rows[e["row"]] == verdicts.DIFFERS
                                               for e in content["rows"] if e["claim"] == cid):
            problems.append(f"{cid} has a row that differs but reads {verdict!r}")
    for row, word in notebook_words.items():
        if rows.get(row) != word:
            problems.append(f"notebook: {row!r} reads {word!r}, the verdict file {rows.get(row)!r}")
    return problems


def _panel_words(content: dict) -> dict:
    out = {}
    for cid in content["claims"]:
        mine = [e for e in content["rows"] if e["claim"] == cid]
        _, head, verdict, _ = summary.panel_text(mine)
        marks = {summary_mark: w for w, (_, summary_mark) in _styles().items()}
        by_row = {e["row"]: marks.get(line.split(" ", 1)[0]) for e, line in zip(mine, _note_lines(mine))}
        out[cid] = (verdict, by_row)
    return out


def _styles():
    from ssi.plotting import VERDICT_STYLE

    return VERDICT_STYLE


def _note_lines(mine):
    if len(mine) == 1:
        word = summary.panel_text(mine)[2]
        return [f"{_styles()[word][1]} x"]
    return summary.panel_text(mine)[3].splitlines()


def _notebook_words(content: dict) -> dict:
    out = {}
    for result in {e["result"] for e in content["rows"]}:
        text = notebook.claims_text(PAPER, result)
        for block in text.split("\n\n"):
            row = block.splitlines()[0].strip("*")
            out[row] = re.search(r"- verdict: \*\*(.+?)\*\*", block).group(1)
    return out


def test_every_rendering_agrees_with_the_verdict_file():
    content = verdicts.load(PAPER)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    claims_md = (ROOT / "figures" / "CLAIMS.md").read_text(encoding="utf-8")
    problems = disagreements(content, readme, claims_md, _panel_words(content), _notebook_words(content))
    assert not problems, "\n".join(problems)


def test_the_check_catches_the_old_three_words_for_c4():
    """The README as it read before one verdict file: C4 "does not" in the headline, its rows split in
    the table, "partly" on the summary figure. Each is reported."""
    content = verdicts.load(PAPER)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    claims_md = (ROOT / "figures" / "CLAIMS.md").read_text(encoding="utf-8")
    old_head = "One claim does not: at SIE 2 the untied network is **not** L² times slower than the tied one (C4)"
    readme = re.sub(r"(<!-- gen:finding -->).*?(<!-- /gen -->)", lambda m: m.group(1) + old_head + m.group(2),
                    readme, flags=re.S)
    row = next(e["row"] for e in content["rows"] if e["claim"] == "C4" and e["verdict"] == "undecided")
    table = _block(readme, *markers.CLAIMS)
    line = next(x for x in table.splitlines() if x.startswith(f"| {row} |"))
    readme = readme.replace(line, line.replace("**undecided**", "**reproduced**"))
    panels = _panel_words(content)
    panels["C4"] = ("partly", panels["C4"][1])
    problems = disagreements(content, readme, claims_md, panels, _notebook_words(content))
    assert any(p.startswith("README headline") for p in problems)
    assert any(p.startswith("README claims table") and "SIE 3" in p for p in problems)
    assert any(p.startswith("summary figure: C4 reads 'partly'") for p in problems)


def test_the_authors_tables_agree_with_their_verdict_file():
    """The README's authors' table and figures/authors/CLAIMS.md read figures/authors/VERDICTS.json:
    every row of the file shows its word in both (an experiment pair shares a README row)."""
    content = verdicts.load(AUTHORS)
    config = yaml.safe_load((ROOT / "config" / "authors.yaml").read_text())
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = _table_verdicts(_block(readme, *markers.AUTHORS))
    page = _table_verdicts((ROOT / "figures" / "authors" / "CLAIMS.md").read_text(encoding="utf-8"))
    experiments = config["authors"]["experiments"]
    problems = []
    for e in content["rows"]:
        if page.get(e["row"]) != e["verdict"]:
            problems.append(f"figures/authors/CLAIMS.md: {e['row']!r} reads {page.get(e['row'])!r}")
        if e.get("key") in experiments:
            stem = experiments[e["key"]]["file"].removesuffix(".yaml")
            shown = [w for cell, w in table.items() if f"`{stem}`" in cell]
        else:
            shown = [w for cell, w in table.items() if cell.startswith("C4 candidates")]
        if shown != [e["verdict"]]:
            problems.append(f"README authors' table: {e['row']!r} reads {shown}, the file {e['verdict']!r}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("path", [PAPER, AUTHORS])
def test_the_verdict_files_are_made_from_the_committed_numbers(path):
    """The committed verdict file is what ssi.verdicts makes from the committed numbers files (a
    verdict typed into it, or a numbers file changed without it, fails here)."""
    configfile = "config/config.yaml" if path == PAPER else "config/authors.yaml"
    config = yaml.safe_load((ROOT / configfile).read_text())
    files = sorted((ROOT / config["figures_dir"] / "numbers").glob("*.json"))
    made = verdicts.dumps(claims.verdict_content(config, files))
    assert json.loads(path.read_text(encoding="utf-8")) == json.loads(made)
