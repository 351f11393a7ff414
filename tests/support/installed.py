"""Which copy of the engine the tests exercise, and how to start it as a process.

After a non-editable ``pip install .`` (compiled or pure) the tests import and start the
*installed* package, so CI tests what users get; with nothing installed, or an editable
install, they use the checkout's sources. ``conftest.py`` arranges ``sys.path`` and
``PYTHONPATH`` accordingly, before any test imports ``engine``.
"""

from __future__ import annotations

import os
import shutil
import signal
import sys
from importlib.machinery import PathFinder

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPTS = os.path.join(ROOT, "scripts")
TESTS = os.path.join(ROOT, "tests")


def in_checkout(path: str) -> bool:
    """``path`` (a ``sys.path`` entry; ``""`` is the working directory) is the checkout's root."""
    return os.path.realpath(path or os.getcwd()) == os.path.realpath(ROOT)


def installed_engine() -> str | None:
    """Where ``engine`` is importable from outside the checkout (site-packages), else ``None``."""
    spec = PathFinder.find_spec("engine", [p for p in sys.path if not in_checkout(p)])
    if spec is None or not spec.submodule_search_locations:
        return None
    location = os.path.realpath(next(iter(spec.submodule_search_locations)))
    return None if location == os.path.realpath(os.path.join(ROOT, "engine")) else location


INSTALLED = installed_engine() is not None  # decided once, before conftest changes sys.path

# Working directory of engine processes: ``python -m uci`` imports from it first, so an
# installed build is started away from the checkout's sources.
CHILD_CWD = TESTS if INSTALLED else ROOT


def engine_command() -> list[str]:
    """The installed ``alice-engine`` next to this interpreter, else ``python -m uci``.

    Start it with ``cwd=CHILD_CWD``.
    """
    script = shutil.which("alice-engine", path=os.path.dirname(sys.executable))
    return [script] if INSTALLED and script else [sys.executable, "-m", "uci"]


def pure_sources(into: str) -> dict[str, str]:
    """Copy the checkout's Python sources of ``engine``, ``search`` and ``uci`` into the folder
    ``into`` (no extension module, even if the checkout was built in place) and return an
    environment whose Python imports them (run it with ``cwd=into``)."""
    for package in ("engine", "search", "uci"):
        target = os.path.join(into, package)
        os.makedirs(target, exist_ok=True)
        for name in os.listdir(os.path.join(ROOT, package)):
            if name.endswith(".py"):
                shutil.copyfile(os.path.join(ROOT, package, name), os.path.join(target, name))
    env = dict(os.environ)
    env["PYTHONPATH"] = into
    return env


def default_sigint() -> None:
    """``preexec_fn`` of a child process: Ctrl-C (SIGINT) acts as in a terminal, even when the
    tests run in the background (a shell's background jobs start with SIGINT ignored, and
    their children inherit that)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
