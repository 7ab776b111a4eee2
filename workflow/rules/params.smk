# What a job reads of the config is what its params declare (docs/workflow.md): a script passes
# its params, never the whole config, and editing a declared value reruns the job (Snakemake's
# params rerun trigger).

#: the config's top-level entries a numbers, plot or collecting job may read beside its sections
VIEW_KEYS = ("seed", "engine", "results_dir", "figures_dir")


def config_view(*sections):
    """The part of the config a numbers, plot or collecting job reads: the seed, the engine, the
    results and figures folders, and the whole ``sections`` that the config has."""
    return {**{k: config[k] for k in VIEW_KEYS}, **{s: config[s] for s in sections if s in config}}


#: every section of the config (what the claims and the summary read: every result's rows)
SECTIONS = tuple(k for k, v in config.items() if isinstance(v, dict))
