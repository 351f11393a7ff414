"""Shared test setup: test the installed engine when there is one, else the checkout.

After ``pip install .`` (compiled or pure, not editable) the checkout's sources are kept
off ``sys.path`` and ``PYTHONPATH`` so every test, and every engine process a test
starts, runs the installed build. Otherwise the checkout is put first on both.

At the end of a session one line counts the tests skipped because a system program
(Chromium, XBoard, Xvfb) is missing and names the Debian packages to install
(``tests/support/system_tools.py``).
"""

from __future__ import annotations

import os
import sys

import pytest

import support.system_tools as system_tools
from support.installed import INSTALLED, ROOT, SCRIPTS, in_checkout
from support.tablebases import kqk_dir, kqk_run  # noqa: F401 (the KQK table, generated once a session)


def _pythonpath(entries: list[str]) -> str:
    return os.pathsep.join(entry for entry in entries if entry)


_env_path = os.environ.get("PYTHONPATH", "").split(os.pathsep)
if INSTALLED:
    sys.path[:] = [path for path in sys.path if not in_checkout(path)]
    sys.path.append(SCRIPTS)  # make_openings, selfplay; the installed alice_match comes first
    os.environ["PYTHONPATH"] = _pythonpath([path for path in _env_path if path and not in_checkout(path)])
    # Bind the packages to the installed copy now: a script module imported later may put
    # the checkout on sys.path.
    import engine  # noqa: F401
    import search  # noqa: F401
    import uci  # noqa: F401
else:
    for path in (ROOT, SCRIPTS):
        if path not in sys.path:
            sys.path.insert(0, path)
    os.environ["PYTHONPATH"] = _pythonpath([ROOT, SCRIPTS, *_env_path])


# Test modules that also run on the pure Python build in CI (`pytest -m pure_build`): the rules,
# perft, the differential test, the search and mate search, staged generation, memory and keys,
# static exchange evaluation, slow parts included.
PURE_BUILD_MODULES = frozenset(
    {
        "test_rules.py",
        "test_perft.py",
        "test_differential.py",
        "test_differential_second_half.py",  # the other half of the seeds (two files: two workers)
        "test_search.py",
        "test_mate.py",
        "test_movepick.py",  # staged generation yields exactly the legal moves in both builds
        "test_conthist.py",  # continuation and capture history: keys, rewards, bounds, the picker's order
        "test_memory.py",  # Hash bounds memory; no allocation held per node (tracemalloc: pure build)
        "test_keys.py",  # keys and the incremental piece-square sum
        "test_see.py",  # static exchange evaluation against a brute-force exchange search
        "test_singular.py",  # the singular extension switched on (the pure build patches the switch)
        "test_pruning.py",  # LMP, late futility and cut nodes against their old reach (the pure build patches them)
        "test_tt.py",  # replacement in buckets, the same-key rule
        "test_sharedtt.py",  # the shared table: the pure build's memoryview, and its arrays under a native window
        "test_timeman.py",  # the time plans
        "test_tune.py",  # the evaluation fitter patches the weights: pure build only
    }
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the tests of ``PURE_BUILD_MODULES`` ``pure_build``."""
    for item in items:
        if item.path.name in PURE_BUILD_MODULES:
            item.add_marker(pytest.mark.pure_build)


def _skip_reason(report: pytest.TestReport | pytest.CollectReport) -> str:
    """The reason a skipped test (or module) gave: its ``longrepr`` is (path, line, "Skipped: ...")."""
    longrepr = report.longrepr
    message = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
    return message.removeprefix("Skipped: ")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """How many tests were skipped for a missing system program, and which packages to install."""
    line = system_tools.skip_summary(_skip_reason(report) for report in terminalreporter.stats.get("skipped", []))
    if line:
        terminalreporter.write_line(line, yellow=True)
