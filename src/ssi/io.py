"""Results files: npz arrays plus a JSON provenance record, written atomically.

A result is ``<stem>.npz`` (loaded with ``allow_pickle=False``) and
``<stem>.json`` (the config slice, seed keys and anything else the writer adds, the
package version, and a ``provenance`` record from :func:`ssi.provenance.result_record`:
package versions, Python, platform, git commit and dirty flag, code and config hashes).
The ``.npz`` bytes depend only on the arrays; the ``.json`` bytes only on the writer's record
and that provenance (no timestamps). Both are written to a temporary file in the same
folder and renamed, so a killed job never leaves a half-written result.
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import tempfile
import zipfile
from pathlib import Path

import numpy as np


def _atomic_write_bytes(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_bytes(path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (temporary file + rename)."""
    _atomic_write_bytes(Path(path), data)


def atomic_write_text(path, text: str) -> None:
    """Write ``text`` to ``path`` atomically (temporary file + rename)."""
    _atomic_write_bytes(Path(path), text.encode())


def git_commit(cwd=None) -> str:
    """The current git commit (with "-dirty" if the tree has changes), or "unknown"."""
    from .provenance import git_state

    commit, dirty = git_state(cwd)
    return commit + ("-dirty" if dirty else "")


def save_result(stem, arrays: dict, provenance: dict) -> None:
    """Write ``<stem>.npz`` and ``<stem>.json`` atomically.

    Parameters
    ----------
    stem : str or Path
        Path without suffix.
    arrays : dict of str -> array_like
        Numeric arrays only (no objects: the file is read with allow_pickle=False).
    provenance : dict
        JSON-serialisable record of the writer. Added: ``package_version`` and
        ``provenance`` (:func:`ssi.provenance.result_record`), whose ``config_sha256`` hashes
        the record's ``"config"`` entry (the config slice the writer used) when there is
        one, else the writer's whole record.
    """
    from .version import __version__
    from .provenance import result_record

    stem = Path(stem)
    section = provenance["config"] if "config" in provenance else provenance
    record = {"package_version": __version__, **provenance, "provenance": result_record(section)}
    _atomic_write_bytes(stem.with_suffix(".npz"), npz_bytes(arrays))
    atomic_write_text(stem.with_suffix(".json"), json.dumps(record, indent=2, sort_keys=True, default=_jsonable) + "\n")


def npz_bytes(arrays: dict) -> bytes:
    """A compressed ``.npz`` archive of ``arrays`` whose bytes depend only on the arrays.

    :func:`numpy.savez_compressed` stamps each member with the current time, so the same
    arrays saved twice differ. Here members are written in sorted name order with a fixed
    timestamp (1980-01-01, the earliest a zip file can hold); :func:`numpy.load` reads the
    result as usual.

    Parameters
    ----------
    arrays : dict of str -> array_like
        Numeric arrays (no objects: results are read with ``allow_pickle=False``).

    Returns
    -------
    bytes
    """
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(arrays):
            info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            member = io.BytesIO()
            np.lib.format.write_array(member, np.asarray(arrays[name]), allow_pickle=False)
            archive.writestr(info, member.getvalue())
    return buffer.getvalue()


def load_result(stem):
    """Read ``<stem>.npz`` and ``<stem>.json``: (dict of arrays, provenance dict)."""
    stem = Path(stem)
    with np.load(stem.with_suffix(".npz"), allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files}
    provenance = json.loads(stem.with_suffix(".json").read_text())
    return arrays, provenance


def sha256_file(path) -> str:
    """Hex SHA-256 of a file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _jsonable(value):
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, Path):
        return str(value)
    raise TypeError(f"not JSON-serialisable: {type(value).__name__}")
