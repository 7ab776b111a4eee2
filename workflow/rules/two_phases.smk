# Claims C2 and C6: two phases of training (escape, then alignment); SGD vs ODE.
from ssi.experiments import two_phases


def tp_inputs():
    return [f"{s}.npz" for kind in ("sgd", "ode") for s in two_phases.stems(config, kind).values()]


# Parameters are passed as params so that editing them in the config reruns the affected
# jobs (Snakemake's params rerun trigger); the summary and plot rules also depend on the
# code that draws them.
def tp_point_params(wildcards):
    return {"case": config["two_phases"]["cases"][wildcards.case], "seed": config["seed"],
            "engine": config["engine"], "replicates": config["two_phases"]["replicates"],
            "points_per_decade": config["two_phases"]["points_per_decade"]}


TP_CODE = [two_phases.__file__, str(Path(two_phases.__file__).parents[1] / "plotting.py")]


rule two_phases_sgd:
    params:
        point=tp_point_params,
    output:
        multiext(f"{R}/two_phases/sgd_{{case}}_d{{d}}", ".npz", ".json"),
    log:
        f"{R}/logs/two_phases_sgd_{{case}}_d{{d}}.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=30,
    script:
        "../scripts/two_phases_sgd.py"


rule two_phases_ode:
    params:
        point=tp_point_params,
    output:
        multiext(f"{R}/two_phases/ode_{{case}}_d{{d}}", ".npz", ".json"),
    log:
        f"{R}/logs/two_phases_ode_{{case}}_d{{d}}.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    script:
        "../scripts/two_phases_ode.py"


rule two_phases_numbers:
    input:
        tp_inputs(),
        TP_CODE,
    params:
        section=config["two_phases"],
    output:
        f"{F}/numbers/two_phases.json",
    log:
        f"{R}/logs/two_phases_numbers.log",
    script:
        "../scripts/two_phases_numbers.py"


rule two_phases_plot:
    input:
        tp_inputs(),
        TP_CODE,
    params:
        section=config["two_phases"],
    output:
        pdf=report(f"{F}/two_phases.pdf", caption="../report/two_phases.rst", category="C2 two phases"),
        png=f"{F}/two_phases.png",
    log:
        f"{R}/logs/two_phases_plot.log",
    script:
        "../scripts/two_phases_plot.py"


def render_two_phases(out_dir):
    two_phases.plot(config, [f"{out_dir}/two_phases.pdf", f"{out_dir}/two_phases.png"])


FIGURES += [f"{F}/two_phases.pdf", f"{F}/two_phases.png"]
NUMBERS += [f"{F}/numbers/two_phases.json"]
RENDERERS["two_phases"] = render_two_phases
