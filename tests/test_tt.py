"""Transposition table: storage, mate-score adjustment, replacement, bounded size, that a
stored move is never played unverified (forced key collisions), and the static evaluations it
keeps: they travel with their entries, the search takes them instead of evaluating, they equal
``evaluate``'s, and they leave a fixed-depth search's tree as it was."""

from __future__ import annotations

import random
import threading

from engine.notation import parse_uci
from engine.position import Position
from search.bench import BENCH_FENS
from search.evaluate import evaluate
from search.limits import Iteration, Limits
from search.score import INF, MATE
from search.search import Searcher
from search.tt import (
    AGE_WEIGHT,
    BOUND_EXACT,
    BOUND_LOWER,
    BOUND_UPPER,
    BUCKET_BYTES,
    BUCKET_WORDS,
    NO_EVAL,
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


def entry_words(tt: TranspositionTable) -> list[int]:
    """The table's entry words (not the buckets' evaluation words)."""
    return [w for i, w in enumerate(tt.table) if i % BUCKET_WORDS < WAYS]


def test_store_and_probe_round_trip() -> None:
    tt = TranspositionTable(1)
    for score in (-MATE + 3, -1234, 0, 77, MATE - 9):
        tt.store(987654321 << 20, 0x3FFF, score, 17, BOUND_LOWER)
        assert tt.probe(987654321 << 20) == (0x3FFF, score, 17, BOUND_LOWER)
    assert tt.probe(123 << 48) is None


def test_static_eval_round_trip() -> None:
    tt = TranspositionTable(1)
    k = 987654321 << 20
    for ev in (-INF + 1, -32000 + 7, -1234, -1, 0, 1, 999, INF - 1):
        tt.store(k, 0x3FF, 5, 3, BOUND_EXACT, ev)
        assert tt.static_eval(k) == ev
        assert tt.probe_word(k) and tt.probe_eval == ev
    tt.clear()
    tt.store(k, 0x3FF, 5, 3, BOUND_EXACT)  # no evaluation given
    assert tt.static_eval(k) == NO_EVAL
    for none in (-INF, INF, NO_EVAL, 40000):  # in check (-INF), the sentinel, out of range: none kept
        tt.clear()
        tt.store(k, 0x3FF, 5, 3, BOUND_EXACT, none)
        assert tt.probe(k) == (0x3FF, 5, 3, BOUND_EXACT) and tt.static_eval(k) == NO_EVAL
    assert tt.static_eval(key(77)) == NO_EVAL  # no entry


def test_evaluations_stay_with_their_entries_in_a_bucket() -> None:
    tt = TranspositionTable(1)
    tt.resize_slots(WAYS)  # one bucket
    for n in range(1, WAYS + 1):
        tt.store(key(n), n, 0, 10 + n, BOUND_LOWER, -100 * n)
    assert [tt.static_eval(key(n)) for n in range(1, WAYS + 1)] == [-100 * n for n in range(1, WAYS + 1)]
    tt.store(key(9), 9, 0, 20, BOUND_EXACT)  # evicts key 1 (the shallowest); stores no evaluation
    assert tt.probe(key(1)) is None and tt.static_eval(key(9)) == NO_EVAL
    assert [tt.static_eval(key(n)) for n in range(2, WAYS + 1)] == [-100 * n for n in range(2, WAYS + 1)]
    tt.store(key(9), 9, 0, 20, BOUND_EXACT, 31000)
    assert tt.static_eval(key(9)) == 31000
    assert [tt.static_eval(key(n)) for n in range(2, WAYS + 1)] == [-100 * n for n in range(2, WAYS + 1)]


def test_probe_word_unpacks_to_the_entry() -> None:
    tt = TranspositionTable(1)
    tt.store(key(4242), 0x0ABC, -321, 9, BOUND_UPPER)
    assert unpack(tt.probe_word(key(4242))) == tt.probe(key(4242)) == (0x0ABC, -321, 9, BOUND_UPPER)
    assert tt.probe_word(key(4243)) == 0


def test_size_is_exactly_the_megabytes() -> None:
    tt = TranspositionTable(2)
    assert tt.bytes_used == 8 * len(tt.table) == 2 * 1024 * 1024  # 64-bit words
    assert tt.bytes_used == BUCKET_BYTES * tt.buckets and tt.slots == WAYS * tt.buckets
    assert tt.mask == tt.buckets - 1  # a power of two: the index is a mask
    tt.resize(1)
    assert tt.bytes_used == 8 * len(tt.table) == 1024 * 1024
    # Filling it with many keys never grows it.
    for k in range(1, 100000, 7):
        tt.store(k * 0x9E3779B97F4A7C15 & ((1 << 63) - 1), 1, 0, 1, BOUND_EXACT, k & 1023)  # keys have 63 bits
    assert 8 * len(tt.table) == 1024 * 1024
    tt.resize(3)  # not a power of two: the index is a division
    assert tt.bytes_used == 3 * 1024 * 1024 and tt.mask == 0
    tt.store(key(5, tt.buckets - 1), 1, 2, 3, BOUND_UPPER, -7)
    assert tt.probe(key(5, tt.buckets - 1)) == (1, 2, 3, BOUND_UPPER) and tt.static_eval(key(5, tt.buckets - 1)) == -7


def test_mate_scores_are_stored_relative_to_the_node() -> None:
    # A mate in 5 plies from the root, seen at ply 3, is a mate in 2 from that node.
    assert score_to_tt(MATE - 5, 3) == MATE - 2
    assert score_from_tt(MATE - 2, 3) == MATE - 5
    # Probed again at ply 1 (a transposition nearer the root) it is a mate in 3 plies.
    assert score_from_tt(MATE - 2, 1) == MATE - 3
    assert score_to_tt(-(MATE - 6), 4) == -(MATE - 2)
    assert score_from_tt(score_to_tt(-(MATE - 6), 4), 4) == -(MATE - 6)
    assert score_to_tt(150, 9) == 150


def test_a_bucket_keeps_three_positions_and_evicts_the_least_valuable() -> None:
    tt = TranspositionTable(1)
    tt.resize_slots(WAYS)  # one bucket: every key shares it
    assert tt.slots == WAYS == 3 and len(tt.table) == BUCKET_WORDS == 4
    depths = {1: 12, 2: 3, 3: 7}
    for n, d in depths.items():
        tt.store(key(n), 10 * n, n, d, BOUND_LOWER, 100 * n)
    assert all(tt.probe(key(n)) == (10 * n, n, d, BOUND_LOWER) for n, d in depths.items())
    tt.store(key(5), 50, 5, 5, BOUND_UPPER, 500)  # the bucket is full: the shallowest (key 2) goes
    assert tt.probe(key(2)) is None and all(tt.probe(key(n)) is not None for n in (1, 3, 5))
    tt.new_search()
    tt.new_search()  # all are two searches old: depth decides again, key 5 (depth 5) goes
    tt.store(key(6), 60, 6, 1, BOUND_EXACT, 600)
    assert tt.probe(key(5)) is None and tt.probe(key(6)) is not None
    # Key 6 is of this search (worth 1); key 3 is two searches old (worth 7 - 2 * AGE_WEIGHT < 1).
    assert 7 - 2 * AGE_WEIGHT < 1
    tt.store(key(7), 70, 7, 1, BOUND_UPPER, 700)
    assert tt.probe(key(3)) is None and tt.probe(key(6)) is not None and tt.probe(key(7)) is not None
    assert [tt.static_eval(key(n)) for n in (1, 6, 7)] == [100, 600, 700]  # each kept its own


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
    assert sum(1 for w in entry_words(tt) if w) == 1  # one entry for the position throughout


def test_the_same_position_keeps_its_evaluation() -> None:
    tt = TranspositionTable(1)
    k = key(7, 3)
    tt.store(k, 77, 100, 12, BOUND_LOWER)  # no evaluation (as the root stores)
    tt.store(k, 0, -5, 0, BOUND_UPPER, 123)  # the deep entry stays, and takes the evaluation
    assert tt.probe(k) == (77, 100, 12, BOUND_LOWER) and tt.static_eval(k) == 123
    tt.store(k, 0, -5, 0, BOUND_UPPER, 456)  # (a collision's) other one does not replace it there
    assert tt.static_eval(k) == 123
    tt.store(k, 78, 90, 12, BOUND_UPPER)  # a result without an evaluation keeps the old one
    assert tt.probe(k) == (78, 90, 12, BOUND_UPPER) and tt.static_eval(k) == 123
    tt.store(k, 78, 90, 12, BOUND_EXACT, -9)
    assert tt.static_eval(k) == -9


def test_hashfull_counts_entries_of_this_search() -> None:
    tt = TranspositionTable(1)
    assert tt.hashfull() == 0
    for b in range(10):
        for n in range(1, WAYS + 1):
            tt.store(key(n, b), 1, 0, 1, BOUND_EXACT, 5)
    assert tt.hashfull() == 10 * WAYS * 1000 // 1000  # entries in the first 1000, evaluation words not counted
    tt.new_search()
    assert tt.hashfull() == 0


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
        self.probe_eval = r.choice((NO_EVAL, r.randrange(-3000, 3000)))  # and a wrong evaluation, or none
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


class EvalCheckingTable(TranspositionTable):
    """Checks every static evaluation a probe hands out against ``evaluate``'s for that key
    (``evaluated``, filled by the eval cache's hook); ``hide`` hands out none."""

    def __init__(self, mb: int, evaluated: dict[int, int], hide: bool) -> None:
        super().__init__(mb)
        self.evaluated = evaluated
        self.hide = hide
        self.supplied = 0

    def probe_word(self, key: int) -> int:
        word = super().probe_word(key)
        if word and self.probe_eval != NO_EVAL:  # (a miss leaves probe_eval as it was)
            if self.hide:
                self.probe_eval = NO_EVAL
            else:
                self.supplied += 1
                assert self.probe_eval == self.evaluated[key], f"key {key:x}"
        return word


def test_stored_evaluations_equal_evaluate_and_leave_the_tree_unchanged() -> None:
    """Searches of the bench positions: each evaluation the table hands out is ``evaluate``'s of
    the probed position, and the search is the same node for node as one whose table hands out
    none. (16 MB for a few thousand nodes: a 15-bit check collision, which would hand out another
    position's evaluation and fail here, is practically excluded and would fail every run.)"""
    total = 0
    for fen in BENCH_FENS[:6]:  # the last two: few hits, or many nodes
        runs = []
        for hide in (False, True):
            searcher = Searcher(1)
            evaluated: dict[int, int] = {}

            def hook(pos: Position, evaluated: dict[int, int] = evaluated) -> int:
                v = evaluate(pos)
                evaluated[pos.key] = v
                return v

            table = EvalCheckingTable(16, evaluated, hide)
            searcher.tree.tt = table
            searcher.tree.evals.hook = hook
            its: list[Iteration] = []
            result = searcher.search(Position(fen), Limits(depth=5), threading.Event(), its.append)
            runs.append((searcher.nodes, result.best, [(it.score, it.pv) for it in its], table.supplied))
        (nodes, best, lines, supplied), (nodes0, best0, lines0, supplied0) = runs
        assert supplied0 == 0
        assert (nodes, best, lines) == (nodes0, best0, lines0)
        total += supplied
    assert total > 1000  # 1949 when written


def test_the_tree_takes_the_evaluation_from_the_entry() -> None:
    """A planted entry with a made-up evaluation: quiescence stands pat on it and reverse futility
    returns it, where ``evaluate`` gives another score."""
    pos = Position(BENCH_FENS[0])
    planted = 1234
    assert evaluate(pos) != planted and not pos.in_check()
    searcher = Searcher(1)
    tree = searcher.tree
    # An upper bound above the window cuts nothing; the stand-pat score reaches beta.
    searcher.tt.store(pos.key, 0, 5000, 0, BOUND_UPPER, planted)
    assert tree.qsearch(pos, 999, 1000, 1, 0) == planted
    # Depth 1 beyond the entry's 0: no cutoff; ply 1 is "improving", so the static eval itself must reach beta.
    assert tree.negamax(pos, 1, 999, 1000, 1, False, True) == planted
    searcher.tt.clear()
    assert tree.qsearch(pos, 999, 1000, 1, 0) == evaluate(pos)  # no entry: evaluate's (no capture to try)
    tree.negamax(pos, 2, -INF, INF, 1, True, True)
    assert searcher.tt.static_eval(pos.key) == evaluate(pos)  # the store recorded the node's evaluation


def test_a_stand_pat_cutoff_on_a_miss_records_its_evaluation() -> None:
    pos = Position(BENCH_FENS[0])
    stand = evaluate(pos)
    searcher = Searcher(1)
    assert searcher.tree.qsearch(pos, stand - 10, stand - 9, 1, 0) == stand
    assert searcher.tt.probe(pos.key) == (0, stand, 0, BOUND_LOWER) and searcher.tt.static_eval(pos.key) == stand
    searcher.tt.clear()
    assert searcher.tree.qsearch(pos, stand + 9, stand + 10, 1, 0) == stand  # below beta: no cutoff ...
    assert searcher.tt.probe(pos.key) is None  # ... and the start has nothing to capture: nothing stored
