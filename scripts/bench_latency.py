#!/usr/bin/env python3
"""How fast the engine answers while it searches: ``stop`` -> ``bestmove`` during ``go infinite``,
and ``isready`` -> ``readyok`` during a search. The tests only assert generous bounds (a
loaded machine); this reports the real figures.

    python scripts/bench_latency.py [--trials N] [--engine CMD] [--threads N]

Prints the median and the maximum of each latency in milliseconds.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import statistics
import sys
import time

from alice_match.uci_process import EngineConfig, UciProcess

START_TIMEOUT = 30.0  # seconds for the handshake
ANSWER_TIMEOUT = 10.0  # seconds for a readyok or a bestmove: far beyond any latency measured


def default_engine() -> list[str]:
    """The ``alice-engine`` next to this interpreter, else ``python -m uci``."""
    exe = shutil.which("alice-engine", path=os.path.dirname(sys.executable))
    return [exe] if exe else [sys.executable, "-m", "uci"]


def measure(command: list[str], trials: int, cwd: str | None = None, threads: int = 1) -> dict[str, list[float]]:
    """The latencies in seconds, from the moment the command was flushed to the moment its
    answer was read (both stamped by the client, ``alice_match.uci_process``); the engine
    runs in ``cwd`` with the ``Threads`` option at ``threads`` (where it has it)."""
    eng = UciProcess(EngineConfig.from_argv(command, dir=cwd))
    eng.start(START_TIMEOUT)
    eng.set_if_offered("Threads", str(threads))
    eng.isready(START_TIMEOUT)
    stops: list[float] = []
    readies: list[float] = []
    try:
        for i in range(trials):
            eng.position(None, ["e2e4", "e7e5"])
            eng.isready(ANSWER_TIMEOUT)
            eng.send("go infinite")
            time.sleep(0.05 + 0.3 * (i % 4) / 3)  # stop early and late in the search
            sent = eng.send("isready")
            readies.append(eng.wait_for("readyok", ANSWER_TIMEOUT)[0] - sent)
            sent = eng.send("stop")
            stops.append(eng.wait_for("bestmove", ANSWER_TIMEOUT)[0] - sent)
    finally:
        eng.quit()
    return {"stop -> bestmove": stops, "isready -> readyok during search": readies}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=20, help="searches to interrupt (default 20)")
    parser.add_argument("--engine", help="engine command (default: alice-engine of this environment)")
    parser.add_argument("--threads", type=int, default=1, help="the Threads option (default 1)")
    args = parser.parse_args(argv)
    command = shlex.split(args.engine) if args.engine else default_engine()
    for name, values in measure(command, args.trials, threads=args.threads).items():
        ms = [v * 1000 for v in values]
        print(f"{name}: median {statistics.median(ms):.1f} ms, max {max(ms):.1f} ms over {len(ms)} searches")
    return 0


if __name__ == "__main__":
    sys.exit(main())
