"""The workflow's results: one package per result, listed in :mod:`ssi.experiments.registry`.

A result's package (``two_phases``, ``positional``, ``escape_vs_d``, ``tied_untied``,
``tied_untied_theory``, ``semantic_positional``, ``authors_phase``, ``authors``) holds its config
check and claim rows in its ``__init__``, and where they are separate modules its ``jobs`` (one
parameter point), ``numbers`` (the numbers file), ``figure`` and ``tables`` (its page's tables).
The modules beside them are the machinery every result shares: the registry, the verdict file
and claims table (``claims``, ``claim_text``), the summary figure, the figure data and
notebooks, the audit, the config checks (``preflight``, ``job_config``) and ``common``.
The scripts in ``workflow/scripts`` stay thin.
"""
