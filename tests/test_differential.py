"""Differential test against Fairy-Stockfish's alice rules (pyffish_alice), first half of the seeds.

What is compared, and how the positions are reached, is in ``tests/support/differential.py``;
the second half of the seeds is ``tests/test_differential_second_half.py`` (two files, so that
the two workers of the README's test command share them).
"""

from __future__ import annotations

import random

import pytest

from engine import Position
from support.differential import (
    FIRST_HALF,
    Tally,
    Trail,
    check_chunk,
    random_castling_fen,
    random_sparse_fen,
    valid_position,
    walk_and_check,
)


@pytest.mark.slow
@pytest.mark.parametrize("seed", FIRST_HALF)
def test_differential_against_fairy_stockfish(seed: int) -> None:
    check_chunk(seed)


def test_differential_smoke() -> None:
    """A quick version for every run: one short game and a few set-ups."""
    rng = random.Random(4242)
    tally = Tally()
    pos = Position()
    walk_and_check(pos, Trail(-1, "game", pos.fen()), rng, tally, max_plies=12, limit=13)
    for make in (random_sparse_fen, random_castling_fen) * 3:
        pos = valid_position(make, rng)
        walk_and_check(pos, Trail(-1, "setup", pos.fen()), rng, tally, max_plies=2, limit=10_000)
    assert tally.positions >= 20 and tally.moves > 200
