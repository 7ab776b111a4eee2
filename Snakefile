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

from snakemake.utils import min_version, validate

from ssi._interrupt import forward_interrupts

min_version("9.0")


# The default config applies only when no --configfile is given: Snakemake would
# otherwise merge the two (nested keys of config.yaml, such as extra cases, would leak
# into quick.yaml).
# (`--config audit_n=… audit_seed=…` alone, for `audit_compute`, still means the default config.)
if not set(config) - {"audit_n", "audit_seed"}:

    configfile: "config/config.yaml"


# Ctrl-C also stops a job that Snakemake was starting as the signal came (src/ssi/_interrupt.py)
forward_interrupts()

# Job priorities (docs/performance.md, "Scheduling"): Snakemake starts the ready jobs whose
# priorities add up highest; jobs of equal priority go in no set order.
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
    validate(config, "workflow/schemas/authors.schema.yaml")

    include: "workflow/rules/authors.smk"
    include: "workflow/rules/audit.smk"

    rule all:
        default_target: True
        input:
            FIGURES,
            f"{F}/MANIFEST.sha256",
            f"{F}/CLAIMS.md",

else:
    validate(config, "workflow/schemas/config.schema.yaml")

    include: "workflow/rules/common.smk"
    include: "workflow/rules/two_phases.smk"
    include: "workflow/rules/positional.smk"
    include: "workflow/rules/escape_vs_d.smk"
    include: "workflow/rules/tied_untied.smk"
    include: "workflow/rules/semantic_positional.smk"
    include: "workflow/rules/authors_phase.smk"
    include: "workflow/rules/summary.smk"
    include: "workflow/rules/reproducibility.smk"
    include: "workflow/rules/audit.smk"

    rule all:
        default_target: True
        input:
            FIGURES,
            f"{F}/MANIFEST.sha256",
            f"{F}/CLAIMS.md",
            REPORT_NUMBERS,
