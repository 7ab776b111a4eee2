# The notebooks' inputs and their executed copies (docs/reproducibility.md, "Notebooks").
# - figure_data (part of `all`, listed in the manifest): per result, the few arrays its figures
#   draw, {F}/data/<result>.npz + .json, so that notebooks/<result>.py redraws them with the
#   package's plotting function from committed files alone;
# - notebooks (not part of `all`: it needs the `notebooks` extra, and reads only committed files):
#   `snakemake --cores all notebooks` runs each notebooks/<result>.py as a notebook into
#   {F}/notebooks/<result>.ipynb, byte-deterministic; tests/workflow/test_notebooks.py checks they are current.
from ssi.experiments import figure_data

#: result -> (its figures, the results and the code they are drawn from): every result of the
#: registry with a notebook (ssi.experiments.registry)
FIGURE_SETS = {result.name: (result.figure_files(config), *FIGURE_INPUTS[result.name])
               for result in registry.results("paper") if result.notebook}
#: result -> the config sections its figures and claim rows read
FIGURE_SECTIONS = {result.name: result.sections for result in registry.results("paper")}
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
