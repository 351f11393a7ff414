"""Transposition table: buckets of three one-word entries and a word of their static
evaluations, in one preallocated store of 64-bit words.

Each entry is one word, read once by a probe::

    word = move | (score + SCORE_OFFSET) << 16 | depth << 32 | bound << 40 | generation << 42 | check << 48

where ``check`` is 15 bits of the key (bits 48..62) that the bucket index (the low bits)
does not use. That word is full, so a bucket is ``BUCKET_WORDS`` (4) words, 32 bytes, half a
cache line: ``WAYS`` (3) entry words, then one word holding each entry's static evaluation
(``eval_j + EVAL_OFFSET`` in bits ``16 j .. 16 j + 15``, 0 = none; bits 48..63 spare)::

    | entry 0 | entry 1 | entry 2 | eval 0 | eval 1 | eval 2 | - |

Why this layout: the evaluation sits in the half cache line the probe has already loaded;
buckets stay a power of two bytes, so ``Hash`` stays exact in megabytes and the index a mask
when the bucket count is a power of two (the same index as with the four one-word entries a
bucket had before evaluations were kept: the table holds 3/4 as many positions). A parallel
array of 16-bit evaluations (10 bytes an entry) would keep 4/5 of them, but cost a second
cache miss per probe and a modulo index. The memory is exactly ``BUCKET_BYTES * buckets``
bytes, allocated once (``resize``), never grown (``engine.bits.i64_store``: a native vector
compiled, an ``array('q')`` pure). At 16 MB: 524,288 buckets, 1,572,864 entries.

A key may sit in any entry of its bucket. Replacement:

* the same position: the new result replaces the old one only when it is exact, or not much
  shallower (``SAME_KEY_DEPTH_MARGIN``), or the old one is from an earlier search -- so a
  quiescence store at depth 0 never destroys a deep entry; a result without a move keeps the
  old move, one without an evaluation the old evaluation (a kept deeper entry without one
  takes the new one);
* another position: an empty entry first, else the least valuable one of the bucket, valued by
  depth minus ``AGE_WEIGHT`` per search of age (entries of earlier searches go first).

Mate scores are stored relative to the node (``score_to_tt``) and turned back into
root-relative scores on probing (``score_from_tt``). A stored move is a hint only:
the caller must check it against the legal moves before playing it (keys can
collide, and only 15 bits beyond the index are compared; ``Searcher`` does). The stored
static evaluation is trusted as it is: it is a function of the position, so the one a true
hit gives equals ``evaluate``'s, and a colliding key (about one probe of a missing position
in 2**15 per full entry of the bucket) gives another position's -- a wrong estimate that
steers pruning, never an illegal move. Nodes in check, and stores that evaluated nothing
(the root), leave ``NO_EVAL``.

>>> tt = TranspositionTable(1)
>>> tt.store(12345, 0x1234, -50, 3, BOUND_EXACT, 27)
>>> tt.probe(12345)
(4660, -50, 3, 3)
>>> tt.probe_word(12345) != 0 and tt.probe_eval  # probe_word leaves the entry's evaluation there
27
>>> tt.probe(54321) is None and tt.static_eval(54321) == NO_EVAL
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from mypy_extensions import i64, mypyc_attr

from engine.bits import i64_store
from search.score import INF, MATE_BOUND

if TYPE_CHECKING:
    from librt.vecs import vec

# ---------------------------------------------------------------- tunables
WAYS: Final = 3  # entries per bucket: a key may sit in any
BUCKET_WORDS: Final = 4  # a bucket's 64-bit words: WAYS entries, then the word of their evaluations
BUCKET_BYTES: Final = 8 * BUCKET_WORDS  # 32 bytes, half a cache line: Hash stays exact in megabytes
SAME_KEY_DEPTH_MARGIN: Final = 3  # the same position's entry yields to a result at most this much shallower
AGE_WEIGHT: Final = 8  # victim choice: one search of age counts as this many plies of depth
CHECK_SHIFT: Final = 48  # the key's bits 48..62 are stored in the entry's bits 48..62 ...
CHECK_MASK: Final[i64] = 0x7FFF << 48  # ... (keys have 63 bits, so an entry stays a non-negative i64)
GENERATION_MASK: Final = 63  # generations wrap modulo 64 (6 bits in the packed word)
EVAL_BITS: Final = 16  # a static evaluation's field in the bucket's evaluation word
EVAL_OFFSET: Final = 32768  # ... holds eval + this (evaluations strictly between -INF and INF); 0 = none
NO_EVAL: Final = -EVAL_OFFSET  # "no static evaluation stored" (in check, or none computed): an empty field

BOUND_UPPER: Final = 1  # score <= stored (fail low)
BOUND_LOWER: Final = 2  # score >= stored (fail high)
BOUND_EXACT: Final = 3

SCORE_OFFSET: Final = 32768

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
        self.slots: i64 = 0  # entries: WAYS per bucket
        self.buckets: i64 = 0
        self.mask: i64 = 0  # buckets - 1 when buckets is a power of two (an AND instead of a division), else 0
        self.base: i64 = 0  # index in table of bucket 0 (the shared table's window starts at a page: search.sharedwords)
        # Entry j of bucket b at base + BUCKET_WORDS * b + j, the bucket's evaluations at base + BUCKET_WORDS * b + WAYS.
        self.table: vec[i64] = i64_store(BUCKET_WORDS)
        self.generation: i64 = 0
        self.probe_eval: i64 = NO_EVAL  # the static evaluation of the entry the last hit of probe_word found
        self.resize(mb)

    def resize(self, mb: int) -> None:
        """Reallocate to ``mb`` megabytes (at least 1); clears the table."""
        self.resize_buckets((max(1, int(mb)) * 1024 * 1024) // BUCKET_BYTES)

    def resize_slots(self, slots: int) -> None:
        """Reallocate to ``slots`` entries, rounded down to whole buckets (at least one; tests use
        tiny tables to force clashes)."""
        self.resize_buckets(slots // WAYS)

    def resize_buckets(self, buckets: int) -> None:
        """Reallocate to ``buckets`` buckets (at least one); clears the table."""
        self.set_size(buckets)
        self.table = i64_store(0)  # the old table is freed before the new one is made
        self.table = i64_store(self.buckets * BUCKET_WORDS)

    def set_size(self, buckets: int) -> None:
        """Take ``buckets`` buckets (at least one) as the size, from generation 0: the fields
        every ``resize_buckets`` sets, whoever holds the words (``search.sharedtt``)."""
        buckets = max(1, buckets)
        self.buckets = buckets
        self.slots = buckets * WAYS
        self.mask = buckets - 1 if buckets & (buckets - 1) == 0 and buckets > 1 else 0
        self.generation = 0
        self.probe_eval = NO_EVAL

    def clear(self) -> None:
        """Forget every entry (same size)."""
        self.resize_buckets(self.buckets)

    def new_search(self) -> None:
        """Age the table: entries of earlier searches become preferred victims."""
        self.generation = (self.generation + 1) & GENERATION_MASK

    @property
    def bytes_used(self) -> int:
        return BUCKET_BYTES * self.buckets

    def probe(self, key: int) -> TTEntry | None:
        """``(move, score, depth, bound)`` stored for ``key``, or ``None`` (``static_eval``
        gives the entry's static evaluation).

        The score is as stored (node-relative for mates: see ``score_from_tt``).
        """
        word = self.probe_word(key)
        return unpack(word) if word else None

    def static_eval(self, key: int) -> int:
        """The static evaluation stored with ``key``'s entry; ``NO_EVAL`` when there is none
        (or no entry)."""
        return self.probe_eval if self.probe_word(key) else NO_EVAL

    def _bucket(self, key: i64) -> i64:
        """Index in ``table`` of the first entry of ``key``'s bucket."""
        mask = self.mask
        return self.base + BUCKET_WORDS * (key & mask if mask else key % self.buckets)

    def probe_word(self, key: i64) -> i64:
        """The packed word stored for ``key`` (see the module docstring), 0 when none: the
        search's probe, which ``unpack`` reads without allocating a tuple (compiled). A hit
        also sets ``probe_eval`` to the entry's static evaluation (``NO_EVAL`` when it has
        none): an attribute, not a second return value (no tuple); a miss leaves it as it was."""
        i = self._bucket(key)
        check = key & CHECK_MASK
        table = self.table
        for j in range(i, i + WAYS):
            word = table[j]
            if not word:  # buckets fill in order
                break
            if word & CHECK_MASK == check:
                # An empty field (0) reads as NO_EVAL.
                self.probe_eval = ((table[i + WAYS] >> (EVAL_BITS * (j - i))) & 0xFFFF) - EVAL_OFFSET
                return word
        return 0

    def store(self, key: i64, move: i64, score: i64, depth: i64, bound: i64, static_eval: i64 = NO_EVAL) -> None:
        """Record a search result (``score`` node-relative, ``depth`` >= 0) and the node's
        static evaluation (none when not strictly between ``-INF`` and ``INF``: ``NO_EVAL``,
        or the tree's ``-INF`` of a node in check)."""
        i = self._bucket(key)
        check = key & CHECK_MASK
        table = self.table
        gen = self.generation
        ev: i64 = static_eval + EVAL_OFFSET if -INF < static_eval < INF else 0
        if depth < 0:
            depth = 0
        elif depth > 255:
            depth = 255
        evals = table[i + WAYS]
        victim: i64 = i
        worst: i64 = 1 << 20
        for j in range(i, i + WAYS):
            old = table[j]
            if not old:  # buckets fill in order: the key is not further on
                victim = j
                break
            if old & CHECK_MASK == check:
                old_ev = (evals >> (EVAL_BITS * (j - i))) & 0xFFFF
                if (
                    bound != BOUND_EXACT
                    and (old >> 42) & GENERATION_MASK == gen
                    and depth + SAME_KEY_DEPTH_MARGIN < (old >> 32) & 0xFF
                ):
                    if ev and not old_ev:  # a deeper result for this position stays; it takes the evaluation
                        table[i + WAYS] = evals | ev << (EVAL_BITS * (j - i))
                    return
                if not move:
                    move = old & 0xFFFF  # keep the old best move for this position
                if not ev:
                    ev = old_ev  # and its evaluation
                victim = j
                break
            value = ((old >> 32) & 0xFF) - AGE_WEIGHT * ((gen - (old >> 42)) & GENERATION_MASK)
            if value < worst:
                victim = j
                worst = value
        table[victim] = pack(move, score, depth, bound, gen) | check
        shift = EVAL_BITS * (victim - i)
        field = (evals >> shift) & 0xFFFF
        if field != ev:
            table[i + WAYS] = evals ^ ((field ^ ev) << shift)  # the victim's field := ev

    def hashfull(self) -> int:
        """Permille of the first 1000 entries used by the current generation."""
        n = min(1000, self.slots)
        gen = self.generation
        table = self.table
        used = 0
        for k in range(n):
            word = table[self.base + BUCKET_WORDS * (k // WAYS) + k % WAYS]
            if word and (word >> 42) & GENERATION_MASK == gen:
                used += 1
        return used * 1000 // n
