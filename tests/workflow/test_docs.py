"""The repository stands on its own: nothing points outside it (links: tests/workflow/test_doc_links.py).

* no tracked file mentions the internal specification, a path outside the repository, or a
  Markdown document that is not in the repository;
* every reference to a section of docs/theory.md by its quoted title names one of its headings;
* README.md is a front door (≤ 15,000 bytes) and keeps the generated claims table markers;
* no table row of README.md, docs/ or the claims pages is over 600 characters, and
  docs/results/authors.md is under 20,000 bytes;
* CITATION.cff parses and has the keys CFF 1.2.0 requires;
* reference, not diary: no "session", "developer", "helper", "issue N", "item N" in README.md,
  docs/ and config/;
* the README's claims table and the authors' table have a verdict column and short measured cells;
* every generated page is what ``snakemake pages`` makes from the committed files (its template
  under workflow/templates/ named on its first line), and no template quotes a time, rate or count
  of jobs/tests outside a generated span.
"""
from __future__ import annotations

import itertools
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from support.repo_files import tracked_files

ROOT = Path(__file__).resolve().parents[2]
BINARY = {".png", ".pdf", ".npz", ".gz", ".zip", ".jpg", ".jpeg", ".svg"}
THEORY_SECTIONS = ("Model and conventions", "Sufficient statistics and population loss",
                   "Hermite expansions and the SIE", "The ODE", "The reduced simulator",
                   "Semantic and positional phases", "The authors' conventions")


FILES = tracked_files(ROOT)
MARKDOWN = [p for p in FILES if p.suffix == ".md"]


def text_files():
    for path in FILES:
        if path.suffix.lower() in BINARY:
            continue
        try:
            yield path, path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue


def test_markdown_files_are_found():
    names = {p.relative_to(ROOT).as_posix() for p in MARKDOWN}
    assert {"README.md", "docs/theory.md"} <= names


def test_nothing_refers_outside_the_repository():
    # built from pieces so that this file does not contain them itself
    forbidden = ["science" + ".md", "science" + " §", "../" + "shared", "/work" + "/", "spec" + "/cluster"]
    hits = []
    for path, text in text_files():
        for word in forbidden:
            for lineno, line in enumerate(text.splitlines(), 1):
                if word in line:
                    hits.append(f"{path.relative_to(ROOT)}:{lineno}: {word!r}")
    assert not hits, "\n".join(hits)


def test_every_mentioned_markdown_document_exists():
    """Every Markdown file name (or Markdown template, ``*.md.j2``) mentioned anywhere is a tracked file
    (by path, or at least by name)."""
    paths = {p.relative_to(ROOT).as_posix() for p in FILES}
    names = {p.name for p in FILES}
    missing = []
    for path, text in text_files():
        for mention in re.findall(r"(?<![\w/.-])((?:\.{0,2}/)?[\w./-]*\w\.md(?:\.j2)?)\b", text):
            rel = (path.parent / mention).resolve()
            ok = (mention.lstrip("./") in paths or Path(mention).name in names
                  or (rel.is_relative_to(ROOT) and rel.relative_to(ROOT).as_posix() in paths))
            if not ok:
                missing.append(f"{path.relative_to(ROOT)}: {mention}")
    assert not missing, "\n".join(sorted(set(missing)))


def unlisted_notebooks(root: Path) -> list[str]:
    """The notebooks of ``notebooks/`` that docs/reproducibility.md does not name (as `name.py`)."""
    text = (root / "docs" / "reproducibility.md").read_text(encoding="utf-8")
    return [p.name for p in sorted((root / "notebooks").glob("*.py")) if f"`{p.name}`" not in text]


