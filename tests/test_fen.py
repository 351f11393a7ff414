"""FEN in (compact ``|`` form and 16-wide form) and out, and the rejection of bad FENs."""

from __future__ import annotations

import random

import chess
import pyffish_alice as ff
import pytest

from engine import STARTING_FEN, FenError, Position, parse_uci
from engine.fen import parse_fen
from support.walks import walk

V = "alice"
START_BOARD = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"

ROUND_TRIP = [
    STARTING_FEN,
    "rnbqkbnr/pppppppp/8/8/4|P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
    "rnbqkbnr/ppp1pppp/8/8/4p3/8/PPPP|BPPP/RNBQK1NR w KQkq - 0 3",
    "r1bqkb1r/pppp1ppp/2|n2|n2/4|p3/2|B1|P3/5|N2/PPPP1PPP/RNBQ1|R|K1 b kq - 5 4",
    "r3kb1r/pp2pppp/3|p4/2|pP1|b2/2|Pnn3/|q1|N1|B3/PP|QNPPPP/1K1|R1B1R w kq - 6 11",
    "r1b2b1r/pp|k3pp/3|p|p2|B/2|p2P2/2|Pnn1|P1/1|P3|P2/P6P/|q4QK1 w - - 0 21",
    "|r3|k2|r/8/8/8/8/8/8/|R3|K2|R w - - 12 40",  # kings and rooks on B (their rights are gone)
    "4k3/8/8/8/8/8/8/4K3 b - - 99 120",
]


@pytest.mark.parametrize("fen", ROUND_TRIP)
def test_compact_round_trip(fen: str) -> None:
    pos = Position(fen)
    assert pos.fen() == fen
    assert ff.get_fen(V, fen, []) == fen  # Fairy-Stockfish reads and writes it the same way


def test_optional_clocks() -> None:
    pos = Position("4k3/8/8/8/8/8/8/4K3 w - -")
    assert (pos.halfmove, pos.fullmove) == (0, 1)
    assert pos.fen() == "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
    assert Position("4k3/8/8/8/8/8/8/4K3 w - - 7").fen() == "4k3/8/8/8/8/8/8/4K3 w - - 7 1"


def test_sixteen_wide_example_from_the_rules() -> None:
    wide = Position("4k11/16/16/16/12P3/16/16/4K11 w - - 0 1")
    assert wide.fen() == "4k3/8/8/8/4|P3/8/8/4K3 w - - 0 1"
    assert wide.board_of(chess.E4) == 1
    assert wide.key == Position("4k3/8/8/8/4|P3/8/8/4K3 w - - 0 1").key


def to_sixteen_wide(pos: Position) -> str:
    """Board A's a..h then board B's a..h on each rank; digits run across the halves."""
    rows = []
    for rank in range(7, -1, -1):
        cells = []
        for board in (0, 1):
            for file in range(8):
                p = pos.sq[rank * 8 + file]
                if p and p >> 4 == board:
                    letter = " pnbrqk"[p & 7]
                    cells.append(letter.upper() if p & 8 else letter)
                else:
                    cells.append("")
        row, empty = "", 0
        for cell in cells:
            if cell:
                row += (str(empty) if empty else "") + cell
                empty = 0
            else:
                empty += 1
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + " " + " ".join(pos.fen().split()[1:])


def test_sixteen_wide_round_trip_random_positions() -> None:
    """A sample of positions from random games read back identically from the 16-wide form."""
    rng = random.Random(161616)
    seen = 0
    for _ in range(8):
        pos = Position()
        for _ in walk(pos, rng, 80):
            wide = to_sixteen_wide(pos)
            again = Position(wide)
            assert again.sq == pos.sq, wide
            assert again.fen() == pos.fen(), wide
            assert again.key == pos.key
            seen += 1
    assert seen > 300
    assert to_sixteen_wide(Position()) == "rnbqkbnr8/pppppppp8/16/16/16/16/PPPPPPPP8/RNBQKBNR8 w KQkq - 0 1"
    assert to_sixteen_wide(Position("4k3/8/8/8/4|P3/8/8/4K3 w - - 0 1")) == "4k11/16/16/16/12P3/16/16/4K11 w - - 0 1"


