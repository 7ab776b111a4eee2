# The authors' own experiments (config/authors.yaml): one SGD job family and one ODE per
# experiment file, a cost forecast, numbers and one figure per experiment under figures/authors/.
from pathlib import Path

from ssi.experiments import authors
from ssi.experiments.authors import figure as authors_figure
from ssi.experiments.authors import spec as authors_spec
from ssi.experiments.authors import candidates as authors_candidates

R = config["results_dir"]
F = config["figures_dir"]
FIGURES, RESULTS, NUMBERS, RENDERERS, FIGURE_INPUTS = [], [], [], {}, {}
#: no notebook redraws the authors' figures: no figure data (workflow/rules/notebooks.smk)
FIGURE_DATA = []


AU_SGD = [f"{s}.npz" for s in authors_spec.stems(config, "sgd").values()]
AU_ODE = [f"{s}.npz" for s in authors_spec.stems(config, "ode").values()]
#: the package code the figures are drawn with (what the plot script imports): editing it remakes them
AU_CODE = imported_code("authors_plot.py")
AU_FIGURES = registry.get("authors").figure_files(config)


wildcard_constraints:
    exp=r"[A-Za-z0-9_]+",
    job=r"\d+",


localrules:
    authors_docs,
    authors_forecast_worst_case,
    authors_forecast,
    authors_numbers,
    authors_plot,


rule authors_ode:
    params:
        spec=lambda wildcards: config["authors"]["experiments"][wildcards.exp],
        section={k: config["authors"][k] for k in ["ode_points"]},
    output:
        multiext(f"{R}/authors/ode_{{exp}}", ".npz", ".json"),
    log:
        f"{R}/logs/authors_ode_{{exp}}.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=20,
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/authors_ode.py"


rule authors_forecast_worst_case:
    """The cost forecast without the ODE (every run to its T): the first job, printed as it runs."""
    priority: PRIORITY_BOTH_CORES + 1
    params:
        section={k: v for k, v in config["authors"].items() if k not in ("gain_pairs", "protocols")},
    output:
        f"{R}/authors/forecast_worst_case.txt",
    log:
        f"{R}/logs/authors_forecast_worst_case.log",
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/authors_forecast_worst_case.py"


rule authors_forecast:
    input:
        AU_ODE,
        f"{R}/authors/forecast_worst_case.txt",
    params:
        section={k: v for k, v in config["authors"].items() if k not in ("gain_pairs", "protocols")},
        # the folder of the ODE results read (results_dir)
        results_dir=lambda wildcards, output: str(Path(output[0]).parents[1]),
    output:
        f"{R}/authors/forecast.txt",
    log:
        f"{R}/logs/authors_forecast.log",
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/authors_forecast.py"


rule authors_sgd:
    params:
        spec=lambda wildcards: config["authors"]["experiments"][wildcards.exp],
        plan=lambda wildcards: authors_spec.job_plan(config, wildcards.exp)[int(wildcards.job)],
        section={k: config["authors"][k] for k in ["points_per_decade"]},
        seed=config["seed"],
        engine=config["engine"],
    output:
        multiext(f"{R}/authors/sgd_{{exp}}_{{job}}", ".npz", ".json"),
    log:
        f"{R}/logs/authors_sgd_{{exp}}_{{job}}.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=30,
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/authors_sgd.py"


rule authors_protocols:
    """The ODE of their protocol, and the keyed ODE predictions (the ODE's best η and its steps)
    the candidates' SGD runs at: this job makes them, the authors' numbers file holds them, and
    the C4 theory's numbers quote them from there."""
    input:
        imported_code("authors_protocols.py"),
    params:
        protocols=config["authors"].get("protocols"),
    output:
        multiext(f"{R}/authors/protocols", ".npz", ".json"),
    log:
        f"{R}/logs/authors_protocols.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=30,
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/authors_protocols.py"


AU_PROTOCOLS = [f"{R}/authors/protocols.npz"] if "protocols" in config["authors"] else []
AU_CANDIDATES = [f"{s}.npz" for s in authors_candidates.stems(config).values()]


rule authors_candidates_sgd:
    input:
        f"{R}/authors/protocols.npz",
    params:
        section={k: config["authors"][k] for k in ["candidates", "protocols"] if k in config["authors"]},
        seed=config["seed"],
        engine=config["engine"],
    output:
        multiext(f"{R}/authors/candidates_{{family}}", ".npz", ".json"),
    log:
        f"{R}/logs/authors_candidates_{{family}}.log",
    wildcard_constraints:
        family="|".join(authors_candidates.FAMILIES),
    threads: 1
    resources:
        mem_mb=1000,
        runtime=30,
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/authors_candidates_sgd.py"


rule authors_numbers:
    input:
        f"{R}/authors/forecast.txt",
        AU_SGD,
        AU_ODE,
        AU_PROTOCOLS,
        AU_CANDIDATES,
        imported_code("authors_numbers.py"),
    params:
        view=config_view("authors"),
    output:
        f"{F}/numbers/authors.json",
    log:
        f"{R}/logs/authors_numbers.log",
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/authors_numbers.py"


#: the pages of the authors' experiments (docs/results/authors.md and its per-run tables,
#: docs/results/authors_runs.md), written in place (`update`) as `snakemake pages` writes them,
#: from the committed numbers: part of `all` with the committed figures folder of
#: config/authors.yaml only. The README's table of these experiments is rendered by `snakemake pages`
#: with the rest of the README.
AU_DOCS = ["docs/results/authors.md", "docs/results/authors_runs.md"] if F == "figures/authors" else []


rule authors_docs:
    input:
        f"{F}/numbers/authors.json",
        f"{F}/CLAIMS.md",
        imported_code("authors_docs.py"),
        "workflow/templates/docs/results/authors.md.j2",
        "workflow/templates/docs/results/authors_runs.md.j2",
    output:
        update("docs/results/authors.md"),
        update("docs/results/authors_runs.md"),
    log:
        f"{R}/logs/authors_docs.log",
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/authors_docs.py"


rule authors_plot:
    priority: PRIORITY_FIGURE
    input:
        AU_SGD,
        AU_ODE,
        AU_PROTOCOLS,
        AU_CANDIDATES,
        AU_CODE,
        numbers=f"{F}/numbers/authors.json",
        verdicts=f"{F}/VERDICTS.json",
    params:
        view=config_view("authors"),
    output:
        **{f"{name}_{ext}": (report(f"{F}/{name}.{ext}", caption="../report/authors.rst",
                                    category="The authors' experiments") if ext == "pdf" else f"{F}/{name}.{ext}")
           for name in authors_figure.figure_names(config) for ext in ("pdf", "png")},
    log:
        f"{R}/logs/authors_plot.log",
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/authors_plot.py"


RESULTS += AU_SGD + AU_ODE + AU_PROTOCOLS + AU_CANDIDATES
RENDERERS["authors"] = lambda out_dir: authors_figure.plot(
    config, [f"{out_dir}/{Path(p).name}" for p in AU_FIGURES], verdicts=rows_for(f"{F}/VERDICTS.json", "authors")
)
