"""Executed copies of the notebooks: ``notebooks/<result>.py`` run as a notebook, saved byte-deterministically.

The copy (``<figures>/notebooks/<result>.ipynb``, rule ``notebooks``) holds every output of a run
from the committed numbers and figure data. Its bytes depend only on the notebook, the package and
the committed files: no execution timestamps (``record_timing`` off), fixed notebook metadata
(kernel name and language only: no versions), cell ids numbered in order, images drawn by the
package (fixed style, PNG without metadata). Needs the ``notebooks`` extra (nbconvert, ipykernel).
"""
from __future__ import annotations

import os

from ..io import atomic_write_text

#: the metadata of every executed copy (nothing that changes with the machine or the versions)
METADATA = {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"}}
#: seconds one cell may take before the run fails
CELL_TIMEOUT = 600


def execute(source, out_path, root, config_path=None) -> list[str]:
    """Run the jupytext notebook ``source`` (a percent-format ``.py``) with the working directory
    ``root`` (the repository) and write the executed notebook to ``out_path``.

    Parameters
    ----------
    source, out_path, root : path
    config_path : path, optional
        Exported as ``SSI_CONFIG`` to the kernel (default: the notebook's own default config).

    Returns
    -------
    list of str
        The text of every error output (the run stops at the first error, which is also raised).
    """
    import jupytext
    import nbformat
    from nbconvert.preprocessors import ExecutePreprocessor

    notebook = jupytext.read(source)
    previous = os.environ.get("SSI_CONFIG")
    if config_path is not None:
        os.environ["SSI_CONFIG"] = str(config_path)
    try:
        ExecutePreprocessor(timeout=CELL_TIMEOUT, kernel_name="python3", record_timing=False).preprocess(
            notebook, {"metadata": {"path": str(root)}})
    finally:
        if config_path is not None:
            if previous is None:
                os.environ.pop("SSI_CONFIG", None)
            else:
                os.environ["SSI_CONFIG"] = previous
    atomic_write_text(out_path, nbformat.writes(normalise(notebook)) + "\n")
    return [o.get("evalue", "") for c in notebook.cells for o in c.get("outputs", []) if o.get("output_type") == "error"]


def normalise(notebook):
    """The notebook with fixed metadata, cell ids in order, no per-cell execution metadata and each
    run of consecutive same-stream outputs merged into one (the kernel sends a print's text in one
    message or several depending on timing, so only the merged form is reproducible)."""
    from nbconvert.preprocessors import CoalesceStreamsPreprocessor

    CoalesceStreamsPreprocessor().preprocess(notebook, {})
    notebook.metadata = dict(METADATA)
    for i, cell in enumerate(notebook.cells):
        cell.id = f"cell-{i:02d}"
        cell.metadata = {}
    return notebook
