"""UCI and SAN moves with the landing-board suffix ``/A`` ``/B`` (engine.notation).

Every SAN expectation without its suffix is also what Fairy-Stockfish's alice
``get_san`` prints (checked here), so the two engines' move lists read the same.
"""

from __future__ import annotations

import random

import chess
import pyffish_alice as ff
import pytest

from engine import STARTING_FEN, MoveError, Position, make_move, move_to_san, move_to_uci, parse_san, parse_uci
from support.walks import walk

V = "alice"


def strip_board(san: str) -> str:
    return san.replace("/A", "").replace("/B", "")


# --------------------------------------------------------------------- UCI
def test_parse_uci_plain_and_suffixed() -> None:
    pos = Position()
    e2e4 = make_move(chess.E2, chess.E4)
    assert parse_uci(pos, "e2e4") == e2e4
    assert parse_uci(pos, "e2e4/B") == e2e4
    assert parse_uci(pos, "e2e4/b") == e2e4  # the suffix is case-insensitive
    assert parse_uci(pos, "  g1f3 ") == make_move(chess.G1, chess.F3)
    pos.push(e2e4)
    # Black's e-pawn is on A, white's on B: d7d5 lands on B.
    assert move_to_uci(pos, parse_uci(pos, "d7d5/B"), suffix=True) == "d7d5/B"


def test_move_to_uci_names_the_landing_board() -> None:
    pos = Position("4k3/8/8/8/4|P3/8/8/4K3 w - - 0 1")
    assert move_to_uci(pos, make_move(chess.E4, chess.E5)) == "e4e5"
    assert move_to_uci(pos, make_move(chess.E4, chess.E5), suffix=True) == "e4e5/A"  # B -> A
    assert move_to_uci(pos, make_move(chess.E1, chess.D1), suffix=True) == "e1d1/B"


def test_promotion_and_castling_uci() -> None:
    pos = Position("4k3/1P6/8/8/8/8/8/R3K2R w KQ - 0 1")
    for letter, ptype in (("q", chess.QUEEN), ("r", chess.ROOK), ("b", chess.BISHOP), ("n", chess.KNIGHT)):
        m = parse_uci(pos, f"b7b8{letter}")
        assert m == make_move(chess.B7, chess.B8, ptype)
        assert move_to_uci(pos, m, suffix=True) == f"b7b8{letter}/B"
    assert parse_uci(pos, "b7b8Q") == make_move(chess.B7, chess.B8, chess.QUEEN)
    assert parse_uci(pos, "e1g1") == make_move(chess.E1, chess.G1)
    assert parse_uci(pos, "e1c1/B") == make_move(chess.E1, chess.C1)


BAD_UCI = [
    # (position, text, message fragment, why)
    (STARTING_FEN, "", "malformed", "empty"),
    (STARTING_FEN, "0\n0", "malformed", "a newline inside the text (was an AttributeError)"),
    (STARTING_FEN, "e2", "malformed", "half a move"),
    (STARTING_FEN, "e2e4e5", "malformed", "trailing square"),
    (STARTING_FEN, "e2-e4", "malformed", "dash is not UCI"),
    (STARTING_FEN, "i9e4", "malformed", "unknown square i9"),
    (STARTING_FEN, "e2e9", "malformed", "unknown square e9"),
    (STARTING_FEN, "e0e4", "malformed", "unknown square e0"),
    (STARTING_FEN, "e2e4/C", "malformed", "no board C"),
    (STARTING_FEN, "e2e4/", "malformed", "empty suffix"),
    (STARTING_FEN, "e2e4/AB", "malformed", "two suffixes"),
    (STARTING_FEN, "0000", "malformed", "null move is not a move here"),
    (STARTING_FEN, "e2e5", "illegal", "pawn cannot move three squares"),
    (STARTING_FEN, "e1g1", "illegal", "castling through own pieces"),
    (STARTING_FEN, "e7e5", "illegal", "not black's move"),
    (STARTING_FEN, "e3e4", "illegal", "no piece on e3"),
    (STARTING_FEN, "e2e4/A", "lands on board B, not A", "wrong suffix: e2e4 lands on B"),
    (STARTING_FEN, "e2e4q", "illegal", "promotion letter on a non-promotion"),
    ("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8", "illegal", "promotion piece missing"),
    ("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8k", "malformed", "promotion to a king"),
    ("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8p", "malformed", "promotion to a pawn"),
    ("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q/A", "lands on board B, not A", "promoted piece lands on B"),
    ("4k3/8/8/8/8/8/8/RR2K3 w Q - 0 1", "e1c1", "illegal", "b1 filled on the castling board"),
    ("4k3/8/8/8/4|P3/8/8/4K3 w - - 0 1", "e1e4", "illegal", "a king cannot jump"),
]


