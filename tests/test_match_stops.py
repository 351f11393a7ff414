"""How alice-match stops (issue 37): SIGTERM and SIGHUP act as Ctrl-C (no engine left
running), a -pgnout or -epdout that cannot be written gives one line, keeps the game in a
fallback file and never counts a game the PGN lacks, and a closed stdout stops the run
cleanly."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest

from alice_match.match import fallback_path
from support.installed import default_sigint
from support.matchargs import ROOT, each, scripted
from support.matchrun import read_pgn, run
from support.processes import tagged, wait_for

MATCH_PY = str(ROOT / "scripts" / "match.py")


# ------------------------------------------------------------------ signals
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_sigterm_and_sighup_stop_like_ctrl_c_and_kill_the_engines(tmp_path: Path, signum: int) -> None:
    """The signal goes to the runner alone (``kill PID``, a closed terminal): the engine that is
    thinking (30 s on its first move, deaf to its input) must not outlive it; the game in play
    is dropped, not counted."""
    tag = f"robust-{uuid.uuid4().hex}"
    pgn = tmp_path / "g.pgn"
    args = [
        *scripted("slow", "1", "30", "--tag", tag, name="slow"), *scripted("first", "--tag", tag, name="b"),
        *each(nodes=1), "-games", "4", "-pgnout", str(pgn),
    ]  # fmt: skip
    log = tmp_path / "out.txt"
    with open(log, "w") as out:
        runner = subprocess.Popen(
            [sys.executable, MATCH_PY, *args], stdout=out, stderr=subprocess.PIPE, text=True, cwd=str(tmp_path),
            start_new_session=True, preexec_fn=default_sigint,
        )  # fmt: skip
        try:
            assert wait_for(lambda: "Started game 1" in log.read_text() and len(tagged(tag)) == 2), log.read_text()
            time.sleep(0.5)  # the slow engine is in its 30 s first move
            os.kill(runner.pid, signum)
            _, err = runner.communicate(timeout=30)
        finally:
            if runner.poll() is None:
                os.killpg(runner.pid, signal.SIGKILL)
    text = log.read_text()
    assert runner.returncode == 1, (text, err)
    assert "Interrupted: stopping the match" in text and text.endswith("Finished match\n"), text
    assert "Traceback" not in err, err
    assert wait_for(lambda: not tagged(tag), 5.0), tagged(tag)  # no engine left running
    assert "Finished game" not in text and not pgn.exists()  # the game in play dropped, not counted


def catches(pid: int, signum: int) -> bool:
    """The process ``pid`` has a handler for ``signum`` (its ``SigCgt`` mask in /proc)."""
    with open(f"/proc/{pid}/status") as handle:
        mask = next(line.split()[1] for line in handle if line.startswith("SigCgt:"))
    return bool(int(mask, 16) >> (signum - 1) & 1)


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_stop_while_reading_the_options_is_one_line(tmp_path: Path, signum: int) -> None:
    """Ctrl-C or SIGTERM while a large opening book loads (before any engine starts): one line
    and exit status 1 (Ctrl-C gave a KeyboardInterrupt traceback; a huge knockout's schedule,
    being built, gave one for SIGTERM too)."""
    book = tmp_path / "book.pgn"
    book.write_text('[Event "x"]\n\n1. e4 e5 2. Nf3 *\n\n' * 20_000)
    args = [*scripted("first", name="a"), *scripted("first", name="b"), *each(nodes=1),
            "-openings", f"file={book}", "format=pgn"]  # fmt: skip
    runner = subprocess.Popen(
        [sys.executable, MATCH_PY, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        cwd=str(tmp_path), start_new_session=True, preexec_fn=default_sigint,
    )  # fmt: skip
    try:
        wait_for(lambda: runner.poll() is not None or catches(runner.pid, signal.SIGTERM), 30.0)  # in main()
        time.sleep(0.3)  # into the book (it takes many seconds)
        os.kill(runner.pid, signum)
        out, err = runner.communicate(timeout=30)
    finally:
        if runner.poll() is None:
            os.killpg(runner.pid, signal.SIGKILL)
    assert (runner.returncode, out, err) == (1, "", "alice-match: interrupted\n")


# ------------------------------------------------------------------ write errors
@pytest.fixture
def fallbacks() -> list[Path]:
    """The fallback files of this process (removed before and after the test)."""
    paths = [Path(fallback_path("pgn")), Path(fallback_path("epd"))]
    for path in paths:
        path.unlink(missing_ok=True)
    yield paths
    for path in paths:
        path.unlink(missing_ok=True)


TWO = [*scripted("first", name="a"), *scripted("first", name="b"), *each(nodes=1), "-maxmoves", "3"]


def test_a_full_disk_under_pgnout_keeps_the_game_and_does_not_count_it(fallbacks: list[Path]) -> None:
    r = run([*TWO, "-games", "3", "-pgnout", "/dev/full"])
    assert r.status == 1
    errors = r.lines("Error:")
    assert errors == [
        f"Error: cannot write game 1 to /dev/full (No space left on device); it is kept in {fallbacks[0]}; "
        "the game is not counted; stopping the match"
    ], r.out
    assert not r.lines("Finished game") and r.match.score.games == 0 and r.match.records == {}
    assert r.out.endswith("Finished match\n") and not r.err
    games = read_pgn(fallbacks[0])
    assert len(games) == 1 and games[0].headers["GameNumber"] == "1"  # nothing lost


def test_a_pgnout_folder_gone_mid_run(tmp_path: Path, fallbacks: list[Path]) -> None:
    """A path that cannot be created any more (its folder removed while the first game runs)."""
    folder = tmp_path / "out"
    folder.mkdir()
    args = [*scripted("first", "--delay", "0.3", name="a"), *scripted("first", name="b"), *each(nodes=1),
            "-maxmoves", "2", "-pgnout", str(folder / "g.pgn")]  # fmt: skip

    def remove_soon() -> None:
        time.sleep(0.3)
        folder.rmdir()

    remover = threading.Thread(target=remove_soon)
    remover.start()
    r = run(args)
    remover.join()
    assert r.status == 1 and r.match.score.games == 0
    (error,) = r.lines("Error:")
    assert re.fullmatch(
        rf"Error: cannot write game 1 to {re.escape(str(folder / 'g.pgn'))} \(No such file or directory\); "
        rf"it is kept in {re.escape(str(fallbacks[0]))}; the game is not counted; stopping the match",
        error,
    ), error
    assert len(read_pgn(fallbacks[0])) == 1


def test_a_full_disk_under_epdout_keeps_the_position(tmp_path: Path, fallbacks: list[Path]) -> None:
    """The PGN has the game, so it counts; its final position goes to the fallback file."""
    pgn = tmp_path / "g.pgn"
    r = run([*TWO, "-games", "3", "-pgnout", str(pgn), "-epdout", "/dev/full"])
    assert r.status == 1 and r.match.score.games == 1 and len(read_pgn(pgn)) == 1
    assert r.lines("Error:") == [
        f"Error: cannot write the final position of game 1 to /dev/full (No space left on device); "
        f"it is kept in {fallbacks[1]}; stopping the match"
    ]
    assert fallbacks[1].read_text() == r.match.records[1].final_fen + "\n"


def test_a_closed_stdout_stops_the_run_cleanly(tmp_path: Path) -> None:
    """``alice-match ... | head -1``: no traceback, no engine left, every finished game saved."""
    tag = f"robust-{uuid.uuid4().hex}"
    pgn = tmp_path / "g.pgn"
    args = [*scripted("first", "--delay", "0.05", "--tag", tag, name="a"), *scripted("first", "--tag", tag, name="b"),
            *each(nodes=1), "-maxmoves", "4", "-games", "50", "-pgnout", str(pgn)]  # fmt: skip
    runner = subprocess.Popen(
        [sys.executable, MATCH_PY, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=str(tmp_path),
        start_new_session=True,
    )  # fmt: skip
    try:
        assert runner.stdout is not None
        runner.stdout.readline()
        runner.stdout.close()  # as head does after its lines
        _, err = runner.communicate(timeout=60)
    finally:
        if runner.poll() is None:
            os.killpg(runner.pid, signal.SIGKILL)
    assert runner.returncode == 1, err
    assert b"Traceback" not in err, err.decode()
    games = read_pgn(pgn)
    assert 1 <= len(games) < 50  # stopped early, every finished game saved
    assert wait_for(lambda: not tagged(tag), 5.0)