def test_reproducibility_lists_every_notebook(tmp_path):
    """docs/reproducibility.md names every notebook; caught: a notebook added to notebooks/ and
    not to the page's list (the list naming six notebooks of seven)."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "notebooks").mkdir()
    for name in ("two_phases.py", "tied_untied_theory.py"):
        (tmp_path / "notebooks" / name).write_text("")
    (tmp_path / "docs" / "reproducibility.md").write_text("`two_phases.py` (C2, C6)\n")
    assert unlisted_notebooks(tmp_path) == ["tied_untied_theory.py"]
    assert unlisted_notebooks(ROOT) == []


def test_theory_sections_exist_and_code_cites_them():
    theory = ROOT / "docs" / "theory.md"
    headings = {re.sub(r"^#+\s*", "", line).strip()
                for line in theory.read_text(encoding="utf-8").splitlines() if line.startswith("## ")}
    for section in THEORY_SECTIONS:
        assert section in headings, f"docs/theory.md lacks the section {section!r}"
    bad = []
    for path, text in text_files():
        for section in re.findall(r'docs/theory\.md,\s*"([^"]+)"', text):
            section = " ".join(section.split())           # a title may be wrapped over two lines
            if section not in headings:
                bad.append(f"{path.relative_to(ROOT)}: {section!r}")
    assert not bad, "references to sections that docs/theory.md does not have:\n" + "\n".join(bad)


def test_readme_is_a_front_door():
    readme = ROOT / "README.md"
    size = readme.stat().st_size
    assert size <= 15_000, f"README.md is {size} bytes (limit 15,000): move detail to docs/"
    text = readme.read_text(encoding="utf-8")
    from pagegen.markers import CLAIMS
    start, end = CLAIMS
    assert text.count(start) == 1 and text.count(end) == 1 and text.index(start) < text.index(end)


#: the longest table row a page may have, in characters (a referee reads each row on one screen)
ROW_MAX = 600
#: the size limit of docs/results/authors.md, in bytes (its per-run tables are on authors_runs.md)
AUTHORS_PAGE_MAX = 20_000


def long_table_rows(text: str, limit: int = ROW_MAX) -> list[str]:
    """"line N: C characters" for every Markdown table row of ``text`` longer than ``limit`` characters."""
    return [f"line {n}: {len(line)} characters" for n, line in enumerate(text.splitlines(), 1)
            if line.lstrip().startswith("|") and len(line) > limit]


def test_long_table_rows_are_found():
    """A row holding a whole measurement (every point of a sweep in one cell) is reported, by line."""
    text = "| a | b |\n|---|---|\n| C2 | " + "t_SGD = 2.31, " * 60 + " |\n| C3 | short |\n"
    assert long_table_rows(text) == [f"line 3: {len(text.splitlines()[2])} characters"]
    assert long_table_rows("| C3 | short |\n" + "x" * 700 + "\n") == []          # prose is not a row


def test_table_rows_are_short_and_the_authors_page_small():
    """No table row over ROW_MAX characters in README.md, docs/**/*.md and the claims pages, and
    docs/results/authors.md under AUTHORS_PAGE_MAX bytes. Caught: a generator that writes every
    measured number of a claim into its row (figures/CLAIMS.md), or the per-L tables of every
    experiment back on the authors' page."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")), ROOT / "figures" / "CLAIMS.md",
             ROOT / "figures" / "authors" / "CLAIMS.md"]
    problems = [f"{page.relative_to(ROOT)} {row}" for page in pages if page.is_file()
                for row in long_table_rows(page.read_text(encoding="utf-8"))]
    size = (ROOT / "docs" / "results" / "authors.md").stat().st_size
    if size >= AUTHORS_PAGE_MAX:
        problems.append(f"docs/results/authors.md is {size} bytes (limit {AUTHORS_PAGE_MAX})")
    assert not problems, "\n".join(problems)


# --- reference, not diary -----------------------------------------------------------------
DIARY = re.compile(r"session|developer|helper|issue [0-9]|item [0-9]", re.I)


def diary_words(root: Path) -> list[str]:
    """"path:line: word" for every diary word in README.md, docs/ and config/ under ``root``."""
    paths = [root / "README.md", *sorted((root / "docs").rglob("*.md")), *sorted((root / "config").glob("*.yaml"))]
    return [f"{p.relative_to(root)}:{n}: {m.group()!r}" for p in paths
            for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) for m in DIARY.finditer(line)]


def test_docs_and_configs_are_reference_not_diary():
    hits = diary_words(ROOT)
    assert not hits, "diary words (the story goes in commit messages and CHANGELOG.md):\n" + "\n".join(hits)


# --- the README's tables ---------------------------------------------------------------------
def table_rows(text: str, start: str, end: str) -> tuple[list[str], list[list[str]]]:
    """(header, rows) of the first Markdown table between the markers ``start`` and ``end``."""
    block = text[text.index(start) + len(start):text.index(end)].splitlines()
    first = next(i for i, line in enumerate(block) if line.startswith("|"))
    lines = [line for line in itertools.takewhile(lambda line: line.startswith("|"), block[first:])]

    def cells(line):
        return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]

    return cells(lines[0]), [cells(line) for line in lines[2:]]


