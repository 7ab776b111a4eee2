# The manifest of figures, the claims table (read from the verdict file; also written into README.md), and the two checks of
# the committed files: `verify` (seconds: the files against their manifest, no results needed) and
# `audit` (re-render and recompute from results/). All are quick: on a cluster they run on the
# submitting node, not as SLURM jobs.
from ssi.experiments.claims import page_title as claims_title

localrules:
    manifest,
    claims,
    verify,
    audit,


rule manifest:
    input:
        FIGURES + NUMBERS + FIGURE_DATA,
    output:
        f"{F}/MANIFEST.sha256",
    log:
        f"{R}/logs/manifest.log",
    # a script, not a `run:` block: Snakemake runs a `run:` job in a new Snakemake process that
    # parses the whole workflow again (~5 s); a script starts in ~2 s
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/manifest.py"


rule claims:
    input:
        verdicts=f"{F}/VERDICTS.json",
        template="workflow/templates/_claims.md.j2",
    output:
        f"{F}/CLAIMS.md",
    params:
        title=claims_title(config),
        view=config_view(*SECTIONS),
    log:
        f"{R}/logs/claims.log",
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/claims.py"


rule verify:
    """Seconds, no results/ needed: every file listed in MANIFEST.sha256 is on disk with its hash,
    and every figure and numbers file this config makes is listed. The same check as
    `(cd figures && sha256sum -c MANIFEST.sha256)`, plus the second half. No input, no output:
    runs whenever asked for; fails naming each differing file."""
    params:
        manifest=f"{F}/MANIFEST.sha256",
        expected=FIGURES + NUMBERS,
    log:
        f"{R}/logs/verify.log",
    conda:
        "../envs/ssi.yaml"
    # a script, not a `run:` block (see rule manifest)
    script:
        "../scripts/verify.py"


rule audit:
    """Check the committed figures and numbers against results/: every file listed in
    MANIFEST.sha256 is on disk with its hash, every figure re-rendered from results/ into a
    temporary folder has the listed hash, and the key numbers recomputed from results/ equal
    the committed ones within config["audit_rtol"] (0 on the machine that made them; set it
    for others). The manifest and the numbers are params, not inputs, so that Snakemake never
    rebuilds them before comparing; the results are inputs (made first if missing, e.g. on a
    fresh clone: the whole run). When results are missing it says so, with how long making them
    takes, while the DAG is built, before any job runs. No output: runs whenever asked for; fails
    naming each differing file."""
    input:
        lambda wildcards: preflight.announce_missing_results(RESULTS, CONFIGFILE,
                                                             f"snakemake verify --cores 1{CONFIG_OPTION}"),
    params:
        manifest=f"{F}/MANIFEST.sha256",
        numbers=NUMBERS,
    log:
        f"{R}/logs/audit.log",
    # re-renders one figure set per thread (forked processes); Snakemake lowers it to --cores
    # (not `workflow.cores`, which makes --unlock and other core-less commands fail)
    threads: 8
    run:
        from ssi.experiments.audit import audit

        print(audit(config, RENDERERS, params.manifest, params.numbers, log[0], results=input,
                    workers=threads))
