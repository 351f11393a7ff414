"""Pondering in alice-match: ``go ponder`` on the opponent's time, ``ponderhit`` or ``stop``."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import chess
import pytest

from support.matchargs import ROOT, each, our_engine, scripted
from support.matchrun import read_pgn, run

MOVE_OVERHEAD_MS = 300  # our engine's reserve per move in the clock match (its default is 30)


def sent(log: str, name: str) -> list[str]:
    """The commands the runner sent to engine ``name`` (from the -debug log)."""
    prefix = f"{name} <  "
    return [line[len(prefix) :] for line in log.splitlines() if line.startswith(prefix)]


def test_ponderhit_when_the_opponent_plays_the_expected_move(tmp_path: Path) -> None:
    # The ponder engine expects the first legal reply, which is what "first" plays: every ponder hits.
    pgn = tmp_path / "p.pgn"
    r = run([
        *scripted("ponder", name="p", ponder=True), *scripted("first", "--delay", "0.5", name="f"),
        *each(tc="10+0"), "-maxmoves", "4", "-debug", "-pgnout", str(pgn),
    ])  # fmt: skip
    assert r.status == 0
    commands = sent(r.err, "p")
    assert "setoption name Ponder value true" in commands
    gos = [c for c in commands if c.startswith("go ")]
    assert gos[0] == "go wtime 10000 btime 10000 winc 0 binc 0"  # its first move: nothing to ponder on
    assert [c.split()[1] for c in gos[1:]] == ["ponder"] * 4
    assert commands.count("ponderhit") == 3 and commands[-2:] == ["stop", "quit"]  # the last ponder: game over
    first_ponder = commands.index(gos[1])
    assert commands[first_ponder - 1] == "position startpos moves b1a3 a7a5"  # its move and the expected reply
    record = r.match.records[1]
    assert record.ponderhits == 3
    # Pondering is not charged: f thinks 0.5 s a move while p ponders; p answers a ponderhit at once.
    assert all(ms >= 500 for ms in record.clocks[chess.BLACK])
    assert all(ms < 500 for ms in record.clocks[chess.WHITE])
    # Each ponder starts with p's clock after its own moves only (not a loaded machine's 0 ms per answer).
    spent = record.clocks[chess.WHITE]
    ponder_wtimes = [int(w) for w in re.findall(r"go ponder wtime (\d+)", "\n".join(commands))]
    assert ponder_wtimes == [10000 - sum(spent[: i + 1]) for i in range(len(ponder_wtimes))]
    (game,) = read_pgn(pgn)
    assert game.headers["Termination"] == "adjudication"


def test_ponder_miss_stops_and_searches_again() -> None:
    r = run([
        *scripted("ponder", name="p", ponder=True), *scripted("random", "4", name="r"),
        *each(nodes=1), "-maxmoves", "10", "-debug",
    ])  # fmt: skip
    assert r.status == 0 and r.match.records[1].termination == "adjudication"
    commands = sent(r.err, "p")
    ponders = sum(c.startswith("go ponder") for c in commands)
    stops = [i for i, c in enumerate(commands) if c == "stop"]
    assert ponders >= 9 and ponders == commands.count("ponderhit") + len(stops) and len(stops) >= 2
    for i in stops[:-1]:  # a miss: the ponder search is stopped, then a normal search of the real position
        assert commands[i + 1].startswith("position startpos moves ") and commands[i + 2] == "go nodes 1"
    assert "bestmove" in r.err and "(discarded)" not in r.err  # the stopped search's bestmove was read, not replayed


def test_no_pondering_without_the_flag_or_the_option() -> None:
    r = run([*scripted("ponder", name="p"), *scripted("first", name="f", ponder=True), *each(nodes=1),
             "-maxmoves", "3", "-debug"])  # fmt: skip
    assert r.status == 0
    assert not any(c.startswith("go ponder") or "Ponder" in c for c in sent(r.err, "p") + sent(r.err, "f"))
    assert "warning: engine f offers no Ponder option; it will not ponder" in r.err


@pytest.mark.slow
def test_our_engine_ponders_in_a_clock_match(tmp_path: Path) -> None:
    # The one clock match of the suite: pondering is about time. Our engine against itself, both
    # pondering, so both search at once; on a loaded 2-core machine a Python search overshoots its
    # hard limit by a few hundred ms, hence a generous Move Overhead (the runner's clock stays strict).
    pgn = tmp_path / "ponder.pgn"
    done = subprocess.run(
        [
            sys.executable, str(ROOT / "scripts" / "match.py"),
            *our_engine("a", ponder=True), *our_engine("b", ponder=True),
            *each(tc="2+0.05"), f"option.Move Overhead={MOVE_OVERHEAD_MS}",
            "-games", "2", "-maxmoves", "20", "-openings", "file=default", "-srand", "1",
            "-debug", "-pgnout", str(pgn),
        ],
        capture_output=True, text=True, timeout=300, cwd=str(tmp_path),
    )  # fmt: skip
    assert done.returncode == 0, done.stdout
    log = done.stderr
    for name in ("a", "b"):
        commands = sent(log, name)
        ponders = sum(c.startswith("go ponder wtime") for c in commands)
        hits = commands.count("ponderhit")
        assert ponders >= 10 and hits >= 1 and hits + commands.count("stop") >= ponders
    games = read_pgn(pgn)
    assert len(games) == 2
    assert all(g.headers["Termination"] in ("normal", "adjudication") for g in games), done.stdout  # none lost on time
