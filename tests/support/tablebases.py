"""The KQK table, generated once per test session over the command line (as a user would):
``kqk_dir`` is the directory, ``kqk_run`` the generating run's output."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator

import pytest

from support.installed import CHILD_CWD, engine_command

GENERATE_TIMEOUT = 600  # seconds: KQK takes ~15 s on a quiet machine, several times that loaded


@pytest.fixture(scope="session")
def kqk_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, subprocess.CompletedProcess[str]]]:
    directory = str(tmp_path_factory.mktemp("tables"))
    done = subprocess.run(
        [*engine_command(), "tb", "generate", "KQK", "--dir", directory],
        capture_output=True, text=True, cwd=CHILD_CWD, timeout=GENERATE_TIMEOUT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    yield directory, done


@pytest.fixture(scope="session")
def kqk_dir(kqk_run: tuple[str, subprocess.CompletedProcess[str]]) -> str:
    return kqk_run[0]
