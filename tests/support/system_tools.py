"""System programs some tests need but ``pip install '.[test]'`` cannot install.

The web board's browser tests need Debian's Chromium, the XBoard tests XBoard and Xvfb. On a
machine without them those tests are skipped with one reason that names the Debian package to
install; with ``ALICE_REQUIRE_SYSTEM_TOOLS=1`` (set by ``.ci/run``, which installs them) a
missing program fails the test instead, so CI can never pass by skipping.

    CHROMIUM = require_program("/usr/bin/chromium", "chromium")   # in a fixture or a test
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterable, Sequence

import pytest

REQUIRE_ENV = "ALICE_REQUIRE_SYSTEM_TOOLS"  # "1": a missing system program is a failure
SKIP_PREFIX = "missing system program"  # starts every skip reason given here (summary line)
_PACKAGE = re.compile(r"`apt-get install ([^`]+)`")  # the package named in such a reason


def required() -> bool:
    """``ALICE_REQUIRE_SYSTEM_TOOLS`` is set to anything but "" or "0"."""
    return os.environ.get(REQUIRE_ENV, "") not in ("", "0")


def find_program(program: str) -> str | None:
    """``program`` (a path, or a name looked up on ``PATH``) if it is an executable file, else None."""
    if os.sep in program:
        return program if os.path.isfile(program) and os.access(program, os.X_OK) else None
    return shutil.which(program)


def require_program(program: str, package: str) -> str:
    """The path of ``program``; if it is missing, skip the calling test (or fail it when
    ``ALICE_REQUIRE_SYSTEM_TOOLS`` is set), naming the Debian ``package`` that provides it."""
    return require_programs([((program,), package)])[0]


def require_programs(needs: Iterable[tuple[Sequence[str], str]]) -> list[str]:
    """For each ``(alternatives, package)``, the first of the paths or names ``alternatives``
    found; if any is missing, one skip (or failure) that names every missing package, so a
    user installs them all at once:

        xboard, xvfb = require_programs([(("/usr/games/xboard", "/usr/bin/xboard"), "xboard"),
                                         (("Xvfb",), "xvfb")])
    """
    found: list[str] = []
    missing: list[tuple[str, str]] = []
    for alternatives, package in needs:
        path = next((p for p in map(find_program, alternatives) if p is not None), None)
        if path is None:
            missing.append((alternatives[0], package))
        else:
            found.append(path)
    if not missing:
        return found
    programs = ", ".join(program for program, _ in missing)
    packages = " ".join(dict.fromkeys(package for _, package in missing))
    reason = f"{SKIP_PREFIX} {programs}: install it with `apt-get install {packages}`"
    if len(missing) > 1:
        reason = reason.replace("install it with", "install them with").replace(" program ", " programs ", 1)
    if required():
        pytest.fail(f"{reason} ({REQUIRE_ENV} is set)", pytrace=False)
    pytest.skip(reason)


def skip_summary(reasons: Iterable[str]) -> str | None:
    """The session summary line for the skip ``reasons`` that :func:`require_program` gave,
    or None when there were none (other skips do not count).

    >>> skip_summary([f"{SKIP_PREFIX} /usr/bin/chromium: install it with `apt-get install chromium`"] * 6
    ...              + ["not on Windows"])
    '6 tests skipped for missing system programs: install them with `apt-get install chromium`'
    """
    missing = [reason for reason in reasons if reason.startswith(SKIP_PREFIX)]
    if not missing:
        return None
    packages = sorted({name for reason in missing if (match := _PACKAGE.search(reason)) for name in match.group(1).split()})
    tests = "1 test" if len(missing) == 1 else f"{len(missing)} tests"
    return f"{tests} skipped for missing system programs: install them with `apt-get install {' '.join(packages)}`"
