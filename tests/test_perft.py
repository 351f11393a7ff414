"""Perft: leaf counts of the legal move tree against the reference numbers.

The numbers (computed with the Fairy-Stockfish alice branch) live in
``../shared/data/perft.epd`` beside the checkout. They are also embedded below so the
perft tests never depend on that file; ``test_epd_file_agrees_with_table`` checks the
two agree whenever the file is there.

Timings on the 2-core dev box (load ~3.5 from other jobs): depth 4 of the four
non-start lines 1.6-3.3 s each, start depth 5 about 10 s; all slow perfts ~18 s.
"""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from typing import Any

import chess
import pytest

from engine import STARTING_FEN, Position, divide, move_to_uci, perft

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EPD_PATH = os.path.join(ROOT, "..", "shared", "data", "perft.epd")

START = STARTING_FEN
ALICE_BISHOP = "rnbqkbnr/ppp1pppp/8/8/4p3/8/PPPP|BPPP/RNBQK1NR w KQkq - 0 3"
KNIGHTS = "r1bqkb1r/pppp1ppp/2|n2|n2/4|p3/2|B1|P3/5|N2/PPPP1PPP/RNBQ1|R|K1 b kq - 5 4"
MIDDLEGAME = "r3kb1r/pp2pppp/3|p4/2|pP1|b2/2|Pnn3/|q1|N1|B3/PP|QNPPPP/1K1|R1B1R w kq - 6 11"
KING_WALK = "r1b2b1r/pp|k3pp/3|p|p2|B/2|p2P2/2|Pnn1|P1/1|P3|P2/P6P/|q4QK1 w - - 0 21"

# FEN -> {depth: nodes}; every entry of perft.epd, nothing more.
EXPECTED: dict[str, dict[int, int]] = {
    START: {1: 20, 2: 400, 3: 9384, 4: 219236, 5: 5910465, 6: 157727925},
    ALICE_BISHOP: {1: 30, 2: 915, 3: 28877, 4: 976330, 5: 32489134},
    KNIGHTS: {1: 33, 2: 1019, 3: 34476, 4: 1127283, 5: 39875182},
    MIDDLEGAME: {1: 32, 2: 1373, 3: 41655, 4: 1794683, 5: 57092223},
    KING_WALK: {1: 26, 2: 1154, 3: 27697, 4: 1221670, 5: 29640333},
}
NAMES = {START: "start", ALICE_BISHOP: "alice-bishop", KNIGHTS: "knights", MIDDLEGAME: "middlegame", KING_WALK: "king-walk"}


def read_epd(path: str) -> dict[str, dict[int, int]]:
    """``FEN ;D1 n ;D2 n ...`` lines into {FEN: {depth: nodes}}."""
    table: dict[str, dict[int, int]] = {}
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if not line.strip():
                continue
            fen, *fields = line.split(";")
            counts = {}
            for field in fields:
                tag, value = field.split()
                assert tag.startswith("D"), f"unexpected EPD field {field!r} in {path}"
                counts[int(tag[1:])] = int(value)
            table[fen.strip()] = counts
    return table


def test_epd_file_agrees_with_table() -> None:
    """The embedded table is exactly the shared perft.epd (when the file is beside the checkout)."""
    if not os.path.exists(EPD_PATH):
        warnings.warn(f"{os.path.normpath(EPD_PATH)} not found: perft tests use the embedded table only", stacklevel=1)
        # The embedded table must still be self-consistent: depth 1 is the move count.
        for fen, counts in EXPECTED.items():
            assert len(Position(fen).legal_moves()) == counts[1], fen
        return
    assert read_epd(EPD_PATH) == EXPECTED


def cases(max_nodes: int, min_nodes: int = 0) -> list[Any]:
    """pytest params (fen, depth, nodes) whose node count lies in [min_nodes, max_nodes]."""
    return [
        pytest.param(fen, depth, nodes, id=f"{NAMES[fen]}-d{depth}")
        for fen, counts in EXPECTED.items()
        for depth, nodes in sorted(counts.items())
        if min_nodes <= nodes <= max_nodes
    ]


