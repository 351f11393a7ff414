"""The skip-or-fail rule for tests that need a system program (tests/support/system_tools.py), and the
session's summary line for them (tests/conftest.py): a missing program skips with the package to
install, or fails under ALICE_REQUIRE_SYSTEM_TOOLS=1, so CI cannot pass by skipping."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from support.installed import TESTS
from support.system_tools import REQUIRE_ENV, SKIP_PREFIX, require_program, require_programs, skip_summary

# A test module run by a pytest of its own: two tests need programs that do not exist (their
# paths are filled in), one is skipped for another reason, one passes.
INNER_TESTS = """
import pytest
from support.system_tools import require_program

def test_needs_a_browser():
    require_program({browser!r}, "chromium")

def test_needs_a_display():
    require_program({display!r}, "xvfb")

def test_skipped_for_another_reason():
    pytest.skip("not on this platform")

def test_needs_nothing():
    pass
"""


def run_inner_pytest(tmp_path: Path, require: str | None) -> subprocess.CompletedProcess[str]:
    """Run INNER_TESTS in a fresh pytest with this project's conftest as a plugin (its summary
    hook), the programs pointed at files that do not exist, ``REQUIRE_ENV`` set to ``require``."""
    missing = tmp_path / "not-installed"
    inner = tmp_path / "test_inner.py"
    inner.write_text(INNER_TESTS.format(browser=str(missing / "chromium"), display="alice-no-such-Xvfb"))
    env = dict(os.environ)
    env.pop(REQUIRE_ENV, None)
    if require is not None:
        env[REQUIRE_ENV] = require
    env["PYTHONPATH"] = os.pathsep.join(p for p in (TESTS, env.get("PYTHONPATH", "")) if p)
    argv = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "conftest", "-rs", str(inner)]
    return subprocess.run(argv, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)


def test_a_missing_program_is_skipped_with_a_summary_line(tmp_path: Path) -> None:
    done = run_inner_pytest(tmp_path, require=None)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed, 3 skipped" in done.stdout
    not_installed = tmp_path / "not-installed" / "chromium"
    assert f"{SKIP_PREFIX} {not_installed}: install it with `apt-get install chromium`" in done.stdout
    assert f"{SKIP_PREFIX} alice-no-such-Xvfb: install it with `apt-get install xvfb`" in done.stdout
    summary = "2 tests skipped for missing system programs: install them with `apt-get install chromium xvfb`"
    assert summary in done.stdout.splitlines()


def test_a_missing_program_fails_when_system_tools_are_required(tmp_path: Path) -> None:
    done = run_inner_pytest(tmp_path, require="1")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "2 failed, 1 passed, 1 skipped" in done.stdout
    assert f"{SKIP_PREFIX} alice-no-such-Xvfb: install it with `apt-get install xvfb` ({REQUIRE_ENV} is set)" in (
        done.stdout
    )
    assert "skipped for missing system programs" not in done.stdout


def test_require_env_values(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Unset, "" and "0" skip; anything else fails."""
    missing = str(tmp_path / "chromium")
    for value, outcome in ((None, pytest.skip.Exception), ("", pytest.skip.Exception),
                           ("0", pytest.skip.Exception), ("1", pytest.fail.Exception),
                           ("yes", pytest.fail.Exception)):  # fmt: skip
        if value is None:
            monkeypatch.delenv(REQUIRE_ENV, raising=False)
        else:
            monkeypatch.setenv(REQUIRE_ENV, value)
        with pytest.raises(outcome, match="apt-get install chromium"):
            require_program(missing, "chromium")


def test_a_program_found_is_returned(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(REQUIRE_ENV, "1")
    assert require_program(sys.executable, "python3") == sys.executable
    program = tmp_path / "alice-test-program"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert require_program("alice-test-program", "alice-test") == str(program)


def test_a_file_that_cannot_be_run_is_missing(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(REQUIRE_ENV, raising=False)
    program = tmp_path / "chromium"
    program.write_text("#!/bin/sh\n")  # not executable
    with pytest.raises(pytest.skip.Exception, match=SKIP_PREFIX):
        require_program(str(program), "chromium")
    with pytest.raises(pytest.skip.Exception, match=SKIP_PREFIX):
        require_program(str(tmp_path), "chromium")  # a directory


def test_skip_summary_counts_only_missing_programs() -> None:
    browser = f"{SKIP_PREFIX} /usr/bin/chromium: install it with `apt-get install chromium`"
    xboard = f"{SKIP_PREFIX} /usr/games/xboard: install it with `apt-get install xboard`"
    assert skip_summary([]) is None
    assert skip_summary(["slow", "not on Windows"]) is None
    assert skip_summary([browser]) == (
        "1 test skipped for missing system programs: install them with `apt-get install chromium`"
    )
    assert skip_summary([xboard, browser, browser, "other"]) == (
        "3 tests skipped for missing system programs: install them with `apt-get install chromium xboard`"
    )


def test_several_missing_programs_are_named_in_one_reason(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(REQUIRE_ENV, raising=False)
    missing_a, missing_b = str(tmp_path / "no-xboard"), str(tmp_path / "no-xvfb")
    with pytest.raises(pytest.skip.Exception) as skipped:
        require_programs([((missing_a, sys.executable), "xboard"), ((missing_b,), "xvfb"), ((missing_a,), "x2")])
    reason = str(skipped.value)
    assert reason.startswith(f"{SKIP_PREFIX}s {missing_b}, {missing_a}:") and "`apt-get install xvfb x2`" in reason
    assert skip_summary([reason]) == "1 test skipped for missing system programs: install them with `apt-get install x2 xvfb`"
    assert require_programs([((missing_a, sys.executable), "xboard")]) == [sys.executable]  # the first found
    monkeypatch.setenv(REQUIRE_ENV, "1")
    with pytest.raises(pytest.fail.Exception, match="xvfb"):
        require_programs([((missing_b,), "xvfb")])
