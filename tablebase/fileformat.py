"""The ``.atb`` file of one ending: a header line, then the values compressed with zlib.

    ALICE-TB 1 KQK dtm fifty-move-rule-ignored values=327680 crc32=1a2b3c4d\\n<zlib data>

The header names the format version, the ending, the metric (distance to mate in plies), that
the fifty-move rule is ignored, how many values follow and the CRC-32 of the uncompressed values.
A file is written to a temporary name in its directory and renamed into place (``os.replace``):
a file under its own name is always complete. Reading checks everything the header promises.
"""

from __future__ import annotations

import os
import zlib
from typing import Final

from engine.files import write_atomically

MAGIC: Final = "ALICE-TB"
VERSION: Final = 1  # the format (and index) version: bump it when either changes
METRIC: Final = "dtm"
RULE_NOTE: Final = "fifty-move-rule-ignored"
SUFFIX: Final = ".atb"
MAX_HEADER: Final = 200  # bytes: a longer first line is not a header
COMPRESSION: Final = 9  # zlib level (the tables compress to a few percent)


class TableFileError(Exception):
    """A table file that cannot be used: missing, truncated, or not what its header says."""


def file_name(name: str) -> str:
    """The file of ending ``name`` in a table directory."""
    return name + SUFFIX


def header(name: str, values: bytes | bytearray) -> str:
    """The header line (without the newline)."""
    crc = zlib.crc32(values)
    return f"{MAGIC} {VERSION} {name} {METRIC} {RULE_NOTE} values={len(values)} crc32={crc:08x}"


def write_table(directory: str, name: str, values: bytes | bytearray) -> str:
    """Write the table of ``name`` into ``directory`` atomically; returns its path."""
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, file_name(name))
    data = (header(name, values) + "\n").encode() + zlib.compress(bytes(values), COMPRESSION)
    write_atomically(path, data)
    return path


def _parse_header(line: bytes, name: str, size: int) -> int:
    """The CRC-32 the header promises, after checking the rest against ``name`` and ``size``."""
    try:
        words = line.decode("ascii").split()
    except UnicodeDecodeError:
        raise TableFileError("not a table file (bad header)") from None
    if len(words) != 7 or words[0] != MAGIC:
        raise TableFileError("not a table file (bad header)")
    if words[1] != str(VERSION):
        raise TableFileError(f"format version {words[1]}, this engine reads {VERSION}")
    if words[2] != name or words[3] != METRIC or words[4] != RULE_NOTE:
        raise TableFileError(f"the header is not that of {name} ({' '.join(words[2:5])})")
    if words[5] != f"values={size}":
        raise TableFileError(f"the header says {words[5]}, {name} has {size}")
    if not words[6].startswith("crc32=") or len(words[6]) != 14:
        raise TableFileError("bad checksum field in the header")
    try:
        return int(words[6][6:], 16)
    except ValueError:
        raise TableFileError("bad checksum field in the header") from None


def read_table(path: str, name: str, size: int) -> bytes:
    """The values of ending ``name`` (``size`` of them) from ``path``; ``TableFileError`` when
    the file is missing, truncated, of another ending or version, or fails its checksum."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as error:
        raise TableFileError(f"cannot read it ({error.strerror or error})") from None
    end = data.find(b"\n", 0, MAX_HEADER)
    if end < 0:
        raise TableFileError("not a table file (no header line)")
    crc = _parse_header(data[:end], name, size)
    try:
        values = zlib.decompress(data[end + 1 :])
    except zlib.error:
        raise TableFileError("the data is corrupt (it does not decompress)") from None
    if len(values) != size:
        raise TableFileError(f"the data holds {len(values)} values, not {size}")
    if zlib.crc32(values) != crc:
        raise TableFileError("checksum mismatch: the data is corrupt")
    return values


def is_complete(directory: str, name: str, size: int) -> bool:
    """Whether ``directory`` already holds a good table of ``name`` (resuming skips it)."""
    try:
        read_table(os.path.join(directory, file_name(name)), name, size)
    except TableFileError:
        return False
    return True
