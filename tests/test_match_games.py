"""The match runner end to end with scripted engines: results, forfeits, PGN, schedule."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from alice_match.cli import main, parse_args
from alice_match.match import Match, run_match
from alice_match.stats import Sprt, SprtResult
from engine.position import STARTING_FEN
from support.matchargs import each, scripted
from support.matchrun import final_comment, read_pgn, run

ROOT = Path(__file__).resolve().parent.parent


def test_scripted_engines_play_to_the_end(tmp_path: Path) -> None:
    pgn = tmp_path / "games.pgn"
    r = run(
        [
            *scripted("first", name="first"),
            *scripted("random", "5", name="rnd"), *each(tc="20+0.2"), "-games", "2", "-pgnout", str(pgn),
        ]
    )
    assert r.status == 0
    assert r.lines("Started game") == ["Started game 1 of 2 (first vs rnd)", "Started game 2 of 2 (rnd vs first)"]
    finished = r.lines("Finished game")
    assert len(finished) == 2 and finished[0].startswith("Finished game 1 (first vs rnd): ")
    assert r.lines("Finished match") == ["Finished match"]
    games = read_pgn(pgn)
    assert len(games) == 2
    for game, line in zip(games, finished):
        assert line.endswith(f"{game.headers['Result']} {{{final_comment(game).split(', ')[-1]}}}")
        assert game.headers["TimeControl"] == "20+0.2"
        assert "FEN" not in game.headers and "SetUp" not in game.headers
    assert games[0].headers["White"] == "first" and games[1].headers["White"] == "rnd"
    score = r.match.score
    assert score.games == 2 and r.lines("Score of first vs rnd: ")[-1].endswith(
        f"{score.wins} - {score.losses} - {score.draws}  [{(score.wins + score.draws / 2) / 2:.3f}] 2"
    )
    assert r.lines("Elo difference: ")


def test_suffixed_moves_are_accepted_and_comments_written(tmp_path: Path) -> None:
    pgn = tmp_path / "g.pgn"
    r = run(
        [
            *scripted("first", "--suffix", name="sfx"),
            *scripted("first", "--score", "35", name="plain"), *each(nodes=1), "-maxmoves", "5", "-pgnout", str(pgn),
        ]
    )
    assert r.status == 0
    (game,) = read_pgn(pgn)
    assert game.headers["Termination"] == "adjudication" and game.headers["Result"] == "1/2-1/2"
    assert game.headers["TimeControl"] == "-" and game.headers["PlyCount"] == "10"
    nodes = list(game.mainline())
    assert re.fullmatch(r"\+0\.35/1 \d+(\.\d+)?s", nodes[1].comment)  # black's info line
    assert re.fullmatch(r"\d+(\.\d+)?s", nodes[0].comment)  # no info from the suffix engine
    assert nodes[-1].comment.endswith("Draw by adjudication: maximum number of moves")
    assert "/B" in str(game)


def test_illegal_move_loses(tmp_path: Path) -> None:
    pgn = tmp_path / "g.pgn"
    engines = [*scripted("illegal", "3", name="bad"), *scripted("first", name="good")]
    r = run([*engines, *each(nodes=1), "-pgnout", str(pgn)])
    (game,) = read_pgn(pgn)
    assert game.headers["Result"] == "0-1" and game.headers["Termination"] == "illegal move"
    assert game.headers["PlyCount"] == "4"  # its third move was the illegal one
    assert re.search(r"White makes an illegal move: [a-h][1-8][a-h][1-8]$", final_comment(game))
    assert re.fullmatch(
        r"Finished game 1 \(bad vs good\): 0-1 \{White makes an illegal move: \w+\}", r.lines("Finished game")[0]
    )
    assert r.match.score.losses == 1


def test_wrong_board_suffix_is_an_illegal_move(tmp_path: Path) -> None:
    r = run([*scripted("first", name="good"), *scripted("badsuffix", "1", name="bad"), *each(nodes=1)])
    record = r.match.records[1]
    assert record.result == "1-0" and record.termination == "illegal move"
    assert re.search(r"Black makes an illegal move: [a-h][1-8][a-h][1-8]/[AB]$", record.reason)


def test_time_forfeit(tmp_path: Path) -> None:
    pgn = str(tmp_path / "g.pgn")
    started = time.monotonic()
    r = run(
        [*scripted("first", name="good"), *scripted("slow", "2", "1.5", name="slow"), *each(tc="1+0"), "-pgnout", pgn],
        stop_timeout=2.0,
    )
    assert time.monotonic() - started < 8
    (game,) = read_pgn(pgn)
    assert game.headers["Result"] == "1-0" and game.headers["Termination"] == "time forfeit"
    assert final_comment(game).endswith("Black loses on time")
    assert game.headers["PlyCount"] == "3"
    record = r.match.records[1]
    assert record.killed == [False, False]  # it answered stop in time: not killed


def test_movetime_forfeit() -> None:
    engines = [*scripted("slow", "1", "0.8", name="slow"), *scripted("first", name="good")]
    r = run([*engines, *each(st=0.2)], stop_timeout=2.0)
    record = r.match.records[1]
    assert (record.result, record.termination, record.reason) == ("0-1", "time forfeit", "White loses on time")


def test_hanging_engine_loses_on_time_and_is_killed(tmp_path: Path) -> None:
    pgn = tmp_path / "g.pgn"
    started = time.monotonic()
    r = run(
        [
            *scripted("hang", "2", name="hang"),
            *scripted("first", name="good"), *each(tc="0.5+0"), "-games", "2", "-pgnout", str(pgn),
        ],
        stop_timeout=0.3,
    )
    assert time.monotonic() - started < 10
    assert r.status == 0
    games = read_pgn(pgn)
    assert len(games) == 2
    first, second = r.match.records[1], r.match.records[2]
    assert (first.result, first.termination, first.reason) == ("0-1", "time forfeit", "White loses on time")
    assert first.killed == [True, False]
    # Game 2: the killed engine was restarted (it plays Black now) and hangs again.
    assert (second.result, second.termination, second.reason) == ("1-0", "time forfeit", "Black loses on time")
    hang_processes = [p for p in r.match._processes if p.config.args[-1:] == ["2"] and "hang" in p.config.args]
    assert len(hang_processes) == 2 and all(not p.alive() for p in hang_processes)


def test_hang_without_a_clock_stalls() -> None:
    r = run(
        [*scripted("first", name="good"), *scripted("hang", "1", name="hang"), *each(nodes=5), "-stalltimeout", "0.5"],
        stop_timeout=0.3,
    )
    record = r.match.records[1]
    assert (record.result, record.termination, record.reason) == (
        "1-0",
        "stalled connection",
        "Black's connection stalls",
    )


def test_crash_stops_the_match_without_recover(tmp_path: Path) -> None:
    pgn = tmp_path / "g.pgn"
    r = run(
        [
            *scripted("crash", "2", name="crashy"),
            *scripted("first", name="good"), *each(nodes=1), "-games", "4", "-pgnout", str(pgn),
        ]
    )
    assert r.status == 1
    (game,) = read_pgn(pgn)
    assert game.headers["Termination"] == "abandoned" and game.headers["Result"] == "0-1"
    assert final_comment(game).endswith("White disconnects")
    assert r.lines("Engine crashy disconnected; stopping the match")
    assert r.match.score.games == 1 and r.lines("Finished match")


def test_crash_with_recover_continues(tmp_path: Path) -> None:
    pgn = tmp_path / "g.pgn"
    r = run(
        [
            *scripted("crash", "2", name="crashy"),
            *scripted("first", name="good"), *each(nodes=1), "-games", "4", "-recover", "-pgnout", str(pgn),
        ]
    )
    assert r.status == 0
    games = read_pgn(pgn)
    assert len(games) == 4
    assert [g.headers["Termination"] for g in games] == ["abandoned"] * 4
    assert [g.headers["Result"] for g in games] == ["0-1", "1-0", "0-1", "1-0"]
    assert (r.match.score.wins, r.match.score.losses, r.match.score.draws) == (0, 4, 0)
    assert len(r.lines("Engine crashy disconnected; restarting it")) == 4
    assert r.lines("Score of crashy vs good: ")[-1] == "Score of crashy vs good: 0 - 4 - 0  [0.000] 4"


def test_engine_that_cannot_start_is_bad_configuration() -> None:
    config, _ = parse_args([*scripted("nouci", name="mute"), *scripted("first"), *each(nodes=1), "-games", "2"])
    config.start_timeout = 0.5
    out, err = io.StringIO(), io.StringIO()
    status, match = run_match(config, out, err)
    assert status == 2 and match.score.games == 0 and "Started game" not in out.getvalue()
    assert err.getvalue() == (
        "alice-match: engine 1 (mute) cannot play: engine mute did not send uciok in time; it printed nothing\n"
    )


def test_engine_without_uci_variant_gets_a_warning() -> None:
    r = run([*scripted("novariant", name="nv"), *scripted("first", name="f"), *each(nodes=1), "-maxmoves", "2"])
    assert r.status == 0 and r.match.score.games == 1
    assert "offers no UCI_Variant option" in r.err


def test_repeat_swaps_colours_on_each_opening(tmp_path: Path) -> None:
    pgn = tmp_path / "g.pgn"
    r = run(
        [
            *scripted("random", "1", name="a"),
            *scripted("random", "2", name="b"), *each(nodes=1), "-games", "2", "-rounds", "2", "-repeat", "-maxmoves",
            "6", "-openings", "file=default", "order=sequential", "start=10", "-pgnout", str(pgn),
        ]
    )
    games = read_pgn(pgn)
    assert [(g.headers["White"], g.headers["Black"]) for g in games] == [("a", "b"), ("b", "a")] * 2
    fens = [g.headers["FEN"] for g in games]
    assert fens[0] == fens[1] and fens[2] == fens[3] and fens[0] != fens[2]
    book = [line.split(" hmvc")[0] for line in Path(ROOT / "scripts/alice_match/openings.epd").read_text().splitlines()]
    assert " ".join(fens[0].split()[:4]) == book[9] and " ".join(fens[2].split()[:4]) == book[10]
    assert all(g.headers["SetUp"] == "1" for g in games)
    s = r.match.score
    assert sum(s.white) == 2 and sum(s.black) == 2 and sum(s.white_side) == 4


def test_no_repeat_new_opening_each_game_colours_alternate() -> None:
    r = run(
        [
            *scripted("first", name="a"),
            *scripted("first", name="b"), *each(nodes=1), "-games", "3", "-maxmoves", "2", "-openings", "file=default",
            "order=random", "-srand", "42",
        ]
    )
    fens = [r.match.records[n].start_fen for n in (1, 2, 3)]
    assert len(set(fens)) == 3 and STARTING_FEN not in fens
    again = run(
        [
            *scripted("first", name="a"),
            *scripted("first", name="b"), *each(nodes=1), "-games", "3", "-maxmoves", "2", "-openings", "file=default",
            "order=random", "-srand", "42",
        ]
    )
    assert [again.match.records[n].start_fen for n in (1, 2, 3)] == fens  # same seed, same openings
    assert r.lines("Started game") == [
        "Started game 1 of 3 (a vs b)", "Started game 2 of 3 (b vs a)", "Started game 3 of 3 (a vs b)",
    ]


def test_positions_and_clock_sent_to_engines() -> None:
    config, _ = parse_args(
        [
            *scripted("first", name="a"),
            *scripted("slow", "1", "0.3", name="b"), *each(tc="40/60+0"), "-maxmoves", "2", "-openings", "file=default",
            "-debug",
        ]
    )
    out, err = io.StringIO(), io.StringIO()
    run_match(config, out, err)
    log = err.getvalue()
    start = config.openings[0].fen
    assert f"a <  position fen {start}\n" in log  # the compact FEN, then moves in plain UCI
    assert re.search(r"b <  position fen " + re.escape(start) + r" moves [a-h][1-8][a-h][1-8]\n", log)
    gos = re.findall(r"b <  go wtime (\d+) btime (\d+) winc 0 binc 0 movestogo (\d+)", log)
    assert [g[2] for g in gos] == ["40", "39"]
    assert int(gos[0][1]) == 60000 and 59000 < int(gos[1][1]) <= 59700  # it slept 0.3 s on its first move
    plain = parse_args(
        [*scripted("first", name="a"), *scripted("first", name="b"), *each(nodes=3), "-maxmoves", "1", "-debug"]
    )[0]
    err2 = io.StringIO()
    run_match(plain, io.StringIO(), err2)
    assert "a <  position startpos\n" in err2.getvalue() and "a <  go nodes 3\n" in err2.getvalue()
    assert "a <  setoption name UCI_Variant value alice" in err2.getvalue()


def test_engine_options_are_sent() -> None:
    config, _ = parse_args(
        [
            *scripted("first", name="a"), "option.Seed=7",
            *scripted("first", name="b"), *each(nodes=1), "option.Hash=4", "-maxmoves", "1", "-debug",
        ]
    )
    err = io.StringIO()
    run_match(config, io.StringIO(), err)
    log = err.getvalue()
    assert "a <  setoption name Seed value 7" in log and "a <  setoption name Hash value 4" in log
    assert "b <  setoption name Seed value 7" not in log and "b <  setoption name Hash value 4" in log


def test_draw_and_resign_adjudication() -> None:
    draw = run(
        [
            *scripted("first", "--score", "5", name="a"),
            *scripted("first", "--score", "-3", name="b"), *each(nodes=1), "-draw", "movenumber=2", "movecount=2",
            "score=10",
        ]
    )
    record = draw.match.records[1]
    assert (record.result, record.termination, record.reason) == ("1/2-1/2", "adjudication", "Draw by adjudication")
    assert len(record.moves) == 4  # from move 2 on: 2 moves of each side within 10 cp
    resign = run(
        [
            *scripted("first", "--score", "-600", name="a"),
            *scripted("first", "--score", "600", name="b"), *each(nodes=1), "-resign", "movecount=3", "score=500",
        ]
    )
    record = resign.match.records[1]
    assert (record.result, record.termination, record.reason) == ("0-1", "adjudication", "Black wins by adjudication")
    assert len(record.moves) == 5  # white's third bad score
    two = run(
        [
            *scripted("first", "--score", "0", name="a"),
            *scripted("first", "--score", "600", name="b"), *each(nodes=1), "-resign", "movecount=2", "score=500",
            "twosided=true",
        ]
    )
    record = two.match.records[1]
    assert (record.result, record.reason) == ("0-1", "Black wins by adjudication") and len(record.moves) == 4


def test_concurrency_two(tmp_path: Path) -> None:
    pgn = tmp_path / "g.pgn"
    r = run(
        [
            *scripted("random", "3", name="a"),
            *scripted("random", "4", name="b"), *each(tc="5+0.05"), "-games", "4", "-concurrency", "2", "-maxmoves",
            "20", "-openings", "file=default", "-pgnout", str(pgn),
        ]
    )
    assert r.status == 0
    games = read_pgn(pgn)
    assert sorted(int(g.headers["Round"]) for g in games) == [1, 2, 3, 4]
    assert sorted(r.match.records) == [1, 2, 3, 4]
    assert len(r.match._processes) == 4  # one pair of engine processes per worker
    assert r.match.score.games == 4 and len(r.lines("Finished game")) == 4


def test_sprt_decision_stops_the_match() -> None:
    class Decided(Sprt):
        def status(self, wins: int, losses: int, draws: int) -> SprtResult:
            return SprtResult(3.1, -2.94, 2.94, "H1")

    config, _ = parse_args(
        [
            *scripted("first", name="a"),
            *scripted("first", name="b"), *each(nodes=1), "-games", "6", "-maxmoves", "2", "-sprt", "elo0=0", "elo1=5",
        ]
    )
    assert config.sprt == Sprt(0.0, 5.0, 0.05, 0.05)
    config.sprt = Decided(0, 5)
    out = io.StringIO()
    status, match = run_match(config, out, io.StringIO())
    assert status == 0 and match.score.games == 1
    assert "SPRT: llr 3.1 (105.4%), lbound -2.94, ubound 2.94 - H1 was accepted" in out.getvalue()


def test_sprt_line_in_the_report() -> None:
    r = run(
        [
            *scripted("first", name="a"),
            *scripted("first", name="b"), *each(nodes=1), "-games", "2", "-maxmoves", "2", "-sprt", "elo0=0", "elo1=5",
            "alpha=0.05", "beta=0.1",
        ]
    )
    assert r.lines("SPRT: llr 0 (0.0%), lbound -2.25, ubound 2.89")


def test_cli_end_to_end(tmp_path: Path) -> None:
    pgn = tmp_path / "cli.pgn"
    env = dict(os.environ)
    cmd = [
        sys.executable, str(ROOT / "scripts" / "match.py"),
        *scripted("first", name="one"),
        *scripted("random", "9"), *each(nodes=1), "-games", "2", "-maxmoves", "10", "-variant", "alice", "-pgnout",
        str(pgn), "min",
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=60, env=env, cwd=str(tmp_path))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "Started game 1 of 2 (one vs scripted-random)"
    assert any(re.fullmatch(r"Finished game 2 \(scripted-random vs one\): (1-0|0-1|1/2-1/2) \{.+\}", x) for x in lines)
    scores = [x for x in lines if x.startswith("Score of ")]
    assert len(scores) == 2
    assert re.fullmatch(r"Score of one vs scripted-random: \d - \d - \d  \[\d\.\d{3}\] 2", scores[-1])
    assert lines[-1] == "Finished match"
    assert any(x.startswith("Elo difference: ") and "LOS: " in x and "DrawRatio: " in x for x in lines)
    games = read_pgn(pgn)
    assert len(games) == 2 and all(not node.comment for g in games for node in list(g.mainline())[:-1])


def test_main_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*scripted("first"), *each(nodes=1)]) == 2
    assert "at least two engines" in capsys.readouterr().err
    assert main(["-help"]) == 0
    assert "-engine" in capsys.readouterr().out


def test_pentanomial_pairs_and_their_sprt_in_a_paired_match() -> None:
    r = run([
        *scripted("illegal", "1", name="bad"), *scripted("first", name="good"), *each(nodes=1),
        "-games", "2", "-rounds", "3", "-repeat", "-sprt", "elo0=0", "elo1=5",
    ])  # fmt: skip
    assert r.status == 0 and r.match.score.losses == 6
    assert r.match.pentanomial.counts == (3, 0, 0, 0, 0)  # every pair lost twice by the first engine
    assert r.lines("Pairs (LL, LD, DD/WL, WD, WW): 3, 0, 0/0, 0, 0; Elo difference: ")
    assert Sprt(0, 5).status_pentanomial([3, 0, 0, 0, 0]).summary() in r.out.splitlines()
    trinomial = run([
        *scripted("illegal", "1", name="bad"), *scripted("first", name="good"), *each(nodes=1),
        "-games", "2", "-repeat", "-sprt", "elo0=0", "elo1=5", "model=trinomial",
    ])  # fmt: skip
    assert Sprt(0, 5).status(0, 2, 0).summary() in trinomial.out.splitlines()


def test_pairs_are_counted_once_whatever_order_their_games_finish() -> None:
    config, _ = parse_args([*scripted("first", name="a"), *scripted("first", name="b"), *each(nodes=1),
                            "-games", "2", "-rounds", "2", "-repeat"])  # fmt: skip
    match = Match(config, io.StringIO(), io.StringIO())
    slots = [match.schedule.next_slot() for _ in range(4)]
    assert [(s.white, s.black) for s in slots if s] == [(0, 1), (1, 0), (0, 1), (1, 0)]
    for number, result in ((2, "1-0"), (4, "0-1"), (1, "1/2-1/2"), (3, "1-0")):
        slot = slots[number - 1]
        assert slot is not None
        match._count(slot, result, "normal", "")
        if number == 4:
            assert match.pentanomial.pairs == 0  # one game of each pair so far
    assert match.pentanomial.counts == (0, 1, 0, 0, 1)  # pair 1: a drew and lost; pair 2: a won both
