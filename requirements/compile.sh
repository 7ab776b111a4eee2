#!/usr/bin/env bash
# Regenerate requirements/lock.txt: the exact versions, with hashes, of every package of
# pyproject.toml (runtime + the test, cluster, notebooks and report extras), for CPython 3.11
# on linux x86_64 (the platform that made the committed figures).
#
#   requirements/compile.sh                 # keep the locked versions; add/remove what pyproject changed
#   requirements/compile.sh --upgrade       # move every package to its newest allowed version
#   requirements/compile.sh -P numba        # move one package (and what it needs)
#
# Needs uv (`pip install uv`). Afterwards: see docs/reproducibility.md, "Refreshing the lock"
# (a changed numpy, numba, scipy, matplotlib or seaborn means regenerating results and figures).
set -euo pipefail
cd "$(dirname "$0")/.."
uv pip compile pyproject.toml \
    --extra test --extra cluster --extra notebooks --extra report \
    --generate-hashes --python-version 3.11 --python-platform x86_64-manylinux_2_28 \
    --index-url https://pypi.org/simple \
    --custom-compile-command "requirements/compile.sh" \
    --output-file requirements/lock.txt "$@"
