# Claim C3: positional encoding lowers the SIE (4 → 2) and shortens the escape.
from ssi.experiments import positional

#: result files: SGD replicates per (case, d), the ODE per case, the landscape per target
PE_RESULTS = [f"{s}.npz" for kind in ("sgd", "ode", "landscape") for s in positional.stems(config, kind).values()]
#: the package code the figures are drawn with (what the plot script imports): editing it remakes them
PE_CODE = imported_code("positional_plot.py")
#: the two figures (landscape, escape), pdf and png
PE_FIGURES = registry.get("positional").figure_files(config)


# the numbers and the figures take seconds: on a cluster they run on the submitting node
localrules:
    positional_numbers,
    positional_plot,


rule positional_landscape:
    params:
        section=config["positional"]["landscape"],
    output:
        multiext(f"{R}/positional/landscape_{{target}}", ".npz", ".json"),
    log:
        f"{R}/logs/positional_landscape_{{target}}.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/positional_landscape.py"


rule positional_sgd:
    params:
        point=point_params("positional", ["replicates", "points_per_decade", "escape"]),
    output:
        multiext(f"{R}/positional/sgd_{{case}}_d{{d}}", ".npz", ".json"),
    log:
        f"{R}/logs/positional_sgd_{{case}}_d{{d}}.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=30,
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/positional_sgd.py"


rule positional_ode:
    params:
        case=lambda wildcards: {k: v for k, v in config["positional"]["cases"][wildcards.case].items() if k != "dims"},
        escape=config["positional"]["escape"],
        trajectory_d=config["positional"]["trajectory_d"],
    output:
        multiext(f"{R}/positional/ode_{{case}}", ".npz", ".json"),
    log:
        f"{R}/logs/positional_ode_{{case}}.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/positional_ode.py"


rule positional_numbers:
    input:
        PE_RESULTS,
        imported_code("positional_numbers.py"),
    params:
        view=config_view("positional"),
    output:
        f"{F}/numbers/positional.json",
    log:
        f"{R}/logs/positional_numbers.log",
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/positional_numbers.py"


rule positional_plot:
    priority: PRIORITY_FIGURE
    input:
        PE_RESULTS,
        PE_CODE,
        numbers=f"{F}/numbers/positional.json",
        verdicts=f"{F}/VERDICTS.json",
    params:
        view=config_view("positional"),
    output:
        landscape_pdf=f"{F}/positional_landscape.pdf",
        landscape_png=report(f"{F}/positional_landscape.png", caption="../report/positional_landscape.rst",
                             category="C3 positional encoding"),
        escape_pdf=f"{F}/positional_escape.pdf",
        escape_png=report(f"{F}/positional_escape.png", caption="../report/positional_escape.rst",
                          category="C3 positional encoding"),
    log:
        f"{R}/logs/positional_plot.log",
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/positional_plot.py"


RESULTS += PE_RESULTS
#: what its figure data are drawn from (workflow/rules/notebooks.smk)
FIGURE_INPUTS["positional"] = (PE_RESULTS, PE_CODE)
RENDERERS["positional"] = lambda out_dir: positional.plot(
    config, [f"{out_dir}/{Path(p).name}" for p in PE_FIGURES], verdicts=rows_for(f"{F}/VERDICTS.json", "positional")
)
