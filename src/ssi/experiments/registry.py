"""Every result of the workflow, listed once.

A *result* is one rule family of the workflow (``workflow/rules/<name>.smk``): its jobs write
``results/<name>/``, its numbers rule ``<figures>/numbers/<name>.json``, its plot rule its figures.
Its entry here names, as ``"module:attribute"`` inside ``ssi.experiments``, the functions the shared
machinery calls for it: the summary of its results into the numbers file, the claim rows the
verdict file is made of, the plotting function, and the generated tables of its results page.

The Snakefile includes the rule files of :func:`results` in this order; the verdict file, the figure
data, the notebooks rule, the audit and the pages' tables read the same entries. Adding a result is
one entry here plus its package (``ssi/experiments/<name>/``), rule file, notebook and page.

Modules are imported only when one of their functions is asked for: importing this registry is cheap.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass

#: the two configs with result families: "paper" (config/config.yaml and config/quick.yaml) and
#: "authors" (config/authors.yaml)
CONFIG_KINDS = ("paper", "authors")


@dataclass(frozen=True)
class Result:
    """One result: what the workflow, the verdict file, the notebooks and the pages need of it.

    Parameters
    ----------
    name : str
        The rule family, the numbers file's stem, the notebook's name and the config section.
    config : str
        The kind of config that runs it (:data:`CONFIG_KINDS`).
    claims : tuple of str
        The claims of the paper its rows decide ("C1" …; empty for the authors' own checks).
    sections : tuple of str
        The config sections its figures and claim rows read (the figure data's config view).
    figures : str
        ``"module:attribute"``: the figures' paths in the figures folder, without suffix — a
        sequence, or a function of the config.
    summarise : str
        ``"module:function"``: ``summarise(config) -> dict``, the numbers file's content.
    claim_rows : str
        ``"module:function"``: ``claim_rows(config, numbers) -> list[dict]``, its rows of the
        verdict file.
    plot : str
        ``"module:function"``: ``plot(config, out_paths, numbers=…, verdicts=…)``.
    tables : str or None
        The module whose ``context`` (a function of the numbers file's content) the generated
        tables of its results page read (the page generator's template ``_<result>.md.j2``).
    figure_data_reduction : str or None
        ``"module:function"``: what of an array its figure data keep (ssi.experiments.figure_data).
    notebook : bool
        Whether ``notebooks/<name>.py`` redraws its figures from the committed figure data.
    validate : str or None
        ``"module:function"``: ``validate(config)``, the checks of its config section that the
        schema cannot express (ValueError naming the key); :func:`validate` calls them all.
    """

    name: str
    config: str
    claims: tuple[str, ...]
    sections: tuple[str, ...]
    figures: str
    summarise: str
    claim_rows: str
    plot: str
    tables: str | None = None
    figure_data_reduction: str | None = None
    notebook: bool = True
    validate: str | None = None

    def function(self, field: str):
        """The object that ``field`` (one of the ``"module:attribute"`` fields) names."""
        module, attribute = getattr(self, field).split(":")
        return getattr(importlib.import_module(f"ssi.experiments.{module}"), attribute)

    def figure_names(self, config) -> list[str]:
        """The figures' paths in the figures folder, without suffix."""
        names = self.function("figures")
        return list(names(config) if callable(names) else names)

    def figure_files(self, config) -> list[str]:
        """Every figure file: ``<figures>/<name>.pdf`` and ``.png`` per figure."""
        return [f"{config['figures_dir']}/{name}.{ext}" for name in self.figure_names(config) for ext in ("pdf", "png")]

    def numbers_file(self, config) -> str:
        return f"{config['figures_dir']}/numbers/{self.name}.json"


RESULTS = (
    Result("two_phases", "paper", ("C2", "C6"), ("two_phases",), "two_phases:FIGURES",
           "two_phases:summarise", "two_phases:claim_rows", "two_phases:plot", tables="two_phases.tables",
           validate="two_phases:validate"),
    Result("positional", "paper", ("C3",), ("positional",), "positional:FIGURES",
           "positional:summarise", "positional:claim_rows", "positional:plot", tables="positional.tables",
           validate="positional:validate"),
    Result("escape_vs_d", "paper", ("C1",), ("escape_vs_d",), "escape_vs_d:FIGURES",
           "escape_vs_d:summarise", "escape_vs_d:claim_rows", "escape_vs_d:plot", tables="escape_vs_d.tables",
           validate="escape_vs_d:validate"),
    Result("tied_untied", "paper", ("C4",), ("tied_untied",), "tied_untied.figure:FIGURES",
           "tied_untied.numbers:summarise", "tied_untied:claim_rows", "tied_untied.figure:plot",
           tables="tied_untied.tables", figure_data_reduction="tied_untied.figure:figure_data_reduction",
           validate="tied_untied:validate"),
    Result("tied_untied_theory", "paper", ("C4",), ("tied_untied_theory", "tied_untied"),
           "tied_untied_theory.figure:FIGURES", "tied_untied_theory:summarise",
           "tied_untied_theory.claims:claim_rows", "tied_untied_theory.figure:plot",
           validate="tied_untied_theory:validate"),
    Result("semantic_positional", "paper", ("C5",), ("semantic_positional",), "semantic_positional.figure:FIGURES",
           "semantic_positional.numbers:summarise", "semantic_positional:claim_rows", "semantic_positional.figure:plot",
           tables="semantic_positional.tables",
           figure_data_reduction="semantic_positional.figure:figure_data_reduction",
           validate="semantic_positional:validate"),
    Result("authors_phase", "paper", ("C5",), ("authors_phase",), "authors_phase.figure:FIGURES",
           "authors_phase.numbers:summarise", "authors_phase:claim_rows", "authors_phase.figure:plot",
           tables="authors_phase.tables"),
    Result("authors", "authors", (), ("authors",), "authors.figure:figure_names",
           "authors.numbers:summarise", "authors:claim_rows", "authors.figure:plot", notebook=False,
           validate="authors:validate"),
)
_BY_NAME = {result.name: result for result in RESULTS}


def get(name: str) -> Result:
    """The entry of result ``name`` (a numbers file's stem)."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise ValueError(f"unknown result {name!r}; the results are {', '.join(_BY_NAME)}") from None


def results(kind: str) -> tuple[Result, ...]:
    """The results of a config kind (:data:`CONFIG_KINDS`), in the order the Snakefile includes them."""
    if kind not in CONFIG_KINDS:
        raise ValueError(f"unknown config kind {kind!r}; allowed: {', '.join(CONFIG_KINDS)}")
    return tuple(result for result in RESULTS if result.config == kind)


def validate(config) -> None:
    """Every check the schema cannot express, result by result (each entry's ``validate``), for the
    results of the config's kind: ValueError naming the key and what is allowed."""
    for result in results(kind_of(config)):
        if result.validate:
            result.function("validate")(config)


def kind_of(config) -> str:
    """The config kind of a loaded config (the authors' config has an ``authors`` section)."""
    return "authors" if "authors" in config else "paper"