@pytest.mark.parametrize("fen, depth, nodes", cases(50_000))
def test_perft_shallow(fen: str, depth: int, nodes: int) -> None:
    assert perft(Position(fen), depth) == nodes


@pytest.mark.parametrize("fen, depth, nodes", cases(250_000, 50_001))
def test_perft_start_depth4(fen: str, depth: int, nodes: int) -> None:
    """Start position depth 4 (219,236): ~0.4 s, so not marked slow."""
    assert perft(Position(fen), depth) == nodes


@pytest.mark.slow
@pytest.mark.parametrize("fen, depth, nodes", cases(2_000_000, 250_001))
def test_perft_depth4(fen: str, depth: int, nodes: int) -> None:
    """Depth 4 of the four non-start lines (1.0-1.8M nodes, 1.5-3.5 s each)."""
    assert perft(Position(fen), depth) == nodes


@pytest.mark.slow
def test_perft_start_depth5() -> None:
    """5,910,465 nodes, about 11 s."""
    assert perft(Position(), 5) == 5910465


def test_perft_restores_position() -> None:
    for fen in EXPECTED:
        pos = Position(fen)
        before = (pos.sq[:], pos.bb[:], pos.key, pos.castling, pos.halfmove, pos.fullmove, pos.turn)
        perft(pos, 2)
        assert (pos.sq, pos.bb, pos.key, pos.castling, pos.halfmove, pos.fullmove, pos.turn) == before


@pytest.mark.parametrize("fen", list(EXPECTED), ids=[NAMES[f] for f in EXPECTED])
def test_divide_sums_to_perft(fen: str) -> None:
    pos = Position(fen)
    rows = list(divide(pos, 2))
    assert sum(n for _, n in rows) == EXPECTED[fen][2]
    assert sorted(u for u, _ in rows) == sorted(move_to_uci(pos, m) for m in pos.legal_moves())
    # Each row is the perft of the child position.
    for uci, count in rows[:5]:
        child = Position(fen)
        child.push(next(m for m in child.legal_moves() if move_to_uci(child, m) == uci))
        assert len(child.legal_moves()) == count


def run_script(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, os.path.join(ROOT, "scripts", "perft.py"), *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )


def test_perft_script_divide_format() -> None:
    """Stockfish's divide format: ``move: n`` lines, a blank line, ``Nodes searched: N``, then time."""
    proc = run_script(KNIGHTS, "2", "--divide")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    blank = lines.index("")
    rows = [line.split(": ") for line in lines[:blank]]
    assert len(rows) == 33
    for uci, count in rows:
        chess.Move.from_uci(uci)  # plain coordinates, no board suffix
        assert int(count) > 0
    assert lines[blank + 1] == "Nodes searched: 1019"
    assert sum(int(count) for _, count in rows) == 1019
    assert lines[blank + 2].startswith("Time: ")
    expected = dict(divide(Position(KNIGHTS), 2))
    assert {uci: int(count) for uci, count in rows} == expected


def test_perft_script_startpos_and_split_fen() -> None:
    proc = run_script("startpos", "3")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[0] == "Nodes searched: 9384"
    # The FEN may also come as separate words.
    proc = run_script(*ALICE_BISHOP.split(), "2")
    assert proc.returncode == 0, proc.stderr
    assert "Nodes searched: 915" in proc.stdout


def test_perft_script_rejects_bad_input() -> None:
    proc = run_script("8/8/8/8/8/8/8/8 w - - 0 1", "1")
    assert proc.returncode == 2
    assert "missing white king" in proc.stderr
    proc = run_script("startpos", "deep")
    assert proc.returncode == 2
    assert "depth" in proc.stderr


def test_bench_movegen_counts_the_same_way() -> None:
    """The benchmark's two perfts count correctly (its figures are only meaningful if so)."""
    import bench_movegen

    assert bench_movegen.chess_perft(chess.Board(), 3) == 8902
    assert bench_movegen.alice_round(3)[0] == 9384
    lines: list[str] = []
    ours, theirs = bench_movegen.run(2, 1, report=lines.append)
    assert ours > 0 and theirs > 0
    assert len(lines) == 2 and "perft(2) =       400 nodes" in lines[0]
