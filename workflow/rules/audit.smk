# The manifest of figures, the claims table (also written into README.md), and the audit.


rule manifest:
    input:
        FIGURES + NUMBERS,
    output:
        f"{F}/MANIFEST.sha256",
    run:
        from ssi.experiments.audit import write_manifest

        write_manifest(input, F, output[0])


rule claims:
    input:
        NUMBERS,
    output:
        f"{F}/CLAIMS.md",
    params:
        readme="README.md" if F == "figures" else None,
    script:
        "../scripts/claims.py"


rule audit:
    """Re-render every figure from results/ into a temporary folder and compare its hash with
    the manifest; recompute the key numbers from results/ and compare them with the committed
    ones within config["audit_rtol"] (0 on the machine that made them; set it for others)."""
    input:
        manifest=f"{F}/MANIFEST.sha256",
        numbers=NUMBERS,
    run:
        import importlib

        from ssi.experiments.audit import clean_for_json, compare_numbers, load_numbers, rerender_and_compare

        problems = rerender_and_compare(RENDERERS, input.manifest)
        for path in input.numbers:
            module = importlib.import_module(f"ssi.experiments.{Path(path).stem}")
            problems += [f"{Path(path).name}: {p}" for p in
                         compare_numbers(clean_for_json(module.summarise(config)), load_numbers(path), config["audit_rtol"])]
        if problems:
            raise ValueError("audit failed:\n  " + "\n  ".join(problems))
        print(f"audit passed: {len(RENDERERS)} figure sets re-rendered identically, "
              f"{len(input.numbers)} numbers files within rtol {config['audit_rtol']}")
