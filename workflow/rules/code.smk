# The code inputs of a rule: the package modules its script imports, so that editing the code a
# job runs remakes its outputs, and nothing else does.
from pathlib import Path

from ssi.source_graph import dependencies, file_imports


#: what every job script imports to set up its process (Ctrl-C, numba's compilations): it changes
#: no output, so an edit of it remakes nothing
_JOB_PROCESS = "ssi.job_process"


def imported_code(*files, folder="workflow/scripts"):
    """The package's source files that ``files`` (names in ``folder``, relative to the folder of
    the Snakefile) import, directly or through other modules of the package (but
    ``ssi.job_process``)."""
    base = Path(workflow.basedir) / folder
    names = set().union(*(file_imports(base / name) for name in files)) - {_JOB_PROCESS}
    return [str(path) for path in dependencies(names).values()]
