# Regenerates every figure of the paper: `snakemake --cores all`.
# Toy scale: `snakemake --cores all --configfile config/quick.yaml`.
# The authors' own experiments: `snakemake --cores all --configfile config/authors.yaml`.
import sys

# jsonschema (behind `validate`) imports the optional package rfc3987_syntax whenever it is
# installed (jupyterlab, in the notebooks extra, pulls it in), and that package builds a Lark
# grammar at import: 3 s of every Snakemake start and of every job Snakemake re-parses this file
# for (cluster jobs, `run:` jobs). It only checks the "iri" string formats, which our schemas do
# not use; so its import is declined before jsonschema loads.
sys.modules.setdefault("rfc3987_syntax", None)

import os
from pathlib import Path

from snakemake.utils import min_version

from ssi._interrupt import forward_interrupts
from ssi._jit_cache import job_environment
from ssi.experiments import preflight, registry

min_version("9.0")


# The default config applies only when no --configfile is given: Snakemake would otherwise
# merge the two (nested keys of config.yaml, such as extra cases, would leak into quick.yaml).
# `--config key=value` overrides merge into whichever config applies (the directive below
# re-applies them on top of config.yaml).
if not workflow.overwrite_configfiles:

    configfile: preflight.DEFAULT_CONFIG


#: the config file in use, as the timings file and the messages name it
CONFIGFILE = (os.path.relpath(workflow.overwrite_configfiles[-1]) if workflow.overwrite_configfiles
              else preflight.DEFAULT_CONFIG)
#: `--configfile …` to repeat in a suggested command
CONFIG_OPTION = "" if CONFIGFILE == preflight.DEFAULT_CONFIG else f" --configfile {CONFIGFILE}"


# Ctrl-C also stops a job that Snakemake was starting as the signal came (src/ssi/_interrupt.py)
forward_interrupts()
# the jobs cache numba's compiled code in a folder keyed by the kernels' sources (src/ssi/_jit_cache.py)
os.environ.update(job_environment())


# the code inputs of the rules (imported_code)
include: "workflow/rules/code.smk"
include: "workflow/rules/params.smk"

# Job priorities: Snakemake starts the ready jobs whose priorities add up highest; jobs of equal
# priority go in no set order.
#: a 2-thread job gets both cores only while no 1-thread job runs, which after the first
#: seconds happens again only at the end: it goes first, above any two 1-thread jobs together
PRIORITY_BOTH_CORES = 50
#: a job other jobs wait on (every tied_untied_sgd job needs tied_untied_ode)
PRIORITY_FEEDS_OTHERS = 10
#: a figure job ends its family's chain (3-20 s of rendering): it starts as soon as its inputs exist
PRIORITY_FIGURE = 5

if "authors" in config:
    # The authors' own experiments (config/authors.yaml): their rule family only, own
    # schema, figures and manifest under figures/authors/ (the paper figures are untouched).
    # a violation stops here with one line naming the key, the value and the rule
    SCHEMA = "workflow/schemas/authors.schema.yaml"
    preflight.validate_config(config, Path(workflow.basedir) / SCHEMA, SCHEMA)
    registry.validate(config)      # each result's checks beyond the schema

    include: "workflow/rules/authors.smk"
    FIGURES += registry.get("authors").figure_files(config)
    NUMBERS.append(registry.get("authors").numbers_file(config))
    include: "workflow/rules/reproducibility.smk"
    include: "workflow/rules/verdicts.smk"
    include: "workflow/rules/audit.smk"

    #: what `snakemake` makes (rule all)
    TARGETS = FIGURES + [f"{F}/MANIFEST.sha256", f"{F}/CLAIMS.md"] + AU_DOCS

    rule all:
        default_target: True
        input:
            TARGETS,

else:
    # a violation stops here with one line naming the key, the value and the rule
    SCHEMA = "workflow/schemas/config.schema.yaml"
    preflight.validate_config(config, Path(workflow.basedir) / SCHEMA, SCHEMA)
    registry.validate(config)      # each result's checks beyond the schema

    include: "workflow/rules/common.smk"
    # one rule family per result of the registry (ssi.experiments.registry), its figures and numbers
    for _entry in registry.results("paper"):
        include: f"workflow/rules/{_entry.name}.smk"
        FIGURES += _entry.figure_files(config)
        NUMBERS.append(_entry.numbers_file(config))
    include: "workflow/rules/notebooks.smk"
    include: "workflow/rules/summary.smk"
    include: "workflow/rules/reproducibility.smk"
    include: "workflow/rules/verdicts.smk"
    include: "workflow/rules/audit.smk"
    include: "workflow/rules/pages.smk"

    #: what `snakemake` makes (rule all)
    TARGETS = FIGURES + FIGURE_DATA + [f"{F}/MANIFEST.sha256", f"{F}/CLAIMS.md"] + REPORT_NUMBERS

    rule all:
        default_target: True
        input:
            TARGETS,
