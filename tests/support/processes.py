"""Processes a test started, found again by a tag on their command line (``scripted.py
--tag TEXT``), to check that none outlives the program that started it."""

from __future__ import annotations

import os
import time
from collections.abc import Callable


def tagged(tag: str) -> list[int]:
    """The live processes whose command line holds the word ``tag``."""
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                words = handle.read().split(b"\0")
            with open(f"/proc/{entry}/stat") as handle:
                state = handle.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if tag.encode() in words and state not in ("Z", "X"):
            pids.append(int(entry))
    return pids


def wait_for(check: Callable[[], object], seconds: float = 60.0) -> bool:
    """Whether ``check()`` became true within ``seconds`` (polled every 50 ms)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return bool(check())
