"""Static evaluations remembered by position key: a small direct-mapped table.

    cache = EvalCache()
    cache.static(pos)        # evaluate(pos), or the remembered score of the same key

One word per slot, read once: 40 bits of the key (``EVAL_CHECK_MASK``) above the slot index,
then the score + ``EVAL_OFFSET`` in 16 bits (never 0, so 0 is an empty slot). The word stays
below 2**62, where the compiled build keeps ints unboxed. ``hook`` (tests) replaces
``search.evaluate.evaluate``, which is otherwise called natively.

>>> from engine.position import Position
>>> from search.evaluate import evaluate
>>> cache = EvalCache()
>>> cache.static(Position()) == cache.static(Position()) == evaluate(Position())
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from mypy_extensions import i64

from engine.bits import i64_store
from engine.position import Position
from search.evaluate import evaluate

if TYPE_CHECKING:
    from librt.vecs import vec

# ---------------------------------------------------------------- tunables
EVAL_CACHE_BITS: Final = 16  # static evaluations remembered (2**bits slots, 8 bytes each)
EVAL_CHECK_MASK: Final = 0xFF_FFFF_FFFF  # 40 key bits above the slot index, kept in a slot to tell positions apart
EVAL_OFFSET: Final = 32768  # a cached score is stored as score + this in 16 bits


class EvalCache:
    """``evaluate`` through a direct-mapped cache (see the module docstring)."""

    def __init__(self) -> None:
        self.table: vec[i64] = i64_store(1 << EVAL_CACHE_BITS)
        # None: search.evaluate.evaluate, called natively; tests hook in a function of their own.
        self.hook: Callable[[Position], int] | None = None

    def clear(self) -> None:
        self.table = i64_store(1 << EVAL_CACHE_BITS)

    def static(self, pos: Position) -> int:
        """The static evaluation of ``pos`` for the side to move."""
        key = pos.key
        i = key & ((1 << EVAL_CACHE_BITS) - 1)
        check = (key >> EVAL_CACHE_BITS) & EVAL_CHECK_MASK
        word = self.table[i]
        if word and word >> 16 == check:
            return (word & 0xFFFF) - EVAL_OFFSET
        hook = self.hook
        v = evaluate(pos) if hook is None else hook(pos)
        if -EVAL_OFFSET < v < EVAL_OFFSET:
            self.table[i] = check << 16 | (v + EVAL_OFFSET)
        return v
