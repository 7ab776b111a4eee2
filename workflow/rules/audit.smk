# The manifest of figures, the claims table (also written into README.md), and the audit.
# All three are quick: on a cluster they run on the submitting node, not as SLURM jobs.

localrules:
    manifest,
    claims,
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
        NUMBERS,
    output:
        f"{F}/CLAIMS.md",
    params:
        readme="README.md" if F == "figures" else None,
    log:
        f"{R}/logs/claims.log",
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/claims.py"


rule audit:
    """Check the committed figures and numbers against results/: every file listed in
    MANIFEST.sha256 is on disk with its hash, every figure re-rendered from results/ into a
    temporary folder has the listed hash, and the key numbers recomputed from results/ equal
    the committed ones within config["audit_rtol"] (0 on the machine that made them; set it
    for others). The manifest and the numbers are params, not inputs, so that Snakemake never
    rebuilds them before comparing; the results are inputs (made first if missing, e.g. on a
    fresh clone). No output: runs whenever asked for; fails naming each differing file."""
    input:
        RESULTS,
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
