"""UCI black-box tests: start the installed ``alice-engine`` and speak UCI to it.

Every read has a timeout, so a hung engine fails a test instead of hanging the run.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from engine import STARTING_FEN, Position, divide, parse_uci
from support.engine_process import BESTMOVE, Uci
from support.installed import CHILD_CWD, engine_command

MATED = "position startpos moves e2e4 d7d5 f1e2 d5e4 e2b5"  # black is checkmated
STALEMATE_FEN = "7k/5K2/6Q1/8/8/8/8/8 b - - 0 1"
MATE_IN_ONE = "position startpos moves e2e4 d7d5 f1e2 d5e4"  # white mates with e2b5
AFTER_E4_D5 = "rnbqkbnr/ppp1pppp/8/3|p4/4|P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"

# What a normal UCI session may print (the extras d/eval/bench/perft are not used there).
PROTOCOL_LINE = re.compile(
    r"^(id (name|author) \S.*|option name \S.* type \w+.*|uciok|readyok|info \S.*|bestmove \S+.*)$"
)
INFO_LINE = re.compile(
    r"^info depth (\d+) seldepth (\d+) multipv (\d+) score (cp -?\d+|mate -?\d+) nodes (\d+) nps (\d+) "
    r"time (\d+) hashfull (\d+)( pv( [a-h][1-8][a-h][1-8][nbrq]?)+)?$"
)




@pytest.fixture
def uci() -> Iterator[Uci]:
    engine = Uci()
    yield engine
    engine.close()
    assert b"Traceback" not in engine.stderr, engine.stderr.decode()


@pytest.fixture(scope="module")
def shared() -> Iterator[Uci]:
    engine = Uci()
    yield engine
    engine.close()
    assert b"Traceback" not in engine.stderr, engine.stderr.decode()


def position_of(command: str) -> Position:
    """The engine.Position a ``position ...`` command describes (for legality checks)."""
    words = command.split()
    if words[1] == "startpos":
        pos, rest = Position(STARTING_FEN), words[2:]
    else:
        cut = words.index("moves") if "moves" in words else len(words)
        pos, rest = Position(" ".join(words[2:cut])), words[cut:]
    for text in rest[1:]:
        pos.push(parse_uci(pos, text))
    return pos


def assert_legal(command: str, best: str, ponder: str | None) -> None:
    pos = position_of(command)
    move = parse_uci(pos, best)  # raises if illegal
    if ponder is not None:
        pos.push(move)
        parse_uci(pos, ponder)


# ---------------------------------------------------------------- handshake and options
def test_uci_handshake_lists_id_and_options(uci: Uci) -> None:
    uci.send("uci")
    _, before, _ = uci.expect("^uciok$")
    assert before[0].startswith("id name ") and before[1].startswith("id author ")
    options = "\n".join(before)
    assert "option name UCI_Variant type combo default alice var alice" in options
    assert re.search(r"option name Hash type spin default \d+ min 1 max \d+", options)
    assert "option name Clear Hash type button" in options
    assert re.search(r"option name MultiPV type spin default 1 min 1 max \d+", options)
    assert re.search(r"option name Move Overhead type spin default \d+ min 0 max \d+", options)
    assert "option name Ponder type check default false" in options
    assert uci.ready() == []


@pytest.mark.parametrize(
    "command",
    [
        "setoption name UCI_Variant value alice",
        "setoption name uci_variant value ALICE",
        "setoption name Hash value 8",
        "setoption name hash value 1",
        "setoption name Clear Hash",
        "setoption name clear hash value ignored",
        "setoption name MultiPV value 4",
        "setoption name Move Overhead value 100",
        "setoption name move   OVERHEAD value 0",
        "setoption name Ponder value true",
        "setoption name Ponder value FALSE",
    ],
)
def test_setoption_accepts_good_values_silently(shared: Uci, command: str) -> None:
    shared.send(command)
    assert shared.ready() == []


def test_bad_option_value_keeps_the_old_value(uci: Uci) -> None:
    uci.send("setoption name MultiPV value 2")
    for bad in ("0", "x", "100000", ""):
        uci.send(f"setoption name MultiPV value {bad}")
        before = uci.ready()
        assert len(before) == 1 and before[0].startswith("info string error: "), before
    uci.send("position startpos")
    uci.send("go depth 2")
    _, _, before = uci.bestmove()
    assert any(" multipv 2 " in line for line in before), before


def test_multipv_lines(uci: Uci) -> None:
    uci.send("setoption name MultiPV value 3")
    uci.send("position startpos")
    uci.send("go depth 2")
    _, _, before = uci.bestmove()
    last = {}
    for line in before:
        match = INFO_LINE.match(line)
        assert match, line
        last[int(match.group(3))] = line.split(" pv ")[1].split()[0]
    assert sorted(last) == [1, 2, 3] and len(set(last.values())) == 3


# ---------------------------------------------------------------- position and d
def test_position_with_suffixed_moves(uci: Uci) -> None:
    uci.send("position startpos moves e2e4/B d7d5/b")
    assert uci.fen() == AFTER_E4_D5
    uci.send("position startpos moves e2e4 d7d5")
    assert uci.fen() == AFTER_E4_D5


def test_position_fen_compact_and_16_wide(uci: Uci) -> None:
    uci.send("position fen 4k11/16/16/16/12P3/16/16/4K11 w - - 0 1")
    assert uci.fen() == "4k3/8/8/8/4|P3/8/8/4K3 w - - 0 1"
    uci.send("position fen 4k3/8/8/8/4|P3/8/8/4K3 w - - 0 1 moves e1d1/B")
    assert uci.fen() == "4k3/8/8/8/4|P3/8/8/3|K4 b - - 1 1"


def test_d_draws_both_boards_side_by_side(uci: Uci) -> None:
    uci.send("position startpos moves e2e4/B")
    uci.send("d")
    _, before, _ = uci.expect("^Fen: ")
    uci.expect("^Key: [0-9A-F]{16}$")
    uci.expect("^Checkers:")
    header = before[0]
    assert header.index("Board A") < header.index("Board B")
    rank4 = next(line for line in before if line.rstrip().endswith("| 4") and line.count("| 4") == 2)
    left, right = rank4[: len(rank4) // 2], rank4[len(rank4) // 2 :]
    assert "P" not in left and "P" in right  # the pawn went through to board B
    rank1 = next(line for line in before if line.rstrip().endswith("| 1"))
    assert "K" in rank1[: len(rank1) // 2]


def test_ucinewgame_keeps_serving(uci: Uci) -> None:
    uci.send("ucinewgame")
    uci.send("position startpos moves e2e4")
    assert uci.ready() == []
    uci.send("go depth 1")
    best, ponder, _ = uci.bestmove()
    assert_legal("position startpos moves e2e4", best, ponder)


# ---------------------------------------------------------------- bad input never changes anything
BAD_INPUT = [
    "foo",
    "position",
    "position banana",
    "position fen",
    "position startpos e2e4",
    "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
    "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",
    "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
    "position fen 4k11/16/16/16/12P3/16/16/4K11 x - - 0 1",
    "position startpos moves e2e5",
    "position startpos moves e2e4 e7e5 zz",
    "position startpos moves e2e4/A",
    "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1 e1g1",
    "go depth x",
    "go depth 0",
    "go nodes -3",
    "go mate",
    "go movestogo zero",
    "go searchmoves e2e5",
    "go searchmoves",
    "go banana 3",
    "go depth 2 depth 3",
    "go perft x",
    "go perft 0",
    "go perft",
    "setoption",
    "setoption name",
    "setoption name Hash value abc",
    "setoption name Hash value 0",
    "setoption name Hash value 1000000",
    "setoption name Hash",
    "setoption name MultiPV value -1",
    "setoption name Move Overhead value 1e3",
    "setoption name Ponder value maybe",
    "setoption name UCI_Variant value chess",
    "setoption name UCI_Variant value",
    "setoption name No Such Option value 3",
    "debug sideways",
    "bench x",
    "\u00e9t\u00e9",
]


@pytest.mark.parametrize("line", BAD_INPUT)
def test_bad_input_gives_one_error_and_changes_nothing(shared: Uci, line: str) -> None:
    shared.send("position startpos moves e2e4/B d7d5")
    before_fen = shared.fen()
    shared.send(line)
    out = shared.ready()
    assert len(out) == 1 and out[0].startswith("info string error: "), out
    assert shared.fen() == before_fen == AFTER_E4_D5
    assert shared.nothing_within(0.02) == []  # no late bestmove: nothing started


def test_garbage_bytes_and_crlf(uci: Uci) -> None:
    uci.send(b"\xff\xfe\x00junk\n")
    assert len(uci.ready()) == 1
    uci.send(b"isready\r\n")
    uci.expect("^readyok$")
    uci.send("   ")
    uci.send("")
    assert uci.ready() == []


# ---------------------------------------------------------------- go: legal bestmoves
GO_POSITIONS = ["position startpos", "position startpos moves e2e4 e7e5 g1f3"]


@pytest.mark.parametrize("position", GO_POSITIONS)
@pytest.mark.parametrize(
    "go", ["go nodes 1", "go depth 1", "go movetime 200", "go wtime 500 btime 500", "go wtime -5 btime -5 winc -1"]
)
def test_go_returns_a_legal_bestmove(shared: Uci, position: str, go: str) -> None:
    shared.send("setoption name MultiPV value 1")
    shared.send(position)
    start = shared.send(go)
    best, ponder, before = shared.bestmove(timeout=5)
    assert not any(line.startswith("info string error") for line in before), before
    assert_legal(position, best, ponder)
    assert time.perf_counter() - start < 3.0


@pytest.mark.parametrize(
    "go",
    [
        "go nodes 9223372036854775808",  # 2^63: one more than a signed 64-bit count holds
        f"go nodes {10**30}",
        f"go depth {10**30}",
        f"go movetime {10**30}",
        f"go wtime {10**30} btime {10**30} winc {10**30} binc {10**30} movestogo {10**30}",
    ],
)
def test_huge_limits_are_clamped_and_searched(uci: Uci, go: str) -> None:
    """A limit too large for the search's counters is searched as the largest one (issue 37):
    a real search (info lines) until ``stop``, a legal move, no error."""
    uci.send("position startpos")
    uci.send(go)
    time.sleep(0.3)  # let it search a moment
    uci.send("stop")
    best, ponder, before = uci.bestmove()
    assert not any(line.startswith("info string") for line in before), before
    assert any(INFO_LINE.match(line) for line in before), before  # a move from a search
    assert_legal("position startpos", best, ponder)


def test_info_lines_are_well_formed(uci: Uci) -> None:
    uci.send("position startpos")
    uci.send("go depth 3")
    best, _, before = uci.bestmove()
    infos = [line for line in before if line.startswith("info")]
    assert infos and all(INFO_LINE.match(line) for line in infos), infos
    assert [int(INFO_LINE.match(line).group(1)) for line in infos] == [1, 2, 3]  # type: ignore[union-attr]
    assert infos[-1].split(" pv ")[1].split()[0] == best


def test_go_movetime_respects_the_time(uci: Uci) -> None:
    uci.send("position startpos")
    start = uci.send("go movetime 200")
    (
        _,
        _,
        _,
    ) = uci.bestmove()
    assert time.perf_counter() - start < 3.0


def test_searchmoves_restricts_the_root(uci: Uci) -> None:
    uci.send("position startpos")
    uci.send("go depth 2 searchmoves a2a3 h2h3/B")
    best, _, _ = uci.bestmove()
    assert best in ("a2a3", "h2h3")


def test_go_mate_finds_the_mate(uci: Uci) -> None:
    uci.send(MATE_IN_ONE)
    uci.send("go mate 1")
    best, _, before = uci.bestmove()
    assert best == "e2b5"
    assert any(" score mate 1 " in line for line in before)


@pytest.mark.parametrize("position", [MATED, f"position fen {STALEMATE_FEN}"])
def test_bestmove_none_without_legal_moves(uci: Uci, position: str) -> None:
    uci.send(position)
    uci.send("go depth 3")
    best, ponder, _ = uci.bestmove()
    assert best == "(none)" and ponder is None
    uci.send("go infinite")
    assert not any(line.startswith("bestmove") for line in uci.nothing_within(0.3))
    uci.send("stop")
    best, _, _ = uci.bestmove(timeout=1)
    assert best == "(none)"


BARE_KINGS = ["4k3/8/8/8/8/8/8/4K3 w - - 0 1", "4k3/8/8/8/8/8/8/4|K3 b - - 7 40"]  # a draw by the rules
LAST_PIECE = "4k3/8/8/8/8/8/3n4/4K3 w - - 0 1"  # white takes the knight (Kxd2, to board B): bare kings


def info_scores(lines: list[str]) -> list[str]:
    """The ``score`` of every ``info depth`` line (``cp N`` or ``mate N``)."""
    return [m.group(4) for m in map(INFO_LINE.match, lines) if m]


@pytest.mark.parametrize("fen", BARE_KINGS)
def test_bare_kings_score_zero(uci: Uci, fen: str) -> None:
    """The search and the static evaluation give 0 (the web board shows 0 for the finished game)."""
    uci.send(f"position fen {fen}")
    uci.send("go depth 6")
    best, _, before = uci.bestmove()
    assert_legal(f"position fen {fen}", best, None)
    assert info_scores(before) == ["cp 0"] * 6, before
    uci.send("eval")
    line, _, _ = uci.expect("^Final evaluation: ")
    assert line.startswith("Final evaluation: +0 cp (white side), +0 cp")


def test_taking_the_last_piece_scores_zero(uci: Uci) -> None:
    """Bare kings inside the tree score 0: taking the last piece is the best white has."""
    uci.send(f"position fen {LAST_PIECE}")
    uci.send("go depth 4")
    best, _, before = uci.bestmove()
    assert best == "e1d2"
    assert info_scores(before)[-1] == "cp 0", before


# ---------------------------------------------------------------- infinite, ponder, stop
def test_stop_latency_during_go_infinite(uci: Uci) -> None:
    uci.ready()  # measure the search, not the engine's start-up
    latencies = []
    for wait in (0.0, 0.01, 0.3, 1.0):
        uci.send("position startpos moves e2e4 e7e5")
        uci.send("go infinite")
        assert not any(line.startswith("bestmove") for line in uci.nothing_within(wait))
        sent = uci.send("stop")
        line, _, at = uci.expect("^bestmove ", timeout=2)
        latencies.append(at - sent)
        best = BESTMOVE.match(line).group(1)  # type: ignore[union-attr]
        assert_legal("position startpos moves e2e4 e7e5", best, None)
    print("stop latencies (ms):", [round(x * 1000, 1) for x in latencies])
    assert max(latencies) < 1.0, latencies  # generous; the tight figure: scripts/bench_latency.py


def test_infinite_finished_early_waits_for_stop(uci: Uci) -> None:
    uci.send("position startpos")
    uci.send("go infinite depth 1")
    _, before, _ = uci.expect(r"^info .*\bdepth 1\b", timeout=10)  # the one ply is done (a loaded machine may take a while)
    got = before + uci.nothing_within(0.4)
    assert not any(line.startswith("bestmove") for line in got), got  # ... and the engine waits for stop
    uci.send("stop")
    best, _, _ = uci.bestmove(timeout=1)
    assert_legal("position startpos", best, None)


def test_ponder_then_ponderhit(uci: Uci) -> None:
    uci.send("setoption name Ponder value true")
    uci.send("position startpos moves e2e4")
    uci.send("go ponder wtime 2000 btime 2000")
    assert not any(line.startswith("bestmove") for line in uci.nothing_within(0.4))
    uci.send("ponderhit")
    best, ponder, _ = uci.bestmove(timeout=3)
    assert_legal("position startpos moves e2e4", best, ponder)


def test_info_time_after_ponderhit_counts_from_go(uci: Uci) -> None:
    # The nodes count from `go ponder`, so `time` must too: nps is their ratio (it read several
    # times too high after a ponderhit when the time restarted at the hit).
    uci.send("position startpos moves e2e4")
    go = uci.send("go ponder movetime 3000")
    before = [line for line in uci.nothing_within(0.8) if line.startswith("info depth")]
    hit = uci.send("ponderhit")
    _, _, lines = uci.bestmove(timeout=5)
    after = [line for line in lines if line.startswith("info depth") and " time " in line]
    assert after, (before, lines)  # iterations end after the hit (3 s left to search)
    times = [int(line.split(" time ")[1].split()[0]) for line in after]
    assert min(times) >= (hit - go) * 1000 - 150, (before, after)  # the pondering before the hit counts
    last = after[-1].split()
    nodes, nps, ms = (int(last[last.index(k) + 1]) for k in ("nodes", "nps", "time"))
    assert abs(nps - nodes * 1000 // max(1, ms)) <= nps // 20 + 1
    assert time.monotonic() - hit < 5


def test_ponderhit_at_once_still_moves_in_time(uci: Uci) -> None:
    uci.ready()
    uci.send("position startpos moves e2e4")
    uci.send("go ponder wtime 1000 btime 1000")
    sent = uci.send("ponderhit")
    best, ponder, _ = uci.bestmove(timeout=3)
    assert time.monotonic() - sent < 2.0  # a lost ponderhit would never answer
    assert_legal("position startpos moves e2e4", best, ponder)


def test_ponder_then_stop(uci: Uci) -> None:
    uci.ready()
    uci.send("position startpos moves e2e4")
    uci.send("go ponder depth 1")
    assert not any(line.startswith("bestmove") for line in uci.nothing_within(0.3))
    sent = uci.send("stop")
    line, _, at = uci.expect("^bestmove ", timeout=2)
    assert at - sent < 1.0
    assert_legal("position startpos moves e2e4", BESTMOVE.match(line).group(1), None)  # type: ignore[union-attr]


def test_isready_answers_at_once_while_searching(uci: Uci) -> None:
    uci.ready()
    uci.send("position startpos")
    uci.send("go infinite")
    time.sleep(0.2)
    sent = uci.send("isready")
    _, _, at = uci.expect("^readyok$", timeout=2)
    assert at - sent < 1.0
    uci.send("stop")
    uci.bestmove(timeout=1)


def test_commands_during_a_search(uci: Uci) -> None:
    uci.send("position startpos")
    uci.send("go infinite")
    time.sleep(0.1)
    for refused in ("go depth 1", "ucinewgame", "setoption name Hash value 4", "setoption name Clear Hash"):
        uci.send(refused)
        _, before, _ = uci.expect("^info string error: ", timeout=1)
        assert not any(line.startswith("bestmove") for line in before)
    uci.send("setoption name MultiPV value 1")  # plain values may change at any time
    uci.send("position startpos moves d2d4")  # the search keeps its own copy
    uci.send("stop")
    best, _, _ = uci.bestmove(timeout=1)
    assert_legal("position startpos", best, None)
    assert uci.nothing_within(0.1) == []  # exactly one bestmove
    assert uci.fen() == "rnbqkbnr/pppppppp/8/8/3|P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1"
    uci.send("go depth 1")
    best, _, _ = uci.bestmove()
    assert_legal("position startpos moves d2d4", best, None)


def test_stop_and_ponderhit_when_idle_are_ignored(uci: Uci) -> None:
    uci.send("stop")
    uci.send("ponderhit")
    assert uci.ready() == []


# ---------------------------------------------------------------- perft, eval, bench
def test_go_perft_divide_format(uci: Uci) -> None:
    uci.send("go perft 3")
    _, before, _ = uci.expect("^Nodes searched: ", timeout=20)
    last = uci.log[-1]
    assert last == "Nodes searched: 9384"
    assert before[-1] == ""
    expected = [f"{move}: {count}" for move, count in divide(Position(), 3)]
    assert before[:-1] == expected
    assert uci.ready() == [""]  # Stockfish's trailing blank line


def test_eval_prints_terms_and_total(uci: Uci) -> None:
    from search.evaluate import evaluate, terms

    uci.send("position startpos moves e2e4 d7d5 g1f3")
    uci.send("eval")
    line, before, _ = uci.expect("^Final evaluation: ")
    pos = position_of("position startpos moves e2e4 d7d5 g1f3")
    for name, cp in terms(pos):
        assert any(row.split("|")[0].strip() == name and int(row.split("|")[1]) == cp for row in before), name
    assert f"{evaluate(pos):+d} cp (black to move)" in line


def test_bench_is_deterministic(uci: Uci) -> None:
    counts = []
    for _ in range(2):
        uci.send("bench 1")
        line, _, _ = uci.expect("^Nodes searched: ", timeout=20)
        counts.append(int(line.split(": ")[1]))
        uci.expect(r"^Nodes/second: \d+$")
    assert counts[0] == counts[1] > 0


# ---------------------------------------------------------------- process behaviour
def test_eof_exits_with_status_zero() -> None:
    engine = Uci()
    engine.send("uci")
    engine.expect("^uciok$")
    engine.proc.stdin.close()  # type: ignore[union-attr]
    assert engine.proc.wait(5) == 0
    assert engine.stderr == b"" or b"Traceback" not in engine.stderr


def test_eof_during_search_still_answers_and_exits_zero() -> None:
    engine = Uci()
    engine.send("position startpos")
    engine.send("go infinite")
    time.sleep(0.2)
    start = time.perf_counter()
    engine.proc.stdin.close()  # type: ignore[union-attr]
    assert engine.proc.wait(5) == 0
    assert time.perf_counter() - start < 3.0
    best, _, _ = engine.bestmove(timeout=1)
    assert_legal("position startpos", best, None)


def test_quit_during_search_is_quick() -> None:
    engine = Uci()
    engine.send("position startpos")
    engine.send("go infinite")
    time.sleep(0.3)
    sent = engine.send("quit")
    assert engine.proc.wait(5) == 0
    assert time.monotonic() - sent < 2.0
    assert b"Traceback" not in engine.stderr


def test_ctrl_c_is_quiet() -> None:
    engine = Uci()
    engine.send("isready")
    engine.expect("^readyok$")
    engine.proc.send_signal(signal.SIGINT)
    assert engine.proc.wait(5) == 130
    assert engine.stderr == b"", engine.stderr.decode()


def test_closed_stdout_is_quiet() -> None:
    read_end, write_end = os.pipe()
    proc = subprocess.Popen(engine_command(), stdin=subprocess.PIPE, stdout=write_end, stderr=subprocess.PIPE, cwd=CHILD_CWD)
    os.close(write_end)
    os.close(read_end)  # the GUI went away: every write now fails with EPIPE
    _, err = proc.communicate(b"uci\nisready\ngo depth 2\nd\n", timeout=10)
    assert proc.returncode == 0
    assert err == b"", err.decode()


def test_a_session_prints_only_protocol_lines() -> None:
    engine = Uci()
    for line in ("uci", "debug off", "setoption name Hash value 4", "ucinewgame", "isready"):
        engine.send(line)
    engine.expect("^readyok$")
    engine.send("position startpos moves e2e4/B")
    engine.send("go depth 2")
    engine.bestmove()
    engine.send("position startpos moves e2e4 e7e5")
    engine.send("go wtime 300 btime 300 winc 10 binc 10")
    engine.bestmove()
    engine.send("go infinite")
    time.sleep(0.1)
    engine.send("stop")
    engine.bestmove()
    assert engine.close() == 0
    engine.nothing_within(0.2)
    bad = [line for line in engine.log if not PROTOCOL_LINE.match(line)]
    assert bad == [], bad
    assert engine.stderr == b"", engine.stderr.decode()


def test_python_m_uci_is_the_same_engine() -> None:
    engine = Uci([sys.executable, "-m", "uci"])
    engine.send("uci")
    line, _, _ = engine.expect("^id name ")
    engine.expect("^uciok$")
    other = Uci()
    other.send("uci")
    assert other.expect("^id name ")[0] == line
    assert engine.close() == 0 and other.close() == 0


def test_python_chess_can_drive_it() -> None:
    import chess.engine

    engine = chess.engine.SimpleEngine.popen_uci(engine_command(), cwd=CHILD_CWD, timeout=10)
    try:
        for name in ("UCI_Variant", "Hash", "Clear Hash", "MultiPV", "Move Overhead", "Ponder"):
            assert name in engine.options, name
        assert engine.options["UCI_Variant"].var == ["alice"]
        assert engine.options["Hash"].type == "spin"
        assert engine.id["name"].startswith("Alice")
        engine.configure({"Hash": 8, "Move Overhead": 50})
        engine.ping()
        try:
            from engine.board import AliceBoard
        except ImportError:  # pragma: no cover - the python-chess board class is optional here
            return
        board = AliceBoard()
        for san in ("e4", "d5"):
            board.push_san(san)
        played = engine.play(board, chess.engine.Limit(depth=2))
        assert played.move is not None and played.move in board.legal_moves
        infos = engine.analyse(board, chess.engine.Limit(depth=2), multipv=2)
        assert len(infos) == 2 and all(info["pv"][0] in board.legal_moves for info in infos)
    finally:
        engine.quit()
