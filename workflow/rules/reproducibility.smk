# Reproducibility beyond the figures (docs/reproducibility.md):
# - result_hashes: the hash list of every .npz result of the config, {F}/RESULT_HASHES.json;
# - audit_compute: recompute a sample of audit_n result files (drawn with audit_seed) in a
#   temporary folder and compare their bytes with that list;
# - report_numbers: each numbers file as an HTML table, so that `snakemake --report` shows the
#   key numbers next to the figures.
from ssi.experiments.recompute import HASHES

#: the key-numbers tables of the report (one per numbers file; made by `snakemake`, not committed)
REPORT_NUMBERS = [f"{R}/report/{Path(n).stem}_numbers.html" for n in NUMBERS]


localrules:
    result_hashes,
    audit_compute,
    report_numbers,


rule result_hashes:
    """`snakemake --cores all result_hashes`: SHA-256 of every .npz result (made first if missing),
    with the provenance of the run. Not part of `all`: written when asked for."""
    input:
        RESULTS,
    output:
        f"{F}/{HASHES}",
    log:
        f"{R}/logs/result_hashes.log",
    run:
        from ssi.experiments.recompute import write_result_hashes

        write_result_hashes(input, config, output[0], log[0], rule=rule, workflow_root=workflow.basedir)


rule audit_compute:
    """`snakemake --cores all audit_compute --config audit_n=4 audit_seed=1`: run the rules of
    audit_n result files drawn from {F}/RESULT_HASHES.json (with audit_seed) in a temporary folder
    and compare their bytes with it; fails naming each differing file and the packages whose
    version differs from the recorded one. The hash list is a param, not an input, so that it is
    never rebuilt before comparing. No output: runs whenever asked for."""
    params:
        hashes=f"{F}/{HASHES}",
        n=config.get("audit_n", 4),
        seed=config.get("audit_seed", 0),
    log:
        f"{R}/logs/audit_compute.log",
    run:
        from ssi.experiments.recompute import audit_compute

        print(audit_compute(config, workflow.main_snakefile, params.hashes, params.n, params.seed,
                            cores=workflow.cores, log=log[0]))


rule report_numbers:
    input:
        f"{F}/numbers/{{name}}.json",
    output:
        report(f"{R}/report/{{name}}_numbers.html", caption="../report/numbers.rst", category="Key numbers",
               subcategory="{name}"),
    log:
        f"{R}/logs/report_numbers_{{name}}.log",
    # a script, not a `run:` block (see rule manifest)
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/report_numbers.py"
