#!/usr/bin/env python3
"""Speed of the compiled build against the pure Python build, and against a base revision.

    python scripts/compare_builds.py                 # base: 4bd7f18, 3 runs of each
    python scripts/compare_builds.py --base main --runs 5 --workdir /tmp/builds

Installs this checkout twice with ``pip install`` into fresh venvs (compiled: mypyc;
pure: ``ALICE_ENGINE_PURE=1``) and the base revision once (pure), then runs
``alice-engine bench`` on the three, alternated (A B C A B C ...), and ``alice-engine
go perft N`` from the start position on the compiled and the pure build, alternated.
Prints the medians and the ratios with the targets: bench compiled >= 8 x pure, pure not
slower than the base's pure build, perft compiled >= 3 x pure.

With ``--workdir`` the venvs are kept there and reused by the next run (delete the
directory after changing the code); without it they live in a temporary directory.
Each figure comes twice: by the wall clock (``bench`` prints nodes/second that way) and by
the CPU time of the engine's process, which other jobs on a shared machine hardly change.
Compare ratios, not absolute speeds.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import venv
from collections.abc import Sequence
from dataclasses import dataclass, field

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# ---------------------------------------------------------------- settings
DEFAULT_BASE = "4bd7f18"  # main before the allocation-free move loop (issue 18): "today's pure build"
DEFAULT_RUNS = 3  # runs of each command per build
DEFAULT_PERFT_DEPTH = 5  # go perft depth from the start position
BENCH_TARGET = 8.0  # bench: compiled / pure at least this (issue 18: as before it)
PERFT_TARGET = 3.0  # go perft: compiled / pure at least this
BASE_TARGET = 0.97  # bench: pure / base pure at least this ("not slower", within run-to-run noise)


@dataclass
class Build:
    """One installed engine: a venv with ``alice-engine`` and what it measured."""

    name: str
    venv_dir: str
    bench_nps: list[int] = field(default_factory=list)  # as printed (wall clock)
    bench_cpu_nps: list[float] = field(default_factory=list)  # nodes per CPU second of the process
    bench_nodes: set[int] = field(default_factory=set)
    perft_seconds: list[float] = field(default_factory=list)  # wall clock
    perft_cpu: list[float] = field(default_factory=list)  # CPU seconds of the process

    @property
    def exe(self) -> str:
        return os.path.join(self.venv_dir, "bin", "alice-engine")

    def run(self, *args: str) -> tuple[str, float]:
        """The command's output and the CPU seconds it used (other jobs on the machine do not count)."""
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run([self.exe, *args], capture_output=True, text=True, check=True, cwd=self.venv_dir)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return done.stdout, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def checkout_files(root: str, dest: str, rev: str | None) -> None:
    """The working tree of ``root`` (``rev`` None) or revision ``rev``, copied to ``dest``."""
    os.makedirs(dest)
    if rev is None:
        names = subprocess.run(
            ["git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            capture_output=True,
            check=True,
        ).stdout.split(b"\0")
        files = [name.decode() for name in names if name and os.path.isfile(os.path.join(root, name.decode()))]
        archive = subprocess.run(["tar", "-c", "-C", root, *files], capture_output=True, check=True).stdout
    else:
        archive = subprocess.run(["git", "-C", root, "archive", rev], capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", dest], input=archive, check=True)


def install(build: Build, source: str, pure: bool) -> float:
    """``pip install source`` into a fresh venv (skipped if it exists); the seconds it took."""
    if os.path.exists(build.exe):
        print(f"{build.name}: reusing {build.venv_dir}", flush=True)
        return 0.0
    venv.create(build.venv_dir, with_pip=True)
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "ALICE_ENGINE_PURE")}
    if pure:
        env["ALICE_ENGINE_PURE"] = "1"
    start = time.perf_counter()
    pip = os.path.join(build.venv_dir, "bin", "pip")
    subprocess.run([pip, "install", "--quiet", source], check=True, env=env, stdin=subprocess.DEVNULL)
    seconds = time.perf_counter() - start
    print(f"{build.name}: pip install took {seconds:.0f} s", flush=True)
    return seconds


def number(output: str, label: str) -> int:
    """The integer of the ``label: N`` line of an engine's output."""
    match = re.search(rf"^{label}: (\d+)$", output, re.M)
    if match is None:
        raise SystemExit(f"error: no '{label}:' line in:\n{output}")
    return int(match.group(1))


def bench(build: Build) -> None:
    out, cpu = build.run("bench")
    nodes = number(out, "Nodes searched")
    build.bench_nodes.add(nodes)
    build.bench_nps.append(number(out, "Nodes/second"))
    build.bench_cpu_nps.append(nodes / cpu)


def perft(build: Build, depth: int) -> int:
    start = time.perf_counter()
    out, cpu = build.run("go", "perft", str(depth))
    build.perft_seconds.append(time.perf_counter() - start)
    build.perft_cpu.append(cpu)
    return number(out, "Nodes searched")


