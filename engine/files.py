"""Writing a file so that no reader ever sees half of it (tables, tuner states, match reports).

>>> import os, tempfile
>>> folder = tempfile.mkdtemp()
>>> path = os.path.join(folder, "state.json")
>>> write_atomically(path, b"{}\\n")
>>> open(path, "rb").read(), sorted(os.listdir(folder))  # no temporary file is left
(b'{}\\n', ['state.json'])
"""

from __future__ import annotations

import os
import tempfile


def write_atomically(path: str, data: bytes, mode: int | None = None) -> None:
    """Write ``data`` to a temporary file beside ``path``, flush it to the disk, then rename it
    over ``path`` (``os.replace``): a reader, or a crash, sees the old file or the new one.
    ``mode``: the file's permissions (a temporary file starts readable by its owner only)."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