@pytest.mark.parametrize("fen, text, fragment, why", BAD_UCI, ids=[c[3] for c in BAD_UCI])
def test_bad_uci_raises_move_error(fen: str, text: str, fragment: str, why: str) -> None:
    pos = Position(fen)
    before = pos.fen()
    with pytest.raises(MoveError, match=fragment):
        parse_uci(pos, text)
    assert pos.fen() == before
    assert issubclass(MoveError, ValueError)


# --------------------------------------------------------------------- SAN
SAN_CASES = [
    # (FEN, UCI, SAN, why)
    (STARTING_FEN, "e2e4", "e4/B", "a pawn lands on B"),
    (STARTING_FEN, "g1f3", "Nf3/B", "a knight lands on B"),
    ("8/8/3k4/8/4|p3/8/5|N2/4K3 w - - 0 1", "f2e4", "Nxe4/A+", "capture on B lands on A and checks"),
    ("r3k3/8/8/8/8/8/8/R3K3 w Qq - 0 1", "e1c1", "O-O-O/B", "castling long, both land on B"),
    ("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", "O-O/B", "castling short"),
    ("7|k/4P1|p|p/8/8/8/8/8/4K3 w - - 0 1", "e7e8q", "e8=Q/B#", "promotion on B mates the king on B"),
    ("7|k/4P1|p|p/8/8/8/8/8/4K3 w - - 0 1", "e7e8n", "e8=N/B", "under-promotion, no check"),
    ("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "b1d2", "Nbd2/B", "file disambiguation"),
    ("4k3/8/8/8/8/N7/8/N3K3 w - - 0 1", "a1c2", "N1c2/B", "rank disambiguation"),
    ("4k3/8/8/8/8/N3N3/8/N3K3 w - - 0 1", "a3c2", "Na3c2/B", "square disambiguation"),
    ("4k3/8/8/8/8/2N1|N3/8/4K3 w - - 0 1", "c3d5", "Ncd5/B", "rivals on different boards still disambiguate"),
    ("4k3/8/8/8/8/2N1|N3/8/4K3 w - - 0 1", "e3d5", "Ned5/A", "the other rival"),
    ("4k3/8/8/8/8/2|P5/2P5/4K3 w - - 0 1", "c2c4", "2c4/B", "two pawns of one file push to one square"),
    ("4k3/8/8/8/8/2|P5/2P5/4K3 w - - 0 1", "c3c4", "3c4/A", "the other pawn"),
    ("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", "exd5/B", "pawn capture"),
]


@pytest.mark.parametrize("fen, uci, san, why", SAN_CASES, ids=[c[3] for c in SAN_CASES])
def test_san_print_and_parse(fen: str, uci: str, san: str, why: str) -> None:
    pos = Position(fen)
    m = parse_uci(pos, uci)
    assert move_to_san(pos, m) == san
    assert ff.get_san(V, fen, uci) == strip_board(san)  # Fairy-Stockfish prints the same, minus the board
    assert parse_san(pos, san) == m
    assert parse_san(pos, strip_board(san)) == m  # the suffix is optional
    assert pos.fen() == fen  # printing and parsing leave the position alone


def test_early_mate_san() -> None:
    """1.e4/B d5/B 2.Be2/B dxe4/A 3.Bb5/A#: the bishop returns from B to A and mates."""
    pos = Position()
    sans = []
    for uci in "e2e4 d7d5 f1e2 d5e4 e2b5".split():
        m = parse_uci(pos, uci)
        sans.append(move_to_san(pos, m))
        pos.push(m)
    assert sans == ["e4/B", "d5/B", "Be2/B", "dxe4/A", "Bb5/A#"]


def test_san_suffix_separates_same_file_pawns() -> None:
    """``c4`` alone is ambiguous (c2 on A and c3 on B both reach c4); ``c4/B`` and ``c4/A`` are not."""
    pos = Position("4k3/8/8/8/8/2|P5/2P5/4K3 w - - 0 1")
    with pytest.raises(MoveError, match="ambiguous"):
        parse_san(pos, "c4")
    assert parse_san(pos, "c4/B") == make_move(chess.C2, chess.C4)
    assert parse_san(pos, "c4/A") == make_move(chess.C3, chess.C4)


def test_san_accepts_variants() -> None:
    pos = Position("4k3/1P6/8/8/8/8/8/R3K2R w KQ - 0 1")
    assert parse_san(pos, "b8=Q") == parse_san(pos, "b8Q") == parse_san(pos, "b8=q/B+") == make_move(chess.B7, chess.B8, 5)
    assert parse_san(pos, "0-0") == parse_san(pos, "O-O/B") == make_move(chess.E1, chess.G1)
    assert parse_san(pos, "0-0-0") == make_move(chess.E1, chess.C1)
    assert parse_san(pos, " Rh2/B ") == make_move(chess.H1, chess.H2)


BAD_SAN = [
    (STARTING_FEN, "e5", "illegal", "pawn cannot reach e5"),
    (STARTING_FEN, "Nf3/A", "lands on board B, not A", "wrong suffix"),
    (STARTING_FEN, "e4/A", "lands on board B, not A", "wrong suffix on a pawn"),
    (STARTING_FEN, "Ki9", "malformed", "unknown square"),
    (STARTING_FEN, "Xe4", "malformed", "unknown piece letter"),
    (STARTING_FEN, "", "malformed", "empty"),
    (STARTING_FEN, "0\n0", "malformed", "a newline inside the text (was an AttributeError)"),
    (STARTING_FEN, "O-O", "illegal", "castling blocked"),
    (STARTING_FEN, "Nd2", "illegal", "own pawn on d2"),
    ("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "Nd2", "ambiguous", "two knights reach d2"),
    ("4k3/8/8/8/8/2|P5/2P5/4K3 w - - 0 1", "c4/C", "malformed", "no board C"),
    ("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "d5", "illegal", "a pawn capture needs its file"),
    ("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b8", "illegal", "promotion piece missing"),
    ("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b8=K", "malformed", "promotion to a king"),
    ("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b8=Q/A", "lands on board B, not A", "promoted piece lands on B"),
]


@pytest.mark.parametrize("fen, text, fragment, why", BAD_SAN, ids=[c[3] for c in BAD_SAN])
def test_bad_san_raises_move_error(fen: str, text: str, fragment: str, why: str) -> None:
    pos = Position(fen)
    with pytest.raises(MoveError, match=fragment):
        parse_san(pos, text)
    assert pos.fen() == fen


def test_san_round_trip_random_games() -> None:
    """The SAN of every legal move parses back to that move, with and without the suffix.

    Also pins the format: the suffix names the board the piece lands on, before any
    check sign, and the check sign is right.
    """
    rng = random.Random(20240611)
    checked = 0
    for _ in range(6):
        for pos in walk(Position(), rng, 120):
            for m in pos.legal_moves():
                san = move_to_san(pos, m)
                assert parse_san(pos, san) == m, (pos.fen(), san)
                body = san.rstrip("+#")
                board = "AB"[(pos.sq[m & 63] >> 4) ^ 1]
                assert body.endswith("/" + board), (pos.fen(), san)
                assert parse_san(pos, body[:-2]) == m, (pos.fen(), san)
                pos.push(m)
                sign = ("#" if not pos.legal_moves() else "+") if pos.in_check() else ""
                pos.pop()
                assert san.endswith(sign) and san[len(body) :] == sign, (pos.fen(), san)
                checked += 1
    assert checked > 5000

