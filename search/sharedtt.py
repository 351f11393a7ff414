"""The transposition table in memory shared by processes (``Threads`` > 1, ``search.workers``).

``SharedTranspositionTable`` is a ``search.tt.TranspositionTable`` whose buckets live in a
``memoryview`` of 64-bit words over a shared mapping (an ``mmap`` of a file in
``/dev/shm``) instead of the table's own store: the same layout, index, replacement and
packing, so the main search and every helper process read and write one table. Only the
methods that touch the words are overridden (``probe_word``, ``store``, ``hashfull``,
``resize_buckets``); they repeat the base class's logic line for line on ``words`` (the base
keeps ``table`` typed as the native vector that makes the one-thread search fast; a
``memoryview`` cannot stand in for it in the compiled build).

Races: an entry is one aligned 64-bit word, written and read whole, so a probe sees either the
old word or the new one, never half of each. The bucket's evaluation word is written apart from
its entry: a probe racing a store may take the evaluation of the entry's previous position (the
same harmless wrong estimate as a key collision, see ``search.tt``), and the move of an entry is
a hint the search checks for legality anyway. This is Stockfish's lock-free table, minus its
key-XOR check (an entry here is a single word).

The size is fixed by the mapping: ``resize_buckets`` (and so ``resize`` and ``clear``) clears
the words whatever size it is asked for (``search.workers`` maps a new table for a new ``Hash``).

>>> words = memoryview(bytearray(BUCKET_BYTES * 4)).cast("q")
>>> tt = SharedTranspositionTable(words)
>>> tt.buckets, tt.bytes_used
(4, 128)
>>> tt.store(12345, 0x1234, -50, 3, BOUND_EXACT, 27)
>>> tt.probe(12345), tt.static_eval(12345)
((4660, -50, 3, 3), 27)
>>> other = SharedTranspositionTable(words)  # a second view of the same words sees the entry
>>> other.probe(12345)
(4660, -50, 3, 3)
"""

from __future__ import annotations

from typing import Final

from mypy_extensions import i64

from engine.bits import i64_store
from search.score import INF
from search.tt import (
    AGE_WEIGHT,
    BOUND_EXACT,
    BUCKET_BYTES,
    BUCKET_WORDS,
    CHECK_MASK,
    EVAL_BITS,
    EVAL_OFFSET,
    GENERATION_MASK,
    NO_EVAL,
    SAME_KEY_DEPTH_MARGIN,
    WAYS,
    TranspositionTable,
    pack,
)

# ---------------------------------------------------------------- tunables
CLEAR_CHUNK: Final = 1 << 16  # words zeroed per slice assignment by clear (a 512 KB temporary)

__all__ = ["BOUND_EXACT", "BUCKET_BYTES", "SharedTranspositionTable"]


class SharedTranspositionTable(TranspositionTable):
    """A transposition table over shared 64-bit words (see the module docstring)."""

    def __init__(self, words: memoryview) -> None:
        self.words = words  # format "q": BUCKET_WORDS words per bucket, as search.tt's table
        self.attaching = True  # the words may hold other processes' entries: keep them
        super().__init__(1)  # the base's own store stays at one bucket (resize_buckets below)
        self.attaching = False

    def resize_buckets(self, buckets: int) -> None:
        """Clear the words; the size is the mapping's whatever ``buckets`` asks (``search.workers``
        maps a new table for a new ``Hash``)."""
        words = self.words
        count = max(1, len(words) // BUCKET_WORDS)
        self.buckets = count
        self.slots = count * WAYS
        self.mask = count - 1 if count & (count - 1) == 0 and count > 1 else 0
        self.table = i64_store(BUCKET_WORDS)  # the base class's own store, unused here
        self.generation = 0
        self.probe_eval = NO_EVAL
        if self.attaching:
            return
        n = len(words)
        zeros = memoryview(bytearray(8 * min(n, CLEAR_CHUNK))).cast("q")
        start = 0
        while start < n:
            end = min(n, start + CLEAR_CHUNK)
            words[start:end] = zeros[: end - start]
            start = end

    def probe_word(self, key: i64) -> i64:
        """``TranspositionTable.probe_word`` on the shared words."""
        i = self._bucket(key)
        check = key & CHECK_MASK
        words = self.words
        for j in range(i, i + WAYS):
            word: i64 = words[j]
            if not word:
                break
            if word & CHECK_MASK == check:
                evals: i64 = words[i + WAYS]
                self.probe_eval = ((evals >> (EVAL_BITS * (j - i))) & 0xFFFF) - EVAL_OFFSET
                return word
        return 0

    def store(self, key: i64, move: i64, score: i64, depth: i64, bound: i64, static_eval: i64 = NO_EVAL) -> None:
        """``TranspositionTable.store`` on the shared words."""
        i = self._bucket(key)
        check = key & CHECK_MASK
        words = self.words
        gen = self.generation
        ev: i64 = static_eval + EVAL_OFFSET if -INF < static_eval < INF else 0
        depth = min(255, max(0, depth))
        evals: i64 = words[i + WAYS]
        victim: i64 = i
        worst: i64 = 1 << 20
        for j in range(i, i + WAYS):
            old: i64 = words[j]
            if not old:
                victim = j
                break
            if old & CHECK_MASK == check:
                old_ev = (evals >> (EVAL_BITS * (j - i))) & 0xFFFF
                if (
                    bound != BOUND_EXACT
                    and (old >> 42) & GENERATION_MASK == gen
                    and depth + SAME_KEY_DEPTH_MARGIN < (old >> 32) & 0xFF
                ):
                    if ev and not old_ev:
                        words[i + WAYS] = evals | ev << (EVAL_BITS * (j - i))
                    return
                if not move:
                    move = old & 0xFFFF
                if not ev:
                    ev = old_ev
                victim = j
                break
            value = ((old >> 32) & 0xFF) - AGE_WEIGHT * ((gen - (old >> 42)) & GENERATION_MASK)
            if value < worst:
                victim = j
                worst = value
        words[victim] = pack(move, score, depth, bound, gen) | check
        shift = EVAL_BITS * (victim - i)
        field = (evals >> shift) & 0xFFFF
        if field != ev:
            words[i + WAYS] = evals ^ ((field ^ ev) << shift)

    def hashfull(self) -> int:
        """``TranspositionTable.hashfull`` on the shared words."""
        n = min(1000, self.slots)
        gen = self.generation
        words = self.words
        used = 0
        for k in range(n):
            word: i64 = words[BUCKET_WORDS * (k // WAYS) + k % WAYS]
            if word and (word >> 42) & GENERATION_MASK == gen:
                used += 1
        return used * 1000 // n
