#!/usr/bin/env python3
"""Speed of the compiled build against the pure Python build, and against a base revision.

    python scripts/compare_builds.py                 # base: b04800d, 3 runs of each
    python scripts/compare_builds.py --base main --runs 5 --workdir /tmp/builds

Installs this checkout twice with ``pip install`` into fresh venvs (compiled: mypyc;
pure: ``ALICE_ENGINE_PURE=1``) and the base revision once (pure), then runs
``alice-engine bench`` on the three, alternated (A B C A B C ...), and ``alice-engine
go perft N`` from the start position on the compiled and the pure build, alternated.
Prints the medians and the ratios with the issue's targets: bench compiled >= 3.0 x pure,
pure not slower than the base's pure build, perft compiled >= 3 x pure.

With ``--workdir`` the venvs are kept there and reused by the next run (delete the
directory after changing the code); without it they live in a temporary directory.
Machine load moves all figures together: compare ratios, not absolute speeds.
"""

from __future__ import annotations

import argparse
import os
import re
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
DEFAULT_BASE = "b04800d"  # main before the compiled build: "today's pure build"
DEFAULT_RUNS = 3  # runs of each command per build
DEFAULT_PERFT_DEPTH = 5  # go perft depth from the start position
BENCH_TARGET = 3.0  # bench: compiled / pure at least this (the issue aims for 5)
PERFT_TARGET = 3.0  # go perft: compiled / pure at least this
BASE_TARGET = 1.0  # bench: pure / base pure at least this ("not slower")


@dataclass
class Build:
    """One installed engine: a venv with ``alice-engine`` and what it measured."""

    name: str
    venv_dir: str
    bench_nps: list[int] = field(default_factory=list)
    bench_nodes: set[int] = field(default_factory=set)
    perft_seconds: list[float] = field(default_factory=list)

    @property
    def exe(self) -> str:
        return os.path.join(self.venv_dir, "bin", "alice-engine")

    def run(self, *args: str) -> str:
        done = subprocess.run([self.exe, *args], capture_output=True, text=True, check=True, cwd=self.venv_dir)
        return done.stdout


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
    out = build.run("bench")
    build.bench_nodes.add(number(out, "Nodes searched"))
    build.bench_nps.append(number(out, "Nodes/second"))


def perft(build: Build, depth: int) -> int:
    start = time.perf_counter()
    out = build.run("go", "perft", str(depth))
    build.perft_seconds.append(time.perf_counter() - start)
    return number(out, "Nodes searched")


def verdict(ratio: float, target: float) -> str:
    return f"{ratio:.2f} x (target >= {target:g}: {'met' if ratio >= target else 'NOT met'})"


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
        versions = {b.name: b.run("--version").strip() for b in (compiled, pure, base)}
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

    print()
    print(f"alice-engine bench, {args.runs} runs each, alternated; nodes/second:")
    for build in (compiled, pure, base):
        runs = " / ".join(str(n) for n in build.bench_nps)
        signature = ", ".join(str(n) for n in sorted(build.bench_nodes))
        print(f"  {build.name:<22} {runs}  median {statistics.median(build.bench_nps):,.0f}  (nodes {signature})")
    print(f"go perft {args.perft_depth} (start position, {sorted(perft_nodes)} nodes), seconds:")
    for build in (compiled, pure):
        runs = " / ".join(f"{s:.2f}" for s in build.perft_seconds)
        print(f"  {build.name:<22} {runs}  median {statistics.median(build.perft_seconds):.2f}")
    bench_ratio = statistics.median(compiled.bench_nps) / statistics.median(pure.bench_nps)
    base_ratio = statistics.median(pure.bench_nps) / statistics.median(base.bench_nps)
    perft_ratio = statistics.median(pure.perft_seconds) / statistics.median(compiled.perft_seconds)
    print(f"bench compiled / pure:     {verdict(bench_ratio, BENCH_TARGET)}")
    print(f"bench pure / base pure:    {verdict(base_ratio, BASE_TARGET)}")
    print(f"perft compiled / pure:     {verdict(perft_ratio, PERFT_TARGET)}")
    same = compiled.bench_nodes == pure.bench_nodes and len(compiled.bench_nodes) == 1 and len(perft_nodes) == 1
    print(f"same bench signature and perft count in both builds: {'yes' if same else 'NO'}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
