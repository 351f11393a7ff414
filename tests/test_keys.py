"""Zobrist keys and make/unmake.

The key must include the board of every piece (Alice positions that differ only in
boards are different positions; Fairy-Stockfish's alice hash gets this wrong), the
side to move and the castling rights; the incremental key must always equal the key
computed from scratch; and ``pop`` must restore everything ``push`` changed.
"""

from __future__ import annotations

import random

import chess
import pytest

from engine import STARTING_FEN, Position, parse_uci
from engine.bits import unsigned
from engine.position import PSQ
from engine.tables import BB_LEN, OCC_A, OCC_B, OCC_BLACK, OCC_WHITE
from fenbuild import compact_fen

Snapshot = tuple


def snapshot(pos: Position) -> Snapshot:
    return (
        pos.sq[:],
        pos.bb[:],
        pos.key,
        pos.turn,
        pos.castling,
        pos.halfmove,
        pos.fullmove,
        pos.move_stack,
        pos.fen(),
        pos.psq,
    )


def assert_consistent(pos: Position) -> None:
    """Incremental key, piece-square sum and bitboards agree with the mailbox."""
    assert pos.key == pos.compute_key(), pos.fen()
    assert pos.psq == sum(PSQ[p << 6 | s] for s, p in enumerate(pos.sq) if p), pos.fen()
    bb = [0] * BB_LEN
    for s, p in enumerate(pos.sq):
        if p:
            bb[p & 7] |= 1 << s
            bb[OCC_BLACK + ((p >> 3) & 1)] |= 1 << s
            bb[OCC_A + (p >> 4)] |= 1 << s
    assert [unsigned(b) for b in pos.bb] == bb, pos.fen()
    # One piece per coordinate: no square is occupied on both boards.
    assert pos.bb[OCC_A] & pos.bb[OCC_B] == 0
    assert pos.bb[OCC_A] | pos.bb[OCC_B] == pos.bb[OCC_WHITE] | pos.bb[OCC_BLACK]


WALK_STARTS = [
    STARTING_FEN,
    "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",  # castling both ways
    "r3k2r/1PP5/8/8/8/8/5pp1/R3K2R w KQkq - 0 1",  # promotions, captures of castling rooks
    "r3k2r/pp|p2|ppp/8/8/8/8/PP|P2|PPP/R3K2R b KQkq - 0 1",  # castling with pawns on board B
    "4k3/P1P1P1P1/8/8/8/8/1p1p1p1p/4K3 w - - 0 1",  # many promotions
]


@pytest.mark.parametrize("fen", WALK_STARTS)
def test_incremental_key_and_unmake_along_random_walks(fen: str) -> None:
    """Random walks that push, pop and pass, checking keys and full restoration.

    Moves are biased towards castling, promotions and captures; every push is
    followed by the consistency check, every pop by a comparison with the
    snapshot taken before the push.
    """
    rng = random.Random(fen)
    counts = {"castle": 0, "promotion": 0, "capture": 0, "null": 0, "pop": 0, "push": 0}
    for _ in range(40):
        pos = Position(fen)
        history: list[tuple[Snapshot, bool]] = []
        for _ in range(80):
            r = rng.random()
            if history and r < 0.2:
                before, was_null = history.pop()
                if was_null:
                    pos.pop_null()
                else:
                    pos.pop()
                assert snapshot(pos) == before
                assert_consistent(pos)
                counts["pop"] += 1
                continue
            if r < 0.28 and not pos.in_check():
                history.append((snapshot(pos), True))
                pos.push_null()
                assert pos.key == pos.compute_key()
                assert pos.turn == 1 - history[-1][0][3]
                counts["null"] += 1
                continue
            moves = pos.legal_moves()
            if not moves:
                break
            special = [m for m in moves if pos.sq[(m >> 6) & 63] or m >> 12 or _is_castle(pos, m)]
            m = rng.choice(special) if special and rng.random() < 0.7 else rng.choice(moves)
            if _is_castle(pos, m):
                counts["castle"] += 1
            if m >> 12:
                counts["promotion"] += 1
            if pos.sq[(m >> 6) & 63]:
                counts["capture"] += 1
            history.append((snapshot(pos), False))
            pos.push(m)
            counts["push"] += 1
            assert_consistent(pos)
        # Unwind everything: back to the start, exactly.
        while history:
            before, was_null = history.pop()
            pos.pop_null() if was_null else pos.pop()
            assert snapshot(pos) == before
        assert pos.fen() == fen
    assert counts["push"] > 500 and counts["null"] > 20 and counts["pop"] > 100
    assert counts["capture"] > 20
    if "K" in fen.split()[2]:
        assert counts["castle"] > 0, counts
    if fen.startswith(("r3k2r/1PP", "4k3/P1P")):
        assert counts["promotion"] > 10, counts


