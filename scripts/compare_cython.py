#!/usr/bin/env python3
"""Cython's pure-Python mode (the same ``.py`` with a typed ``.pxd``) against mypyc, on the
hottest module of the compiled build (issue 18). A measurement, not a build: Cython is no
dependency of the project, and the ``.pxd`` files live in ``scripts/cython/``.

    pip install 'cython>=3.3,<3.4'           # in the venv that builds (mypy, setuptools, librt too)
    python scripts/compare_cython.py                      # depth 7, callgrind, 5 timed runs
    python scripts/compare_cython.py --workdir /tmp/cy --runs 0 --no-callgrind

Builds three copies of this checkout's tracked files in place (``build_ext --inplace``):

* ``mypyc``: ``setup.py``'s ``COMPILED_MODULES``, all mypyc (the shipped build);
* ``cython``: the same, but ``search/evaluate.py`` (unchanged) compiled by Cython with
  ``scripts/cython/search/evaluate.pxd`` beside it, the rest by mypyc. Its calls to
  ``popcount``, ``bit_length``, ``piece_attacks`` and ``checking_squares`` go to the mypyc
  modules through the Python C API (a Cython module cannot call mypyc's C functions);
* ``cython-inlined``: Cython's best case for that module: the same evaluate, with the source of
  those four functions (and ``diag_attacks``, ``ortho_attacks``: the compiled build's branches)
  copied into it at build time, so that only ``evalcache -> evaluate`` and the reads of the
  ``Position`` crosses the boundary (``scripts/cython/search/evaluate_inlined.pxd``).

Then, for each: the node count of ``run_bench(16, depth)`` (must be the same: identical
trees), the instructions of the searches alone under ``valgrind --tool=callgrind`` (counted
only inside ``Searcher.search``: repeatable on a loaded machine), and the medians of
``run_bench``'s own search milliseconds over ``--runs`` alternated runs (wall clock: only
meaningful on a quiet machine; the load average is printed beside them).
"""

from __future__ import annotations

import argparse
import ast
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PXD_DIR = os.path.join(ROOT, "scripts", "cython")

# ---------------------------------------------------------------- settings
DEFAULT_DEPTH = 7  # run_bench depth (222,100 nodes at a0afdd8)
DEFAULT_RUNS = 5  # timed runs of each build (alternated)
BENCH_HASH_MB = 16  # run_bench's hash size
CYTHON_MODULE = "search/evaluate.py"  # the module measured (the largest inclusive cost in callgrind)
COLLECT_FUNCTION = "CPyDef_search___Searcher___search"  # callgrind counts only inside this (mypyc's C name)
NICE = 10  # the machine is shared: every build and run is niced
# Source copied into the inlined variant: (module file, function names), compiled-build branches.
INLINED_SOURCES: list[tuple[str, list[str]]] = [
    ("engine/bits.py", ["popcount", "bit_length"]),
    ("engine/tables.py", ["diag_attacks", "ortho_attacks"]),
    ("engine/movegen.py", ["piece_attacks", "checking_squares"]),
]
# Names the copied functions read, imported into the inlined module (typed in its .pxd).
INLINED_IMPORTS = (
    "from array import array\n"
    "from engine.bits import _PAIRS, _NIBBLE_PAIRS, _NIBBLES, _BYTE_SUM\n"
    "from engine.tables import (DIAG_UP_MASKS, DIAG_DOWN_MASKS, DIAG_UP_REACH, DIAG_DOWN_REACH, RANK_REACH,\n"
    "    FILE_REACH, KNIGHT_ATTACKS, PAWN_ATTACKS, PAWN, KING, Piece, Square)\n"
)
# The module's own tables as array('q'): a vec's buffer is read-only, and they are filled in place.
# (mypy checks the module when mypyc compiles its callers: typed as the pure build types it.)
INLINED_BUFFER = '''def i64_buffer(n: int) -> vec[i64]:
    """compare_cython.py: a writable buffer of n zeros (array('q'), as the pure build's i64_store)."""
    return array("q", [0]) * n  # type: ignore[return-value]'''

BUILD_DRIVER = '''"""Written by scripts/compare_cython.py: mypyc for MYPYC, Cython (pure-Python mode) for CYTHON."""
from setuptools import setup
from mypyc.build import mypycify

MYPYC = {mypyc!r}
CYTHON = {cython!r}
extensions = list(mypycify(["--always-true=COMPILED", *MYPYC], opt_level="3"))
if CYTHON:
    from Cython.Build import cythonize

    directives = {{"language_level": 3, "annotation_typing": False, "boundscheck": False, "wraparound": False}}
    extensions += cythonize(CYTHON, compiler_directives=directives, quiet=True)
setup(ext_modules=extensions)
'''


@dataclass
class Variant:
    """One in-place build of the checkout and what it measured."""

    name: str
    cython: list[str]  # modules compiled by Cython instead of mypyc
    pxd: str  # the .pxd (under scripts/cython/) copied beside the Cython module
    inline: bool = False  # copy the callees' source into the Cython module
    directory: str = ""
    nodes: set[int] = field(default_factory=set)
    ms: list[int] = field(default_factory=list)
    instructions: int = 0


