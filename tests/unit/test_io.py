"""Result files: byte-reproducible npz archives, provenance records, atomic writes."""
import json

import numpy as np
import pytest

from ssi.io import atomic_write_text, load_result, npz_bytes, save_result


def arrays():
    rng = np.random.default_rng(0)
    return {"m": rng.standard_normal((3, 5)), "steps": np.arange(5, dtype=np.int64),
            "flag": np.array(True)}


def test_npz_bytes_depend_only_on_arrays():
    """The same arrays give the same bytes (no timestamps), whatever the dict order;
    changing one value changes them."""
    a = arrays()
    first = npz_bytes(a)
    assert npz_bytes(dict(reversed(list(a.items())))) == first
    changed = dict(a, m=a["m"].copy())
    changed["m"][1, 2] += 1e-12
    assert npz_bytes(changed) != first


def test_save_and_load_round_trip(tmp_path):
    """Arrays come back equal (dtype and shape included) through numpy.load, the provenance
    record carries the writer's keys plus the package version and the provenance record, and no
    temporary file is left."""
    a = arrays()
    save_result(tmp_path / "sub" / "point", a, {"seed": 7, "d": np.int64(100)})
    loaded, record = load_result(tmp_path / "sub" / "point")
    assert loaded.keys() == a.keys()
    for key in a:
        assert loaded[key].dtype == a[key].dtype and loaded[key].shape == a[key].shape
        np.testing.assert_array_equal(loaded[key], a[key])
    assert record["seed"] == 7 and record["d"] == 100
    assert "package_version" in record
    assert {"packages", "python", "platform", "code_sha256", "config_sha256", "git_commit",
            "git_dirty"} <= record["provenance"].keys()
    assert not list(tmp_path.rglob("*.tmp"))


def test_object_arrays_are_refused(tmp_path):
    """Results are read with allow_pickle=False, so writing an object array fails up front."""
    with pytest.raises(ValueError):
        save_result(tmp_path / "bad", {"x": np.array([{"a": 1}], dtype=object)}, {})
    assert not (tmp_path / "bad.npz").exists() and not list(tmp_path.rglob("*.tmp"))


def test_atomic_write_keeps_old_file_on_failure(tmp_path, monkeypatch):
    """A write that fails before the rename leaves the previous file untouched and no
    temporary file behind."""
    target = tmp_path / "numbers.json"
    atomic_write_text(target, json.dumps({"old": 1}))

    def fail(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr("ssi.io.os.replace", fail)
    with pytest.raises(OSError, match="disk full"):
        atomic_write_text(target, json.dumps({"new": 2}))
    assert json.loads(target.read_text()) == {"old": 1}
    assert not list(tmp_path.rglob("*.tmp"))
