# %% [markdown]
# # Batched jobs (workflow/rules/batch.smk): each member job's own script, in order, in this process
# A member sees the `snakemake` object its unbatched job would get (its rule, wildcards, input,
# output, params and log), so it writes the same files and records the same provenance; it runs
# with the batch's threads (one).

# %%
import runpy
import time
from pathlib import Path

from snakemake.script import Snakemake

try:                       # Snakemake's containers of files and values (before 9.2x: in snakemake.io)
    from snakemake.iocontainers import InputFiles, Log, OutputFiles, Params, Wildcards
except ImportError:
    from snakemake.io import InputFiles, Log, OutputFiles, Params, Wildcards

batch = snakemake  # noqa: F821
here = Path(batch.scriptdir)


def named(kind, values, names):
    """A Snakemake list of type ``kind`` holding ``values``, with ``names`` ({name: [start, end]})."""
    out = kind(values)
    for name, (start, end) in names.items():
        out._set_name(name, start, end=end)
    return out


def files(kind, places, names, source):
    """The files at ``places`` (indices) of the batch's list ``source``, as a ``kind`` list."""
    return named(kind, [source[i] for i in places], names)


with open(batch.log[0], "w") as log:
    members = batch.params.members
    for number, m in enumerate(members, 1):
        refs, input_names = m["input"]
        inputs = named(InputFiles, [(batch.input if where == "input" else batch.output)[i] for where, i in refs],
                       input_names)
        job = Snakemake(inputs, files(OutputFiles, *m["output"], batch.output), named(Params, *m["params"]),
                        Wildcards(fromdict=m["wildcards"]), batch.threads, batch.resources,
                        files(Log, *m["log"], batch.log), batch.config, m["rule"], batch.bench_iteration,
                        scriptdir=str((here / m["script"]).parent))
        start = time.perf_counter()
        runpy.run_path(str(here / m["script"]), init_globals={"snakemake": job}, run_name="__main__")
        log.write(f"{number}/{len(members)} {m['rule']} {m['wildcards']}: {time.perf_counter() - start:.1f} s "
                  f"(its log: {', '.join(job.log) or 'none'})\n")
        log.flush()