def compiled_modules() -> list[str]:
    """``COMPILED_MODULES`` of ``setup.py`` (read, not imported: importing it runs setup())."""
    with open(os.path.join(ROOT, "setup.py")) as f:
        tree = ast.parse(f.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "COMPILED_MODULES" for t in node.targets
        ):
            value = ast.literal_eval(node.value)
            return [str(v) for v in value]
    raise SystemExit("setup.py has no COMPILED_MODULES")


def function_sources(path: str, names: list[str]) -> str:
    """The source of the named top-level functions of ``path``; inside ``if COMPILED:`` the
    compiled branch's (the first definition found, walking the module in order)."""
    with open(path) as f:
        text = f.read()
    found: dict[str, str] = {}
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.FunctionDef) and node.name in names and node.name not in found:
            segment = ast.get_source_segment(text, node) or ""
            indent = node.col_offset
            first, *rest = segment.splitlines()  # the first line starts at the def already
            found[node.name] = "\n".join([first, *(line[indent:] for line in rest)])
    missing = [n for n in names if n not in found]
    if missing:
        raise SystemExit(f"{path}: no function {missing}")
    return "\n\n\n".join(found[n] for n in names)


def inline_callees(directory: str, module: str) -> None:
    """Rewrite ``module`` in ``directory``: its imports of the callees dropped, their source
    pasted in after the imports (see the module docstring: ``cython-inlined``)."""
    path = os.path.join(directory, module)
    with open(path) as f:
        text = f.read()
    text = text.replace(
        "from engine.bits import BB_ALL, Bitboard, bit_length, i64_buffer, popcount\n",
        "from engine.bits import BB_ALL, Bitboard\n" + INLINED_IMPORTS,
    )
    text = text.replace("from engine.movegen import checking_squares, piece_attacks\n", "")
    sources = [function_sources(os.path.join(directory, m), names) for m, names in INLINED_SOURCES]
    pasted = "\n\n\n".join([INLINED_BUFFER, *sources])
    marker = "\n# ---------------------------------------------------------------- weights\n"
    if marker not in text or "popcount" in text.split(marker)[0].split("import")[-1]:
        raise SystemExit(f"{module} changed: update compare_cython.inline_callees")
    text = text.replace(marker, "\n\n" + pasted + "\n\n" + marker, 1)
    with open(path, "w") as f:
        f.write(text)


def copy_checkout(dest: str) -> None:
    """The tracked files of this checkout (as they are on disk) into ``dest``."""
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True, capture_output=True).stdout
    for rel in files.decode().split("\0"):
        if not rel or not os.path.isfile(os.path.join(ROOT, rel)):
            continue
        target = os.path.join(dest, rel)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy2(os.path.join(ROOT, rel), target)


def build(variant: Variant, workdir: str) -> None:
    """Copy the checkout to ``workdir/<name>`` and build it in place (kept if already built)."""
    variant.directory = os.path.join(workdir, variant.name)
    stamp = os.path.join(variant.directory, ".built")
    if os.path.exists(stamp):
        print(f"{variant.name}: reusing {variant.directory}")
        return
    shutil.rmtree(variant.directory, ignore_errors=True)
    copy_checkout(variant.directory)
    for module in variant.cython:
        shutil.copy(os.path.join(PXD_DIR, variant.pxd), os.path.join(variant.directory, module[:-3] + ".pxd"))
        if variant.inline:
            inline_callees(variant.directory, module)
    mypyc = [m for m in compiled_modules() if m not in variant.cython]
    with open(os.path.join(variant.directory, "build_variant.py"), "w") as f:
        f.write(BUILD_DRIVER.format(mypyc=mypyc, cython=variant.cython))
    print(f"{variant.name}: building in {variant.directory} (mypyc: {len(mypyc)} modules, Cython: {variant.cython})")
    log = os.path.join(workdir, f"{variant.name}-build.log")
    with open(log, "w") as out:
        code = subprocess.run(
            ["nice", "-n", str(NICE), sys.executable, "build_variant.py", "build_ext", "--inplace"],
            cwd=variant.directory,
            stdout=out,
            stderr=subprocess.STDOUT,
        ).returncode
    if code:
        raise SystemExit(f"{variant.name}: build failed, see {log}")
    check_compiled(variant)
    open(stamp, "w").close()


def run_python(variant: Variant, code: str, prefix: list[str] | None = None) -> str:
    """Run ``python -c code`` on the variant's in-place build (its directory first on the path)."""
    env = dict(os.environ, PYTHONPATH=variant.directory)
    command = ["nice", "-n", str(NICE), *(prefix or []), sys.executable, "-c", code]
    result = subprocess.run(command, cwd=variant.directory, env=env, check=True, capture_output=True, text=True)
    return result.stdout + result.stderr


