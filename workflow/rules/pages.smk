# The pages that quote numbers (README.md, docs/): rendered whole from their Jinja2 templates under
# workflow/templates/ by the page generator (workflow/pagegen), with the verdict files, the claims
# pages and the authors' pages, from the committed files. Run it after a regeneration:
# `snakemake pages --cores 1`. No input, no output: it runs whenever asked for and rewrites only
# the pages whose text changes (tests/workflow/test_docs.py fails while one is out of date).

localrules:
    pages,


rule pages:
    log:
        f"{R}/logs/pages.log",
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/pages.py"
