"""The shared transposition table (``Threads`` > 1) does exactly what the one-thread table
does, word for word: its ``probe_word``, ``store`` and ``hashfull`` repeat ``search.tt``'s on a
``memoryview`` (search/sharedtt.py), and these tests hold the two together."""

from __future__ import annotations

import mmap
import random

import pytest

import search.tt as tt
from search.score import INF
from search.sharedtt import SharedTranspositionTable
from search.tt import BOUND_EXACT, BOUND_LOWER, BOUND_UPPER, BUCKET_BYTES, NO_EVAL, TranspositionTable

BUCKETS = 8  # few buckets: keys collide, entries are replaced, kept and aged
OPERATIONS = 20_000


def words_of(table: TranspositionTable) -> list[int]:
    if isinstance(table, SharedTranspositionTable):
        return list(table.words)
    return [int(table.table[k]) for k in range(tt.BUCKET_WORDS * table.buckets)]


def test_random_stores_and_probes_match_the_one_thread_table() -> None:
    """20,000 random stores and probes over a few positions (few buckets, generations moving
    on, depths and evaluations out of range): the same words, the same probe answers and
    evaluations, the same hashfull as search.tt's table."""
    rng = random.Random(20261206)
    reference = TranspositionTable(1)
    reference.resize_buckets(BUCKETS)
    mapping = mmap.mmap(-1, BUCKET_BYTES * BUCKETS)
    table = SharedTranspositionTable(memoryview(mapping).cast("q"))
    keys = [rng.getrandbits(63) for _ in range(40)]  # a few positions, met again and again
    for step in range(OPERATIONS):
        key = rng.choice(keys)
        if step % 1000 == 999:
            reference.new_search()
            table.new_search()
        if rng.random() < 0.5:
            move = rng.choice([0, rng.getrandbits(16)])
            score = rng.randint(-32000, 32000)
            depth = rng.choice([rng.randint(0, 12), rng.randint(0, 12), -1, 300])
            bound = rng.choice([BOUND_UPPER, BOUND_LOWER, BOUND_EXACT])
            static = rng.choice([NO_EVAL, -INF, rng.randint(-3000, 3000)])
            reference.store(key, move, score, depth, bound, static)
            table.store(key, move, score, depth, bound, static)
        else:
            expected = reference.probe_word(key)
            assert table.probe_word(key) == expected, step
            if expected:
                assert table.probe_eval == reference.probe_eval, step
        if step % 97 == 0:
            assert words_of(table) == words_of(reference), step
    assert words_of(table) == words_of(reference)
    assert table.hashfull() == reference.hashfull()
    table.words.release()
    mapping.close()


def test_two_tables_over_one_mapping_share_entries() -> None:
    """A store through one view is seen through another, as between processes."""
    mapping = mmap.mmap(-1, BUCKET_BYTES * 64)
    one = SharedTranspositionTable(memoryview(mapping).cast("q"))
    two = SharedTranspositionTable(memoryview(mapping).cast("q"))
    one.store(12345, 0x1234, -50, 3, BOUND_EXACT, 27)
    assert two.probe(12345) == (0x1234, -50, 3, 3) and two.static_eval(12345) == 27
    two.store(777, 0x42, 10, 9, BOUND_LOWER, NO_EVAL)
    assert one.probe(777) == (0x42, 10, 9, BOUND_LOWER) and one.static_eval(777) == NO_EVAL
    one.words.release()
    two.words.release()
    mapping.close()


def test_the_cost_script_compares_the_same_trees(capsys: pytest.CaptureFixture[str]) -> None:
    """scripts/sharedtt_cost.py (the per-node cost in docs/measurements.md) runs and checks that
    both tables searched the same tree."""
    import sharedtt_cost

    assert sharedtt_cost.main(["--depth", "3", "--runs", "1"]) == 0
    out = capsys.readouterr().out
    assert out.count(" nodes; own ") == 4 and "median ratio: shared/own " in out
