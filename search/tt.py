"""Transposition table: a fixed number of slots in one preallocated store of 64-bit words.

Each slot is 16 bytes, two neighbouring words (one cache line): the full key, then one packed
word of data::

    data = move | (score + SCORE_OFFSET) << 16 | depth << 32 | bound << 40 | generation << 42

so the memory is exactly ``16 * slots`` bytes, allocated once (``resize``), never
grown (``engine.bits.i64_store``: a native vector compiled, an ``array('q')`` pure). Replacement is depth-preferred with aging: a slot is overwritten by a
different position only when its entry is from an older search, or the new entry
is at least about as deep (``REPLACE_DEPTH_MARGIN``), or the new entry is exact.

Mate scores are stored relative to the node (``score_to_tt``) and turned back into
root-relative scores on probing (``score_from_tt``). A stored move is a hint only:
the caller must check it against the legal moves before playing it (keys can
collide; ``Searcher`` does).

>>> tt = TranspositionTable(1)
>>> tt.store(12345, 0x1234, -50, 3, BOUND_EXACT)
>>> tt.probe(12345)
(4660, -50, 3, 3)
>>> tt.probe(54321) is None
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mypy_extensions import i64, mypyc_attr

from engine.bits import i64_store
from search.score import MATE_BOUND

if TYPE_CHECKING:
    from librt.vecs import vec

# ---------------------------------------------------------------- tunables
BYTES_PER_ENTRY = 16  # 8-byte key + 8-byte packed data, two typed arrays
REPLACE_DEPTH_MARGIN = 2  # an older-or-equal-generation entry yields to one at least this much shallower
GENERATION_MASK = 63  # generations wrap modulo 64 (6 bits in the packed word)

BOUND_UPPER = 1  # score <= stored (fail low)
BOUND_LOWER = 2  # score >= stored (fail high)
BOUND_EXACT = 3

SCORE_OFFSET = 32768

TTEntry = tuple[int, int, int, int]  # move, score, depth, bound


def score_to_tt(score: i64, ply: i64) -> i64:
    """A root-relative mate score made node-relative for storing."""
    if score >= MATE_BOUND:
        return score + ply
    if score <= -MATE_BOUND:
        return score - ply
    return score


def score_from_tt(score: i64, ply: i64) -> i64:
    """A stored node-relative mate score made root-relative."""
    if score >= MATE_BOUND:
        return score - ply
    if score <= -MATE_BOUND:
        return score + ply
    return score


def pack(move: i64, score: i64, depth: i64, bound: i64, generation: i64) -> i64:
    """The packed word of an entry (``depth`` 0..255, ``score`` node-relative)."""
    return move | (score + SCORE_OFFSET) << 16 | depth << 32 | bound << 40 | generation << 42


def unpack(word: i64) -> tuple[i64, i64, i64, i64]:
    """``(move, score, depth, bound)`` of a non-zero packed word."""
    return word & 0xFFFF, ((word >> 16) & 0xFFFF) - SCORE_OFFSET, (word >> 32) & 0xFF, (word >> 40) & 3


@mypyc_attr(allow_interpreted_subclasses=True)  # tests stand in a table whose every key collides
class TranspositionTable:
    """Bounded hash table keyed by ``Position.key`` (see the module docstring)."""

    def __init__(self, mb: int = 16) -> None:
        self.slots: i64 = 0
        self.mask: i64 = 0  # slots - 1 when slots is a power of two (an AND instead of a division), else 0
        self.table: vec[i64] = i64_store(2)  # key of slot i at 2 * i, its data word at 2 * i + 1
        self.generation: i64 = 0
        self.resize(mb)

    def resize(self, mb: int) -> None:
        """Reallocate to ``mb`` megabytes (at least 1); clears the table."""
        self.resize_slots((max(1, int(mb)) * 1024 * 1024) // BYTES_PER_ENTRY)

    def resize_slots(self, slots: int) -> None:
        """Reallocate to exactly ``slots`` entries (tests use tiny tables to force clashes)."""
        slots = max(1, slots)
        self.slots = slots
        self.mask = slots - 1 if slots & (slots - 1) == 0 and slots > 1 else 0
        self.table = i64_store(0)  # the old table is freed before the new one is made
        self.table = i64_store(2 * slots)
        self.generation = 0

    def clear(self) -> None:
        """Forget every entry (same size)."""
        self.resize_slots(self.slots)

    def new_search(self) -> None:
        """Age the table: entries of earlier searches become preferred victims."""
        self.generation = (self.generation + 1) & GENERATION_MASK

    @property
    def bytes_used(self) -> int:
        return BYTES_PER_ENTRY * self.slots

    def probe(self, key: int) -> TTEntry | None:
        """``(move, score, depth, bound)`` stored for ``key``, or ``None``.

        The score is as stored (node-relative for mates: see ``score_from_tt``).
        """
        word = self.probe_word(key)
        return unpack(word) if word else None

    def probe_word(self, key: i64) -> i64:
        """The packed word stored for ``key`` (see the module docstring), 0 when none: the
        search's probe, which ``unpack`` reads without allocating a tuple (compiled)."""
        mask = self.mask
        i = 2 * (key & mask if mask else key % self.slots)
        table = self.table
        if table[i] != key:
            return 0
        return table[i + 1]

    def store(self, key: i64, move: i64, score: i64, depth: i64, bound: i64) -> None:
        """Record a search result (``score`` node-relative, ``depth`` >= 0)."""
        mask = self.mask
        i = 2 * (key & mask if mask else key % self.slots)
        table = self.table
        old = table[i + 1]
        gen = self.generation
        if table[i] == key:
            if not move:
                move = old & 0xFFFF  # keep the old best move for this position
        elif old and (old >> 42) == gen and bound != BOUND_EXACT and depth + REPLACE_DEPTH_MARGIN < (old >> 32) & 0xFF:
            return
        if depth < 0:
            depth = 0
        elif depth > 255:
            depth = 255
        table[i] = key
        table[i + 1] = pack(move, score, depth, bound, gen)

    def hashfull(self) -> int:
        """Permille of the first 1000 slots used by the current generation."""
        n = min(1000, self.slots)
        gen = self.generation
        table = self.table
        used = 0
        for i in range(n):
            word = table[2 * i + 1]
            if word and word >> 42 == gen:
                used += 1
        return used * 1000 // n