def _is_castle(pos: Position, m: int) -> bool:
    return pos.sq[m & 63] & 7 == chess.KING and abs(((m >> 6) & 63) - (m & 63)) == 2


def test_push_pop_restores_each_special_move() -> None:
    """Castling (with pieces on board B), promotion with capture, capture of a castling rook."""
    cases = [
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 3 10", ["e1g1", "e1c1", "a1a8", "h1h8"]),
        ("r3k2r/8/8/8/|n6|n/8/8/R3K2R w KQkq - 3 10", ["e1g1", "e1c1", "a1a8"]),
        ("1n2k3/P7/8/8/8/8/8/4K3 w - - 7 30", ["a7a8q", "a7b8n", "a7b8r"]),
    ]
    for fen, ucis in cases:
        pos = Position(fen)
        for uci in ucis:
            before = snapshot(pos)
            pos.push(parse_uci(pos, uci))
            assert_consistent(pos)
            assert pos.key != before[2]
            pos.pop()
            assert snapshot(pos) == before, uci


def test_castling_transfers_king_and_rook() -> None:
    pos = Position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    pos.push(parse_uci(pos, "e1c1"))
    assert pos.fen() == "r3k2r/8/8/8/8/8/8/2|K|R3R b kq - 1 1"
    pos.push(parse_uci(pos, "e8g8"))
    assert pos.fen() == "r4|r|k1/8/8/8/8/8/8/2|K|R3R w - - 2 2"
    assert_consistent(pos)


def test_board_of_a_piece_changes_the_key() -> None:
    """Same squares, side and rights: putting one piece on the other board changes the key.

    Every piece type and colour, on a sample of squares (kings on a1/h8 of board B).
    """
    rng = random.Random(7)
    compared = 0
    for letter in "PNBRQKpnbrqk":
        for s in rng.sample(range(8, 56), 8):
            base = {chess.A1: "|K", chess.H8: "|k"}
            if letter == "K":
                del base[chess.A1]
            if letter == "k":
                del base[chess.H8]
            side = "b" if letter.isupper() else "w"  # the piece may give check: its side has moved
            on_a = Position(compact_fen({**base, s: letter}, side))
            on_b = Position(compact_fen({**base, s: "|" + letter}, side))
            assert on_a.board_of(s) == 0 and on_b.board_of(s) == 1
            assert on_a.key != on_b.key
            assert on_a.key == on_a.compute_key() and on_b.key == on_b.compute_key()
            compared += 1
    assert compared == 96


def _without_boards(fen: str) -> str:
    return fen.replace("|", "")


