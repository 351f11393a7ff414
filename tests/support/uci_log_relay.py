"""Start a UCI engine and copy every line a GUI sends it to a file, to check what a GUI sent.

    python uci_log_relay.py LOG CWD ENGINE [ARGS...]

The engine writes straight to this process's stdout; this process exits with the engine's
status as soon as the engine exits (a GUI waits for that after ``quit``).
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from typing import IO


def relay(source: IO[str], sink: IO[str], log_path: str) -> None:
    """Copy ``source`` to ``sink`` line by line, appending each line to ``log_path``."""
    with open(log_path, "a") as log:
        for line in source:
            log.write(line)
            log.flush()
            try:
                sink.write(line)
                sink.flush()
            except (BrokenPipeError, ValueError):  # the engine has exited
                return
    try:
        sink.close()
    except (BrokenPipeError, ValueError):
        pass


def main(argv: list[str]) -> None:
    log_path, cwd, command = argv[0], argv[1], argv[2:]
    child = subprocess.Popen(command, stdin=subprocess.PIPE, cwd=cwd, text=True)
    assert child.stdin is not None
    threading.Thread(target=relay, args=(sys.stdin, child.stdin, log_path), daemon=True).start()
    os._exit(child.wait())


if __name__ == "__main__":
    main(sys.argv[1:])
