"""alice-match tournaments end to end: output, PGN, EPD, report, crashes, bad input, resume."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import chess.pgn
import pytest

from alice_match.cli import main
from alice_match.resume import read_played
from engine import Position
from support.installed import default_sigint
from support.matchargs import ROOT, each, our_engine, player, scripted
from support.matchrun import read_pgn, run

THREE = [*scripted("random", "1", name="r1"), *scripted("random", "2", name="r2"), *scripted("random", "3", name="r3")]
TABLE_HEADER = "Rank Name                          Elo     +/-   Games   Score    Draw"
MATCH_PY = str(ROOT / "scripts" / "match.py")


def standings_rows(lines: list[str], header: str = TABLE_HEADER) -> list[list[str]]:
    """The rows of the last standings table in ``lines``, split on spaces."""
    start = len(lines) - 1 - lines[::-1].index(header)
    rows = []
    for line in lines[start + 1 :]:
        if not line.strip():
            break
        rows.append(line.split())
    return rows


def test_three_engine_round_robin(tmp_path: Path) -> None:
    pgn, epd, md = tmp_path / "t.pgn", tmp_path / "t.epd", tmp_path / "t.md"
    r = run([
        *THREE, *each(nodes=1), "-games", "2", "-maxmoves", "8", "-ratinginterval", "2", "-event", "Spring Cup",
        "-site", "Here", "-openings", "file=default", "-srand", "5",
        "-pgnout", str(pgn), "-epdout", str(epd), "-report", str(md),
    ])  # fmt: skip
    assert r.status == 0, r.out
    lines = r.out.splitlines()
    started = r.lines("Started game")
    assert started[0] == "Started game 1 of 6 (r2 vs r3)" and len(started) == 6
    assert all(re.fullmatch(r"Finished game \d \((r\d) vs (r\d)\): (1-0|0-1|1/2-1/2) \{.+\}", x)
               for x in r.lines("Finished game"))  # fmt: skip
    assert not r.lines("Score of")  # the two-engine score line is not printed
    assert lines.count(TABLE_HEADER) == 3  # after games 2 and 4, and at the end
    rows = standings_rows(lines)
    scores = [float(row[-2].rstrip("%")) for row in rows]
    assert [row[0] for row in rows] == ["1", "2", "3"] and scores == sorted(scores, reverse=True)
    assert sum(int(row[4]) for row in rows) == 12
    assert any(line.startswith("Crosstable") for line in lines)
    assert lines[-1] == "Finished match"
    games = read_pgn(pgn)
    assert [int(g.headers["GameNumber"]) for g in games] == [1, 2, 3, 4, 5, 6]
    for game in games:
        h = game.headers
        assert (h["Event"], h["Site"], h["Variant"], h["TimeControl"]) == ("Spring Cup", "Here", "Alice", "-")
        assert h["Round"] in ("1", "2", "3") and h["Termination"] in ("normal", "adjudication")
        first_engine_move = list(game.mainline())[len(game.board().move_stack) :][0]
        assert re.search(r"\[%emt 0:00:\d\d\.\d{3}\]", first_engine_move.comment)
    rounds = [(g.headers["Round"], g.headers["White"], g.headers["Black"]) for g in games]
    assert rounds[:2] == [("1", "r2", "r3"), ("1", "r3", "r2")]
    finals = epd.read_text().splitlines()
    assert len(finals) == 6
    for fen, game in zip(finals, games):
        board = game.end().board()
        assert Position(fen).fen() == board.fen()
    report = md.read_text()
    assert report.startswith("# Spring Cup") and "6 of 6 games played (final)" in report
    assert "| Rank | Name | Elo | +/- | Games | Score | Draw |" in report and "## Crosstable" in report


def test_html_report_and_result_format(tmp_path: Path) -> None:
    page = tmp_path / "standings.html"
    r = run([*THREE, *each(nodes=1), "-maxmoves", "3", "-resultformat", "short", "-report", str(page)])
    assert r.status == 0
    assert "Rank Name                          Elo   Games" in r.out.splitlines()
    text = page.read_text()
    assert text.startswith("<!DOCTYPE html>") and "<th>Name</th>" in text and "<td>r1</td>" in text


def test_gauntlet_and_knockout_runs() -> None:
    gauntlet = run([*THREE, *each(nodes=1), "-tournament", "gauntlet", "-games", "2", "-maxmoves", "3"])
    assert gauntlet.status == 0 and len(gauntlet.lines("Started game")) == 4
    assert all("r1" in line for line in gauntlet.lines("Started game"))
    assert standings_rows(gauntlet.out.splitlines())[0][:2] == ["0", "r1"]  # the gauntlet engine, rank 0
    # Engines that lose at once by an illegal move make every game decisive: White loses.
    ko = [*scripted("first", name="k1"), *scripted("illegal", "1", name="k2"), *scripted("illegal", "1", name="k3")]
    knockout = run([*ko, *each(nodes=1), "-tournament", "knockout", "-outcomeinterval", "5"])
    lines = knockout.out.splitlines()
    assert knockout.status == 0
    assert knockout.lines("Started game") == ["Started game 1 of 2 (k2 vs k3)", "Started game 2 of 2 (k1 vs k3)"]
    bracket = lines[lines.index("Finished game 2 (k1 vs k3): 1-0 {Black makes an illegal move: a7a2}") + 1 :]
    assert bracket[:8] == ["k1", "\t\tk1", "bye", "\t\t\t\tk1 (1-0)", "k2", "\t\tk3 (0-1)", "k3", ""]
    assert bracket[8] == TABLE_HEADER and standings_rows(lines)[0][:2] == ["1", "k1"]
    assert "Player: k1" in lines and '   "Win: Black makes an illegal move: a7a2": 1' in lines  # outcomes at the end


def test_crash_mid_tournament_with_recover(tmp_path: Path) -> None:
    pgn = tmp_path / "t.pgn"
    r = run([
        *scripted("crash", "2", name="crashy"), *scripted("random", "2", name="r2"), *scripted("random", "3", name="r3"),
        *each(nodes=1), "-games", "2", "-maxmoves", "4", "-recover", "-pgnout", str(pgn),
    ])  # fmt: skip
    assert r.status == 0
    games = read_pgn(pgn)
    assert len(games) == 6
    crashy = [g for g in games if "crashy" in (g.headers["White"], g.headers["Black"])]
    assert len(crashy) == 4 and all(g.headers["Termination"] == "abandoned" for g in crashy)
    assert len(r.lines("Engine crashy disconnected; restarting it")) == 4
    rows = standings_rows(r.out.splitlines())
    assert rows[-1][1] == "crashy" and rows[-1][-2] == "0.0%"
    stopped = run([
        *scripted("crash", "2", name="crashy"), *scripted("random", "2", name="r2"), *scripted("random", "3", name="r3"),
        *each(nodes=1), "-games", "2", "-maxmoves", "4",
    ])  # fmt: skip
    assert stopped.status == 1 and stopped.lines("Engine crashy disconnected; stopping the match")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([*scripted("first", name="a"), "-engine", "cmd=no-such-engine-xyz", *each(nodes=1)], "command not found"),
        ([*scripted("first", name="a"), "-engine", "cmd=/no/such/engine", *each(nodes=1)], "no such file"),
        ([*scripted("first", name="a"), *scripted("first", name="a"), *each(nodes=1)], "both named 'a'"),
        ([*scripted("first", name="a"), *each(nodes=1)], "at least two engines"),
        ([*THREE, "-each", "nodes"], "expected KEY=VALUE"),
        ([*THREE, *each(tc="10+")], "bad time control"),
        ([*THREE, *each(nodes=1), "-tournament", "swiss"], "expected one of"),
        ([*THREE, *each(nodes=1), "-tournament", "knockout", "-rounds", "2"], "knockout has no rounds"),
        ([*THREE, *each(nodes=1), "-sprt", "elo0=0", "elo1=5"], "exactly two engines"),
        ([*THREE, *each(nodes=1), "-resume"], "give -pgnout"),
        ([*THREE, *each(nodes=1), "-report", "x.txt"], ".md or .html"),
        ([*THREE, *each(nodes=1), "-resultformat", "Rank,Bogus"], "unknown result format or column 'Bogus'"),
    ],
)
def test_bad_input_one_line_and_exit_2(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1 and err.startswith("alice-match: ") and message in err


def test_bad_opening_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    book = tmp_path / "bad.epd"
    book.write_text("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\nthis is no position\n")
    assert main([*THREE, *each(nodes=1), "-openings", f"file={book}"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1 and f"{book}:2" in err


def test_result_format_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*THREE, *each(nodes=1), "-resultformat", "help"]) == 0
    assert "per-color" in capsys.readouterr().out


def pgn_games(path: Path) -> list[chess.pgn.Game]:
    with open(path, encoding="utf-8") as handle:
        return list(iter(lambda: chess.pgn.read_game(handle), None))


def test_resume_after_a_killed_run(tmp_path: Path) -> None:
    pgn = tmp_path / "t.pgn"
    slow = [
        *scripted("random", "1", "--delay", "0.04", name="r1"), *scripted("random", "2", "--delay", "0.04", name="r2"),
        *scripted("random", "3", "--delay", "0.04", name="r3"),
        *each(nodes=1), "-games", "2", "-maxmoves", "8", "-openings", "file=default", "-srand", "9",
        "-pgnout", str(pgn),
    ]  # fmt: skip
    runner = subprocess.Popen(
        [sys.executable, MATCH_PY, *slow], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        cwd=str(tmp_path), start_new_session=True, preexec_fn=default_sigint,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and runner.poll() is None:
        if pgn.exists() and pgn.read_text().count("[GameNumber") >= 2:
            break
        time.sleep(0.05)
    os.killpg(runner.pid, signal.SIGKILL)  # the runner and its engines, as a power cut would
    runner.wait()
    before = pgn.read_text()
    played, _ = read_played(str(pgn))
    assert 2 <= len(played) < 6
    r = run([*slow, "-resume"])
    assert r.status == 0, r.out + r.err
    assert r.lines("Resumed ") == [f"Resumed {len(played)} games from {pgn}"]
    replayed = [int(line.split()[2]) for line in r.lines("Started game")]
    assert sorted(replayed) == sorted(set(range(1, 7)) - set(played))  # nothing played twice
    assert pgn.read_text().startswith(before[: before.rindex("[Event")] if len(played) < 6 else before)
    games = read_pgn(pgn)
    assert sorted(int(g.headers["GameNumber"]) for g in games) == [1, 2, 3, 4, 5, 6]
    assert sum(int(row[4]) for row in standings_rows(r.out.splitlines())) == 12  # all six games counted
    again = run([*slow, "-resume"])  # a finished tournament: nothing left to play
    assert again.status == 0 and not again.lines("Started game") and again.lines("Resumed 6 games")


def test_ctrl_c_drops_the_games_in_progress(tmp_path: Path) -> None:
    pgn = tmp_path / "t.pgn"
    slow = [
        *scripted("random", "1", "--delay", "0.04", name="r1"), *scripted("random", "2", "--delay", "0.04", name="r2"),
        *scripted("random", "3", "--delay", "0.04", name="r3"),
        *each(nodes=1), "-games", "2", "-maxmoves", "8", "-pgnout", str(pgn),
    ]  # fmt: skip
    runner = subprocess.Popen(
        [sys.executable, MATCH_PY, *slow], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        cwd=str(tmp_path), start_new_session=True, preexec_fn=default_sigint,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (pgn.exists() and "[GameNumber" in pgn.read_text()):
        time.sleep(0.05)
    os.killpg(runner.pid, signal.SIGINT)  # as a Ctrl-C in a terminal: to the runner's whole process group
    out, _ = runner.communicate(timeout=60)
    assert runner.returncode == 1 and "Interrupted: stopping the match" in out and out.endswith("Finished match\n")
    games = read_pgn(pgn)
    assert 1 <= len(games) < 6 and all(g.headers["Termination"] != "abandoned" for g in games)  # no forfeit
    assert len(out.split("Finished game")) - 1 == len(games)
    assert run([*slow, "-resume"]).lines("Resumed ") == [f"Resumed {len(games)} games from {pgn}"]


def test_resume_drops_a_cut_off_last_game_and_checks_the_engines(tmp_path: Path) -> None:
    pgn = tmp_path / "t.pgn"
    args = [*THREE, *each(nodes=1), "-maxmoves", "4", "-pgnout", str(pgn)]
    assert run(args).status == 0
    full = pgn.read_text()
    second = full.index("[Event", 1)
    pgn.write_text(full[: full.index("[Event", second + 1) + 200])  # game 3 cut off mid-way
    played, dropped = read_played(str(pgn))
    assert sorted(played) == [1, 2] and dropped
    assert pgn.read_text() == full[: full.index("[Event", second + 1)]
    r = run([*args, "-resume"])
    assert r.status == 0 and r.lines("Started game") == ["Started game 3 of 3 (r1 vs r2)"]
    other = run([*scripted("random", "1", name="x1"), *THREE[len(scripted("random", "1", name="r1")) :],
                 *each(nodes=1), "-maxmoves", "4", "-pgnout", str(pgn), "-resume"])  # fmt: skip
    assert other.status == 2 and "game 2 is r3 vs r1, but this tournament schedules r3 vs x1" in other.err
    assert not other.lines("Started game")


@pytest.mark.slow
def test_black_box_round_robin_with_the_bundled_players(tmp_path: Path) -> None:
    pgn = tmp_path / "rr.pgn"
    done = subprocess.run(
        [
            sys.executable, MATCH_PY, "-tournament", "round-robin",
            *our_engine("alice"), *player("greedy", name="greedy"), *player("random", name="random"),
            *each(nodes=300), "-games", "2", "-repeat", "-maxmoves", "100", "-concurrency", "1",
            "-openings", "file=default", "order=random", "-srand", "1", "-pgnout", str(pgn),
        ],
        capture_output=True, text=True, timeout=300, cwd=str(tmp_path),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len([x for x in lines if x.startswith("Finished game")]) == 6 and lines[-1] == "Finished match"
    rows = standings_rows(lines)
    assert sorted(row[1] for row in rows) == ["alice", "greedy", "random"]
    games = read_pgn(pgn)
    assert len(games) == 6
    assert all(g.headers["Termination"] in ("normal", "adjudication") for g in games)  # no forfeit
    alice = [g for g in games if "alice" in (g.headers["White"], g.headers["Black"])]
    lost = [g for g in alice if g.headers["Result"] == ("0-1" if g.headers["White"] == "alice" else "1-0")]
    assert not lost  # our engine at 300 nodes does not lose to one-ply or random players
