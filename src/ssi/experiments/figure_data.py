"""Figure data: the few result arrays a result's figures draw, extracted into small committed files.

The notebooks (``notebooks/*.py``) redraw each figure with the package's own plotting function
from committed files only: the key numbers ``<figures>/numbers/<result>.json`` and the figure data
``<figures>/data/<result>.npz`` + ``.json`` written here. A result module's ``plot(config,
out_paths, numbers=None, load=load_result)`` reads results through ``load(stem)``; :func:`extract`
runs it once with a loader that records which arrays (and which provenance keys) of which result
files the figures read, and saves exactly those, unchanged. Redrawn from them
(:class:`FigureData`), the figures are byte-identical to the workflow's.
"""
from __future__ import annotations

import json
import math
import tempfile
from pathlib import Path

from ..io import atomic_write_bytes, atomic_write_text, load_result, npz_bytes
from . import registry

#: separates a result file (its stem relative to results_dir) from an array name in the .npz
SEPARATOR = "::"


class _Recorded(dict):
    """A dict that remembers which keys were read."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.read = set()

    def __getitem__(self, key):
        self.read.add(key)
        return super().__getitem__(key)

    def __contains__(self, key):
        present = super().__contains__(key)
        if present:                 # a branch taken on a key's presence needs the key in the extract
            self.read.add(key)
        return present

    def get(self, key, default=None):
        if key in self:
            self.read.add(key)
        return super().get(key, default)


class Recorder:
    """A ``load(stem)`` that reads results/ and records what is read (stems relative to ``results_dir``)."""

    def __init__(self, results_dir):
        self.root = Path(results_dir)
        self.files: dict[str, tuple[_Recorded, _Recorded]] = {}

    def __call__(self, stem):
        name = Path(stem).relative_to(self.root).as_posix()
        if name not in self.files:
            arrays, meta = load_result(stem)
            self.files[name] = (_Recorded(arrays), _Recorded(meta))
        return self.files[name]

    def arrays(self) -> dict:
        return {f"{name}{SEPARATOR}{key}": arrays[key]
                for name, (arrays, _) in self.files.items() for key in sorted(arrays.read)}

    def metadata(self) -> dict:
        return {name: {key: meta[key] for key in sorted(meta.read)} for name, (_, meta) in self.files.items()}


def numbers_from_json(path) -> dict:
    """A numbers file as the figures read it: JSON null back to nan."""
    return _nan(json.loads(Path(path).read_text()))


def _nan(value):
    if isinstance(value, dict):
        return {k: _nan(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_nan(v) for v in value]
    return math.nan if value is None else value


def extract(config, result: str, numbers_path, out_stem, names) -> dict:
    """Build ``result``'s figures ``names`` (paths relative to the figures folder, e.g.
    ``two_phases.png``) from the results with the numbers of ``numbers_path``, without drawing or
    saving them (:func:`ssi.plotting.undrawn`), and write the arrays and provenance keys they read
    to ``out_stem``.npz, and them and the figures' names (without suffix) to ``out_stem``.json.

    A result's registry entry may name a ``figure_data_reduction(file, key, array) -> array``
    (ssi.experiments.registry): what of an array its figures read (e.g. only the last record of a trajectory); the arrays are saved
    through it. The notebooks' tests check that the figures redrawn from the extract are the
    workflow's, byte for byte.

    Returns
    -------
    dict
        ``files`` (result files read), ``arrays`` (arrays saved) and ``bytes`` (of the .npz).
    """
    from ..plotting import undrawn

    entry = registry.get(result)
    recorder = Recorder(config["results_dir"])
    numbers = numbers_from_json(numbers_path)
    with tempfile.TemporaryDirectory(prefix="ssi-figure-data-") as tmp, undrawn():
        plot_function(result)(config, [str(Path(tmp) / Path(name).name) for name in names if name.endswith(".png")],
                    numbers=numbers, load=recorder)
    reduce = (entry.function("figure_data_reduction") if entry.figure_data_reduction
              else lambda file, key, array: array)
    arrays = {key: reduce(*key.split(SEPARATOR), array) for key, array in recorder.arrays().items()}
    data = npz_bytes(arrays)
    out_stem = Path(out_stem)
    atomic_write_bytes(out_stem.with_suffix(".npz"), data)
    atomic_write_text(out_stem.with_suffix(".json"),
                      json.dumps({"result": result, "figures": sorted({str(Path(n).with_suffix("")) for n in names}),
                                  "files": recorder.metadata()}, indent=1, sort_keys=True) + "\n")
    return {"files": len(recorder.files), "arrays": len(arrays), "bytes": len(data)}


def plot_function(result: str):
    """The plotting function of ``result`` (its entry in ssi.experiments.registry)."""
    return registry.get(result).function("plot")


class FigureData:
    """``load(stem)`` for the plotting functions, served from an extract instead of results/.

    Parameters
    ----------
    stem : str or Path
        The extract without suffix (``figures/data/<result>``).
    results_dir : str
        The config's results folder: stems are looked up relative to it.
    """

    def __init__(self, stem, results_dir):
        import numpy as np

        stem = Path(stem)
        self.root = Path(results_dir)
        self.meta = json.loads(stem.with_suffix(".json").read_text())["files"]
        self.arrays: dict[str, dict] = {name: {} for name in self.meta}
        with np.load(stem.with_suffix(".npz"), allow_pickle=False) as data:
            for key in data.files:
                name, _, array = key.partition(SEPARATOR)
                self.arrays.setdefault(name, {})[array] = data[key]

    def __call__(self, stem):
        name = Path(stem).relative_to(self.root).as_posix()
        if name not in self.meta:
            raise KeyError(f"{name}: not in the figure data (it holds {', '.join(sorted(self.meta))}); "
                           "rebuild it with `snakemake --cores all figure_data`")
        return self.arrays[name], self.meta[name]
