# Claim C1: the weak-recovery time scales with d as the SIE says (d, d log² d, d^(k−1)).
from ssi.experiments import escape_vs_d

#: result files: SGD replicates per (case, d, engine), the ODE per case
C1_RESULTS = [f"{s}.npz" for kind in ("sgd", "ode") for s in escape_vs_d.stems(config, kind).values()]
#: the package code the figures are drawn with (what the plot script imports): editing it remakes them
C1_CODE = imported_code("escape_vs_d_plot.py")
#: the SGD job's rerun triggers: point_params, with the case's d lists and ODE-only keys left out
#: (adding a d, or an ODE or explicit-engine d, must not rerun the other points)
C1_POINT = point_params("escape_vs_d", ["replicates", "points_per_decade", "escape", "overshoot"])
C1_NOT_SGD = ("dims", "explicit_dims", "ode_dims")

#: the figure, pdf and png
C1_FIGURES = registry.get("escape_vs_d").figure_files(config)


# the numbers and the figure take seconds: on a cluster they run on the submitting node
localrules:
    escape_vs_d_numbers,
    escape_vs_d_plot,


rule escape_vs_d_sgd:
    params:
        point=lambda wildcards: {**C1_POINT(wildcards), "case": {
            k: v for k, v in config["escape_vs_d"]["cases"][wildcards.case].items() if k not in C1_NOT_SGD}},
    output:
        multiext(f"{R}/escape_vs_d/sgd_{{case}}_d{{d}}_{{engine}}", ".npz", ".json"),
    log:
        f"{R}/logs/escape_vs_d_sgd_{{case}}_d{{d}}_{{engine}}.log",
    wildcard_constraints:
        engine="reduced|explicit",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=30,
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/escape_vs_d_sgd.py"


rule escape_vs_d_ode:
    params:
        case=lambda wildcards: {k: v for k, v in config["escape_vs_d"]["cases"][wildcards.case].items()
                                if k not in ("dims", "explicit_dims", "overshoot")},
        escape=config["escape_vs_d"]["escape"],
    output:
        multiext(f"{R}/escape_vs_d/ode_{{case}}", ".npz", ".json"),
    log:
        f"{R}/logs/escape_vs_d_ode_{{case}}.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/escape_vs_d_ode.py"


rule escape_vs_d_numbers:
    input:
        C1_RESULTS,
        imported_code("escape_vs_d_numbers.py"),
    params:
        view=config_view("escape_vs_d"),
    output:
        f"{F}/numbers/escape_vs_d.json",
    log:
        f"{R}/logs/escape_vs_d_numbers.log",
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/escape_vs_d_numbers.py"


rule escape_vs_d_plot:
    priority: PRIORITY_FIGURE
    input:
        C1_RESULTS,
        C1_CODE,
        numbers=f"{F}/numbers/escape_vs_d.json",
        verdicts=f"{F}/VERDICTS.json",
    params:
        view=config_view("escape_vs_d"),
    output:
        pdf=f"{F}/escape_vs_d.pdf",
        png=report(f"{F}/escape_vs_d.png", caption="../report/escape_vs_d.rst", category="C1 escape time vs d"),
    log:
        f"{R}/logs/escape_vs_d_plot.log",
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/escape_vs_d_plot.py"


RESULTS += C1_RESULTS
#: what its figure data are drawn from (workflow/rules/notebooks.smk)
FIGURE_INPUTS["escape_vs_d"] = (C1_RESULTS, C1_CODE)
RENDERERS["escape_vs_d"] = lambda out_dir: escape_vs_d.plot(
    config, [f"{out_dir}/{Path(p).name}" for p in C1_FIGURES], verdicts=rows_for(f"{F}/VERDICTS.json", "escape_vs_d")
)
