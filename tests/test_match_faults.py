"""alice-match under faults: engines that die, hang behind wrapper scripts or never finish
their handshake; bad files and paths; corrupt PGNs to resume (issue 23)."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from alice_match.cli import main, parse_args, prepare
from alice_match.match import run_match
from support.matchargs import ROOT, SCRIPTED, each, engine, scripted
from support.matchrun import read_pgn, run

MATCH_PY = str(ROOT / "scripts" / "match.py")
TWO = [*scripted("first", name="a"), *scripted("first", name="b"), *each(nodes=1)]


def gone(pid: int) -> bool:
    """The process ``pid`` has exited (a zombie waiting for init counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except FileNotFoundError:
        return True


def wait_gone(pid: int, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if gone(pid):
            return True
        time.sleep(0.05)
    return gone(pid)


def one_error_line(capsys: pytest.CaptureFixture[str]) -> str:
    out, err = capsys.readouterr()
    assert out == "", out
    assert len(err.splitlines()) == 1 and err.startswith("alice-match: "), err
    return err


# ------------------------------------------------------------------ -recover restarts every time
def recover_run(tmp_path: Path) -> None:
    """The issue's scenario: an engine that exits at its third go of every game, 6 games."""
    pgn = tmp_path / "recover.pgn"
    pgn.unlink(missing_ok=True)
    r = run([
        *scripted("crash", "3", name="crashy"), *scripted("first", name="good"), *each(nodes=10),
        "-games", "6", "-recover", "-pgnout", str(pgn),
    ])  # fmt: skip
    assert r.status == 0, r.out
    games = read_pgn(pgn)
    assert len(games) == 6
    # A fresh process in every game plays two moves, then dies at its third go: as White at
    # ply 4, as Black at ply 5. A reused dead process would forfeit at ply 0 or 1.
    plies = [int(g.headers["PlyCount"]) for g in games]
    assert plies == [4, 5, 4, 5, 4, 5], plies
    assert all(g.headers["Termination"] == "abandoned" for g in games)
    crashy = [p for p in r.match._processes if p.config.name == "crashy"]
    assert len(crashy) == 6 and not any(p.alive() for p in crashy)
    assert len(r.lines("Engine crashy disconnected; restarting it (-recover)")) == 6


def test_recover_restarts_a_dead_engine_every_time(tmp_path: Path) -> None:
    recover_run(tmp_path)


@pytest.mark.slow
def test_recover_restarts_fifty_runs_in_a_row(tmp_path: Path) -> None:
    for _ in range(50):
        recover_run(tmp_path)


# ------------------------------------------------------------------ process groups
def wrapper(tmp_path: Path, body: str) -> str:
    script = tmp_path / "engine.sh"
    script.write_text("#!/bin/sh\n" + body + "\n")
    script.chmod(0o755)
    return str(script)


def test_wrapper_whose_child_keeps_stdout_open_cannot_block_the_runner(tmp_path: Path) -> None:
    pidfile = tmp_path / "child.pid"
    cmd = wrapper(tmp_path, f"sleep 300 &\necho $! > {pidfile}\nwait")  # never sends uciok
    config, _ = parse_args([*engine(cmd, name="wrapped"), *scripted("first", name="b"), *each(nodes=1)])
    config.start_timeout = 0.5
    err = io.StringIO()
    started = time.monotonic()
    status, _ = run_match(config, io.StringIO(), err)
    assert time.monotonic() - started < 8
    assert status == 2 and "engine wrapped did not send uciok in time" in err.getvalue()
    assert wait_gone(int(pidfile.read_text()))  # the wrapper's child was killed with it


def test_hanging_engine_behind_a_wrapper_is_killed_with_its_group(tmp_path: Path) -> None:
    pidfile = tmp_path / "engine.pid"
    cmd = wrapper(tmp_path, f'"{sys.executable}" "{SCRIPTED}" hang 2 --pidfile {pidfile}\necho never')
    started = time.monotonic()
    r = run([*engine(cmd, name="wrapped"), *scripted("first", name="b"), *each(tc="0.5+0")], stop_timeout=0.3)
    assert time.monotonic() - started < 10
    record = r.match.records[1]
    assert (record.result, record.reason, record.killed) == ("0-1", "White loses on time", [True, False])
    assert wait_gone(int(pidfile.read_text()))  # the Python engine under the shell, not just the shell


# ------------------------------------------------------------------ engines that cannot start: exit 2
@pytest.mark.parametrize(
    ("mode", "message"),
    [
        ("exit", "engine e exited (exit code 3) before uciok; it printed nothing"),
        (
            "garbage",
            "engine e did not send uciok in time; its last output: 'hello', '\\x00\\x01 not uci at all', "
            "'\ufffd\ufffd\ufffd junk bytes'",
        ),
        ("nouci", "engine e did not send uciok in time; it printed nothing"),
    ],
)
def test_engine_that_exits_prints_garbage_or_never_sends_uciok(mode: str, message: str) -> None:
    config = prepare([*scripted(mode, name="e"), *scripted("first", name="b"), *each(nodes=1), "-games", "4"])
    config.start_timeout = 1.0
    out, err = io.StringIO(), io.StringIO()
    status, match = run_match(config, out, err)
    assert status == 2 and match.score.games == 0 and out.getvalue() == ""
    assert err.getvalue() == f"alice-match: engine 1 (e) cannot play: {message}\n"
    assert not any(p.alive() for p in match._processes)


def test_engine_that_exits_at_once_through_main(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*scripted("first", name="a"), *scripted("exit", name="quitter"), *each(nodes=1)]) == 2
    assert "engine 2 (quitter) cannot play: engine quitter exited (exit code 3)" in one_error_line(capsys)


# ------------------------------------------------------------------ files and paths: exit 2, one line
def bad_paths(tmp: Path) -> list[tuple[list[str], str]]:
    binary = tmp / "binary.epd"
    binary.write_bytes(bytes(range(256)) * 4)
    (tmp / "binary.pgn").write_bytes(b"[Event \"x\"]\n\n1. e4 \xff\xfe *\n")
    (tmp / "latin1.pgn").write_bytes('[Event "Caf\xe9"]\n[GameNumber "1"]\n\n1. e4 *\n'.encode("latin-1"))
    (tmp / "folder").mkdir()
    missing = tmp / "no" / "such" / "folder"
    return [
        (["-openings", f"file={binary}"], "not UTF-8 text (byte 0x80)"),
        (["-openings", f"file={tmp / 'binary.pgn'}"], "not UTF-8 text (byte 0xff)"),
        (["-openings", f"file={tmp / 'folder'}"], "is a folder, not a file"),
        (["-openings", "file=/dev/null"], "is not a regular file"),
        (["-openings", f"file={missing}.epd"], "no such file"),
        (["-pgnout", str(tmp / "folder")], f"-pgnout {tmp / 'folder'}: is a folder, not a file"),
        (["-pgnout", f"{missing}/g.pgn"], "no such folder"),
        (["-pgnout", str(tmp / "new") + "/"], "is a folder, not a file"),
        (["-epdout", str(tmp / "folder")], "-epdout"),
        (["-epdout", f"{missing}/g.epd"], "no such folder"),
        (["-report", f"{missing}/r.md"], "-report"),
        (["-pgnout", str(tmp / "latin1.pgn"), "-resume"], "is not UTF-8 text (byte 0xe9 on line 1)"),
        (["-engine", "cmd=x", f"dir={missing}", "-engine", "cmd=y"], "no such folder"),
    ]


def test_bad_files_and_paths(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for extra, message in bad_paths(tmp_path):
        started = time.monotonic()
        assert main([*TWO, *extra]) == 2, extra
        assert message in one_error_line(capsys), extra
        assert time.monotonic() - started < 3  # refused before any engine starts
    assert sorted(p.name for p in tmp_path.iterdir()) == ["binary.epd", "binary.pgn", "folder", "latin1.pgn"]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["-each", "st=inf"], "engine 1: bad st 'inf': expected seconds, more than 0 and at most 10000000"),
        (["-each", "st=1e999"], "engine 1: bad st '1e999': expected seconds"),
        (["-each", "st=nan"], "engine 1: bad st 'nan': expected seconds"),
        (["-each", "st=0.0001"], "engine 1: bad st '0.0001': expected seconds, more than 0"),
        (["-each", "tc=9999999999"], "engine 1: bad time control '9999999999': at most 10000000 seconds"),
        (["-each", "tc=10+9999999999"], "bad time control '10+9999999999': at most 10000000 seconds"),
        (["-each", "tc=99999999999999999999/10"], "the number of moves must be positive"),
        (["-each", "nodes=9223372036854775808"], "bad nodes '9223372036854775808': expected a positive integer"),
        (["-each", "nodes=1", f"timemargin={10**25}"], "bad timemargin"),
        (["-each", "nodes=1", "timemargin=-5"], "bad timemargin '-5': expected milliseconds"),
        (["-each", "nodes=1", "-wait", str(10**20)], "-wait: must be at most 10000000000"),
        (["-each", "nodes=1", "-pgnout", ""], "-pgnout: the file name is empty"),
        # Hundreds or thousands of digits: float overflow, and int() refuses 4300 digits.
        (["-each", "tc=" + "9" * 400], "engine 1: bad time control '" + "9" * 30),
        (["-each", "tc=1:" + "9" * 400], "at most 10000000 seconds"),
        (["-each", "tc=10+" + "9" * 400], "at most 10000000 seconds"),
        (["-each", "tc=" + "9" * 5000 + "/10"], "the number of moves must be positive"),
        (["-each", "nodes=" + "9" * 5000], "bad nodes '" + "9" * 30 + "'... (5000 characters): expected a positive"),
        (["-each", "depth=" + "9" * 5000], "bad depth '"),
        (["-each", "nodes=1", "timemargin=" + "9" * 5000], "bad timemargin '"),
        (["-each", "nodes=1", "-wait", "9" * 5000], "-wait: must be at most 10000000000, got 9999"),
        (["-each", "nodes=1", "-games", "-" + "9" * 5000], "-games: must be at least 1, got -9999"),
        (["-each", "nodes=1", "-epdout", " "], "-epdout: the file name is empty"),
    ],
)
def test_out_of_range_settings_get_one_line(
    extra: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Values that used to crash (OverflowError, int()'s limit of 4300 digits), blame the wrong
    key or do nothing (issue 37); a value thousands of characters long is quoted short."""
    argv = [*scripted("first", name="a"), *scripted("first", name="b"), *extra]
    assert main(argv) == 2
    line = one_error_line(capsys)
    assert message in line and len(line) < 200, line


@pytest.mark.parametrize(
    ("engine_words", "message"),
    [
        (["cmd=", "name=x"], "engine 1: cmd= is empty: give the engine's command"),
        (["cmd=  ", "name=x"], "engine 1: cmd= is empty"),
        (['cmd="unclosed', "name=x"], 'engine 1: cmd="unclosed: No closing quotation'),
    ],
)
def test_a_command_that_is_no_command_gets_one_line(
    engine_words: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["-engine", *engine_words, *scripted("first", name="b"), *each(nodes=1)]) == 2
    assert message in one_error_line(capsys)


def test_read_only_pgn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if os.geteuid() == 0:
        pytest.skip("root writes read-only files")
    pgn = tmp_path / "ro.pgn"
    pgn.write_text("")
    pgn.chmod(0o444)
    assert main([*TWO, "-pgnout", str(pgn)]) == 2
    assert "permission denied" in one_error_line(capsys)


# ------------------------------------------------------------------ corrupt PGNs to resume
def test_corrupt_resume_pgn_gets_one_line(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    pgn = tmp_path / "t.pgn"
    assert run([*TWO, "-games", "2", "-maxmoves", "3", "-pgnout", str(pgn)]).status == 0
    text = pgn.read_text()
    pgn.write_text(text.replace("1. ", "1. Qh5 ", 1))  # an illegal move in game 1 of 2
    capfd.readouterr()
    assert main([*TWO, "-games", "4", "-maxmoves", "3", "-pgnout", str(pgn), "-resume"]) == 2
    out, err = capfd.readouterr()
    assert out == "" and len(err.splitlines()) == 1, err  # no python-chess parse message before it
    assert err.startswith(f"alice-match: {pgn}: game 1 is unfinished or unreadable (")
    assert "Qh5" in err


def test_resume_pgn_not_utf8_in_the_middle(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    pgn = tmp_path / "t.pgn"
    assert run([*TWO, "-games", "2", "-maxmoves", "3", "-pgnout", str(pgn)]).status == 0
    data = pgn.read_bytes()
    second = data.index(b"[Event", 1)
    pgn.write_bytes(data[:second] + b"\x80" + data[second:])
    line = data[:second].count(b"\n") + 1
    assert main([*TWO, "-games", "4", "-pgnout", str(pgn), "-resume"]) == 2
    out, err = capfd.readouterr()
    assert out == "" and err == (
        f"alice-match: -resume: {pgn} is not UTF-8 text (byte 0x80 on line {line}): cannot resume from this file\n"
    )


# ------------------------------------------------------------------ python -OO
def test_help_under_python_OO() -> None:
    done = subprocess.run([sys.executable, "-OO", MATCH_PY, "-h"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("alice-match: run Alice chess matches"), done.stderr
    bare = subprocess.run([sys.executable, "-OO", MATCH_PY], capture_output=True, text=True, timeout=60)
    assert bare.returncode == 2 and "-engine KEY=VALUE" in bare.stdout and not bare.stderr
