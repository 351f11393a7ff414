"""The Alice rules (docs/alice-rules.md), one hand-built case at a time.

Each case says why the answer is what it is. Wherever Fairy-Stockfish's alice rules
(pyffish_alice) apply, the whole legal move list is cross-checked against it. A FEN
whose castling right names a king or rook that is not at home on board A loses that
right when read (``test_impossible_castling_rights_are_dropped``), so castling from
board B, where Fairy-Stockfish checks the wrong board, cannot arise; Fairy-Stockfish's
repetition detection is never consulted (its hash ignores boards).
"""

from __future__ import annotations

import chess
import pyffish_alice as ff
import pytest

from engine import STARTING_FEN, Outcome, Position, move_to_uci, parse_uci

V = "alice"


def moves(pos: Position) -> list[str]:
    return sorted(move_to_uci(pos, m) for m in pos.legal_moves())


def ff_moves(fen: str, played: tuple[str, ...] = ()) -> list[str]:
    return sorted(ff.legal_moves(V, fen, list(played)))


def play(ucis: str, fen: str = STARTING_FEN) -> Position:
    pos = Position(fen)
    for uci in ucis.split():
        pos.push(parse_uci(pos, uci))
    return pos


def cross_checked(fen: str) -> list[str]:
    """Our legal moves of ``fen``, asserted equal to Fairy-Stockfish's."""
    ours = moves(Position(fen))
    assert ours == ff_moves(fen), fen
    return ours


# ------------------------------------------------------------- early mates
EARLY_MATES = [
    # 3.Bb5/A# checks on A along b5-c6-d7. Nothing can interpose: black's pieces on A
    # would leave A by moving, and black has no piece on B to arrive on c6 or d7.
    # Kd7, the only empty flight square, is on the bishop's line on A.
    pytest.param("e2e4 d7d5 f1e2 d5e4 e2b5", id="Bb5"),
    # 3.Qxe5/A# captures on B (where the e-pawn went) and lands on A, checking down the
    # open e-file of A. Be7 and Qe7 would land on B and block nothing; black's only
    # piece on B, the knight on f6, reaches neither e6 nor e7. Ke7 steps along the
    # checking line (attacked on A with the king lifted), d8 and f8 are filled.
    pytest.param("e2e4 e7e5 d1h5 g8f6 h5e5", id="Qxe5"),
    # 3...Kf8 put the king on B; 4.Bh6/B# checks it on B along h6-g7. Ke8 would land on
    # A on the open file of the queen on e5 (A); e7, f7, g7 and g8 are filled
    # coordinates, so nothing can interpose on g7 and no black piece on B reaches h6.
    pytest.param("d2d4 e7e6 d1d6 f8e7 d6e5 e8f8 c1h6", id="Bh6"),
]


@pytest.mark.parametrize("line", EARLY_MATES)
def test_early_mates(line: str) -> None:
    start = ff.start_fen(V)
    ucis = line.split()
    pos = Position()
    for i, uci in enumerate(ucis):
        assert uci in ff_moves(start, tuple(ucis[:i])), (uci, "legal for Fairy-Stockfish")
        pos.push(parse_uci(pos, uci))
        assert pos.fen() == ff.get_fen(V, start, ucis[: i + 1])
    assert pos.in_check() and pos.legal_moves() == []
    assert ff.gives_check(V, start, ucis) and ff_moves(start, tuple(ucis)) == []
    assert pos.outcome() == Outcome("checkmate", chess.WHITE)
    assert pos.outcome().result == "1-0"  # type: ignore[union-attr]
    # One move earlier the game was not over.
    pos.pop()
    assert pos.outcome() is None


# ----------------------------------------------------------------- castling
K_SIDE = "4|k3/8/8/8/8/8/8/4K2R w K - 0 1"  # black king parked on e8 of board B
Q_SIDE = "4|k3/8/8/8/8/8/8/R3K3 w Q - 0 1"

