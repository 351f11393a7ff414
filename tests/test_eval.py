"""Evaluation: terms add up, colour symmetry, and the Alice-specific terms point the right way."""

from __future__ import annotations

import pytest

from engine.position import Position
from search.bench import BENCH_FENS
from search.evaluate import TEMPO, evaluate, terms
from support.walks import random_positions


def flip(fen: str) -> str:
    """The same position with colours swapped and the board turned around (ranks mirrored)."""
    board, turn, castling, ep, half, full = fen.split()
    ranks = board.split("/")[::-1]
    flipped = "/".join(r.swapcase() for r in ranks)
    castling = "".join(sorted(castling.swapcase(), key="KQkq".index)) if castling != "-" else "-"
    return f"{flipped} {'b' if turn == 'w' else 'w'} {castling} {ep} {half} {full}"


def random_fens(count: int, seed: int) -> list[str]:
    return [pos.fen() for pos in random_positions(count, seed, max_plies=70)]


@pytest.mark.parametrize("fen", BENCH_FENS + random_fens(60, 5))
def test_terms_add_up_to_evaluate(fen: str) -> None:
    pos = Position(fen)
    parts = terms(pos)
    assert parts[-1][0] == "total"
    total = sum(v for _, v in parts[:-1])
    assert parts[-1][1] == total
    assert evaluate(pos) == (total if pos.turn else -total)


@pytest.mark.parametrize("fen", BENCH_FENS + random_fens(60, 6))
def test_colour_symmetry(fen: str) -> None:
    pos = Position(fen)
    mirror = Position(flip(fen))
    assert evaluate(pos) == evaluate(mirror)


def test_start_position_is_balanced() -> None:
    # Everything but the side-to-move bonus cancels out in the symmetric start.
    assert evaluate(Position()) == TEMPO


def test_material_counts() -> None:
    up_a_rook = Position("r3k3/8/8/8/8/8/8/R3K2R w - - 0 1")
    level = Position("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1")
    assert evaluate(up_a_rook) > evaluate(level) + 300


def _term(pos: Position, name: str) -> int:
    return dict(terms(pos))[name]


def test_mirror_blocked_destinations_cost() -> None:
    # The same white rook on a1 (board A); in the second position black pawns on board B
    # stand on the mirror squares of its open file, so those rook moves are illegal.
    free = Position("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    blocked = Position("4k3/|p7/|p7/|p7/8/8/8/R3K3 w - - 0 1")
    assert _term(blocked, "mirror-square blockage") < _term(free, "mirror-square blockage")
    assert _term(blocked, "mobility (free moves)") < _term(free, "mobility (free moves)")


def test_checks_from_the_other_board_are_king_danger() -> None:
    # Black king on A. A white queen on board B that can land (on A) with check is a threat;
    # the same queen on board A cannot check by moving (it would leave A).
    threat = Position("6k1/5ppp/8/8/8/8/8/|Q3K3 w - - 0 1")
    quiet = Position("6k1/5ppp/8/8/8/8/8/Q3K3 w - - 0 1")
    assert _term(threat, "king safety black") > _term(quiet, "king safety black")


def test_pieces_near_the_king_on_the_other_board_are_king_danger() -> None:
    # A black knight and rook on board B beside the white king (on A) cover its flight squares
    # on B (a king move lands on B) and can arrive next to it or with check; the same pieces
    # far away in a corner do much less.
    near = Position("q3k2r/8/8/8/8/5|n|r1/8/4K3 w - - 0 1")
    far = Position("|n|rq1k2r/8/8/8/8/8/8/4K3 w - - 0 1")
    assert _term(near, "king safety white") < _term(far, "king safety white") <= 0
