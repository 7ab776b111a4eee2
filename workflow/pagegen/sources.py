"""The committed files the generated pages are made from, read once per repository root."""
from __future__ import annotations

import copy
import functools
import json
from pathlib import Path

import yaml

from ssi.experiments.figure_data import numbers_from_json

#: the config of the paper run (claims table) and of the authors' run (their table and page)
PAPER_CONFIG = "config/config.yaml"
AUTHORS_CONFIG = "config/authors.yaml"


@functools.cache
def config(root: Path, configfile: str) -> dict:
    """The config ``configfile`` of the repository at ``root``."""
    return yaml.safe_load((root / configfile).read_text(encoding="utf-8"))


def numbers_files(root: Path, configfile: str) -> list[Path]:
    """The committed numbers files of a config (``<figures_dir>/numbers/*.json``)."""
    return sorted((root / config(root, configfile)["figures_dir"] / "numbers").glob("*.json"))


@functools.cache
def _verdict_text(root: Path, configfile: str) -> str:
    from ssi import verdicts
    from ssi.experiments.claims import verdict_content

    return verdicts.dumps(verdict_content(config(root, configfile), numbers_files(root, configfile)))


def verdict_path(root: Path, configfile: str) -> Path:
    """Where the verdict file of ``configfile`` lives: ``<figures_dir>/VERDICTS.json``."""
    return root / config(root, configfile)["figures_dir"] / "VERDICTS.json"


def verdict_text(root: Path, configfile: str = PAPER_CONFIG) -> str:
    """The text of the verdict file of ``configfile``, made from its committed numbers files."""
    return _verdict_text(root, configfile)


def verdicts(root: Path, configfile: str = PAPER_CONFIG) -> dict:
    """The verdict file of ``configfile`` (as :func:`verdict_text` writes it, read back)."""
    return json.loads(verdict_text(root, configfile))


@functools.cache
def _authors_numbers(root: Path) -> dict:
    # nulls read as nan, as the figures read a numbers file (the authors' verdicts compare numbers)
    path = root / config(root, AUTHORS_CONFIG)["figures_dir"] / "numbers" / "authors.json"
    return numbers_from_json(path) if path.is_file() else {}


def authors_numbers(root: Path) -> dict:
    """figures/authors/numbers/authors.json with nulls as nan ({} when absent)."""
    return copy.deepcopy(_authors_numbers(root))


def default_numbers(root: Path) -> dict:
    """Result name -> the paper config's numbers file, as the authors' pages compare with them."""
    return {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in numbers_files(root, PAPER_CONFIG)}
