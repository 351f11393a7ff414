"""Transposition table: storage, mate-score adjustment, replacement, bounded size, and
that a stored move is never played unverified (forced key collisions)."""

from __future__ import annotations

import random
import threading

from engine.notation import parse_uci
from engine.position import Position
from search.bench import BENCH_FENS
from search.limits import Iteration, Limits
from search.score import MATE
from search.search import Searcher
from search.tt import (
    BOUND_EXACT,
    BOUND_LOWER,
    BOUND_UPPER,
    BYTES_PER_ENTRY,
    TranspositionTable,
    pack,
    score_from_tt,
    score_to_tt,
    unpack,
)


def test_store_and_probe_round_trip() -> None:
    tt = TranspositionTable(1)
    for score in (-MATE + 3, -1234, 0, 77, MATE - 9):
        tt.store(987654321, 0x3FFF, score, 17, BOUND_LOWER)
        assert tt.probe(987654321) == (0x3FFF, score, 17, BOUND_LOWER)
    assert tt.probe(123) is None


def test_probe_word_unpacks_to_the_entry() -> None:
    tt = TranspositionTable(1)
    tt.store(4242, 0x0ABC, -321, 9, BOUND_UPPER)
    assert unpack(tt.probe_word(4242)) == tt.probe(4242) == (0x0ABC, -321, 9, BOUND_UPPER)
    assert tt.probe_word(4243) == 0


def test_size_is_bounded_by_megabytes() -> None:
    tt = TranspositionTable(2)
    assert tt.slots * BYTES_PER_ENTRY <= 2 * 1024 * 1024
    assert 8 * len(tt.table) == tt.slots * BYTES_PER_ENTRY  # 64-bit words: a key and a data word per slot
    tt.resize(1)
    assert tt.slots * BYTES_PER_ENTRY <= 1024 * 1024
    # Filling it with many keys never grows it.
    for k in range(1, 100000, 7):
        tt.store(k * 0x9E3779B97F4A7C15 & ((1 << 63) - 1), 1, 0, 1, BOUND_EXACT)  # keys have 63 bits
    assert len(tt.table) == 2 * tt.slots


def test_mate_scores_are_stored_relative_to_the_node() -> None:
    # A mate in 5 plies from the root, seen at ply 3, is a mate in 2 from that node.
    assert score_to_tt(MATE - 5, 3) == MATE - 2
    assert score_from_tt(MATE - 2, 3) == MATE - 5
    # Probed again at ply 1 (a transposition nearer the root) it is a mate in 3 plies.
    assert score_from_tt(MATE - 2, 1) == MATE - 3
    assert score_to_tt(-(MATE - 6), 4) == -(MATE - 2)
    assert score_from_tt(score_to_tt(-(MATE - 6), 4), 4) == -(MATE - 6)
    assert score_to_tt(150, 9) == 150


def test_depth_preferred_replacement() -> None:
    tt = TranspositionTable(1)
    tt.resize_slots(1)  # every key shares the one slot
    tt.store(1, 11, 10, 12, BOUND_LOWER)
    tt.store(2, 22, 20, 3, BOUND_UPPER)  # much shallower, same search: kept out
    assert tt.probe(1) is not None and tt.probe(2) is None
    tt.store(2, 22, 20, 11, BOUND_UPPER)  # nearly as deep: replaces
    assert tt.probe(2) is not None and tt.probe(1) is None
    tt.new_search()
    tt.store(3, 33, 30, 1, BOUND_UPPER)  # an older search's entry always yields
    assert tt.probe(3) == (33, 30, 1, BOUND_UPPER)
    tt.store(3, 0, 31, 2, BOUND_LOWER)  # same position, no move: the old move is kept
    assert tt.probe(3) == (33, 31, 2, BOUND_LOWER)


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
