# The notebooks' inputs and their executed copies (docs/reproducibility.md, "Notebooks").
# - figure_data (part of `all`, listed in the manifest): per result, the few arrays its figures
#   draw, {F}/data/<result>.npz + .json, so that notebooks/<result>.py redraws them with the
#   package's plotting function from committed files alone;
# - notebooks (not part of `all`: it needs the `notebooks` extra, and reads only committed files):
#   `snakemake --cores all notebooks` runs each notebooks/<result>.py as a notebook into
#   {F}/notebooks/<result>.ipynb, byte-deterministic; tests/workflow/test_notebooks.py checks they are current.
from ssi.experiments import figure_data

#: result -> (its figures, the results and the code they are drawn from)
FIGURE_SETS = {
    "two_phases": ([f"{F}/two_phases.pdf", f"{F}/two_phases.png"], TP_RESULTS, TP_CODE),
    "escape_vs_d": (C1_FIGURES, C1_RESULTS, C1_CODE),
    "positional": (PE_FIGURES, PE_RESULTS, PE_CODE),
    "tied_untied": (TU_FIGURES, TU_RESULTS, TU_CODE),
    "tied_untied_theory": (TUT_FIGURES, [TUT_RESULT], TUT_CODE),
    "semantic_positional": (SP_FIGURES, SP_RESULTS, SP_CODE),
    "authors_phase": (AP_FIGURES, AP_RESULTS, AP_CODE),
}
#: result -> the config sections its figures and claim rows read
FIGURE_SECTIONS = {name: (name,) for name in FIGURE_SETS} | {
    "tied_untied_theory": ("tied_untied_theory", "tied_untied"),
}
FIGURE_DATA = [f"{F}/data/{name}.{ext}" for name in FIGURE_SETS for ext in ("npz", "json")]
#: one notebook per result
NOTEBOOKS = [f"{F}/notebooks/{name}.ipynb" for name in FIGURE_SETS]


localrules:
    figure_data,
    notebook,
    notebooks,


rule figure_data:
    input:
        numbers=f"{F}/numbers/{{result}}.json",
        results=lambda wildcards: FIGURE_SETS[wildcards.result][1],
        code=lambda wildcards: FIGURE_SETS[wildcards.result][2] + imported_code("figure_data.py"),
    params:
        names=lambda wildcards: [Path(p).relative_to(F).as_posix() for p in FIGURE_SETS[wildcards.result][0]],
        view=lambda wildcards: config_view(*FIGURE_SECTIONS[wildcards.result]),
    output:
        npz=f"{F}/data/{{result}}.npz",
        json=f"{F}/data/{{result}}.json",
    log:
        f"{R}/logs/figure_data_{{result}}.log",
    wildcard_constraints:
        result="|".join(FIGURE_SETS),
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/figure_data.py"


rule notebook:
    input:
        source="notebooks/{result}.py",
        numbers=f"{F}/numbers/{{result}}.json",
        verdicts=f"{F}/VERDICTS.json",
        data=multiext(f"{F}/data/{{result}}", ".npz", ".json"),
        figures=lambda wildcards: FIGURE_SETS[wildcards.result][0],
        code=lambda wildcards: FIGURE_SETS[wildcards.result][2] + imported_code("execute_notebook.py")
                               + imported_code(f"{wildcards.result}.py", folder="notebooks"),
    params:
        view=lambda wildcards: config_view(*FIGURE_SECTIONS[wildcards.result]),
    output:
        f"{F}/notebooks/{{result}}.ipynb",
    log:
        f"{R}/logs/notebook_{{result}}.log",
    wildcard_constraints:
        result="|".join(FIGURE_SETS),
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/execute_notebook.py"


rule notebooks:
    """`snakemake --cores all notebooks`: the executed copy of every notebook."""
    input:
        NOTEBOOKS,
