"""UCI error lines quote bad input back cut short (issue 23, item 6): a megabyte word in any
command gives one short ``info string error:`` line, and the engine goes on. About 3 seconds."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator

import pytest

from support.installed import CHILD_CWD, engine_command
from uci.shared import ECHO_LIMIT, MESSAGE_LIMIT

HUGE = "x" * 1_000_000


@pytest.fixture(scope="module")
def answers() -> Iterator[dict[str, list[str]]]:
    """Every line of ``COMMANDS`` sent to one engine, each followed by ``isready``: the lines
    printed for each command."""
    proc = subprocess.Popen(
        engine_command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=CHILD_CWD
    )
    script = "".join(f"{command}\nisready\n" for command in COMMANDS) + "position startpos moves e2e4\nd\nquit\n"
    out, err = proc.communicate(script.encode(), timeout=120)
    assert proc.returncode == 0 and b"Traceback" not in err, err.decode(errors="replace")[-2000:]
    groups: list[list[str]] = [[]]
    for line in out.decode(errors="replace").splitlines():
        if line == "readyok":
            groups.append([])
        else:
            groups[-1].append(line)
    assert any(line.startswith("Fen: rnbqkbnr/pppppppp/8/8/4|P3/") for line in groups[-1])  # still working
    yield dict(zip(COMMANDS, groups, strict=False))


COMMANDS = [
    HUGE,
    f"position {HUGE}",
    f"position fen {HUGE}",
    f"position fen 4k3/8/8/8/8/8/8/4K3 w {HUGE} - 0 1",
    f"position startpos {HUGE}",
    f"position startpos moves e2e4 {HUGE}",
    f"position startpos moves e2e4{HUGE}",
    f"go depth {HUGE}",
    f"go wtime 1{'0' * 5000}",
    f"go {HUGE}",
    f"go searchmoves {HUGE}",
    f"go perft {HUGE}",
    f"bench {HUGE}",
    f"debug {HUGE}",
    f"setoption name {HUGE} value 1",
    f"setoption name Hash value {HUGE}",
    f"setoption name Ponder value {HUGE}",
    f"setoption name UCI_Variant value {HUGE}",
]


@pytest.mark.parametrize("number", range(len(COMMANDS)))
def test_one_short_error_line_for_a_huge_word(answers: dict[str, list[str]], number: int) -> None:
    command = COMMANDS[number]
    lines = answers[command]
    assert len(lines) == 1 and lines[0].startswith("info string error: "), [line[:200] for line in lines]
    line = lines[0]
    assert len(line) <= len("info string error: ") + MESSAGE_LIMIT + 3, len(line)
    longest_echo = max((len(run) for run in re.findall(r"x+|0{5,}", line)), default=0)
    assert longest_echo <= ECHO_LIMIT, line
