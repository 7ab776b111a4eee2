"""``python -m ssi.docgen [--check] [--root DIR]``: write (or check) every generated page."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..io import atomic_write_text
from .pages import generate, stale


def default_root() -> Path:
    """The repository this package was installed from (editable install), else the current folder."""
    source = Path(__file__).resolve().parents[3]
    return source if (source / "README.md").is_file() and (source / "config").is_dir() else Path.cwd()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ssi.docgen", description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 naming every page out of date")
    parser.add_argument("--root", type=Path, default=None, help="repository root (default: this checkout)")
    args = parser.parse_args(argv)
    root = (args.root or default_root()).resolve()
    if args.check:
        out = stale(root)
        for path in out:
            print(f"out of date: {path.relative_to(root)} (run `python -m ssi.docgen`)")
        return 1 if out else 0
    for path, text in generate(root).items():
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            atomic_write_text(path, text)
            print(f"wrote {path.relative_to(root)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
