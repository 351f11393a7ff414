"""The compiled (mypyc) and the pure Python build: which one runs, that both search the
same tree, and that a broken C compiler still gives a working pure install."""

from __future__ import annotations

import ast
import fcntl
import importlib
import importlib.resources
import os
import re
import select
import shutil
import subprocess
import sys
import termios
import time
import venv
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from engine.build import COMPILED, PURE, build_name, version
from support.installed import CHILD_CWD, INSTALLED, ROOT, engine_command, pure_sources
from test_bench import BENCH_SIGNATURE

EXPECT_ENV = "ALICE_EXPECT_BUILD"  # set by .ci/run: "compiled" or "pure"
EXPECTED = {"compiled": COMPILED, "pure": PURE}
VERSION_LINE = re.compile(r"^alice-engine (\S+) \((compiled: mypyc|pure Python)\)$")
FALLBACK_WARNING = re.compile(r"alice-engine: .*installing the pure Python build")


def run(argv: list[str], cwd: str, env: dict[str, str] | None = None, timeout: float = 300) -> str:
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stderr == "", done.stderr
    return done.stdout


def compiled_module_names() -> list[str]:
    """``COMPILED_MODULES`` of setup.py, as module names (``engine.position``, ...)."""
    tree = ast.parse((Path(ROOT) / "setup.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "COMPILED_MODULES":
            paths = ast.literal_eval(node.value)
            return [path.removesuffix(".py").replace("/", ".") for path in paths]
    raise AssertionError("setup.py has no COMPILED_MODULES")


def is_extension(module: str) -> bool:
    return (importlib.import_module(module).__file__ or "").endswith(tuple(EXTENSION_SUFFIXES))


def nodes_searched(output: str) -> int:
    lines = [line for line in output.splitlines() if line.startswith("Nodes searched: ")]
    assert len(lines) == 1, output
    return int(lines[0].split(": ")[1])


def test_the_build_is_the_one_ci_meant() -> None:
    wanted = os.environ.get(EXPECT_ENV)
    if wanted:
        assert wanted in EXPECTED, f"{EXPECT_ENV} must be one of {sorted(EXPECTED)}, not {wanted!r}"
        assert INSTALLED, "CI means the installed package, but the tests import the checkout"
        assert build_name() == EXPECTED[wanted]
    elif not INSTALLED:
        # The checkout's sources: pure Python, unless built in place (setup.py build_ext --inplace).
        built_here = any(name.endswith(tuple(EXTENSION_SUFFIXES)) for name in os.listdir(os.path.join(ROOT, "engine")))
        assert build_name() == (COMPILED if built_here else PURE)
    # All hot modules are compiled together, or none is.
    compiled = build_name() == COMPILED
    assert {module: is_extension(module) for module in compiled_module_names()} == dict.fromkeys(
        compiled_module_names(), compiled
    )
    assert not is_extension("engine.board") and not is_extension("uci.protocol")


def test_the_packages_ship_py_typed() -> None:
    """PEP 561: every package is marked typed (package data), so mypy reads ``AliceBoard``'s hints."""
    for package in ("engine", "search", "uci", "gui", "problems", "alice_match"):
        assert importlib.resources.files(package).joinpath("py.typed").is_file(), package


def test_version_names_the_build() -> None:
    match = VERSION_LINE.match(run([*engine_command(), "--version"], CHILD_CWD).strip())
    assert match, "bad --version line"
    assert match.group(1) == version() and match.group(2) == build_name()
    if INSTALLED:
        assert re.match(r"^\d+\.\d+\.\d+", version()), version()
    answer = subprocess.run(
        engine_command(), cwd=CHILD_CWD, input="uci\nquit\n", capture_output=True, text=True, timeout=30
    ).stdout.splitlines()
    assert f"id name Alice Engine {version()} ({build_name()})" in answer


def test_both_builds_search_the_same_tree(tmp_path: Path) -> None:
    """``alice-engine bench`` prints the same signature in the installed build and from the sources."""
    installed = run([*engine_command(), "bench"], CHILD_CWD)
    assert nodes_searched(installed) == BENCH_SIGNATURE
    sources = pure_sources(str(tmp_path))
    assert run([sys.executable, "-m", "uci", "--version"], str(tmp_path), sources).strip().endswith(f"({PURE})")
    assert nodes_searched(run([sys.executable, "-m", "uci", "bench"], str(tmp_path), sources)) == BENCH_SIGNATURE


def run_in_terminal(argv: list[str], env: dict[str, str], timeout: float) -> tuple[int, str]:
    """Run ``argv`` with a pseudo-terminal as its controlling terminal, as at a user's shell."""
    master, slave = os.openpty()

    def take_terminal() -> None:
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    proc = subprocess.Popen(
        argv, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True, preexec_fn=take_terminal
    )
    os.close(slave)
    chunks: list[bytes] = []
    deadline = time.monotonic() + timeout
    try:
        while True:
            ready, _, _ = select.select([master], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                proc.kill()
                raise AssertionError(f"{argv} did not finish in {timeout} s")
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: the terminal has no writer left
                break
            if not data:
                break
            chunks.append(data)
    finally:
        os.close(master)
    return proc.wait(timeout=30), b"".join(chunks).decode("utf-8", "replace")


@pytest.mark.slow
def test_a_broken_compiler_gives_a_working_pure_install(tmp_path: Path) -> None:
    """``CC=false pip install .`` at a terminal: one warning line, then a working pure Python engine."""
    source = tmp_path / "src"
    shutil.copytree(
        ROOT, source, ignore=shutil.ignore_patterns(".git", ".venv*", "build", "*.egg-info", "__pycache__", ".*_cache", "*.so")
    )
    venv.create(tmp_path / "venv", with_pip=True)
    bin_dir = tmp_path / "venv" / "bin"
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "ALICE_ENGINE_PURE")}
    env.update(CC="false", PIP_NO_INPUT="1", PIP_PROGRESS_BAR="off")
    code, output = run_in_terminal([str(bin_dir / "pip"), "install", str(source)], env, timeout=600)
    assert code == 0, output
    warnings = [line for line in output.splitlines() if FALLBACK_WARNING.search(line)]
    assert len(warnings) == 1, output
    assert "C compile failed" in warnings[0]
    engine = str(bin_dir / "alice-engine")
    assert run([engine, "--version"], str(tmp_path), env).strip().endswith(f"({PURE})")
    assert nodes_searched(run([engine, "go", "perft", "3"], str(tmp_path), env)) == 9384
    site = next((tmp_path / "venv" / "lib").glob("python*/site-packages"))
    built = [
        path.relative_to(site)
        for path in site.rglob("*")
        if path.name.endswith(tuple(EXTENSION_SUFFIXES))
        and (path.parts[len(site.parts)] in ("engine", "search") or "__mypyc" in path.name)
    ]
    assert built == []
