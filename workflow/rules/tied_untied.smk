# Claim C4: tied vs untied networks — gain T_untied/T_tied against L, null targets, attention.
from ssi.experiments import tied_untied
from ssi.experiments.tied_untied import figure as tied_untied_figure
from ssi.experiments.tied_untied import jobs as tied_untied_jobs

#: result files: ODE per case, SGD per (case, protocol, network), null runs, attention part
TU_RESULTS = [f"{s}.npz" for kind in ("ode", "sgd", "null", "attention") for s in tied_untied_jobs.stems(config, kind).values()]
#: the package code the figures are drawn with (what the plot script imports): editing it remakes them
TU_CODE = imported_code("tied_untied_plot.py")
#: the four figures (escape vs L, gain vs L, null cases, attention), pdf and png
TU_FIGURES = registry.get("tied_untied").figure_files(config)


localrules:
    tied_untied_numbers,
    tied_untied_plot,


rule tied_untied_ode:
    priority: PRIORITY_FEEDS_OTHERS
    params:
        case=lambda wildcards: config["tied_untied"]["cases"][wildcards.case],
        section={k: config["tied_untied"][k] for k in ["escape"]},
    output:
        multiext(f"{R}/tied_untied/ode_{{case}}", ".npz", ".json"),
    log:
        f"{R}/logs/tied_untied_ode_{{case}}.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/tied_untied_ode.py"


rule tied_untied_sgd:
    input:
        f"{R}/tied_untied/ode_{{case}}.npz",
    params:
        case=lambda wildcards: config["tied_untied"]["cases"][wildcards.case],
        section={k: config["tied_untied"][k] for k in ["replicates", "points_per_decade", "escape", "horizon"]},
        seed=config["seed"],
        engine=config["engine"],
    output:
        multiext(f"{R}/tied_untied/sgd_{{case}}_{{protocol}}_{{network}}", ".npz", ".json"),
    wildcard_constraints:
        protocol="same_lr|best_lr",
        network="tied|untied",
    log:
        f"{R}/logs/tied_untied_sgd_{{case}}_{{protocol}}_{{network}}.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=30,
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/tied_untied_sgd.py"


rule tied_untied_null:
    params:
        run=lambda wildcards: config["tied_untied"]["null_targets"]["runs"][wildcards.run],
        section={k: config["tied_untied"][k] for k in ["replicates", "points_per_decade"]},
        seed=config["seed"],
        engine=config["engine"],
    output:
        multiext(f"{R}/tied_untied/null_{{run}}", ".npz", ".json"),
    wildcard_constraints:
        run=r"[A-Za-z0-9_]+",
    log:
        f"{R}/logs/tied_untied_null_{{run}}.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=30,
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/tied_untied_null.py"


rule tied_untied_attention:
    params:
        attention=config["tied_untied"]["attention"],
        section={k: config["tied_untied"][k] for k in ["replicates", "points_per_decade", "escape", "horizon"]},
        seed=config["seed"],
        engine=config["engine"],
    output:
        multiext(f"{R}/tied_untied/attention_{{network}}", ".npz", ".json"),
    wildcard_constraints:
        network="attention|untied",
    log:
        f"{R}/logs/tied_untied_attention_{{network}}.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=30,
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/tied_untied_attention.py"


rule tied_untied_numbers:
    input:
        TU_RESULTS,
        imported_code("tied_untied_numbers.py"),
    params:
        view=config_view("tied_untied"),
    output:
        f"{F}/numbers/tied_untied.json",
    log:
        f"{R}/logs/tied_untied_numbers.log",
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/tied_untied_numbers.py"


rule tied_untied_plot:
    priority: PRIORITY_FIGURE
    input:
        TU_RESULTS,
        TU_CODE,
        numbers=f"{F}/numbers/tied_untied.json",
        verdicts=f"{F}/VERDICTS.json",
    params:
        view=config_view("tied_untied"),
    output:
        **{f"{name}_{ext}": (report(f"{F}/tied_untied_{name}.{ext}", caption=f"../report/tied_untied_{name}.rst",
                                    category="C4 tied vs untied") if ext == "png" else f"{F}/tied_untied_{name}.{ext}")
           for name in tied_untied_figure.FIGURE_NAMES for ext in ("pdf", "png")},
    log:
        f"{R}/logs/tied_untied_plot.log",
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/tied_untied_plot.py"


RESULTS += TU_RESULTS
#: what its figure data are drawn from (workflow/rules/notebooks.smk)
FIGURE_INPUTS["tied_untied"] = (TU_RESULTS, TU_CODE)
RENDERERS["tied_untied"] = lambda out_dir: tied_untied_figure.plot(
    config, [f"{out_dir}/{Path(p).name}" for p in TU_FIGURES], verdicts=rows_for(f"{F}/VERDICTS.json", "tied_untied")
)