def check_verdict_table(text: str, start: str, end: str, allowed: set[str]) -> list[str]:
    """Problems of a generated table: no verdict column, an unknown verdict, a measured cell > 160 characters."""
    header, rows = table_rows(text, start, end)
    if "verdict" not in header or "measured" not in header:
        return [f"columns {header}: no 'measured' and 'verdict' columns"]
    problems = []
    for row in rows:
        measured, verdict = row[header.index("measured")], row[header.index("verdict")].strip("*")
        if verdict not in allowed:
            problems.append(f"{row[0]}: verdict {verdict!r} not in {sorted(allowed)}")
        if len(measured) > 160:
            problems.append(f"{row[0]}: measured cell of {len(measured)} characters (at most 160)")
    return problems or ([] if rows else ["the table has no rows"])


def test_readme_claims_table_has_verdicts_and_short_cells():
    from ssi.experiments.claim_text import VERDICTS
    from pagegen.markers import CLAIMS

    problems = check_verdict_table((ROOT / "README.md").read_text(encoding="utf-8"), *CLAIMS, set(VERDICTS))
    assert not problems, "\n".join(problems)


def test_readme_authors_table_has_verdicts_and_short_cells():
    from pagegen.markers import AUTHORS
    from ssi.experiments.claim_text import VERDICTS

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    problems = check_verdict_table(text, *AUTHORS, set(VERDICTS) | {"n/a"})
    assert not problems, "\n".join(problems)


# --- one source for every quoted figure -------------------------------------------------------
_NUMBER = r"(?<![\w.^·/])\d+(?:[.,]\d+)*(?:\s?[·×]\s?10[⁰¹²³⁴⁵⁶⁷⁸⁹⁻]+)?(?:\s?[–-]\s?\d+(?:[.,]\d+)*)?"
_UNIT = (r"(?:ms|µs|ns|s|sec|seconds?|min|minutes?|h|hours?|CPU-s|CPU-h|CPU-hours?|CPU-seconds|job-seconds|"
         r"user-s|sys-s|steps/s|draws/s|normals/s|exp/s|GB|MB|jobs|passed|failed)")
#: a time (2.5 min, 36 s, 178 CPU-hours), a rate (5·10⁶ steps/s), a size (0.8 GB) or a count of jobs or tests
QUOTED_FIGURE = re.compile(_NUMBER + r"\s?" + _UNIT + r"(?![\w/])")


#: a Jinja2 expression, statement or comment of a template
JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)


def hand_quoted_figures(root: Path) -> list[str]:
    """"file:line: figure" for every time, rate or count typed by hand: in the text of a template
    under workflow/templates/ (outside its expressions and statements), and in a page of README.md
    or docs/ that has no template, outside its generated spans."""
    from pagegen.markers import strip_generated
    from pagegen.pages import TEMPLATES, templates, whole_pages

    rendered, whole = set(templates(root)), set(whole_pages(root))
    sources = [(path, JINJA.sub("", path.read_text(encoding="utf-8"))) for path in sorted((root / TEMPLATES).rglob("*.j2"))]
    sources += [(page, strip_generated(page.read_text(encoding="utf-8")))
                for page in [root / "README.md", *sorted((root / "docs").rglob("*.md"))]
                if page not in rendered and page not in whole]
    return [f"{path.relative_to(root)}:{n}: {m.group()!r}" for path, text in sources
            for n, line in enumerate(text.splitlines(), 1) for m in QUOTED_FIGURE.finditer(line)]


def test_quoted_figure_pattern():
    found = [m.group() for m in QUOTED_FIGURE.finditer(
        "about 2.5 min on 2 cores; 36 s; 1–2.5 min; 5·10⁶ steps/s; 178.1 CPU-hours; 87 jobs; 1673 passed; 0.79 GB")]
    assert found == ["2.5 min", "36 s", "1–2.5 min", "5·10⁶ steps/s", "178.1 CPU-hours", "87 jobs", "1673 passed",
                     "0.79 GB"]
    assert not QUOTED_FIGURE.findall("SIE 2 at d = 10³, L = 1–32, 16 replicates, h₂(z), C4 s, t = 2.35, T = 3·10⁵ steps")