def check_compiled(variant: Variant) -> None:
    """Every module is an extension of this build, and Cython's module is Cython's."""
    modules = [m[:-3].replace("/", ".") for m in compiled_modules()]
    code = (
        "import importlib, engine.bits\n"
        f"for name in {modules!r}:\n"
        "    f = importlib.import_module(name).__file__\n"
        f"    assert f.startswith({variant.directory!r}) and f.endswith('.so'), f\n"
        "assert engine.bits.COMPILED\n"
        "import search.evaluate as ev\n"
        "print(type(ev.evaluate).__name__)\n"
    )
    kind = run_python(variant, code).strip()
    expected = "cython_function_or_method" if CYTHON_MODULE in variant.cython else "builtin_function_or_method"
    if kind != expected:
        raise SystemExit(f"{variant.name}: search.evaluate.evaluate is a {kind}, not a {expected}")


BENCH_CODE = "from search.bench import run_bench; print('BENCH', *run_bench({mb}, depth={depth}))"


def bench(variant: Variant, depth: int) -> None:
    """One timed ``run_bench``: its node count and search milliseconds."""
    out = run_python(variant, BENCH_CODE.format(mb=BENCH_HASH_MB, depth=depth))
    match = re.search(r"BENCH (\d+) (\d+)", out)
    if not match:
        raise SystemExit(f"{variant.name}: no bench result in {out!r}")
    variant.nodes.add(int(match.group(1)))
    variant.ms.append(int(match.group(2)))


def callgrind(variant: Variant, depth: int, workdir: str) -> None:
    """Instructions executed inside ``Searcher.search`` during ``run_bench`` (callgrind)."""
    out_file = os.path.join(workdir, f"callgrind.{variant.name}.out")
    prefix = ["valgrind", "--tool=callgrind", f"--toggle-collect={COLLECT_FUNCTION}", f"--callgrind-out-file={out_file}"]
    out = run_python(variant, BENCH_CODE.format(mb=BENCH_HASH_MB, depth=depth), prefix)
    match = re.search(r"BENCH (\d+) (\d+)", out)
    if match:
        variant.nodes.add(int(match.group(1)))
    with open(out_file) as f:
        totals = re.search(r"^(?:summary|totals): (\d+)", f.read(), re.M)
    if not totals:
        raise SystemExit(f"{variant.name}: no totals in {out_file}")
    variant.instructions = int(totals.group(1))


def report(variants: list[Variant], depth: int) -> None:
    """The figures, the mypyc build first (the reference of the ratios)."""
    base = variants[0]
    print(f"\nrun_bench({BENCH_HASH_MB}, depth={depth}); load average {os.getloadavg()[0]:.2f} (1 min)")
    print(f"{'build':16} {'nodes':>9} {'instructions':>15} {'ratio':>6} {'median ms':>10} {'ratio':>6}")
    for v in variants:
        nodes = ",".join(str(n) for n in sorted(v.nodes))
        ins = f"{v.instructions:,}" if v.instructions else "-"
        ins_ratio = f"{v.instructions / base.instructions:.3f}" if v.instructions and base.instructions else "-"
        ms = statistics.median(v.ms) if v.ms else 0
        base_ms = statistics.median(base.ms) if base.ms else 0
        ms_ratio = f"{ms / base_ms:.3f}" if ms and base_ms else "-"
        print(f"{v.name:16} {nodes:>9} {ins:>15} {ins_ratio:>6} {ms or '-':>10} {ms_ratio:>6}")
    if len({frozenset(v.nodes) for v in variants}) != 1 or any(len(v.nodes) != 1 for v in variants):
        raise SystemExit("the builds searched different trees: the figures do not compare")
    print("ratios: this build / mypyc (below 1: faster than mypyc)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workdir", help="keep the builds here and reuse them (default: a temporary directory)")
    parser.add_argument("--depth", type=int, default=DEFAULT_DEPTH, help="run_bench depth")
    parser.add_argument("--runs", type=int, default=DEFAULT_RUNS, help="timed runs of each build (0: none)")
    parser.add_argument("--no-callgrind", action="store_true", help="skip the instruction counts")
    parser.add_argument("--only", nargs="*", help="variants to measure (default: all)")
    args = parser.parse_args(argv)
    variants = [
        Variant("mypyc", [], ""),
        Variant("cython", [CYTHON_MODULE], "search/evaluate.pxd"),
        Variant("cython-inlined", [CYTHON_MODULE], "search/evaluate_inlined.pxd", inline=True),
    ]
    if args.only:
        variants = [v for v in variants if v.name in args.only or v.name == "mypyc"]
    workdir = args.workdir or tempfile.mkdtemp(prefix="compare-cython-")
    os.makedirs(workdir, exist_ok=True)
    for v in variants:
        build(v, workdir)
    for v in variants:
        bench(v, args.depth)  # the node count, and a warm-up (not timed)
        v.ms.clear()
    for _ in range(args.runs):
        for v in variants:
            bench(v, args.depth)
    if not args.no_callgrind:
        for v in variants:
            callgrind(v, args.depth, workdir)
    report(variants, args.depth)


if __name__ == "__main__":
    main()
