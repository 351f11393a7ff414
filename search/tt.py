"""Transposition table: a fixed number of one-word entries in one preallocated store of 64-bit words.

Each entry is one word, read once by a probe::

    word = move | (score + SCORE_OFFSET) << 16 | depth << 32 | bound << 40 | generation << 42 | check << 48

where ``check`` is 15 bits of the key (bits 48..62) that the bucket index (the low bits)
does not use, so the memory is exactly ``8 * slots`` bytes, allocated once (``resize``),
never grown (``engine.bits.i64_store``: a native vector compiled, an ``array('q')`` pure).

Entries come in buckets of ``WAYS`` (32 bytes, half a cache line); a key may sit in any
entry of its bucket. Replacement:

* the same position: the new result replaces the old one only when it is exact, or not much
  shallower (``SAME_KEY_DEPTH_MARGIN``), or the old one is from an earlier search -- so a
  quiescence store at depth 0 never destroys a deep entry; a result without a move keeps the
  old move;
* another position: an empty entry first, else the least valuable one of the bucket, valued by
  depth minus ``AGE_WEIGHT`` per search of age (entries of earlier searches go first).

Mate scores are stored relative to the node (``score_to_tt``) and turned back into
root-relative scores on probing (``score_from_tt``). A stored move is a hint only:
the caller must check it against the legal moves before playing it (keys can
collide, and only 15 bits beyond the index are compared; ``Searcher`` does).

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
BYTES_PER_ENTRY = 8  # one packed word: move, score, depth, bound, generation and 15 check bits of the key
WAYS = 4  # entries per bucket: a key may sit in any
SAME_KEY_DEPTH_MARGIN = 3  # the same position's entry yields to a result at most this much shallower
AGE_WEIGHT = 8  # victim choice: one search of age counts as this many plies of depth
CHECK_SHIFT = 48  # the key's bits 48..62 are stored in the entry's bits 48..62 ...
CHECK_MASK = 0x7FFF << 48  # ... (keys have 63 bits, so an entry stays a non-negative i64)
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
    """The packed word of an entry without its check bits (``depth`` 0..255, ``score``
    node-relative)."""
    return move | (score + SCORE_OFFSET) << 16 | depth << 32 | bound << 40 | generation << 42


def unpack(word: i64) -> tuple[i64, i64, i64, i64]:
    """``(move, score, depth, bound)`` of a non-zero packed word."""
    return word & 0xFFFF, ((word >> 16) & 0xFFFF) - SCORE_OFFSET, (word >> 32) & 0xFF, (word >> 40) & 3


@mypyc_attr(allow_interpreted_subclasses=True)  # tests stand in a table whose every key collides
class TranspositionTable:
    """Bounded hash table keyed by ``Position.key`` (see the module docstring)."""

    def __init__(self, mb: int = 16) -> None:
        self.slots: i64 = 0
        self.buckets: i64 = 0
        self.mask: i64 = 0  # buckets - 1 when buckets is a power of two (an AND instead of a division), else 0
        self.table: vec[i64] = i64_store(WAYS)  # entry j of bucket b at WAYS * b + j
        self.generation: i64 = 0
        self.resize(mb)

    def resize(self, mb: int) -> None:
        """Reallocate to ``mb`` megabytes (at least 1); clears the table."""
        self.resize_slots((max(1, int(mb)) * 1024 * 1024) // BYTES_PER_ENTRY)

    def resize_slots(self, slots: int) -> None:
        """Reallocate to ``slots`` entries, rounded down to whole buckets (at least one; tests use
        tiny tables to force clashes)."""
        buckets = max(1, slots // WAYS)
        self.buckets = buckets
        self.slots = buckets * WAYS
        self.mask = buckets - 1 if buckets & (buckets - 1) == 0 and buckets > 1 else 0
        self.table = i64_store(0)  # the old table is freed before the new one is made
        self.table = i64_store(self.slots)
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

    def _bucket(self, key: i64) -> i64:
        """Index in ``table`` of the first entry of ``key``'s bucket."""
        mask = self.mask
        return WAYS * (key & mask if mask else key % self.buckets)

    def probe_word(self, key: i64) -> i64:
        """The packed word stored for ``key`` (see the module docstring), 0 when none: the
        search's probe, which ``unpack`` reads without allocating a tuple (compiled)."""
        i = self._bucket(key)
        check = key & CHECK_MASK
        table = self.table
        for j in range(i, i + WAYS):
            word = table[j]
            if not word:  # buckets fill in order
                return 0
            if word & CHECK_MASK == check:
                return word
        return 0

    def store(self, key: i64, move: i64, score: i64, depth: i64, bound: i64) -> None:
        """Record a search result (``score`` node-relative, ``depth`` >= 0)."""
        i = self._bucket(key)
        check = key & CHECK_MASK
        table = self.table
        gen = self.generation
        if depth < 0:
            depth = 0
        elif depth > 255:
            depth = 255
        victim: i64 = i
        worst: i64 = 1 << 20
        for j in range(i, i + WAYS):
            old = table[j]
            if not old:  # buckets fill in order: the key is not further on
                victim = j
                break
            if old & CHECK_MASK == check:
                if (
                    bound != BOUND_EXACT
                    and (old >> 42) & GENERATION_MASK == gen
                    and depth + SAME_KEY_DEPTH_MARGIN < (old >> 32) & 0xFF
                ):
                    return  # a deeper result for this position, from this search, stays
                if not move:
                    move = old & 0xFFFF  # keep the old best move for this position
                victim = j
                break
            value = ((old >> 32) & 0xFF) - AGE_WEIGHT * ((gen - (old >> 42)) & GENERATION_MASK)
            if value < worst:
                victim = j
                worst = value
        table[victim] = pack(move, score, depth, bound, gen) | check

    def hashfull(self) -> int:
        """Permille of the first 1000 slots used by the current generation."""
        n = min(1000, self.slots)
        gen = self.generation
        table = self.table
        used = 0
        for i in range(n):
            word = table[i]
            if word and (word >> 42) & GENERATION_MASK == gen:
                used += 1
        return used * 1000 // n
