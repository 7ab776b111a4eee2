# The code inputs of a rule: the package modules its script imports, so that editing the code a
# job runs remakes its outputs, and nothing else does.
from pathlib import Path

from ssi.source_graph import dependencies, file_imports


def imported_code(*files, folder="workflow/scripts"):
    """The package's source files that ``files`` (names in ``folder``, relative to the folder of
    the Snakefile) import, directly or through other modules of the package."""
    base = Path(workflow.basedir) / folder
    names = set().union(*(file_imports(base / name) for name in files))
    return [str(path) for path in dependencies(names).values()]
