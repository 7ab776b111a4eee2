"""What the notebooks in ``notebooks/`` share: finding the repository and the config whose results to show."""
from __future__ import annotations

import os
from pathlib import Path

import yaml

DEFAULT = "config/config.yaml"
FALLBACK = "config/quick.yaml"


def _missing_results(module, kinds, config):
    stems = [s for kind in kinds for s in module.stems(config, kind).values()]
    return [f"{s}{ext}" for s in stems for ext in (".npz", ".json") if not Path(f"{s}{ext}").is_file()]


def results_config(module, kinds):
    """Work from the repository root and return (config path, config) whose results are on disk.

    ``SSI_CONFIG``, when set, wins (and its results must exist); otherwise the paper config
    is used if its results are there, else the quick config. ``module.stems(config, kind)``
    gives the result stems of each ``kind``. Exits with a message when results are missing.
    """
    # the config's result paths are relative to the repository root (Jupyter starts in notebooks/)
    for root in (Path.cwd(), Path.cwd().parent):
        if (root / "Snakefile").is_file() and (root / "config").is_dir():
            os.chdir(root)
            break
    else:
        raise SystemExit(f"run this from the repository root (no Snakefile in {Path.cwd()} or its parent)")

    path = os.environ.get("SSI_CONFIG", DEFAULT)
    config = yaml.safe_load(Path(path).read_text())
    if _missing_results(module, kinds, config) and "SSI_CONFIG" not in os.environ:
        print(f"{path}: results not found under {config['results_dir']}; using {FALLBACK}")
        path = FALLBACK
        config = yaml.safe_load(Path(path).read_text())
    missing = _missing_results(module, kinds, config)
    if missing:
        raise SystemExit(f"{path}: {len(missing)} result files missing, e.g. {missing[0]}; "
                         f"run `snakemake --cores all --configfile {path}` first")
    print(f"config: {path}; results: {config['results_dir']}")
    return path, config
