"""Machine facilities that some tests drive and a user's machine may lack (headless Chromium for
the report test; root and the SLURM Debian packages for the cluster test).

Outside CI such a test skips, saying what is missing and how to get it; under CI (``CI`` set, as
``.ci/run`` does) it fails instead, so that a CI machine without the facility cannot pass by
skipping.
"""
from __future__ import annotations

import os

import pytest


def in_ci() -> bool:
    """Whether the tests run under CI (the ``CI`` environment variable set, e.g. ``CI=true``)."""
    return os.environ.get("CI", "").lower() not in ("", "0", "false", "no")


def require(available: bool, reason: str) -> None:
    """Skip (outside CI) or fail (under CI) the calling test unless ``available``."""
    if available:
        return
    if in_ci():
        pytest.fail(f"{reason}; under CI this facility is required (.ci/run provides it)", pytrace=False)
    pytest.skip(reason)
