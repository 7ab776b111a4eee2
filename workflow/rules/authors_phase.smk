# The authors' phase-diagram rule (analytic/ of IdePHICS/Sequence-Single-Index) re-run on our
# landscape and compared region by region with ours (claim C5; docs/results/authors-phase.md).
# Reads config["authors_phase"]; needs the semantic_positional landscape (semantic_positional.smk).
from ssi.experiments import authors_phase as ap
from ssi.experiments.authors_phase import jobs as ap_jobs

#: result files: the reference derivatives and one comparison per configured diagram
AP_RESULTS = [f"{s}.npz" for s in ap_jobs.stems(config).values()]
#: the package code the figures are drawn with (what the plot script imports): editing it remakes them
AP_CODE = imported_code("authors_phase_plot.py")
AP_FIGURES = registry.get("authors_phase").figure_files(config)


wildcard_constraints:
    ap_diagram=r"[A-Za-z0-9]+",


localrules:
    authors_phase_numbers,
    authors_phase_plot,


rule authors_phase_reference:
    priority: PRIORITY_BOTH_CORES
    params:
        section=config["authors_phase"]["reference"],
    output:
        multiext(f"{R}/authors_phase/reference", ".npz", ".json"),
    log:
        f"{R}/logs/authors_phase_reference.log",
    threads: 2
    resources:
        mem_mb=1000,
        runtime=10,
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/authors_phase_reference.py"


rule authors_phase_diagram:
    priority: PRIORITY_BOTH_CORES
    input:
        landscape=f"{R}/semantic_positional/landscape.npz",
        reference=f"{R}/authors_phase/reference.npz",
    params:
        section=lambda wildcards: {k: v for k, v in config["authors_phase"].items() if k != "diagrams"},
        diagram=lambda wildcards: config["authors_phase"]["diagrams"][wildcards.ap_diagram],
    output:
        multiext(f"{R}/authors_phase/diagram_{{ap_diagram}}", ".npz", ".json"),
    log:
        f"{R}/logs/authors_phase_diagram_{{ap_diagram}}.log",
    threads: 2
    resources:
        mem_mb=2000,
        runtime=20,
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/authors_phase_diagram.py"


rule authors_phase_numbers:
    input:
        AP_RESULTS,
        imported_code("authors_phase_numbers.py"),
    params:
        view=config_view("authors_phase"),
    output:
        f"{F}/numbers/authors_phase.json",
    log:
        f"{R}/logs/authors_phase_numbers.log",
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/authors_phase_numbers.py"


rule authors_phase_plot:
    priority: PRIORITY_FIGURE
    input:
        AP_RESULTS,
        AP_CODE,
        verdicts=f"{F}/VERDICTS.json",
    params:
        view=config_view("authors_phase"),
    output:
        pdf=report(f"{F}/authors/phase_diagram_comparison.pdf", caption="../report/authors_phase.rst",
                   category="C5 semantic vs positional"),
        png=f"{F}/authors/phase_diagram_comparison.png",
    log:
        f"{R}/logs/authors_phase_plot.log",
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/authors_phase_plot.py"


RESULTS += AP_RESULTS
#: what its figure data are drawn from (workflow/rules/notebooks.smk)
FIGURE_INPUTS["authors_phase"] = (AP_RESULTS, AP_CODE)
# not in RENDERERS: the audit's re-render compares files by base name, and this figure lives in
# the subfolder figures/authors/ (see docs/results/authors-phase.md)
