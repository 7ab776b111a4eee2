"""No dead link: every relative link of every tracked Markdown file resolves.

Checked in every tracked ``.md`` file (README.md, docs/**/*.md, figures/CLAIMS.md, the generated
pages and blocks included), for inline links and images, reference-style link definitions
(``[label]: target``) and HTML ``href``/``src``:

* the file part names a tracked file or folder;
* a ``#fragment`` names a heading of the target page under GitHub's slug rules (markup removed,
  lowercase, punctuation dropped, spaces → '-', the n-th repeat of a heading gets ``-n``) or an
  HTML ``id``/``name`` on that page.

Links inside code (fenced, indented, inline spans) are text, not links, and are not checked.
"""
from __future__ import annotations

import functools
import re
import unicodedata
from pathlib import Path

import pytest

from support.repo_files import tracked_files

ROOT = Path(__file__).resolve().parents[2]


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: markup removed, lowercase, punctuation dropped, spaces → '-'."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)       # links and images: their text
    text = re.sub(r"<[^>]+>", "", text).replace("`", "").strip().lower()
    keep = [ch for ch in text if ch in " -" or unicodedata.category(ch)[0] in "LMN" or unicodedata.category(ch) == "Pc"]
    return "".join(keep).replace(" ", "-")


def strip_code(text: str) -> str:
    """Markdown without fenced code blocks, indented code blocks and inline code spans."""
    text = re.sub(r"^(```|~~~).*?^\1[^\n]*$", "", text, flags=re.S | re.M)
    lines, code = [], False
    for line in text.splitlines():
        # an indented code block starts after a blank line (else the line continues a paragraph or item)
        code = bool(re.match(r"^(?: {4}|\t)", line)) and (code or not lines or not lines[-1].strip())
        lines.append("" if code else line)
    return re.sub(r"`[^`\n]*`", "", "\n".join(lines))


def anchors(text: str) -> set[str]:
    """Every anchor of a page: its headings' slugs (repeats numbered) and its HTML ids and names."""
    body = strip_code(text)
    seen: dict[str, int] = {}
    out = set(re.findall(r"""<[a-z][^>]*\s(?:id|name)\s*=\s*["']([^"']+)["']""", body, re.I))
    for line in body.splitlines():
        match = re.match(r"^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$", line)
        if match:
            base = slug(match.group(1))
            n = seen.get(base, 0)
            seen[base] = n + 1
            out.add(base if n == 0 else f"{base}-{n}")
    return out


def links(text: str) -> list[str]:
    """The targets of a page's links and images (inline, reference definitions, HTML)."""
    body = strip_code(text)
    found = re.findall(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)", body)
    found += re.findall(r"^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?", body, re.M)
    found += re.findall(r"""(?:src|href)\s*=\s*["']([^"']+)["']""", body)
    return found


def dead_links(root: Path, files: list[Path]) -> list[str]:
    """"page: target: why" for every relative link of the Markdown ``files`` under ``root`` that
    points to no tracked file, or to no anchor of its target page."""
    root = root.resolve()
    tracked = {p.resolve() for p in files}
    folders = {parent for p in tracked for parent in p.parents}
    texts: dict[Path, str] = {}

    def text_of(path: Path) -> str:
        if path not in texts:
            texts[path] = path.read_text(encoding="utf-8")
        return texts[path]

    problems = []
    for page in sorted(p.resolve() for p in files if p.suffix == ".md"):
        name = page.relative_to(root).as_posix()
        for target in links(text_of(page)):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) or target.startswith("//"):   # https:, mailto:
                continue
            file_part, _, fragment = target.partition("#")
            dest = page if not file_part else (page.parent / file_part).resolve()
            if file_part and dest not in tracked and dest not in folders:
                problems.append(f"{name}: {target}: {file_part} is not a tracked file")
            elif fragment and dest.suffix != ".md":
                problems.append(f"{name}: {target}: an anchor into a file that is not Markdown")
            elif fragment and fragment not in anchors(text_of(dest)):
                problems.append(f"{name}: {target}: no heading or id #{fragment} in {dest.relative_to(root).as_posix()}")
    return problems


def test_slug_rules():
    assert slug("The authors' conventions") == "the-authors-conventions"
    assert slug("Escape time vs d follows the SIE (C1)") == "escape-time-vs-d-follows-the-sie-c1"
    assert slug("`ssi.hermite`: the_SIE") == "ssihermite-the_sie"
    assert slug("C4: protocols that could give a gain ∝ L²") == "c4-protocols-that-could-give-a-gain--l²"
    assert slug("square-sequencelength-plain + square-sequencelength-tied") == (
        "square-sequencelength-plain--square-sequencelength-tied")
    assert anchors("## Notes\n\n## Notes\n\n<a id=\"bibtex\"></a>\n```\n## not a heading\n```\n") == {
        "notes", "notes-1", "bibtex"}


def test_dead_links_are_caught(tmp_path):
    """A README that links to a section and a BibTeX entry its target does not have, and a folder
    page that lists a file that is not there: each is reported; the links that resolve (a heading,
    a repeated heading, an HTML id, a reference definition, a link inside a code span) are not."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "design.md").write_text("# Design\n\n## Layers\n\n## Layers\n\n<a id=\"api\"></a>\n")
    (tmp_path / "README.md").write_text(
        "# Front\n\n## Results\n\n[results](#results) · [layers](docs/design.md#layers-1) · "
        "[api](docs/design.md#api) · `[code](nowhere.txt)`\n\n"
        "Cite it: [BibTeX](docs/design.md#how-to-cite) · [overview](#overview)\n\n"
        "[notebooks][nb]\n\n[nb]: notebooks/tied_untied_theory.py\n")
    problems = dead_links(tmp_path, [tmp_path / "README.md", tmp_path / "docs" / "design.md"])
    assert problems == [
        "README.md: docs/design.md#how-to-cite: no heading or id #how-to-cite in docs/design.md",
        "README.md: #overview: no heading or id #overview in README.md",
        "README.md: notebooks/tied_untied_theory.py: notebooks/tied_untied_theory.py is not a tracked file",
    ]


FILES = tracked_files(ROOT)


@functools.cache
def repository_dead_links() -> tuple[str, ...]:
    """:func:`dead_links` of the repository's tracked Markdown files (computed once)."""
    return tuple(dead_links(ROOT, FILES))


@pytest.mark.parametrize("page", sorted(p.relative_to(ROOT).as_posix() for p in FILES if p.suffix == ".md"))
def test_every_relative_link_and_anchor_resolves(page):
    problems = [p for p in repository_dead_links() if p.startswith(f"{page}: ")]
    assert not problems, "\n".join(problems)
