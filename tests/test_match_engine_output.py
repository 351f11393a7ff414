"""alice-match against what an engine prints (issue 37): lines without end before ``uciok``
or after ``go`` (timed out, memory bounded), one endless line, ``bestmovefoo``, complaints
about its options during setup (shown on the terminal), and two engines that name
themselves alike (refused, as the README says)."""

from __future__ import annotations

import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

from alice_match.cli import main
from support.matchargs import each, our_engine, scripted
from support.matchrun import run

# Runs alice-match's main in a child process and reports the child's peak memory (kB): its
# VmHWM, the peak of its own memory since exec. (ru_maxrss would not do: a child started by fork
# counts the parent's memory at the fork, and a test worker may hold hundreds of MB by then.)
DRIVER = (
    "import re, sys\n"
    "from alice_match.cli import main\n"
    "status = main(sys.argv[1:])\n"
    "peak = re.search(r'VmHWM:\\s*(\\d+) kB', open('/proc/self/status').read()).group(1)\n"
    "print('maxrss', peak, file=sys.stderr)\n"
    "sys.exit(status)\n"
)
MEMORY_LIMIT_KB = 300_000  # the runner's peak: ~60 MB normally; an unbounded reader takes GBs
SAFETY_NET = 3 << 30  # bytes of address space for the child: a runaway reader fails, not the machine


def _cap_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (SAFETY_NET, SAFETY_NET))


def run_child(args: list[str], tmp_path: Path, timeout: float = 90) -> tuple[int, str, str, int, float]:
    """alice-match ``args`` in a child process: (status, stdout, stderr, peak kB, seconds)."""
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", DRIVER, *args], capture_output=True, text=True, timeout=timeout, cwd=str(tmp_path),
        preexec_fn=_cap_memory,
    )  # fmt: skip
    elapsed = time.monotonic() - started
    peaks = [int(line.split()[1]) for line in done.stderr.splitlines() if line.startswith("maxrss ")]
    assert peaks, done.stderr[-2000:]
    return done.returncode, done.stdout, done.stderr, peaks[0], elapsed


def test_an_engine_flooding_before_uciok_is_timed_out(tmp_path: Path) -> None:
    """Lines without end instead of ``uciok``: the 10 s handshake limit holds (it never did:
    the runner read on while lines kept coming), memory stays bounded."""
    status, out, err, peak, elapsed = run_child(
        [*scripted("flooduci", name="flood"), *scripted("first", name="b"), *each(nodes=1)], tmp_path
    )
    assert status == 2 and out == "", (out, err)
    assert "alice-match: engine 1 (flood) cannot play: engine flood did not send uciok in time" in err
    assert "'info string flood'" in err  # its last output quoted
    assert elapsed < 40 and peak < MEMORY_LIMIT_KB, (elapsed, peak)


def test_an_engine_flooding_after_go_loses_on_time(tmp_path: Path) -> None:
    """Info lines without end instead of ``bestmove``: the clock runs out as for any engine
    (the run used to hang while its queue grew), memory stays bounded."""
    pgn = tmp_path / "g.pgn"
    status, out, err, peak, elapsed = run_child(
        [*scripted("flood", "2", name="flood"), *scripted("first", name="b"), *each(st="0.3"), "-pgnout", str(pgn)],
        tmp_path,
    )
    assert status == 0, (out, err)
    assert "Finished game 1 (flood vs b): 0-1 {White loses on time}" in out
    assert elapsed < 40 and peak < MEMORY_LIMIT_KB, (elapsed, peak)


def test_an_endless_line_is_malformed_output(tmp_path: Path) -> None:
    """One line that never ends (hundreds of MB, no newline): read at most MAX_LINE_CHARS
    characters of it and lose the game for malformed output at once, memory bounded."""
    status, out, err, peak, elapsed = run_child(
        [*scripted("longline", "1", name="long"), *scripted("first", name="b"), *each(nodes=1), "-stalltimeout", "20"],
        tmp_path,
    )
    assert status == 0, (out, err)
    assert "Finished game 1 (long vs b): 0-1 {White sends malformed output: 'xxxx" in out
    assert "(a line of more than 16384 characters)" in out
    assert elapsed < 15 and peak < MEMORY_LIMIT_KB, (elapsed, peak)


def test_bestmovefoo_is_malformed_output_named_by_its_line() -> None:
    r = run([*scripted("badbest", "1", name="bad"), *scripted("first", name="b"), *each(nodes=1)])
    record = r.match.records[1]
    assert (record.result, record.termination) == ("0-1", "illegal move")
    assert record.reason == "White sends malformed output: 'bestmovefoo'"
    assert record.killed == [True, False]


def test_option_errors_during_setup_are_shown_on_the_terminal() -> None:
    """The engine's own ``info string error`` answers to a misspelled and an out-of-range
    option reach stderr without ``-debug`` (they were only in the debug log)."""
    r = run([*our_engine("alice", **{"option_Skil Level": 3, "option_Hash": 99999}), *scripted("first", name="b"),
             *each(nodes=1), "-maxmoves", "1"])  # fmt: skip
    assert r.status == 0, r.err
    assert "warning: engine alice says: info string error: unknown option 'Skil Level'" in r.err
    assert "warning: engine alice says: info string error: Hash: 99999 is out of range 1..1024" in r.err
    quiet = run([*our_engine("alice", option_Hash=8), *scripted("first", name="b"), *each(nodes=1), "-maxmoves", "1"])
    assert "says" not in quiet.err, quiet.err


def test_two_engines_named_alike_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """No ``name=`` and the same ``id name``: the score line could not tell them apart."""
    assert main([*scripted("first"), *scripted("first"), *each(nodes=1)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "alice-match: engines 1 and 2 are both named 'scripted-first': give name=\n"
    assert main([*scripted("first"), *scripted("first", name="other"), *each(nodes=1), "-maxmoves", "1"]) == 0
