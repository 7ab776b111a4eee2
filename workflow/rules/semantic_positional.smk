# Claim C5: semantic vs positional learning — phase diagram, SGD transition, long run.
from ssi.experiments import semantic_positional as sp
from ssi.experiments.semantic_positional import figure as sp_figure
from ssi.experiments.semantic_positional import jobs as sp_jobs

#: result files: landscape integrals, the two diagrams, SGD blocks, ODE, long-run groups
SP_RESULTS = [f"{s}.npz" for kind in ("landscape", "diagram", "sgd", "ode", "long")
              for s in sp_jobs.stems(config, kind).values()]
#: the package code the figures are drawn with (what the plot script imports): editing it remakes them
SP_CODE = imported_code("semantic_positional_plot.py")
#: the three figures, pdf and png
SP_FIGURES = registry.get("semantic_positional").figure_files(config)


wildcard_constraints:
    sp_run=r"[A-Za-z0-9]+",
    block=r"\d+",
    group=r"\d+",
    diagram=r"full|zoom",


# the numbers and the figures take seconds: on a cluster they run on the submitting node
localrules:
    semantic_positional_numbers,
    semantic_positional_plot,


rule semantic_positional_landscape:
    priority: PRIORITY_BOTH_CORES
    params:
        section=config["semantic_positional"]["landscape"],
    output:
        multiext(f"{R}/semantic_positional/landscape", ".npz", ".json"),
    log:
        f"{R}/logs/semantic_positional_landscape.log",
    threads: 2
    resources:
        mem_mb=1000,
        runtime=10,
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/semantic_positional_landscape.py"


rule semantic_positional_diagram:
    input:
        f"{R}/semantic_positional/landscape.npz",
    params:
        section=config["semantic_positional"]["diagram"],
    output:
        multiext(f"{R}/semantic_positional/diagram_{{diagram}}", ".npz", ".json"),
    log:
        f"{R}/logs/semantic_positional_diagram_{{diagram}}.log",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/semantic_positional_diagram.py"


rule semantic_positional_sgd:
    params:
        transition=lambda wildcards: {k: v for k, v in config["semantic_positional"]["transition"].items()
                                      if k != "runs"},
        run=lambda wildcards: config["semantic_positional"]["transition"]["runs"][wildcards.sp_run],
        problem=config["semantic_positional"]["problem"],
        seed=config["seed"],
        engine=config["engine"],
    output:
        multiext(f"{R}/semantic_positional/sgd_{{sp_run}}_b{{block}}", ".npz", ".json"),
    log:
        f"{R}/logs/semantic_positional_sgd_{{sp_run}}_b{{block}}.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=30,
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/semantic_positional_sgd.py"


rule semantic_positional_long:
    params:
        section=config["semantic_positional"]["long_run"],
        problem=config["semantic_positional"]["problem"],
        seed=config["seed"],
        engine=config["engine"],
    output:
        multiext(f"{R}/semantic_positional/long_g{{group}}", ".npz", ".json"),
    log:
        f"{R}/logs/semantic_positional_long_g{{group}}.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=30,
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/semantic_positional_long.py"


rule semantic_positional_ode:
    input:
        f"{R}/semantic_positional/landscape.npz",
    params:
        ode=config["semantic_positional"]["ode"],
        transition=config["semantic_positional"]["transition"],
        long_run=config["semantic_positional"]["long_run"],
        problem=config["semantic_positional"]["problem"],
    output:
        multiext(f"{R}/semantic_positional/ode", ".npz", ".json"),
    log:
        f"{R}/logs/semantic_positional_ode.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/semantic_positional_ode.py"


rule semantic_positional_numbers:
    input:
        SP_RESULTS,
        imported_code("semantic_positional_numbers.py"),
    params:
        view=config_view("semantic_positional"),
    output:
        f"{F}/numbers/semantic_positional.json",
    log:
        f"{R}/logs/semantic_positional_numbers.log",
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/semantic_positional_numbers.py"


rule semantic_positional_plot:
    priority: PRIORITY_FIGURE
    input:
        SP_RESULTS,
        SP_CODE,
        numbers=f"{F}/numbers/semantic_positional.json",
        verdicts=f"{F}/VERDICTS.json",
    params:
        view=config_view("semantic_positional"),
    output:
        diagram_pdf=f"{F}/semantic_positional_diagram.pdf",
        diagram_png=report(f"{F}/semantic_positional_diagram.png", caption="../report/semantic_positional_diagram.rst",
                           category="C5 semantic vs positional"),
        transition_pdf=f"{F}/semantic_positional_transition.pdf",
        transition_png=report(f"{F}/semantic_positional_transition.png",
                              caption="../report/semantic_positional_transition.rst",
                              category="C5 semantic vs positional"),
        long_pdf=f"{F}/semantic_positional_long.pdf",
        long_png=report(f"{F}/semantic_positional_long.png", caption="../report/semantic_positional_long.rst",
                        category="C5 semantic vs positional"),
    log:
        f"{R}/logs/semantic_positional_plot.log",
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/semantic_positional_plot.py"


RESULTS += SP_RESULTS
#: what its figure data are drawn from (workflow/rules/notebooks.smk)
FIGURE_INPUTS["semantic_positional"] = (SP_RESULTS, SP_CODE)
RENDERERS["semantic_positional"] = lambda out_dir: sp_figure.plot(
    config, [f"{out_dir}/{Path(p).name}" for p in SP_FIGURES], verdicts=rows_for(f"{F}/VERDICTS.json", "semantic_positional")
)
