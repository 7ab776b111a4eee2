"""The files of the repository that the documentation tests read."""
from __future__ import annotations

import subprocess
from pathlib import Path


def tracked_files(root: Path) -> list[Path]:
    """The files git tracks under ``root`` (every file when ``root`` is not a git checkout)."""
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=root, capture_output=True, check=True).stdout
        files = [root / p for p in out.decode().split("\0") if p]
    except (OSError, subprocess.CalledProcessError):       # not a git checkout (e.g. a tarball)
        skip = {".git", ".venv", "results", ".snakemake", "__pycache__", ".pytest_cache"}
        files = [p for p in root.rglob("*") if p.is_file() and not skip & set(p.relative_to(root).parts)]
    return [p for p in files if p.is_file()]
