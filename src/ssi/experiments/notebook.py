"""What the notebooks in ``notebooks/`` share: the committed numbers and figure data of a result,
and its figures redrawn by the package's own plotting function.

A notebook needs no workflow run and no ``results/``: it reads the key numbers
``<figures>/numbers/<result>.json``, the verdict file ``<figures>/VERDICTS.json`` and the figure
data ``<figures>/data/<result>.npz`` + ``.json`` (ssi.experiments.figure_data), all committed, and redraws each figure into a temporary folder
with ``ssi.experiments.<result>.plot``. Each redrawn figure is compared with the committed one
(byte for byte) and shown. The config is ``config/config.yaml`` (the one that made the committed
figures) unless ``SSI_CONFIG`` names another whose figures folder holds its numbers and data.
"""
from __future__ import annotations

import io
import math
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from .figure_data import FigureData, numbers_from_json, plot_function

DEFAULT = "config/config.yaml"
#: the redrawn PNG is shown at 1/SHOW_REDUCTION of its pixels per side (smaller executed copies)
SHOW_REDUCTION = 2


def repository_root() -> Path:
    """Change to the repository root (the folder holding the Snakefile: the config's paths are
    relative to it; Jupyter starts in ``notebooks/``) and return it."""
    for root in (Path.cwd(), Path.cwd().parent):
        if (root / "Snakefile").is_file() and (root / "config").is_dir():
            os.chdir(root)
            return root
    raise SystemExit(f"run this from the repository root (no Snakefile in {Path.cwd()} or its parent)")


@dataclass
class Result:
    """One result's committed numbers and figure data, and its figures redrawn from them."""

    name: str
    config: dict
    numbers: dict
    load: FigureData
    #: figure -> whether its redrawn PNG is the committed one (filled by :meth:`draw`)
    identical: dict = field(default_factory=dict)

    @property
    def figures_dir(self) -> Path:
        return Path(self.config["figures_dir"])

    def draw(self, figure: str, show: bool = True) -> None:
        """Redraw ``figure`` (its path in the figures folder without suffix, e.g.
        ``"tied_untied_gain"``) with the package's plotting function from the committed numbers
        and figure data, as the workflow does (PDF, then PNG); print whether the PNG is the
        committed one, byte for byte (also kept in ``identical[figure]``), and show it."""
        from ..io import sha256_file
        from ..verdicts import rows_for

        committed = self.figures_dir / f"{figure}.png"
        with tempfile.TemporaryDirectory(prefix="ssi-notebook-") as tmp:
            pdf, png = (Path(tmp) / f"{Path(figure).name}.{ext}" for ext in ("pdf", "png"))
            plot_function(self.name)(self.config, [str(pdf), str(png)], numbers=self.numbers, load=self.load,
                                     verdicts=rows_for(self.figures_dir / "VERDICTS.json", self.name))
            same = committed.is_file() and sha256_file(png) == sha256_file(committed)
            where = committed.as_posix()
            print(f"{figure}.png redrawn from the committed numbers and figure data: "
                  + (f"identical to {where}" if same else f"DIFFERS from {where}" if committed.is_file()
                     else f"{where} not built yet"))
            self.identical[figure] = same
            if show:
                _show(png)

    def claims(self) -> None:
        """Show this result's rows of the verdict file (``<figures>/VERDICTS.json``, the rows of
        figures/CLAIMS.md): the claim, what the paper says, the verdict with its reason, the headline
        and the full measured text."""
        show_markdown(claims_text(self.figures_dir / "VERDICTS.json", self.name))


def claims_text(verdict_file, result: str) -> str:
    """The Markdown of :meth:`Result.claims`: the rows of ``result`` in the verdict file."""
    from .. import verdicts

    parts = []
    for row in verdicts.load(verdict_file)["rows"]:
        if row["result"] != result:
            continue
        parts.append("\n".join([f"**{row['row']}**", f"- the paper: {row['paper']}",
                                 f"- verdict: **{row['verdict']}** ({row['reason']}) — {row['headline']}",
                                 f"- measured: {row['measured']}"]))
    return "\n\n".join(parts)


def show_markdown(text: str) -> None:
    """Display markdown in a notebook, or print it."""
    try:
        from IPython import get_ipython
        from IPython.display import Markdown, display
        if get_ipython() is not None:
            display(Markdown(text))
            return
    except ImportError:
        pass
    print(text)


def _show(png: Path) -> None:
    """Display a PNG in a notebook, reduced SHOW_REDUCTION times per side (box average)."""
    try:
        from IPython import get_ipython
        from IPython.display import Image, display
    except ImportError:
        return
    if get_ipython() is None:
        return
    import matplotlib.image

    pixels = matplotlib.image.imread(png)
    k = SHOW_REDUCTION
    h, w = (pixels.shape[0] // k) * k, (pixels.shape[1] // k) * k
    small = pixels[:h, :w].reshape(h // k, k, w // k, k, -1).mean(axis=(1, 3))
    buffer = io.BytesIO()
    matplotlib.image.imsave(buffer, small, format="png", metadata={"Software": None})
    display(Image(data=buffer.getvalue(), format="png"))


def open_result(name: str) -> Result:
    """The committed numbers and figure data of result ``name`` (e.g. ``"tied_untied"``),
    read from the repository root; see the module docstring for the config."""
    repository_root()
    path = os.environ.get("SSI_CONFIG", DEFAULT)
    config = yaml.safe_load(Path(path).read_text())
    figures = Path(config["figures_dir"])
    needed = [figures / "numbers" / f"{name}.json", figures / "data" / f"{name}.npz", figures / "data" / f"{name}.json",
              figures / "VERDICTS.json"]
    missing = [p.as_posix() for p in needed if not p.is_file()]
    if missing:
        raise SystemExit(f"{', '.join(missing)} not found: the committed numbers and figure data of {name} "
                         f"(`snakemake --cores all {needed[1].as_posix()}` makes them)")
    numbers = numbers_from_json(needed[0])
    return Result(name, config, numbers, FigureData(figures / "data" / name, config["results_dir"]))


def table(rows, columns, formats=None) -> str:
    """A markdown table of ``rows`` (dicts) over ``columns``; ``formats``: column -> format spec
    (floats default to 4 significant digits, nan and None to "–")."""
    formats = formats or {}

    def cell(column, value):
        if value is None or (isinstance(value, float) and math.isnan(value)):
            return "–"
        if column in formats:
            return format(value, formats[column])
        return f"{value:.4g}" if isinstance(value, float) else str(value)

    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(cell(c, row.get(c)) for c in columns) + " |" for row in rows]
    return "\n".join(lines)


def show_table(rows, columns, formats=None) -> None:
    """Show :func:`table` as markdown in a notebook, or print it."""
    show_markdown(table(rows, columns, formats))
