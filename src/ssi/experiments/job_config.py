"""The config a workflow job reads, rebuilt from the rule's ``params``.

A rule declares in ``params`` exactly what its job reads (docs/workflow.md); its script passes
those params, never the whole config. The job functions of the experiment modules read a
config-shaped mapping; the functions here build that mapping from the params alone, so that a
job that reads a key its rule does not declare fails with a ``KeyError`` instead of reading it
unnoticed.
"""

from collections.abc import Iterable, Mapping

#: keys a job's params carry at the top level of the config, not in its experiment's section
TOP_LEVEL = ("seed", "engine", "results_dir", "figures_dir")


def _as_dict(params) -> dict:
    """A plain dict of ``params``: a mapping, or (name, value) pairs such as Snakemake's
    ``snakemake.params.items()``."""
    if isinstance(params, (Mapping, Iterable)):
        return dict(params)
    raise TypeError(f"params must be a mapping or (name, value) pairs, not {type(params).__name__}")


def section_config(experiment: str, params, **entries) -> dict:
    """The config of a job of ``experiment`` from its rule's params.

    Parameters
    ----------
    experiment : str
        The config section the job's functions read (``"two_phases"``, ``"tied_untied"``, ...).
    params : mapping or iterable of (name, value)
        The rule's params. ``seed``, ``engine``, ``results_dir`` and ``figures_dir`` go to the top
        level; a ``section`` mapping is merged into the experiment's section, and every other
        entry is put into that section under its own name.
    **entries
        Further entries of the experiment's section (e.g. ``cases={name: spec}``).

    Returns
    -------
    dict
        ``{<top-level keys>, experiment: {...}}``.
    """
    params = _as_dict(params)
    top = {k: params.pop(k) for k in TOP_LEVEL if k in params}
    section = {**params.pop("section", {}), **params, **entries}
    return {**top, experiment: section}


def point_config(experiment: str, case: str, params) -> dict:
    """The config of one case's job (an SGD point, an ODE) of ``experiment``.

    The params hold the case's spec under ``case`` (without the lists of dimensions the job does
    not read, so that adding a d reruns no other point); it becomes the section's only case.

    Parameters
    ----------
    experiment : str
        The config section of the experiment.
    case : str
        The case's name (the ``case`` wildcard).
    params : mapping or iterable of (name, value)
        The rule's params (or its ``point`` param): ``case`` (the case's spec) and the keys of
        :func:`section_config`.

    Returns
    -------
    dict
        ``{<top-level keys>, experiment: {..., "cases": {case: spec}}}``.
    """
    params = _as_dict(params)
    spec = params.pop("case")
    return section_config(experiment, params, cases={case: spec})
