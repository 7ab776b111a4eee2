# Claim C4 settled from the ODE near m = 0: the gain's L-exponent at SIE 2 per learning-rate
# protocol, closed form beside the reduced ODE (L = 1..10³) and the SGD measurements.
from ssi.experiments import tied_untied_theory
from ssi.experiments.tied_untied_theory import figure as tied_untied_theory_figure


#: the one result file (coefficients, best learning rates and escape times on the L grids)
TUT_RESULT = f"{tied_untied_theory.stem(config)}.npz"
#: the package code the figures are drawn with (what the plot script imports): editing it remakes them
TUT_CODE = imported_code("tied_untied_theory_plot.py")
#: the SGD measurements the curves are compared with: the paper config's C4 runs and numbers, and
#: the authors' numbers file when present (config tied_untied_theory.authors_numbers)
TUT_SGD = [f"{s}.npz" for s in tied_untied_theory.stems(config, "sgd").values()] + [
    f"{F}/numbers/tied_untied.json"] + [p for p in [config["tied_untied_theory"]["authors_numbers"]] if Path(p).is_file()]
TUT_FIGURES = registry.get("tied_untied_theory").figure_files(config)


localrules:
    tied_untied_theory_numbers,
    tied_untied_theory_plot,


rule tied_untied_theory:
    params:
        section=config["tied_untied_theory"],
        escape=config["tied_untied"]["escape"],
        seed=config["seed"],
    output:
        multiext(f"{R}/tied_untied/theory", ".npz", ".json"),
    log:
        f"{R}/logs/tied_untied_theory.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/tied_untied_theory.py"


rule tied_untied_theory_numbers:
    """The numbers file (docs/results/tied_untied.md renders it: `snakemake pages`)."""
    input:
        TUT_RESULT,
        TUT_SGD,
        imported_code("tied_untied_theory_numbers.py"),
    params:
        view=config_view("tied_untied_theory", "tied_untied"),
    output:
        f"{F}/numbers/tied_untied_theory.json",
    log:
        f"{R}/logs/tied_untied_theory_numbers.log",
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/tied_untied_theory_numbers.py"


rule tied_untied_theory_plot:
    priority: PRIORITY_FIGURE
    input:
        TUT_RESULT,
        TUT_SGD,
        TUT_CODE,
        numbers=f"{F}/numbers/tied_untied_theory.json",
        verdicts=f"{F}/VERDICTS.json",
    params:
        view=config_view("tied_untied_theory", "tied_untied"),
    output:
        pdf=f"{F}/tied_untied_theory.pdf",
        png=report(f"{F}/tied_untied_theory.png", caption="../report/tied_untied_theory.rst",
                   category="C4 tied vs untied"),
    log:
        f"{R}/logs/tied_untied_theory_plot.log",
    conda:
        "../envs/ssi.yaml"
    script:
        "../scripts/tied_untied_theory_plot.py"


RESULTS += [TUT_RESULT]
#: what its figure data are drawn from (workflow/rules/notebooks.smk)
FIGURE_INPUTS["tied_untied_theory"] = ([TUT_RESULT], TUT_CODE)
RENDERERS["tied_untied_theory"] = lambda out_dir: tied_untied_theory_figure.plot(
    config, [f"{out_dir}/{Path(p).name}" for p in TUT_FIGURES], verdicts=rows_for(f"{F}/VERDICTS.json", "tied_untied_theory")
)
