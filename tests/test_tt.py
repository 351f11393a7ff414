"""Transposition table: storage, mate-score adjustment, replacement, bounded size, and
that a stored move is never played unverified (forced key collisions)."""

from __future__ import annotations

import random
import threading

from engine.notation import parse_uci
from engine.position import Position
from search.bench import BENCH_FENS
from search.limits import Iteration, Limits
from search.score import INF, MATE
from search.search import Searcher
from search.tt import (
    AGE_WEIGHT,
    BOUND_EXACT,
    BOUND_LOWER,
    BOUND_UPPER,
    BYTES_PER_ENTRY,
    SAME_KEY_DEPTH_MARGIN,
    WAYS,
    TranspositionTable,
    pack,
    score_from_tt,
    score_to_tt,
    unpack,
)


def key(n: int, bucket: int = 0) -> int:
    """A 63-bit key of ``bucket`` (in a table of at least that many buckets) with check bits ``n``."""
    return n << 48 | bucket


def test_store_and_probe_round_trip() -> None:
    tt = TranspositionTable(1)
    for score in (-MATE + 3, -1234, 0, 77, MATE - 9):
        tt.store(987654321 << 20, 0x3FFF, score, 17, BOUND_LOWER)
        assert tt.probe(987654321 << 20) == (0x3FFF, score, 17, BOUND_LOWER)
    assert tt.probe(123 << 48) is None


def test_probe_word_unpacks_to_the_entry() -> None:
    tt = TranspositionTable(1)
    tt.store(key(4242), 0x0ABC, -321, 9, BOUND_UPPER)
    assert unpack(tt.probe_word(key(4242))) == tt.probe(key(4242)) == (0x0ABC, -321, 9, BOUND_UPPER)
    assert tt.probe_word(key(4243)) == 0


def test_size_is_bounded_by_megabytes() -> None:
    tt = TranspositionTable(2)
    assert tt.slots * BYTES_PER_ENTRY <= 2 * 1024 * 1024
    assert 8 * len(tt.table) == tt.slots * BYTES_PER_ENTRY  # one 64-bit word per entry
    tt.resize(1)
    assert tt.slots * BYTES_PER_ENTRY <= 1024 * 1024
    # Filling it with many keys never grows it.
    for k in range(1, 100000, 7):
        tt.store(k * 0x9E3779B97F4A7C15 & ((1 << 63) - 1), 1, 0, 1, BOUND_EXACT)  # keys have 63 bits
    assert len(tt.table) == tt.slots


def test_mate_scores_are_stored_relative_to_the_node() -> None:
    # A mate in 5 plies from the root, seen at ply 3, is a mate in 2 from that node.
    assert score_to_tt(MATE - 5, 3) == MATE - 2
    assert score_from_tt(MATE - 2, 3) == MATE - 5
    # Probed again at ply 1 (a transposition nearer the root) it is a mate in 3 plies.
    assert score_from_tt(MATE - 2, 1) == MATE - 3
    assert score_to_tt(-(MATE - 6), 4) == -(MATE - 2)
    assert score_from_tt(score_to_tt(-(MATE - 6), 4), 4) == -(MATE - 6)
    assert score_to_tt(150, 9) == 150


def test_a_bucket_keeps_four_positions_and_evicts_the_least_valuable() -> None:
    tt = TranspositionTable(1)
    tt.resize_slots(WAYS)  # one bucket: every key shares it
    assert tt.slots == WAYS == 4
    depths = {1: 12, 2: 3, 3: 7, 4: 9}
    for n, d in depths.items():
        tt.store(key(n), 10 * n, n, d, BOUND_LOWER)
    assert all(tt.probe(key(n)) == (10 * n, n, d, BOUND_LOWER) for n, d in depths.items())
    tt.store(key(5), 50, 5, 5, BOUND_UPPER)  # the bucket is full: the shallowest (key 2) goes
    assert tt.probe(key(2)) is None and all(tt.probe(key(n)) is not None for n in (1, 3, 4, 5))
    tt.new_search()
    tt.new_search()  # all are two searches old: depth decides again, key 5 (depth 5) goes
    tt.store(key(6), 60, 6, 1, BOUND_EXACT)
    assert tt.probe(key(5)) is None and tt.probe(key(6)) is not None
    # Key 6 is of this search (worth 1); key 3 is two searches old (worth 7 - 2 * AGE_WEIGHT < 1).
    assert 7 - 2 * AGE_WEIGHT < 1
    tt.store(key(7), 70, 7, 1, BOUND_UPPER)
    assert tt.probe(key(3)) is None and tt.probe(key(6)) is not None and tt.probe(key(7)) is not None