@pytest.mark.parametrize("page", ["workflow/templates/README.md", "workflow/templates/docs", "workflow/templates/_",
                                  "docs"])
def test_no_page_quotes_a_time_by_hand(page):
    hits = [h for h in hand_quoted_figures(ROOT) if h.startswith(page)]
    assert not hits, ("times, rates and counts come from benchmarks/results/ through `snakemake pages` "
                      "(<!-- gen:... --> spans), never typed:\n" + "\n".join(hits))


def test_generated_pages_are_up_to_date():
    """README.md, docs/ and figures/**/CLAIMS.md are what `snakemake pages` makes of the committed files."""
    from pagegen.pages import stale

    out = [str(p.relative_to(ROOT)) for p in stale(ROOT)]
    assert not out, "out of date (run `snakemake pages --cores 1`): " + ", ".join(out)


def test_every_rendered_page_names_its_template():
    """A rendered page starts by naming its template, and a page that quotes a generated span has
    one: a page edited by hand where its template should have been (a span typed into
    docs/results/two_phases.md, say) is caught."""
    from pagegen.markers import GENERATED
    from pagegen.pages import HEADER, templates, whole_pages

    rendered = templates(ROOT)
    problems = [f"{page.relative_to(ROOT)}: first line is not {HEADER.strip()!r}" for page, template in rendered.items()
                if not page.read_text(encoding="utf-8").startswith(
                    HEADER.format(template=template.relative_to(ROOT).as_posix()))]
    whole = set(whole_pages(ROOT))
    problems += [f"{page.relative_to(ROOT)}: generated spans but no template" for page in
                 [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
                 if page not in rendered and page not in whole and GENERATED.search(page.read_text(encoding="utf-8"))]
    assert not problems, "\n".join(problems)


def test_design_registry_table_lists_every_name_of_ssi_list():
    """docs/design.md names every registry entry that `python -m ssi list` prints."""
    listed = subprocess.run([sys.executable, "-m", "ssi", "list"], capture_output=True, text=True, check=True).stdout
    names = re.findall(r"^  (\S+)\s", listed, flags=re.M)
    design = (ROOT / "docs" / "design.md").read_text(encoding="utf-8")
    missing = [n for n in names if f"`{n}`" not in design]
    assert names and not missing, f"docs/design.md lacks {missing}"


def test_citation_cff_parses_with_the_required_keys():
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert str(cff["cff-version"]) == "1.2.0"
    for key in ("message", "title", "authors"):
        assert cff.get(key), f"CITATION.cff lacks {key!r}"

    def check_authors(authors, where):
        assert isinstance(authors, list) and authors, where
        for author in authors:
            assert author.get("family-names") or author.get("name"), f"{where}: {author}"

    check_authors(cff["authors"], "authors")
    preferred = cff["preferred-citation"]
    for key in ("type", "title", "authors"):
        assert preferred.get(key), f"preferred-citation lacks {key!r}"
    check_authors(preferred["authors"], "preferred-citation")
    assert "2506.02651" in yaml.safe_dump(preferred)
    assert [a["family-names"] for a in preferred["authors"]] == [
        "Arnaboldi", "Loureiro", "Stephan", "Krzakala", "Zdeborová"]
    for ref in cff.get("references", []):
        assert ref.get("type") and ref.get("title") and ref.get("authors"), ref
        check_authors(ref["authors"], f"reference {ref['title']!r}")


def test_the_bibtex_has_the_paper_and_the_artifact():
    """The README asks to cite the paper and this artifact and points to the BibTeX of docs/design.md
    ("How to cite"): both entries are there. Caught: a BibTeX block with the paper only."""
    design = (ROOT / "docs" / "design.md").read_text(encoding="utf-8")
    block = re.search(r"## How to cite\n.*?```bibtex\n(.*?)```", design, re.S)
    assert block, "docs/design.md has no BibTeX block under 'How to cite'"
    kinds = re.findall(r"^@(\w+)\{", block.group(1), re.M)
    assert sorted(kinds) == ["inproceedings", "software"], kinds
    assert "docs/design.md#how-to-cite" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_license_is_present():
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License")
