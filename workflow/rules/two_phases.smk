# Claims C2 and C6: two phases of training (escape, then alignment); SGD vs ODE.
from ssi.experiments import two_phases

#: result files of every (case, d) point: SGD replicates and ODE
TP_RESULTS = [f"{s}.npz" for kind in ("sgd", "ode") for s in two_phases.stems(config, kind).values()]
#: the package code the figures are drawn with (what the plot script imports): editing it remakes them
TP_CODE = imported_code("two_phases_plot.py")


# the numbers and the figure take seconds: on a cluster they run on the submitting node
localrules:
    two_phases_numbers,
    two_phases_plot,


rule two_phases_sgd:
    params:
        point=point_params("two_phases", ["replicates", "points_per_decade"]),
    output:
        multiext(f"{R}/two_phases/sgd_{{case}}_d{{d}}", ".npz", ".json"),
    log:
        f"{R}/logs/two_phases_sgd_{{case}}_d{{d}}.log",
    # single-threaded (CPU time = wall time); measured on a 2-core VM: <= 34 s per paper-scale
    # point (~70 s under load), peak RSS ~740 MB while numba compiles (cold cache), ~240 MB warm
    threads: 1
    resources:
        mem_mb=1500,
        runtime=15,
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/two_phases_sgd.py"


rule two_phases_ode:
    params:
        # the SGD's record times (points_per_decade) are among the ODE's output times (C6)
        point=point_params("two_phases", ["points_per_decade"]),
    output:
        multiext(f"{R}/two_phases/ode_{{case}}_d{{d}}", ".npz", ".json"),
    log:
        f"{R}/logs/two_phases_ode_{{case}}_d{{d}}.log",
    # measured: <= 16 s per point with a cold numba cache (~3 s warm), peak RSS ~740 MB cold
    threads: 1
    resources:
        mem_mb=1500,
        runtime=10,
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/two_phases_ode.py"


rule two_phases_numbers:
    input:
        TP_RESULTS,
        imported_code("two_phases_numbers.py"),
    params:
        view=config_view("two_phases"),
    output:
        f"{F}/numbers/two_phases.json",
    log:
        f"{R}/logs/two_phases_numbers.log",
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/two_phases_numbers.py"


rule two_phases_plot:
    priority: PRIORITY_FIGURE
    input:
        TP_RESULTS,
        TP_CODE,
        numbers=f"{F}/numbers/two_phases.json",
        verdicts=f"{F}/VERDICTS.json",
    params:
        view=config_view("two_phases"),
    output:
        pdf=f"{F}/two_phases.pdf",
        png=report(f"{F}/two_phases.png", caption="../report/two_phases.rst", category="C2 two phases"),
    log:
        f"{R}/logs/two_phases_plot.log",
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/two_phases_plot.py"


RESULTS += TP_RESULTS
#: what its figure data are drawn from (workflow/rules/notebooks.smk)
FIGURE_INPUTS["two_phases"] = (TP_RESULTS, TP_CODE)
RENDERERS["two_phases"] = lambda out_dir: two_phases.plot(
    config, [f"{out_dir}/two_phases.pdf", f"{out_dir}/two_phases.png"], verdicts=rows_for(f"{F}/VERDICTS.json", "two_phases")
)
