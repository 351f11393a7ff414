"""Processes a test started, found again by a tag on their command line (``scripted.py
--tag TEXT``), to check that none outlives the program that started it."""

from __future__ import annotations

import os
import time
from collections.abc import Callable


def _live() -> list[tuple[int, list[bytes], int]]:
    """Every live (not zombie) process: its id, its command line's words, its parent's id."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                words = handle.read().split(b"\0")
            with open(f"/proc/{entry}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] not in ("Z", "X"):
            found.append((int(entry), words, int(fields[1])))
    return found


def tagged(tag: str) -> list[int]:
    """The live processes whose command line holds the word ``tag``."""
    return [pid for pid, words, _ in _live() if tag.encode() in words]


def children(parent: int) -> list[int]:
    """The live processes whose parent is ``parent``."""
    return [pid for pid, _, ppid in _live() if ppid == parent]


def alive(pid: int) -> bool:
    """Whether ``pid`` is a live (not zombie) process."""
    return any(found == pid for found, _, _ in _live())


def wait_for(check: Callable[[], object], seconds: float = 60.0) -> bool:
    """Whether ``check()`` became true within ``seconds`` (polled every 50 ms)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return bool(check())
