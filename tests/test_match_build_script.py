"""scripts/build-fairy-stockfish.sh against a local stand-in repository (no network)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from support.system_tools import require_program

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "build-fairy-stockfish.sh"

FAKE_MAKEFILE = """build:
\tprintf '#!/bin/sh\\necho "option name UCI_Variant type combo default chess var chess var $(VARIANT)"\\n' > stockfish
\tchmod +x stockfish
\techo "ARCH=$(ARCH)" > arch.txt
"""


@pytest.fixture(autouse=True)
def _git_and_make() -> None:
    """The script clones with git and builds with make (not installed by pip)."""
    require_program("git", "git")
    require_program("make", "make")


def _git(*args: str, cwd: Path) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def _fake_repo(tmp_path: Path, variant: str) -> Path:
    repo = tmp_path / f"upstream-{variant}"
    (repo / "src").mkdir(parents=True)
    (repo / "src" / "Makefile").write_text(f"VARIANT = {variant}\n" + FAKE_MAKEFILE, encoding="utf-8")
    _git("init", "-q", "-b", "alice", cwd=repo)
    _git("add", ".", cwd=repo)
    _git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "fake", cwd=repo)
    return repo


def _run(tmp_path: Path, repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, FAIRY_STOCKFISH_REPO=f"file://{repo}")
    return subprocess.run(["bash", str(SCRIPT), *args], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=120)  # fmt: skip


def test_clones_builds_and_prints_the_binary(tmp_path: Path) -> None:
    repo = _fake_repo(tmp_path, "alice")
    done = _run(tmp_path, repo)
    assert done.returncode == 0, done.stderr
    binary = tmp_path / "fairy-stockfish" / "src" / "stockfish"
    assert done.stdout.strip().splitlines()[-1] == str(binary)
    assert (tmp_path / "fairy-stockfish" / "src" / "arch.txt").read_text().strip() == "ARCH=x86-64-modern"
    again = _run(tmp_path, repo, "fairy-stockfish", "x86-64-avx2")  # existing clone: updated, rebuilt
    assert again.returncode == 0, again.stderr
    assert (tmp_path / "fairy-stockfish" / "src" / "arch.txt").read_text().strip() == "ARCH=x86-64-avx2"


def test_refuses_a_binary_without_alice(tmp_path: Path) -> None:
    repo = _fake_repo(tmp_path, "crazyhouse")
    done = _run(tmp_path, repo, str(tmp_path / "fsf"))
    assert done.returncode == 1
    assert "does not offer UCI_Variant alice" in done.stderr
