#!/usr/bin/env bash
# Run by Snakemake inside the new conda environment (`--sdm conda`), from the
# workflow's working directory: install the `ssi` package of this repository,
# editable, without touching the conda-installed dependencies.
# Run snakemake from the repository root (or set SSI_REPO to it).
set -euo pipefail
pip install --no-deps --no-build-isolation -e "${SSI_REPO:-.}"