def runs_line(name: str, values: Sequence[float], unit: str) -> str:
    """``name  v1 / v2 / v3  median m unit``: whole numbers for rates, two decimals for seconds."""
    digits = 0 if unit == "nodes/s" else 2
    shown = " / ".join(f"{v:,.{digits}f}" for v in values)
    return f"  {name:<22} {shown}  median {statistics.median(values):,.{digits}f} {unit}"


def verdict(label: str, wall: float, cpu: float, target: float, by_cpu: bool = True) -> str:
    """Met when both ratios reach ``target`` (``by_cpu`` False: the wall-clock ratio alone, for a
    figure whose CPU time is mostly the process's start-up)."""
    if not by_cpu:
        met = "met" if wall >= target else "NOT met"
        return f"{label:<24} {wall:.2f} x (CPU time, start-up included: {cpu:.2f} x)  target >= {target:g}: {met}"
    met = "met" if min(wall, cpu) >= target else "met on CPU time only" if cpu >= target else "NOT met"
    return f"{label:<24} {wall:.2f} x (CPU time: {cpu:.2f} x)  target >= {target:g}: {met}"


def ratio(faster: Sequence[float], slower: Sequence[float]) -> float:
    return statistics.median(faster) / statistics.median(slower)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default=DEFAULT_BASE, help=f"git revision of the base pure build ({DEFAULT_BASE})")
    parser.add_argument("--runs", type=int, default=DEFAULT_RUNS, help=f"runs per build ({DEFAULT_RUNS})")
    parser.add_argument("--perft-depth", type=int, default=DEFAULT_PERFT_DEPTH)
    parser.add_argument("--workdir", help="keep (and reuse) the venvs here")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="alice-builds-") as tmp:
        work = os.path.abspath(args.workdir) if args.workdir else tmp
        os.makedirs(work, exist_ok=True)
        compiled = Build("compiled", os.path.join(work, "venv-compiled"))
        pure = Build("pure", os.path.join(work, "venv-pure"))
        base = Build(f"base {args.base} (pure)", os.path.join(work, "venv-base"))
        source = os.path.join(tmp, "src")
        base_source = os.path.join(tmp, "base")
        checkout_files(ROOT, source, None)
        checkout_files(ROOT, base_source, args.base)
        install(compiled, source, pure=False)
        install(pure, source, pure=True)
        install(base, base_source, pure=True)
        versions = {b.name: b.run("--version")[0].strip() for b in (compiled, pure)}
        for name, line in versions.items():
            print(f"{name}: {line}")
        if "(compiled: mypyc)" not in versions[compiled.name] or "(pure Python)" not in versions[pure.name]:
            print("error: the builds are not compiled and pure: nothing to compare", file=sys.stderr)
            return 1
        for _ in range(args.runs):
            for build in (compiled, pure, base):
                bench(build)
        perft_nodes = set()
        for _ in range(args.runs):
            for build in (compiled, pure):
                perft_nodes.add(perft(build, args.perft_depth))

    print(f"\nalice-engine bench, {args.runs} runs each, alternated; nodes/second as printed:")
    for build in (compiled, pure, base):
        print(runs_line(build.name, build.bench_nps, "nodes/s") + f"  (nodes {sorted(build.bench_nodes)})")
    print("the same, nodes per CPU second of the process (start-up included):")
    for build in (compiled, pure, base):
        print(runs_line(build.name, build.bench_cpu_nps, "nodes/s"))
    print(f"go perft {args.perft_depth} from the start position ({sorted(perft_nodes)} nodes), wall seconds:")
    for build in (compiled, pure):
        print(runs_line(build.name, build.perft_seconds, "s"))
    print("the same, CPU seconds:")
    for build in (compiled, pure):
        print(runs_line(build.name, build.perft_cpu, "s"))
    print()
    bench_wall, bench_cpu = ratio(compiled.bench_nps, pure.bench_nps), ratio(compiled.bench_cpu_nps, pure.bench_cpu_nps)
    base_wall, base_cpu = ratio(pure.bench_nps, base.bench_nps), ratio(pure.bench_cpu_nps, base.bench_cpu_nps)
    perft_wall, perft_cpu = ratio(pure.perft_seconds, compiled.perft_seconds), ratio(pure.perft_cpu, compiled.perft_cpu)
    # The compiled bench searches for a few tens of ms: its CPU time is mostly start-up, so the
    # speed ratio is judged on the search's own nodes/s (as bench prints it).
    print(verdict("bench compiled / pure", bench_wall, bench_cpu, BENCH_TARGET, by_cpu=False))
    print(verdict("bench pure / base pure", base_wall, base_cpu, BASE_TARGET))
    print(verdict("perft compiled / pure", perft_wall, perft_cpu, PERFT_TARGET))
    same = compiled.bench_nodes == pure.bench_nodes and len(compiled.bench_nodes) == 1 and len(perft_nodes) == 1
    print(f"same bench signature and perft count in both builds: {'yes' if same else 'NO'}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
