"""Endgame tablebases: generation over the command line, the file format's checks, the index
and its symmetries, and the values against independent mate searches (``search/mate.py``'s
exact proof and a brute-force minimax)."""

from __future__ import annotations

import os
import random
import re
import subprocess
import threading

import pytest

from engine.position import Position
from mate_solver import shortest_mate
from search.limits import Limits
from search.search import Searcher
from support.installed import CHILD_CWD, engine_command
from tablebase.ending import PAWN, Ending, ending, locate
from tablebase.fileformat import TableFileError, read_table, write_table
from tablebase.generate import generate
from tablebase.probe import Tablebases, placement, position_at
from tablebase.values import DECIDED, DRAWN, ILLEGAL


def fen_of(e: Ending, slots: list[int], stm: int) -> str:
    """The compact FEN of a table entry."""
    return position_at(e, slots, stm).fen()


def kqk_values(directory: str) -> bytes:
    return read_table(os.path.join(directory, "KQK.atb"), "KQK", ending("KQK").size)


def sample(values: bytes, name: str, count: int, seed: int, keep: object = None) -> list[tuple[str, int]]:
    """``count`` random legal entries ``(fen, value)`` of a table, filtered by ``keep(value)``."""
    e = ending(name)
    rng = random.Random(seed)
    out: list[tuple[str, int]] = []
    while len(out) < count:
        idx = rng.randrange(e.size)
        v = values[idx]
        if v == ILLEGAL or (callable(keep) and not keep(v)):
            continue
        decoded = e.decode(idx)
        assert decoded is not None
        out.append((fen_of(e, *decoded), v))
    return out


def test_generation_reports_progress_and_resumes(kqk_run: tuple[str, subprocess.CompletedProcess[str]]) -> None:
    directory, first = kqk_run
    assert re.search(r"KQK +\[#+\] 100%", first.stderr)
    assert "longest mate" in first.stdout
    again = subprocess.run(
        [*engine_command(), "tb", "generate", "KQK", "--dir", directory],
        capture_output=True, text=True, cwd=CHILD_CWD, timeout=60,
    )  # fmt: skip
    assert again.returncode == 0
    assert "already complete, skipped" in again.stdout


