"""Every generated page of the repository, and which of them differ from what is committed."""
from __future__ import annotations

from pathlib import Path

from ..experiments import preflight
from ..experiments.authors import summary as authors_summary
from ..experiments.claims import END, START, claims_page, page_title, readme_table, replace_between
from . import fragments, markers, sources, timings


def _fill(root: Path, text: str) -> str:
    return markers.fill(text, lambda name, args: fragments.render(root, name, args))


def whole_pages(root: Path) -> list[Path]:
    """The pages the generator writes whole (no hand-written text in them)."""
    root = Path(root).resolve()
    paper, authors_cfg = (sources.config(root, sources.PAPER_CONFIG), sources.config(root, sources.AUTHORS_CONFIG))
    return [root / paper["figures_dir"] / "VERDICTS.json", root / authors_cfg["figures_dir"] / "VERDICTS.json",
            root / paper["figures_dir"] / "CLAIMS.md", root / authors_cfg["figures_dir"] / "CLAIMS.md",
            root / "docs" / "results" / "authors.md", root / "docs" / "results" / authors_summary.RUNS_PAGE]


def markdown_pages(root: Path) -> list[Path]:
    """README.md and every Markdown page under docs/."""
    return [root / "README.md", *sorted((root / "docs").rglob("*.md"))]


def generate(root: Path) -> dict[Path, str]:
    """Path -> the text the generator writes there (only pages whose text it makes or fills)."""
    root = Path(root).resolve()
    out: dict[Path, str] = {}
    paper, authors_cfg = (sources.config(root, sources.PAPER_CONFIG), sources.config(root, sources.AUTHORS_CONFIG))
    # the verdict files first; every page below reads its verdicts from them
    out[sources.verdict_path(root, sources.PAPER_CONFIG)] = sources.verdict_text(root, sources.PAPER_CONFIG)
    content = sources.verdicts(root, sources.PAPER_CONFIG)
    out[root / paper["figures_dir"] / "CLAIMS.md"] = claims_page(content, paper["figures_dir"])
    numbers = sources.authors_numbers(root)
    default = sources.default_numbers(root)
    words = None
    if numbers:
        out[sources.verdict_path(root, sources.AUTHORS_CONFIG)] = sources.verdict_text(root, sources.AUTHORS_CONFIG)
        theirs = sources.verdicts(root, sources.AUTHORS_CONFIG)
        words = authors_summary.verdict_words(theirs)
        out[root / authors_cfg["figures_dir"] / "CLAIMS.md"] = claims_page(
            theirs, authors_cfg["figures_dir"], title=page_title(authors_cfg))
        run = timings.run_entry(root, sources.AUTHORS_CONFIG) or {}
        out[root / "docs" / "results" / "authors.md"] = authors_summary.results_page(
            authors_cfg, numbers, default, run.get("experiments"), words=words)
        out[root / "docs" / "results" / authors_summary.RUNS_PAGE] = authors_summary.runs_page(authors_cfg, numbers)
    for page in markdown_pages(root):
        if page in out:
            continue
        text = page.read_text(encoding="utf-8")
        filled = _fill(root, text)
        if page.name == "README.md" and page.parent == root:
            filled = replace_between(filled, readme_table(content), START, END, name="README.md")
            if numbers:
                filled = replace_between(filled, authors_summary.readme_table(authors_cfg, numbers, default, words),
                                         authors_summary.START, authors_summary.END, name="README.md")
        if page == root / "docs" / "workflow.md":
            filled = replace_between(filled, preflight.times_table(root), preflight.TIMES_START, preflight.TIMES_END,
                                     name="docs/workflow.md")
        if filled != text:
            out[page] = filled
    return out


def stale(root: Path) -> list[Path]:
    """The pages whose committed text differs from what :func:`generate` makes."""
    return [path for path, text in generate(root).items()
            if not path.is_file() or path.read_text(encoding="utf-8") != text]