def test_keys_differing_only_in_check_bits_are_told_apart() -> None:
    tt = TranspositionTable(1)
    tt.store(key(1, 5), 11, 1, 4, BOUND_EXACT)
    assert tt.probe(key(2, 5)) is None and tt.probe(key(1, 6)) is None
    assert tt.probe(key(1, 5)) == (11, 1, 4, BOUND_EXACT)


def test_the_same_position_keeps_a_deeper_entry_of_this_search() -> None:
    tt = TranspositionTable(1)
    k = key(7, 3)
    tt.store(k, 77, 100, 12, BOUND_LOWER)
    tt.store(k, 0, -5, 0, BOUND_UPPER)  # a quiescence store: the deep entry and its move stay
    assert tt.probe(k) == (77, 100, 12, BOUND_LOWER)
    tt.store(k, 78, 90, 12 - SAME_KEY_DEPTH_MARGIN, BOUND_UPPER)  # not much shallower: replaces
    assert tt.probe(k) == (78, 90, 12 - SAME_KEY_DEPTH_MARGIN, BOUND_UPPER)
    tt.store(k, 0, 55, 1, BOUND_EXACT)  # exact always replaces; without a move it keeps the old one
    assert tt.probe(k) == (78, 55, 1, BOUND_EXACT)
    tt.store(k, 79, 66, 20, BOUND_LOWER)
    tt.new_search()
    tt.store(k, 0, 10, 2, BOUND_UPPER)  # the deep entry is from an earlier search: it yields
    assert tt.probe(k) == (79, 10, 2, BOUND_UPPER)
    assert sum(1 for w in tt.table if w) == 1  # one entry for the position throughout


def test_a_qsearch_store_does_not_wipe_the_hash_move_in_a_search() -> None:
    """Searching a position to depth 6 and then resolving it in quiescence keeps the deep entry."""
    pos = Position(BENCH_FENS[1])
    searcher = Searcher(1)
    searcher.search(pos, Limits(depth=6), threading.Event(), lambda it: None)
    entry = searcher.tt.probe(pos.key)
    assert entry is not None and entry[2] >= 5
    searcher.tree.qsearch(pos, -INF, INF, 0, 0)
    assert searcher.tt.probe(pos.key) == entry


class GarbageTable(TranspositionTable):
    """Answers every probe with a random entry: as if every key collided."""

    def __init__(self, seed: int) -> None:
        super().__init__(1)
        self.rng = random.Random(seed)

    def probe_word(self, key: int) -> int:
        r = self.rng
        move = r.randrange(1, 1 << 15)
        return pack(move, r.randrange(-MATE, MATE), r.randrange(0, 3), r.choice((BOUND_LOWER, BOUND_UPPER)), 0)


def test_colliding_entries_never_yield_an_illegal_move() -> None:
    for seed, fen in enumerate(BENCH_FENS):
        pos = Position(fen)
        searcher = Searcher(1)
        searcher.tree.tt = GarbageTable(seed)
        its: list[Iteration] = []
        result = searcher.search(pos, Limits(depth=3), threading.Event(), its.append)
        legal = pos.legal_moves()
        assert result.best in legal
        for it in its:
            p = pos.copy()
            for m in it.pv:
                assert m in p.legal_moves()
                p.push(m)


def test_stored_move_of_another_position_is_ignored() -> None:
    """A move legal elsewhere, stored under this key (a real collision), is not played."""
    pos = Position()
    searcher = Searcher(1)
    elsewhere = Position(BENCH_FENS[3])
    foreign = parse_uci(elsewhere, "d2e4")  # a knight move from d2, illegal in the start position
    assert foreign not in pos.legal_moves()
    searcher.tt.store(pos.key, foreign, 500, 60, BOUND_EXACT)
    assert searcher._tt_move(pos, pos.legal_moves()) == 0
    result = searcher.search(pos, Limits(depth=2), threading.Event(), lambda it: None)
    assert result.best in pos.legal_moves()


def test_hashfull_grows() -> None:
    searcher = Searcher(1)
    assert searcher.tt.hashfull() == 0
    searcher.search(Position(BENCH_FENS[3]), Limits(depth=4), threading.Event(), lambda it: None)
    assert searcher.tt.hashfull() > 0
