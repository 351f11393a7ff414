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
import subprocess
import sys
import time


def default_engine() -> list[str]:
    """The ``alice-engine`` next to this interpreter, else ``python -m uci``."""
    exe = shutil.which("alice-engine", path=os.path.dirname(sys.executable))
    return [exe] if exe else [sys.executable, "-m", "uci"]


class Engine:
    """A UCI engine process read line by line (blocking reads: this is a measurement, not a test)."""

    def __init__(self, command: list[str]) -> None:
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(self, line: str) -> float:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        return time.perf_counter()

    def until(self, prefix: str) -> float:
        """Read until a line starting with ``prefix``; the time it arrived."""
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if line.startswith(prefix):
                return time.perf_counter()
        raise RuntimeError(f"engine ended before {prefix!r}")

    def close(self) -> None:
        self.send("quit")
        self.proc.wait(10)


def measure(command: list[str], trials: int, threads: int = 1) -> dict[str, list[float]]:
    eng = Engine(command)
    eng.send("uci")
    eng.until("uciok")
    eng.send(f"setoption name Threads value {threads}")
    stops: list[float] = []
    readies: list[float] = []
    for i in range(trials):
        eng.send("position startpos moves e2e4 e7e5")
        eng.send("isready")
        eng.until("readyok")
        eng.send("go infinite")
        time.sleep(0.05 + 0.3 * (i % 4) / 3)  # stop early and late in the search
        sent = eng.send("isready")
        readies.append(eng.until("readyok") - sent)
        sent = eng.send("stop")
        stops.append(eng.until("bestmove") - sent)
    eng.close()
    return {"stop -> bestmove": stops, "isready -> readyok during search": readies}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=20, help="searches to interrupt (default 20)")
    parser.add_argument("--engine", help="engine command (default: alice-engine of this environment)")
    parser.add_argument("--threads", type=int, default=1, help="the Threads option (default 1)")
    args = parser.parse_args(argv)
    command = shlex.split(args.engine) if args.engine else default_engine()
    for name, values in measure(command, args.trials, args.threads).items():
        ms = [v * 1000 for v in values]
        print(f"{name}: median {statistics.median(ms):.1f} ms, max {max(ms):.1f} ms over {len(ms)} searches")
    return 0


if __name__ == "__main__":
    sys.exit(main())
