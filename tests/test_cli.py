"""``alice-engine``'s command line, black-box: ``--help`` lists the modes on stdout, a command
line it does not know gets the usage on stderr and exit code 2, the UCI commands that run from
the command line still do, and UCI on stdin is unchanged (``--help`` there is a UCI error)."""

from __future__ import annotations

import subprocess

import pytest

from support.installed import CHILD_CWD, engine_command

TIMEOUT = 120  # seconds for one run (a pure-build bench at depth 3 takes a few)
USAGE_EXIT = 2  # a refused command line, as argparse and alice-match exit
# Every mode --help must name, each on a line of its own.
MODES = (
    "alice-engine gui",
    "alice-engine xboard",
    "alice-engine bench",
    "alice-engine go perft",
    "alice-engine --version",
)


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*engine_command(), *args], input=stdin, capture_output=True, text=True, cwd=CHILD_CWD, timeout=TIMEOUT
    )


def mode_lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip().startswith("alice-engine")]


@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_help_lists_every_mode_on_stdout(flag: str) -> None:
    done = run(flag)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert done.stdout.startswith("usage: alice-engine")
    lines = mode_lines(done.stdout)
    for mode in MODES:
        assert sum(line.startswith(mode) for line in lines) == 1, (mode, done.stdout)
    default = [line for line in lines if line.split()[:2] == ["alice-engine", "speak"]]
    assert default and "UCI" in default[0], "the default mode (no word) is UCI"
    assert all(len(line.split("  ", 1)) == 2 for line in lines), "each mode has its one-line description"


@pytest.mark.parametrize(
    ("args", "complaint"),
    [
        (["--frobnicate"], "unknown option '--frobnicate'"),
        (["frobnicate"], "unknown command 'frobnicate'"),
        (["isready"], "unknown command 'isready'"),
        (["go", "depth", "3"], "only 'go perft DEPTH'"),
        (["xboard", "now"], "'xboard' takes no arguments"),
        (["--version", "--help"], "'--version' takes no arguments"),
    ],
)
def test_unknown_command_line_prints_usage_on_stderr_and_exits_2(args: list[str], complaint: str) -> None:
    done = run(*args, stdin="uci\n")  # nothing on stdin is read: no uciok
    assert done.returncode == USAGE_EXIT
    assert done.stdout == ""
    first, rest = done.stderr.split("\n", 1)
    assert first.startswith(f"alice-engine: {complaint}"), done.stderr
    assert "usage: alice-engine" in rest and all(mode in rest for mode in MODES), done.stderr


def test_bench_from_the_command_line() -> None:
    done = run("bench", "3")
    assert done.returncode == 0, done.stdout + done.stderr
    assert any(
        line.startswith("Nodes searched: ") and int(line.split(": ")[1]) > 0 for line in done.stdout.splitlines()
    )


def test_a_refused_one_shot_command_answers_as_uci_and_exits_2() -> None:
    done = run("bench", "x")
    assert done.returncode == USAGE_EXIT
    assert done.stdout.startswith("info string error: bench:"), done.stdout
    assert "Traceback" not in done.stderr


def test_go_perft_and_uci_from_the_command_line() -> None:
    perft = run("go", "perft", "2")
    assert perft.returncode == 0, perft.stderr
    assert "Nodes searched: 400" in perft.stdout.splitlines()
    uci = run("uci")
    assert uci.returncode == 0, uci.stderr
    assert uci.stdout.splitlines()[-1] == "uciok"
    assert "option name UCI_Variant type combo default alice var alice" in uci.stdout.splitlines()


def test_uci_on_stdin_is_unchanged() -> None:
    done = run(stdin="--help\nuci\nisready\nquit\n")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "info string error: unknown command '--help'"
    assert "uciok" in lines and lines[-1] == "readyok"
    assert "usage:" not in done.stdout + done.stderr
