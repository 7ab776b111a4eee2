# The summary figure: one mark per claim row with its verdict, drawn from the verdict file, and C6's
# gap statistic from the two_phases numbers (include after the result rule files: reads NUMBERS).
from ssi.experiments import summary

SUMMARY_CODE = imported_code("summary_plot.py")
SUMMARY_FIGURES = [f"{F}/summary.pdf", f"{F}/summary.png"]


rule summary:
    priority: PRIORITY_FIGURE
    input:
        numbers=NUMBERS,
        verdicts=f"{F}/VERDICTS.json",
        code=SUMMARY_CODE,
    params:
        view=config_view(*SECTIONS),
    output:
        pdf=f"{F}/summary.pdf",
        png=report(f"{F}/summary.png", caption="../report/summary.rst", category="Summary"),
    log:
        f"{R}/logs/summary.log",
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/summary_plot.py"


FIGURES += SUMMARY_FIGURES
RENDERERS["summary"] = lambda out_dir: summary.plot(
    *summary.load(f"{F}/VERDICTS.json", NUMBERS), [f"{out_dir}/{Path(p).name}" for p in SUMMARY_FIGURES]
)
