# Batched jobs (config key `batch: true`; config/quick.yaml): the jobs of each rule file (a
# result's SGD, ODE, numbers and figure jobs; all figure-data jobs; all report tables; ...) run as
# one job, which runs every member job's own script, in order, in one process
# (workflow/scripts/run_batch.py). At toy scale a job's work is a fraction of a second and its
# start-up (Python, numba, matplotlib, the package) about one second; one process per rule file
# pays it once. A member reads the same inputs, writes the same files and log, and records the
# same provenance (its own rule) as it does unbatched: the files are byte-identical either way.
# Include after the rule files, once TARGETS (what `rule all` asks for) is set; the functions
# are in workflow/rules/batch_plan.smk.
if config.get("batch", False):
    # RESULTS and NUMBERS first: a rule file's members are listed in the order their files are met
    _BATCHES = _batches(RESULTS + NUMBERS + TARGETS, f"{R}/logs")
    for _family, _batch in _BATCHES.items():

        rule:
            name:
                f"batch_{_family}"
            # first the batches whose files other batches read, then the larger ones (more members)
            priority: _batch_priority(_family, _BATCHES, PRIORITY_FEEDS_OTHERS)
            input:
                _batch["input"],
            output:
                _batch["output"],
            params:
                members=_batch["members"],
            log:
                _batch["log"],
            threads: 1
            resources:
                mem_mb=1000,
                runtime=30,
            conda:
                "../envs/ssi.yaml"
            script:
                "../scripts/run_batch.py"

        for _name in sorted({m["rule"] for m in _batch["members"]}):
            workflow.ruleorder(f"batch_{_family}", _name)