def test_same_squares_reached_on_different_boards() -> None:
    """The same squares reached by paths of different parity: different positions, different keys.

    1.Ra3 (rook on B) and a king triangle e1-d1-d2-e1 (three moves: king ends on B)
    against 1.Ra2, Ra3 (two moves: rook on A) and Kd1-e1 (king on A). Black shuffles
    Ke8-d8-e8 twice in both. Square by square the positions agree.
    """
    start = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"
    one, two = Position(start), Position(start)
    for uci in "a1a3 e8d8 e1d1 d8e8 d1d2 e8d8 d2e1 d8e8".split():
        one.push(parse_uci(one, uci))
    for uci in "a1a2 e8d8 a2a3 d8e8 e1d1 e8d8 d1e1 d8e8".split():
        two.push(parse_uci(two, uci))
    assert one.fen() == "4k3/8/8/8/8/|R7/8/4|K3 w - - 8 5"
    assert two.fen() == "4k3/8/8/8/8/R7/8/4K3 w - - 8 5"
    assert _without_boards(one.fen()) == _without_boards(two.fen())
    assert one.key != two.key


def test_transpositions_share_a_key() -> None:
    one, two = Position(), Position()
    for uci in ("g1f3", "b8c6", "b1c3"):
        one.push(parse_uci(one, uci))
    for uci in ("b1c3", "b8c6", "g1f3"):
        two.push(parse_uci(two, uci))
    assert one.fen() == two.fen()
    assert one.key == two.key


def test_side_and_castling_rights_in_key() -> None:
    base = "r3k2r/8/8/8/8/8/8/R3K2R {} {} - 0 1"
    keys = {Position(base.format(side, rights)).key for side in "wb" for rights in ("KQkq", "KQk", "Kkq", "-", "q")}
    assert len(keys) == 10


def test_null_move_key() -> None:
    pos = Position()
    pos.push(parse_uci(pos, "e2e4"))
    before = snapshot(pos)
    pos.push_null()
    assert pos.turn == 1 and pos.key == pos.compute_key() and pos.key != before[2]
    assert pos.halfmove == before[5] + 1
    pos.pop_null()
    assert snapshot(pos) == before


def test_copy_is_independent() -> None:
    pos = Position()
    pos.push(parse_uci(pos, "e2e4"))
    other = pos.copy()
    other.push(parse_uci(other, "e7e5"))
    assert pos.fen() == "rnbqkbnr/pppppppp/8/8/4|P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    assert len(pos.move_stack) == 1 and len(other.move_stack) == 2
    other.pop()
    other.pop()
    assert other.fen() == STARTING_FEN and pos.key != other.key


def test_repetition_count_matches_a_brute_force_count() -> None:
    """``repetitions()`` (by key, since the last irreversible move) equals counting equal
    FEN positions (placement with boards, side, rights) over the whole game.

    Kings and a rook each, with moves that often go back to where a piece came from,
    so positions repeat often; positions that differ only in the board of a
    piece (reached by odd cycles such as king triangles) are frequent too and must not
    be counted together.
    """
    rng = random.Random(3)
    repeats = board_only = threefolds = 0
    for _ in range(20):
        pos = Position("4k2r/8/8/8/8/8/8/R3K3 w - - 0 1")
        seen = [_position_part(pos)]
        for _ in range(200):
            moves = pos.legal_moves()
            if not moves or pos.is_bare_kings():
                break
            # Prefer returning to a square this side left in its last three moves:
            # two-move returns keep the boards, three-move triangles flip them.
            left = {pos.stack[i][0] & 63 for i in range(len(pos.stack) - 2, len(pos.stack) - 7, -2) if i >= 0}
            back = [m for m in moves if (m >> 6) & 63 in left]
            pos.push(rng.choice(back) if back and rng.random() < 0.6 else rng.choice(moves))
            here = _position_part(pos)
            seen.append(here)
            expected = seen.count(here)
            assert pos.repetitions() == expected, (pos.fen(), pos.move_stack)
            assert pos.is_repetition(3) == (expected >= 3)
            repeats += expected > 1
            threefolds += expected >= 3
            board_only += sum(_without_boards(s) == _without_boards(here) for s in seen) > expected
    assert repeats > 200 and threefolds > 40 and board_only > 30, (repeats, threefolds, board_only)


def _position_part(pos: Position) -> str:
    return " ".join(pos.fen().split()[:3])