CASTLING = [
    # (FEN, castling move, allowed?, why)
    (K_SIDE, "e1g1", True, "nothing in the way, nothing attacked"),
    (Q_SIDE, "e1c1", True, "nothing in the way, nothing attacked"),
    ("4|k3/8/8/8/8/8/8/4KB1R w K - 0 1", "e1g1", False, "f1 filled on the castling board"),
    ("4|k3/8/8/8/8/8/8/4K1NR w K - 0 1", "e1g1", False, "g1 filled on the castling board"),
    ("4|k3/8/8/8/8/8/8/4K|B1R w K - 0 1", "e1g1", False, "f1 filled on the other board: the rook lands there"),
    ("4|k3/8/8/8/8/8/8/4K1|NR w K - 0 1", "e1g1", False, "g1 filled on the other board: the king lands there"),
    ("4|k3/8/8/8/8/8/8/RN2K3 w Q - 0 1", "e1c1", False, "b1 filled on the castling board (between king and rook)"),
    ("4|k3/8/8/8/8/8/8/R|N2K3 w Q - 0 1", "e1c1", True, "b1 filled only on the other board: nothing lands on b1"),
    ("4|k3/8/8/8/8/8/8/R1|B1K3 w Q - 0 1", "e1c1", False, "c1 filled on the other board: the king lands there"),
    ("4|k3/8/8/8/8/8/8/R2|QK3 w Q - 0 1", "e1c1", False, "d1 filled on the other board: the rook lands there"),
    ("4r2|k/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", False, "king in check on its board"),
    ("4|r2|k/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", True, "e1 attacked only on the other board: not check"),
    ("4|k3/8/8/5r2/8/8/8/4K2R w K - 0 1", "e1g1", False, "f1 (crossed) attacked on the castling board"),
    ("4|k3/8/8/5|r2/8/8/8/4K2R w K - 0 1", "e1g1", True, "f1 attacked only on the other board: the king never stands there"),
    ("4|k3/8/8/6r1/8/8/8/4K2R w K - 0 1", "e1g1", False, "g1 attacked on the castling board"),
    ("4|k3/8/8/6|r1/8/8/8/4K2R w K - 0 1", "e1g1", False, "g1 attacked on the board the king lands on"),
    ("4|k3/8/8/8/8/5|n2/8/4K2R w K - 0 1", "e1g1", False, "knight attacks g1 on the landing board"),
    ("4|k3/8/8/8/8/8/7|p/4K2R w K - 0 1", "e1g1", False, "pawn attacks g1 on the landing board"),
    ("4|k3/8/8/8/8/8/6|p1/4K2R w K - 0 1", "e1g1", True, "pawn g2 on B attacks f1 and h1 of B, not g1"),
    ("7|k/8/8/8/8/8/8/|r3K2R w K - 0 1", "e1g1", True, "rook on a1 of B sweeps rank 1 of B, but the castled rook on f1 (B) shields g1"),
    ("4|k3/8/8/7r/8/8/8/4K2R w K - 0 1", "e1g1", True, "the rook itself (h1) may be attacked"),
    ("7|k/8/8/3r4/8/8/8/R3K3 w Q - 0 1", "e1c1", False, "d1 (crossed) attacked on the castling board"),
    ("7|k/8/8/3|r4/8/8/8/R3K3 w Q - 0 1", "e1c1", True, "d1 attacked only on the other board"),
    ("7|k/8/8/2r5/8/8/8/R3K3 w Q - 0 1", "e1c1", False, "c1 attacked on the castling board"),
    ("7|k/8/8/2|r5/8/8/8/R3K3 w Q - 0 1", "e1c1", False, "c1 attacked on the landing board"),
    ("7|k/8/8/1r6/8/8/8/R3K3 w Q - 0 1", "e1c1", True, "b1 attacked does not matter (the king does not cross it)"),
    ("7|k/8/8/1|r6/8/8/8/R3K3 w Q - 0 1", "e1c1", True, "b1 attacked on the other board does not matter either"),
    ("r3k3/8/8/8/8/8/8/4|K3 b q - 0 1", "e8c8", True, "black, long: nothing in the way"),
    ("r3k3/8/8/8/8/8/8/3|RK3 b q - 0 1", "e8c8", True, "d8 attacked on the landing board: only the rook lands there"),
    ("r3k3/8/8/8/8/8/8/2|R1K3 b q - 0 1", "e8c8", False, "c8 attacked on the board the black king lands on"),
    ("r3k2r/8/8/8/8/8/8/4|K3 b kq - 0 1", "e8g8", True, "black, short"),
]


