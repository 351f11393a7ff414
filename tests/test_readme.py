"""The README as a front page, and the links of the documentation.

The README stays short (``README_MAX_LINES``), quotes no commit hash and no issue number
(those belong in docs/measurements.md and the history); every relative link in the README,
CHANGELOG.md and docs/*.md points to a file that exists, and an anchor to a heading that
exists; and the README's Python examples still run against the engine under test.
"""

from __future__ import annotations

import os
import re
import shlex
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from support.installed import CHILD_CWD, ROOT, engine_command

README_MAX_LINES = 250
SNIPPET_TIMEOUT = 60  # seconds for one README example (it plays a move in 1 s)
# A word of 7 to 40 hex digits with at least one digit and one letter a-f: how a commit is quoted.
COMMIT_HASH = re.compile(r"(?<![0-9A-Za-z])(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}(?![0-9A-Za-z])")
ISSUE_NUMBER = re.compile(r"\b(?:issues?|pull request|PR)\s*#?\d+|/(?:issues|pull)/\d+|\bGH-\d+", re.IGNORECASE)
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.MULTILINE | re.DOTALL)
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", re.MULTILINE)


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def documents() -> list[Path]:
    root = Path(ROOT)
    return [root / "README.md", root / "CHANGELOG.md", *sorted((root / "docs").glob("*.md"))]


def outside_code(text: str) -> str:
    """``text`` without its fenced code blocks (a shell example may quote anything)."""
    return FENCE.sub("", text)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = heading.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    found = set()
    for heading in HEADING.findall(outside_code(read(path))):
        base = slug(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def test_slug_as_github_makes_anchors() -> None:
    assert slug("Self-play A/B of search changes") == "self-play-ab-of-search-changes"
    assert slug("Forced mates: `go mate N`") == "forced-mates-go-mate-n"
    assert slug("Why mypyc and not Cython") == "why-mypyc-and-not-cython"
    assert slug("Installing XBoard, the board's size, and the flipped view") == (
        "installing-xboard-the-boards-size-and-the-flipped-view"
    )


def test_readme_is_a_short_front_page() -> None:
    lines = read(Path(ROOT) / "README.md").splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines, at most {README_MAX_LINES}"


def test_readme_quotes_no_commit_hash_and_no_issue_number() -> None:
    text = read(Path(ROOT) / "README.md")
    assert COMMIT_HASH.findall(text) == []
    assert ISSUE_NUMBER.findall(text) == []


@pytest.mark.parametrize("text", ["at `8be3e77` today", "commit 0123abcd", "see issue 38", "issues #12", "GH-7"])
def test_the_checks_catch_what_they_are_for(text: str) -> None:
    assert COMMIT_HASH.search(text) or ISSUE_NUMBER.search(text)


@pytest.mark.parametrize("text", ["Nodes searched: 34521", "1,271,725 nodes/s", "h#2 and #3", "a deadbeef", "e2e4/B"])
def test_the_checks_pass_ordinary_text(text: str) -> None:
    assert not COMMIT_HASH.search(text) and not ISSUE_NUMBER.search(text)


def test_no_issue_numbers_in_the_documentation() -> None:
    found = {path.name: ISSUE_NUMBER.findall(outside_code(read(path))) for path in documents()}
    assert {name: hits for name, hits in found.items() if hits} == {}


def test_relative_links_point_to_files_and_headings_that_exist() -> None:
    broken = []
    for path in documents():
        for target in LINK.findall(outside_code(read(path))):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
                continue
            file_part, _, anchor = target.partition("#")
            linked = (path.parent / file_part).resolve() if file_part else path
            if not linked.exists():
                broken.append(f"{path.name}: {target} (no such file)")
            elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
                broken.append(f"{path.name}: {target} (no such heading)")
    assert broken == []


def test_readme_python_examples_run(tmp_path: Path) -> None:
    """Each ```python block of the README runs, with ``alice-engine`` on the PATH meaning the
    engine under test (installed or the checkout's)."""
    blocks = [code for language, code in FENCE.findall(read(Path(ROOT) / "README.md")) if language == "python"]
    assert blocks, "the README shows python-chess driving the engine"
    wrapper = tmp_path / "bin" / "alice-engine"
    wrapper.parent.mkdir()
    command = " ".join(shlex.quote(word) for word in engine_command())
    wrapper.write_text(f'#!/bin/sh\ncd {shlex.quote(CHILD_CWD)} && exec {command} "$@"\n')
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
    env = {**os.environ, "PATH": f"{wrapper.parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    for code in blocks:
        done = subprocess.run(
            [sys.executable, "-c", code],
            cwd=CHILD_CWD,
            env=env,
            capture_output=True,
            text=True,
            timeout=SNIPPET_TIMEOUT,
        )
        assert done.returncode == 0, code + done.stderr
