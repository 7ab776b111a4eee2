"""The audit's re-rendering in forked workers (src/ssi/experiments/audit.py): same files and the
same verdict as one after the other; results in order; a failing renderer fails the audit."""
from __future__ import annotations

import os

import pytest

from ssi.experiments import audit as audit_module
from ssi.experiments.audit import _in_parallel, rerender_and_compare, write_manifest


def _renderer(name: str, payload: bytes):
    def render(out_dir):
        with open(os.path.join(out_dir, name), "wb") as f:
            f.write(payload)
    return render


def test_results_in_order_and_from_other_processes():
    """With two workers the calls run in forked processes (not this one) and come back in order."""
    calls = [lambda i=i: (i, os.getpid()) for i in range(5)]
    out = _in_parallel(calls, workers=2)
    assert [i for i, _ in out] == list(range(5))
    assert os.getpid() not in {pid for _, pid in out}
    assert _in_parallel(calls, workers=1) == [(i, os.getpid()) for i in range(5)]
    assert audit_module._CALLS == []


@pytest.mark.parametrize("workers", [1, 2])
def test_rerender_finds_the_changed_figure_with_any_number_of_workers(tmp_path, workers):
    """Three figure sets rendered with 1 or 2 workers: the one whose bytes differ from the
    manifest is named, the others pass."""
    committed = tmp_path / "figures"
    committed.mkdir()
    for name in ("a.png", "b.png", "c.png"):
        (committed / name).write_bytes(name.encode())
    manifest = committed / "MANIFEST.sha256"
    write_manifest(sorted(committed.glob("*.png")), committed, manifest)
    renderers = {"a": _renderer("a.png", b"a.png"), "b": _renderer("b.png", b"changed"),
                 "c": _renderer("c.png", b"c.png")}
    assert rerender_and_compare(renderers, manifest, workers) == ["b.png: re-rendered bytes differ from the manifest"]


def test_a_failing_renderer_fails_the_audit():
    def broken():
        raise RuntimeError("renderer broke")
    with pytest.raises(RuntimeError, match="renderer broke"):
        _in_parallel([lambda: 1, broken], workers=2)