@pytest.mark.parametrize("fen, uci, allowed, why", CASTLING, ids=[c[3][:60] for c in CASTLING])
def test_castling(fen: str, uci: str, allowed: bool, why: str) -> None:
    legal = cross_checked(fen)
    assert (uci in legal) == allowed, why
    if allowed:
        pos = Position(fen)
        pos.push(parse_uci(pos, uci))
        # King and rook both go through the looking-glass.
        assert pos.fen() == ff.get_fen(V, fen, [uci])
        kt = chess.parse_square(uci[2:4])
        rt = {chess.G1: chess.F1, chess.C1: chess.D1, chess.G8: chess.F8, chess.C8: chess.D8}[kt]
        assert pos.board_of(kt) == 1 and pos.board_of(rt) == 1


DROPPED_RIGHTS = [
    # (FEN, castling field after reading, why)
    ("1|k6/8/8/8/8/8/8/4|K2|R w K - 0 1", "-", "king and rook at home but on board B: they have moved"),
    ("1|k6/8/8/8/8/8/8/4K2|R w K - 0 1", "-", "the rook is on board B"),
    ("1|k6/8/8/8/8/8/8/4|K2R w K - 0 1", "-", "the king is on board B"),
    ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", "-", "no rook on h1"),
    ("4k3/8/8/8/8/8/8/R2K4 w Q - 0 1", "-", "no king on e1"),
    ("4k3/8/8/8/8/8/8/4K2r w K - 0 1", "-", "an enemy rook on h1"),
    ("r3k3/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "KQq", "black has no rook on h8"),
    ("r3k2|r/8/8/8/8/8/8/R3|K2R w KQkq - 0 1", "q", "white's king and black's h8 rook have moved"),
]


@pytest.mark.parametrize("fen, field, why", DROPPED_RIGHTS, ids=[c[2][:50] for c in DROPPED_RIGHTS])
def test_impossible_castling_rights_are_dropped(fen: str, field: str, why: str) -> None:
    pos = Position(fen)
    assert pos.fen().split()[2] == field, why
    castles = {move_to_uci(pos, m) for m in pos.legal_moves()} & {"e1g1", "e1c1"}
    assert castles == {uci for uci, right in (("e1g1", "K"), ("e1c1", "Q")) if right in field}, why
    assert pos.key == Position(pos.fen()).key  # the dropped right is not in the key either


def test_castling_rights_lost() -> None:
    """Rights go with a king move, a rook move, or a capture on the rook's corner."""
    assert play("e1f1", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").castling == 0b1100
    assert play("h1h2", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").fen().split()[2] == "Qkq"
    assert play("a1a8", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").fen().split()[2] == "Kk"
    # A king that went to B and came back sits on e1 of A again, but its rights are gone.
    pos = play("e1e2 e8e7 e2e1 e7e8", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert pos.fen() == "r3k2r/8/8/8/8/8/8/R3K2R w - - 4 3"
    assert "e1g1" not in moves(pos)


# ------------------------------------------------------------ pawn moves
def test_double_step_over_a_square_filled_on_the_other_board() -> None:
    """The passed square need only be empty on the pawn's own board; the destination coordinate must be empty."""
    # e3 taken on B only: e2-e4 is legal, e2-e3 is not (the coordinate is taken).
    assert cross_checked("4k3/8/8/8/8/4|n3/4P3/4K3 w - - 0 1") == ["e1d2", "e1f2", "e2e4"]
    # e3 taken on A, the pawn's board: neither step.
    assert "e2e4" not in cross_checked("4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1")
    # e4 taken on B: the pawn would land on e4 of B, which is filled.
    assert cross_checked("4k3/8/8/8/4|n3/8/4P3/4K3 w - - 0 1") == ["e1d1", "e1f1", "e2e3"]
    # A pawn on B passes over a piece on A.
    assert "e2e4" in cross_checked("4k3/8/8/8/8/4n3/4|P3/4K3 w - - 0 1")
    # Black, mirrored.
    assert "d7d5" in cross_checked("4k3/3p4/3|N4/8/8/8/8/4K3 b - - 0 1")
    # No en passant in Alice chess, even after a double step past an enemy pawn.
    pos = play("d7d5", "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1")
    assert "e5d6" not in moves(pos)
    assert pos.fen().split()[3] == "-"


def test_promotion_lands_on_the_other_board() -> None:
    """The promoted piece transfers like any other mover."""
    fen = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"
    assert [u for u in cross_checked(fen) if u.startswith("a7")] == ["a7a8b", "a7a8n", "a7a8q", "a7a8r"]
    pos = play("a7a8q", fen)
    assert pos.piece_at(chess.A8) == (chess.QUEEN, chess.WHITE, 1)
    assert pos.fen() == ff.get_fen(V, fen, ["a7a8q"]) == "|Q3k3/8/8/8/8/8/8/4K3 b - - 0 1"
    # A pawn on B promotes onto A; promotion by capture too.
    fen = "1r2k3/|P7/8/8/8/8/8/4K3 w - - 0 1"
    assert "a7b8n" not in cross_checked(fen)  # the rook is on A, the pawn on B: no capture across boards
    fen = "1|r2k3/|P7/8/8/8/8/8/4K3 w - - 0 1"
    assert "a7b8n" in cross_checked(fen)
    pos = play("a7b8n", fen)
    assert pos.piece_at(chess.B8) == (chess.KNIGHT, chess.WHITE, 0)
    assert pos.fen() == ff.get_fen(V, fen, ["a7b8n"])
    # Black promotes on rank 1.
    pos = play("h2h1r", "4k3/8/8/8/8/8/7p/K7 b - - 0 1")
    assert pos.piece_at(chess.H1) == (chess.ROOK, chess.BLACK, 1)


def test_promotion_square_filled_on_the_other_board() -> None:
    """a8 is taken on B: the pawn cannot advance at all (quiet moves need the coordinate empty)."""
    assert not [u for u in cross_checked("|n3k3/P7/8/8/8/8/8/4K3 w - - 0 1") if u.startswith("a7")]


# ------------------------------------------------------- sliders and captures
def test_pieces_on_the_other_board_are_invisible_but_fill_their_coordinate() -> None:
    """The rook slides through a5 (filled on B only) but can neither stop on it nor capture it."""
    legal = cross_checked("4k3/8/8/|n7/8/8/8/R3K3 w - - 0 1")
    assert "a1a5" not in legal
    assert {"a1a4", "a1a6", "a1a7", "a1a8"} <= set(legal)


def test_capture_on_own_board_only() -> None:
    legal = cross_checked("4k3/8/8/n7/8/8/8/R3K3 w - - 0 1")
    assert "a1a5" in legal and "a1a6" not in legal
    pos = play("a1a5", "4k3/8/8/n7/8/8/8/R3K3 w - - 0 1")
    assert pos.piece_at(chess.A5) == (chess.ROOK, chess.WHITE, 1)  # captured on A, landed on B
    assert pos.halfmove == 0


# --------------------------------------------------------------------- check
def test_check_only_from_the_kings_board() -> None:
    assert Position("4r2k/8/8/8/8/8/8/4K3 w - - 0 1").in_check()
    assert not Position("4|r2k/8/8/8/8/8/8/4K3 w - - 0 1").in_check()
    # Lines are blocked only by pieces on the king's board.
    assert Position("4r2k/8/8/8/4|N3/8/8/4K3 w - - 0 1").in_check()
    assert not Position("4r2k/8/8/8/4N3/8/8/4K3 w - - 0 1").in_check()


def test_interposition_by_a_piece_arriving_from_the_other_board() -> None:
    """A rook on B lands on e4 of A and blocks the check; the same rook on A would land on B and not block."""
    assert cross_checked("4r2k/8/8/8/|R7/8/8/4K3 w - - 0 1") == ["a4e4", "e1d1", "e1d2", "e1f1", "e1f2"]
    assert cross_checked("4r2k/8/8/8/R7/8/8/4K3 w - - 0 1") == ["e1d1", "e1d2", "e1f1", "e1f2"]
    pos = play("a4e4", "4r2k/8/8/8/|R7/8/8/4K3 w - - 0 1")
    pos.push_null()
    assert not pos.in_check()


def test_a_piece_on_the_kings_board_is_pinned_completely() -> None:
    """Any move of the e2 knight takes it off board A and opens the e-file: none is legal."""
    assert cross_checked("4r2k/8/8/8/8/8/4N3/4K3 w - - 0 1") == ["e1d1", "e1d2", "e1f1", "e1f2"]
    # Capturing the checker is fine: it leaves the king's board but removes the check.
    assert "g1f3" in cross_checked("4k3/8/8/8/8/5n2/8/R3K1N1 w - - 0 1")


def test_king_may_not_step_back_along_the_checking_line() -> None:
    """Ke4-e3 would land on B, out of the rook's reach, but the king moves on A first:
    e3 is attacked on A once the king has left e4, and a king cannot transfer out of check."""
    legal = cross_checked("4r2k/8/8/8/4K3/8/8/8 w - - 0 1")
    assert legal == ["e4d3", "e4d4", "e4d5", "e4f3", "e4f4", "e4f5"]


def test_king_destination_must_be_safe_on_both_boards() -> None:
    """d1 and d2 are attacked on B (rook d8 of B): the king would land there. d2 and f2 are attacked on A by the
    rook on e2 (king removed) -- but Kxe2 is fine: it captures on A and lands on e2 of B."""
    assert cross_checked("3|rk3/8/8/8/8/8/8/4K3 w - - 0 1") == ["e1e2", "e1f1", "e1f2"]
    assert cross_checked("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1") == ["e1d1", "e1e2", "e1f1"]


def test_double_check_only_king_moves() -> None:
    fen = "4r2k/8/8/8/8/3n4/8/R3K3 w - - 0 1"  # rook e8 and knight d3, both on A
    legal = cross_checked(fen)
    assert all(u.startswith("e1") for u in legal) and legal


# ---------------------------------------------------------------- game end
def test_black_mates_back_rank() -> None:
    """...Ra1/A#: the rook comes from B to rank 1 of A; f1 and h1 are covered on A (h1 with the king lifted)."""
    fen = "|r5k1/8/8/8/8/8/5PPP/6K1 b - - 0 1"
    pos = play("a8a1", fen)
    assert ff_moves(fen, ("a8a1",)) == [] and moves(pos) == []
    assert pos.outcome() == Outcome("checkmate", chess.BLACK)
    assert pos.outcome().result == "0-1"  # type: ignore[union-attr]


def test_stalemate() -> None:
    """Black's king a8 (A) has a7, b7, b8, all empty on A but covered on B, where it would land."""
    fen = "k7/8/1|Q6/8/8/8/8/7K b - - 0 1"
    pos = Position(fen)
    assert moves(pos) == [] == ff_moves(fen)
    assert not pos.in_check() and not ff.gives_check(V, fen, [])
    assert ff.game_result(V, fen, []) == 0
    assert pos.outcome() == Outcome("stalemate", None)
    assert pos.outcome().result == "1/2-1/2"  # type: ignore[union-attr]


def test_fifty_move_rule() -> None:
    fen = "4k3/8/8/8/n7/8/8/R3K3 w - - 99 80"
    assert Position(fen).outcome() is None
    # The 100th half-move without capture or pawn move ends the game.
    pos = play("a1a2", fen)
    assert pos.halfmove == 100 and pos.is_fifty_moves()
    assert pos.outcome() == Outcome("fifty-move rule", None)
    # A capture at that moment resets the clock instead.
    pos = play("a1a4", fen)
    assert pos.halfmove == 0 and pos.outcome() is None
    # So does a pawn move.
    pos = play("h2h3", "4k3/8/8/8/8/8/7P/4K3 w - - 99 80")
    assert pos.halfmove == 0 and pos.outcome() is None
    # Mate on the 100th half-move is mate.
    pos = play("a8a1", "|r5k1/8/8/8/8/8/5PPP/6K1 b - - 99 80")
    assert pos.halfmove == 100
    assert pos.outcome() == Outcome("checkmate", chess.BLACK)


def test_bare_kings() -> None:
    """Kxe2 takes the last piece: king against king is a draw."""
    fen = "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1"
    assert Position(fen).outcome() is None
    pos = play("e1e2", fen)
    assert pos.is_bare_kings()
    assert pos.outcome() == Outcome("bare kings", None)
    assert pos.outcome().result == "1/2-1/2"  # type: ignore[union-attr]
    assert Position("4|k3/8/8/8/8/8/8/4K3 w - - 0 1").outcome() == Outcome("bare kings", None)
    # One knight is not bare kings (the rules know no other insufficient material).
    assert Position("4k3/8/8/8/8/8/8/3NK3 w - - 0 1").outcome() is None


RA1_CYCLE = "a1a3 h8h6 a3a2 h6h7 a2a1 h7h8"  # both rooks go round in three moves each


def test_repetition_of_squares_on_other_boards_is_not_a_draw() -> None:
    """After six plies the rooks are back on a1 and h8 but on board B (three moves each):
    the same squares, a different position. After twelve they are back on A (the start,
    second time). A board-blind count (Fairy-Stockfish's hash) would see the squares a
    third time at ply 12 and call a draw; the real third occurrence is at ply 24."""
    fen = "4k2r/8/8/8/8/8/8/R3K3 w - - 0 1"
    pos = Position(fen)
    counts = []
    for cycle in range(4):
        for uci in RA1_CYCLE.split():
            pos.push(parse_uci(pos, uci))
        counts.append((pos.fen().split()[0], pos.repetitions()))
        if cycle < 3:
            assert pos.outcome() is None, cycle
    assert counts[0][0] == "4k2|r/8/8/8/8/8/8/|R3K3"
    assert counts[1][0] == counts[3][0] == "4k2r/8/8/8/8/8/8/R3K3"
    assert [c for _, c in counts] == [1, 2, 2, 3]
    assert pos.is_repetition(3)
    assert pos.outcome() == Outcome("threefold repetition", None)
    assert pos.outcome().result == "1/2-1/2"  # type: ignore[union-attr]


def test_threefold_repetition() -> None:
    """Knights out and back twice: the start position stands for the third time (boards included)."""
    pos = Position()
    shuffle = "g1f3 g8f6 f3g1 f6g8"
    for uci in shuffle.split():
        pos.push(parse_uci(pos, uci))
    assert pos.fen().split()[0] == STARTING_FEN.split()[0]
    assert pos.repetitions() == 2 and pos.outcome() is None
    for uci in shuffle.split()[:3]:
        pos.push(parse_uci(pos, uci))
    assert pos.outcome() is None
    pos.push(parse_uci(pos, "f6g8"))
    assert pos.repetitions() == 3
    assert pos.outcome() == Outcome("threefold repetition", None)


def test_outcome_none_in_play() -> None:
    assert Position().outcome() is None
    assert play("e2e4 d7d5 f1e2 d5e4").outcome() is None
