"""The transposition table in memory shared by processes (``Threads`` > 1, ``search.workers``).

The buckets live in a file mapped by the main search and every helper process (a file in
``/dev/shm``), with ``search.tt``'s layout, index, replacement and packing. ``attach(fd, offset,
words)`` gives the fastest table the system allows:

* ``SharedTranspositionTable``: the file's pages mapped into the table's own native vector
  (``search.sharedwords``), so the search probes and stores with ``search.tt``'s own code at its
  own speed; only the bucket index starts at ``base`` (the first whole page of the vector);
* ``ViewTranspositionTable``, where that cannot be done (no POSIX ``mmap``: Windows) or would
  not pay (the pure build, where every probe is interpreted anyway): the words
  through a ``memoryview``, ``probe_word``, ``store`` and ``hashfull`` repeating the base
  class's logic line for line (compiled, about 13 % slower per node: a Python call per probe).

Races: an entry is one aligned 64-bit word, written and read whole, so a probe sees either the
old word or the new one, never half of each. The bucket's evaluation word is written apart from
its entry: a probe racing a store may take the evaluation of the entry's previous position (the
same harmless wrong estimate as a key collision, see ``search.tt``), and the move of an entry is
a hint the search checks for legality anyway. This is Stockfish's lock-free table, minus its
key-XOR check (an entry here is a single word).

The size is fixed by the mapping: ``resize_buckets`` (and so ``resize`` and ``clear``) clears
the words whatever size it is asked for (``search.workers`` maps a new table for a new ``Hash``);
``release`` unmaps them (the table is then empty).

>>> import tempfile
>>> with tempfile.TemporaryFile() as f:
...     _ = f.truncate(PAGE)
...     one, two = attach(f.fileno(), 0, PAGE // 8), attach(f.fileno(), 0, PAGE // 8)
...     one.store(12345, 0x1234, -50, 3, BOUND_EXACT, 27)
...     two.probe(12345), two.static_eval(12345), one.buckets  # the second sees the first's entry
...     one.release(); two.release()
((4660, -50, 3, 3), 27, 128)
>>> view = ViewTranspositionTable(memoryview(bytearray(BUCKET_BYTES * 4)).cast("q"))
>>> view.store(12345, 0x1234, -50, 3, BOUND_EXACT, 27)
>>> view.probe(12345), view.buckets, view.bytes_used
((4660, -50, 3, 3), 4, 128)
"""

from __future__ import annotations

import mmap
from typing import Final

from mypy_extensions import i64

from engine.bits import COMPILED, i64_store
from search.score import INF
from search.sharedwords import PAGE, SharedWords, SharedWordsError, touch
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

__all__ = ["BOUND_EXACT", "BUCKET_BYTES", "PAGE", "SharedTranspositionTable", "ViewTranspositionTable", "attach"]


def attach(fd: int, offset: int, words: int, native: bool = True) -> SharedTranspositionTable | ViewTranspositionTable:
    """The table over ``words`` words of file ``fd`` from byte ``offset`` (whole pages): native
    in the compiled build where the system allows (and ``native``), else through a
    ``memoryview`` of an ``mmap``. Every page is faulted in now (``search.sharedwords.touch``),
    not during a search."""
    if native and COMPILED:
        try:
            return SharedTranspositionTable(SharedWords.map(fd, offset, words))
        except SharedWordsError:
            pass
    mapping = mmap.mmap(fd, 8 * words, offset=offset)
    view = memoryview(mapping).cast("q")
    touch(view, 0, words)
    return ViewTranspositionTable(view, mapping)


class SharedTranspositionTable(TranspositionTable):
    """``search.tt``'s table over shared words mapped into its own vector (module docstring)."""

    def __init__(self, shared: SharedWords) -> None:
        self.shared = shared
        self.attaching = True  # the words may hold other processes' entries: keep them
        super().__init__(1)  # resize_buckets below puts the shared words in place
        self.attaching = False

    def resize_buckets(self, buckets: int) -> None:
        """Clear the words; the size is the mapping's whatever ``buckets`` asks."""
        shared = self.shared
        self.set_size(shared.words // BUCKET_WORDS)
        self.table = shared.store
        self.base = shared.base
        if not self.attaching:
            shared.clear()

    def release(self) -> None:
        """Unmap the shared words: the table goes on over private zero pages of the same size (a
        search still running when the pool closes reads empty buckets, never freed memory)."""
        self.shared.close()


class ViewTranspositionTable(TranspositionTable):
    """A transposition table over shared 64-bit words seen through a ``memoryview`` (module docstring)."""

    def __init__(self, words: memoryview, mapping: mmap.mmap | None = None) -> None:
        self.words = words  # format "q": BUCKET_WORDS words per bucket, as search.tt's table
        self.mapping = mapping  # the mmap behind words when the table owns it (release closes it)
        self.attaching = True  # the words may hold other processes' entries: keep them
        super().__init__(1)  # the base's own store stays at one bucket (resize_buckets below)
        self.attaching = False

    def release(self) -> None:
        """Release the view (and close the mapping the table owns)."""
        self.words.release()
        if self.mapping is not None:
            self.mapping.close()

    def resize_buckets(self, buckets: int) -> None:
        """Clear the words; the size is the mapping's whatever ``buckets`` asks (``search.workers``
        maps a new table for a new ``Hash``)."""
        words = self.words
        self.set_size(len(words) // BUCKET_WORDS)
        self.table = i64_store(BUCKET_WORDS)  # the base class's own store, unused here
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