def test_bad_ending_is_one_error_line(tmp_path: object) -> None:
    done = subprocess.run(
        [*engine_command(), "tb", "generate", "KXK", "--dir", str(tmp_path)],
        capture_output=True, text=True, cwd=CHILD_CWD, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "not an ending" in done.stderr
    assert "Traceback" not in done.stderr + done.stdout


def test_header_names_ending_version_and_rule(kqk_dir: str) -> None:
    with open(os.path.join(kqk_dir, "KQK.atb"), "rb") as f:
        line = f.readline().decode()
    assert line.startswith("ALICE-TB 1 KQK dtm fifty-move-rule-ignored values=327680 crc32=")


@pytest.mark.parametrize("where", ["header", "data", "truncated"])
def test_corruption_is_detected(kqk_dir: str, tmp_path: object, where: str) -> None:
    with open(os.path.join(kqk_dir, "KQK.atb"), "rb") as f:
        data = bytearray(f.read())
    end = data.index(b"\n")
    if where == "header":
        data[end - 1] ^= 1  # the checksum's last digit
    elif where == "data":
        values = bytearray(kqk_values(kqk_dir))
        values[12345] ^= 1
        write_table(str(tmp_path), "KQK", values)
        with open(os.path.join(str(tmp_path), "KQK.atb"), "rb") as f:
            bad = bytearray(f.read())
        data = data[: end + 1] + bad[bad.index(b"\n") + 1 :]  # good header (old checksum), other data
    else:
        data = data[: len(data) // 2]
    path = os.path.join(str(tmp_path), "KQK.atb")
    with open(path, "wb") as f:
        f.write(data)
    with pytest.raises(TableFileError):
        read_table(path, "KQK", ending("KQK").size)
    reports: list[str] = []
    tb = Tablebases(str(tmp_path), reports.append)
    pos = Position("8/8/8/4k3/8/8/8/1Q2K3 w - - 0 1")
    assert tb.probe(pos) == ILLEGAL and tb.probe(pos) == ILLEGAL
    assert len(reports) == 1 and "KQK.atb ignored" in reports[0]


def test_index_round_trip() -> None:
    for name in ("KQK", "KPK", "KRKN", "KPKP"):
        e = ending(name)
        rng = random.Random(name)
        for _ in range(2000):
            idx = rng.randrange(e.size)
            decoded = e.decode(idx)
            if decoded is not None:
                assert e.index(*decoded) == idx


def _mirrors(pieces: list[tuple[int, int]], pawns: bool) -> list[list[tuple[int, int]]]:
    """The placement under each symmetry Alice keeps (mirrors of both boards, the board swap)."""
    out = []
    for kind in range(2 if pawns else 8):
        for swap in (0, 64):
            moved = []
            for code, s in pieces:
                f, r = s & 7, (s >> 3) & 7
                if kind & 4:
                    f, r = r, f
                if kind & 1:
                    f = 7 - f
                if kind & 2:
                    r = 7 - r
                moved.append((code, (r * 8 + f) | ((s & 64) ^ swap)))
            out.append(moved)
    return out


def test_symmetric_positions_have_one_value(kqk_dir: str) -> None:
    """Every mirror and board swap of a position has the same value, in the table and when the
    position is set up from its FEN (the engine's own move generation decides it)."""
    values = kqk_values(kqk_dir)
    tb = Tablebases(kqk_dir)
    for fen, value in sample(values, "KQK", 200, 1):
        pos = Position(fen)
        assert tb.probe(pos) == value
        for mirrored in _mirrors(placement(pos), False):
            name, slots, stm = locate(mirrored, pos.turn)
            assert values[ending(name).index(slots, stm)] == value


def test_colour_swap_reads_white_table(kqk_dir: str) -> None:
    """Black with the queen: the position with colours swapped and the boards mirrored up-down."""
    tb = Tablebases(kqk_dir)
    for fen, value in sample(kqk_values(kqk_dir), "KQK", 100, 5):
        board, stm = fen.split()[:2]
        swapped = "/".join(reversed(board.split("/"))).swapcase()
        other = Position(f"{swapped} {'b' if stm == 'w' else 'w'} - - 0 1")
        assert tb.probe(other) == value


def _proof_length(fen: str, limit: int) -> int | None:
    """``go mate`` (search/mate.py): the shortest proved mate in moves, or None."""
    pos = Position(fen)
    its = []
    Searcher(4).search(pos, Limits(mate=limit, nodes=2_000_000), threading.Event(), its.append)
    proofs = [it.mate for it in its if it.mate is not None and it.mate > 0]
    return min(proofs) if proofs else None


def _agrees_with_mate_search(fen: str, value: int, limit: int) -> None:
    if value == DRAWN:
        assert shortest_mate(Position(fen), 2) is None, fen
        return
    plies = value - DECIDED
    if plies % 2:
        moves = (plies + 1) // 2
        assert _proof_length(fen, moves) == moves, fen
        if moves > 1:
            assert shortest_mate(Position(fen), moves - 1) is None, fen
    else:  # lost: every move leads to a win for the other side, the longest in plies - 1
        pos = Position(fen)
        tb_longest = 0
        for m in pos.legal_moves():
            pos.push(m)
            tb_longest = max(tb_longest, shortest_mate(pos, plies // 2) or 99)
            pos.pop()
        assert tb_longest == plies // 2 or plies == 0, fen


def test_values_agree_with_mate_search(kqk_dir: str) -> None:
    """A hundred random KQK positions, short distances: the mate proof and brute force agree."""
    values = kqk_values(kqk_dir)
    cases = sample(values, "KQK", 70, 2, lambda v: v == DRAWN or v - DECIDED <= 3)
    cases += sample(values, "KQK", 30, 3, lambda v: v != DRAWN and 3 < v - DECIDED <= 5)
    for fen, value in cases:
        _agrees_with_mate_search(fen, value, 4)


@pytest.mark.slow
def test_values_agree_with_mate_search_many(kqk_dir: str) -> None:
    """Thousands of positions: 2,000 KQK and 1,000 KRK ones within 5 plies of mate (or drawn), and
    60 KQK ones 7 to 9 plies from mate (each proof takes about a second, pure Python)."""
    krk = generate("KRK", lambda name: None)
    cases = [("KQK", kqk_values(kqk_dir), 2000, lambda v: v == DRAWN or v - DECIDED <= 5)]
    cases += [("KRK", bytes(krk), 1000, lambda v: v == DRAWN or v - DECIDED <= 5)]
    cases += [("KQK", kqk_values(kqk_dir), 60, lambda v: v != DRAWN and 7 <= v - DECIDED <= 9)]
    for seed, (name, values, count, keep) in enumerate(cases):
        for fen, value in sample(values, name, count, 10 + seed, keep):
            _agrees_with_mate_search(fen, value, 5)


@pytest.mark.slow
def test_pawn_ending_agrees_with_mate_search(kqk_dir: str) -> None:
    """KPK, generated after KQK .. KNK (a promotion is read in those tables): 20 positions within
    7 plies of mate and 20 drawn ones agree with go mate and brute force."""
    tables = {"KQK": kqk_values(kqk_dir)}
    for name in ("KRK", "KBK", "KNK", "KPK"):
        tables[name] = bytes(generate(name, tables.get))
    values = tables["KPK"]
    cases = sample(values, "KPK", 20, 20, lambda v: v != DRAWN and v - DECIDED <= 7)
    cases += sample(values, "KPK", 20, 21, lambda v: v == DRAWN)
    for fen, value in cases:
        _agrees_with_mate_search(fen, value, 4)


@pytest.mark.slow
def test_reduction_equals_full_enumeration() -> None:
    """KNK generated without any symmetry (every white-king square on both boards) gives every
    position the value the reduced table gives it."""
    full = generate("KNK", lambda name: None, reduced=False)
    reduced = generate("KNK", lambda name: None)
    e_full, e_red = ending("KNK", False), ending("KNK")
    checked = 0
    for idx in range(e_full.size):
        decoded = e_full.decode(idx)
        if decoded is None:
            assert full[idx] == ILLEGAL
            continue
        slots, stm = decoded
        assert full[idx] == reduced[e_red.index(slots, stm)], fen_of(e_full, slots, stm)
        checked += 1
    assert checked > 3_000_000


def test_pawn_never_on_back_rank() -> None:
    e = ending("KPK")
    assert e.decode(e.index([0, 64 | 60, 63], 1)) is None  # pawn on e8 (board B)
    assert any(c & 7 == PAWN for c in e.codes)


def test_probe_with_a_piece_on_h8(kqk_dir: str) -> None:
    """h8 is bit 63, the sign bit of the compiled build's bitboards: the probe still reads it."""
    pos = Position("7K/8/8/8/8/8/8/k|Q6 w - - 0 1")
    assert sorted(placement(pos)) == [(6, 0), (13, 65), (14, 63)]
    assert Tablebases(kqk_dir).probe(pos) >= DECIDED
