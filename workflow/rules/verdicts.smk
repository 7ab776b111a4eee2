# The verdict file: every claim row's verdict, with its reason and interval, written once from the
# numbers files by the one rule of ssi.verdicts; the claims pages, the README's tables and the
# summary figure read it (include after the result rule files: reads NUMBERS).

localrules:
    verdicts,


rule verdicts:
    input:
        NUMBERS,
    output:
        f"{F}/VERDICTS.json",
    params:
        view=config_view(*SECTIONS),
    log:
        f"{R}/logs/verdicts.log",
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/verdicts.py"
