"""Differential test against Fairy-Stockfish's alice rules (pyffish_alice), second half of the seeds.

The first half, and the quick smoke version, are ``tests/test_differential.py``; the machinery
is ``tests/support/differential.py``.
"""

from __future__ import annotations

import pytest

from support.differential import SECOND_HALF, check_chunk


@pytest.mark.slow
@pytest.mark.parametrize("seed", SECOND_HALF)
def test_differential_against_fairy_stockfish(seed: int) -> None:
    check_chunk(seed)