# (FEN, message fragment, why)
BAD_FENS = [
    ("", "expected 4 to 6 fields", "empty string"),
    ("4k3/8/8/8/8/8/8/4K3 w", "expected 4 to 6 fields", "missing fields"),
    (STARTING_FEN + " extra", "expected 4 to 6 fields", "too many fields"),
    (START_BOARD.replace("rnbqkbnr", "rnbqkbnx", 1) + " w KQkq - 0 1", "rank 8: bad character 'x'", "bad piece letter"),
    ("4k3/8/8/8/4*3/8/8/4K3 w - - 0 1", "rank 4: bad character '*'", "bad character"),
    (START_BOARD.replace("rnbqkbnr", "rnbqkbn", 1) + " w KQkq - 0 1", "rank 8: 7 columns, expected 8", "short rank"),
    ("4k3/8/8/9/8/8/8/4K3 w - - 0 1", "rank 5: 9 columns, expected 8", "long rank"),
    ("4k3/8/8/4|P4/8/8/8/4K3 w - - 0 1", "rank 5: 9 columns, expected 8", "long rank with a B piece"),
    ("4k3//8/8/8/8/8/4K3 w - - 0 1", "rank 7: 0 columns, expected 8", "empty rank"),
    ("4k3/8/8/08/8/8/8/4K3 w - - 0 1", "rank 5: empty count", "zero count"),
    ("4k3/8/8/8/8/8/4K3 w - - 0 1", "expected 8 ranks, got 7", "seven ranks"),
    ("4k3/8/8/8/8/8/8/8/4K3 w - - 0 1", "expected 8 ranks, got 9", "nine ranks"),
    ("4k3/8/8/8/8/8/8/4K2| w - - 0 1", "'|' must be followed by a piece letter", "bar at the end"),
    ("4k3/8/8/8/8/8/8/4K|12 w - - 0 1", "'|' must be followed by a piece letter", "bar before a digit"),
    ("4k11/16/16/16/4P7P3/16/16/4K11 w - - 0 1", "square e4 is filled on both boards", "16-wide: e4 on A and B"),
    ("4k11/16/16/16/12P3/16/16/4K3 w - - 0 1", "rank 1: 8 columns, expected 16", "16-wide: one rank 8 wide"),
    ("4k11/16/16/16/12P2/16/16/4K11 w - - 0 1", "rank 4: 15 columns, expected 16", "16-wide: short rank"),
    ("8/8/8/8/8/8/8/4K3 w - - 0 1", "missing black king", "no black king"),
    ("4k3/8/8/8/8/8/8/8 b - - 0 1", "missing white king", "no white king"),
    ("4k3/8/8/8/8/8/8/4K2K w - - 0 1", "2 white kings", "two white kings"),
    ("4k3/8/8/8/8/8/8/2|k1K3 w - - 0 1", "2 black kings", "two black kings, one on each board"),
    ("4k2P/8/8/8/8/8/8/4K3 w - - 0 1", "pawn on h8", "pawn on rank 8"),
    ("4k3/8/8/8/8/8/8/|p3K3 w - - 0 1", "pawn on a1", "pawn on rank 1 (board B)"),
    ("4k3/8/8/8/8/8/8/4K2R w KX - 0 1", "castling field: bad character 'X'", "bad castling letter"),
    ("4k3/8/8/8/8/8/8/4K2R w KK - 0 1", "'K' given twice", "repeated castling letter"),
    (STARTING_FEN.replace(" - ", " e3 "), "en-passant field: Alice chess has no en passant", "en-passant square"),
    (STARTING_FEN.replace(" w ", " x "), "side-to-move field: expected 'w' or 'b', got 'x'", "bad side"),
    (STARTING_FEN.replace(" w ", " W "), "side-to-move field", "upper-case side"),
    (STARTING_FEN.replace(" 0 1", " -1 1"), "halfmove-clock field", "negative halfmove clock"),
    (STARTING_FEN.replace(" 0 1", " a 1"), "halfmove-clock field", "non-numeric halfmove clock"),
    (STARTING_FEN.replace(" 0 1", " 0 0"), "fullmove-number field: expected an integer >= 1", "fullmove zero"),
    (STARTING_FEN.replace(" 0 1", " 0 x"), "fullmove-number field", "non-numeric fullmove"),
    ("4k3/8/8/8/8/8/8/3rK3 b - - 0 1", "white is in check but it is not white's move", "side not to move in check"),
    ("4|k3/8/8/8/8/8/8/4|R|K2 w - - 0 1", "black is in check but it is not black's move", "check on board B"),
]


@pytest.mark.parametrize("fen, fragment, why", BAD_FENS, ids=[c[2] for c in BAD_FENS])
def test_bad_fen_raises_fen_error_naming_the_problem(fen: str, fragment: str, why: str) -> None:
    with pytest.raises(FenError) as info:
        parse_fen(fen)
    assert fragment in str(info.value)
    assert isinstance(info.value, ValueError)


def test_check_on_the_other_board_is_not_check() -> None:
    """A rook on board A does not attack a king on board B: this FEN is valid."""
    pos = Position("4|k3/8/8/8/8/8/8/4RK2 w - - 0 1")
    assert not pos.in_check()
    assert Position("4|k3/8/8/8/8/8/8/4RK2 b - - 0 1").in_check() is False


@pytest.mark.parametrize("fen, fragment, why", BAD_FENS[::3], ids=[c[2] for c in BAD_FENS[::3]])
def test_failed_set_fen_leaves_position_unchanged(fen: str, fragment: str, why: str) -> None:
    pos = Position()
    for uci in ("e2e4", "e7e5", "g1f3"):
        pos.push(parse_uci(pos, uci))
    before = (pos.sq[:], pos.bb[:], pos.turn, pos.castling, pos.halfmove, pos.fullmove, pos.key, pos.move_stack, pos.fen())
    with pytest.raises(FenError, match=fragment):
        pos.set_fen(fen)
    after = (pos.sq, pos.bb, pos.turn, pos.castling, pos.halfmove, pos.fullmove, pos.key, pos.move_stack, pos.fen())
    assert after == before
    pos.pop()  # history still usable
    assert pos.fen() == "rnbqkbnr/pppp1ppp/8/4|p3/4|P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"


def test_set_fen_replaces_history() -> None:
    pos = Position()
    pos.push(parse_uci(pos, "e2e4"))
    pos.set_fen("4k3/8/8/8/8/8/8/4K3 w - - 3 9")
    assert pos.move_stack == []
    assert (pos.halfmove, pos.fullmove, pos.turn) == (3, 9, 1)
    assert pos.key == pos.compute_key()


def test_from_fen_matches_constructor() -> None:
    fen = ROUND_TRIP[3]
    assert Position.from_fen(fen).fen() == Position(fen).fen()
