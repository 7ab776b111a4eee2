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


def print_table(rows, columns, widths=None) -> None:
    """Print ``rows`` (dicts) as a fixed-width table of ``columns`` (floats to 4 significant digits)."""
    widths = widths or [max(len(c), 10) for c in columns]

    def cell(value, width):
        if isinstance(value, float):
            return f"{value:>{width}.4g}"
        return f"{value!s:>{width}}"

    print("  ".join(f"{c:>{w}}" for c, w in zip(columns, widths)))
    for row in rows:
        print("  ".join(cell(row.get(c), w) for c, w in zip(columns, widths)))


def rerender(plot, config, names) -> None:
    """Re-render figures with the workflow's plotting function ``plot(config, out_paths)`` into a
    temporary folder and print, for each of ``names`` (file names such as ``escape_vs_d.png``),
    whether it is identical to the workflow's figure in ``config["figures_dir"]`` (a name may
    hold a subfolder of it, such as ``authors/phase_diagram_comparison.png``)."""
    import tempfile

    from ..io import sha256_file

    with tempfile.TemporaryDirectory(prefix="ssi-notebook-") as tmp:
        outputs = [Path(tmp) / name for name in names]
        for path in outputs:
            path.parent.mkdir(parents=True, exist_ok=True)
        plot(config, [str(path) for path in outputs])
        for name, path in zip(names, outputs):
            committed = Path(config["figures_dir"]) / name
            if committed.is_file():
                status = "identical to" if sha256_file(path) == sha256_file(committed) else "DIFFERS from"
                print(f"{name}: {Path(path).stat().st_size} bytes, {status} {committed}")
            else:
                print(f"{name}: {Path(path).stat().st_size} bytes ({committed} not built yet)")
