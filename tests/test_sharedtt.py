"""The shared transposition table (``Threads`` > 1) does exactly what the one-thread table
does, word for word, in both its forms (search/sharedtt.py): the native one (the file's pages
mapped into the table's own vector, ``search.sharedwords``, with the bucket index moved by
``base``) and the ``memoryview`` one, whose ``probe_word``, ``store`` and ``hashfull`` repeat
``search.tt``'s; these tests hold them together."""

from __future__ import annotations

import gc
import os
import random
import tempfile
from collections.abc import Iterator

import pytest

import search.tt as tt
from engine.bits import COMPILED, i64_store
from search.score import INF
from search.sharedtt import PAGE, SharedTranspositionTable, ViewTranspositionTable, attach
from search.sharedwords import SharedWords, SharedWordsError
from search.tt import BOUND_EXACT, BOUND_LOWER, BOUND_UPPER, NO_EVAL, TranspositionTable

BUCKETS = 8  # few buckets: keys collide, entries are replaced, kept and aged
OPERATIONS = 20_000


def words_of(table: TranspositionTable) -> list[int]:
    if isinstance(table, ViewTranspositionTable):
        return list(table.words)
    return [int(table.table[table.base + k]) for k in range(tt.BUCKET_WORDS * table.buckets)]


@pytest.fixture
def table_file() -> Iterator[int]:
    """A file of one page for a shared table: its descriptor."""
    with tempfile.TemporaryFile() as f:
        f.truncate(PAGE)
        yield f.fileno()


def shared_table(kind: str, fd: int) -> SharedTranspositionTable | ViewTranspositionTable:
    """A shared table over the page of ``fd``: native (the page mapped into the table's own
    vector) or through a ``memoryview``."""
    if kind == "native":  # the pure build's attach gives a view: map its array directly
        return SharedTranspositionTable(SharedWords.map(fd, 0, PAGE // 8))
    table = attach(fd, 0, PAGE // 8, native=False)
    assert isinstance(table, ViewTranspositionTable)
    return table


@pytest.mark.parametrize("kind", ["native", "view"])
def test_random_stores_and_probes_match_the_one_thread_table(kind: str, table_file: int) -> None:
    """20,000 random stores and probes over a few positions (keys in a few buckets, generations
    moving on, depths and evaluations out of range): the same words, the same probe answers and
    evaluations, the same hashfull as search.tt's table."""
    rng = random.Random(20261206)
    table = shared_table(kind, table_file)
    reference = TranspositionTable(1)
    reference.resize_buckets(table.buckets)
    # a few positions, met again and again, in BUCKETS buckets: keys collide, entries are replaced, kept and aged
    keys = [rng.getrandbits(63) & ~(table.buckets - 1) | rng.randrange(BUCKETS) for _ in range(40)]
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
    table.release()


@pytest.mark.parametrize("kind", ["native", "view"])
def test_two_tables_over_one_file_share_entries(kind: str, table_file: int) -> None:
    """A store through one table is seen through another over the same file, as between
    processes; clearing one clears both; a released table is empty and private."""
    one, two = shared_table(kind, table_file), shared_table(kind, table_file)
    one.store(12345, 0x1234, -50, 3, BOUND_EXACT, 27)
    assert two.probe(12345) == (0x1234, -50, 3, 3) and two.static_eval(12345) == 27
    two.store(777, 0x42, 10, 9, BOUND_LOWER, NO_EVAL)
    assert one.probe(777) == (0x42, 10, 9, BOUND_LOWER) and one.static_eval(777) == NO_EVAL
    two.clear()
    assert one.probe(12345) is None and one.probe(777) is None
    one.store(12345, 0x1234, -50, 3, BOUND_EXACT, 27)
    one.release()
    assert two.probe(12345) == (0x1234, -50, 3, 3)  # the file keeps the words
    two.release()


def test_the_native_window_is_private_again_after_release(table_file: int) -> None:
    """After ``close`` the vector's memory is the process's own again (zeros, not the file's):
    the allocator may have it back without aliasing the shared file."""
    one = SharedWords.map(table_file, 0, PAGE // 8)
    two = SharedWords.map(table_file, 0, PAGE // 8)
    one.store[one.base + 7] = 99
    assert int(two.store[two.base + 7]) == 99
    store, base = one.store, one.base
    one.close()
    assert int(store[base + 7]) == 0
    store[base + 7] = 5  # private now: the file does not see it
    assert int(two.store[two.base + 7]) == 99
    two.close()


def test_a_mapping_that_fails_raises_and_leaves_memory_private() -> None:
    """A file that cannot be mapped (a pipe): ``SharedWordsError``, and the vector under the
    failed window was made private again before it was freed (the allocator reuses it)."""
    read, write = os.pipe()
    try:
        for _ in range(3):
            with pytest.raises(SharedWordsError, match="mmap failed"):
                SharedWords.map(read, 0, PAGE // 8)
    finally:
        os.close(read)
        os.close(write)
    gc.collect()
    store = i64_store(4 * PAGE // 8)  # likely the freed memory again: writable, private
    store[len(store) - 1] = 7
    assert int(store[len(store) - 1]) == 7


def test_a_released_native_table_goes_on_empty_and_private(table_file: int) -> None:
    """A search still running when the pool closes finds empty buckets, not freed memory, and
    its stores no longer reach the file."""
    one, two = shared_table("native", table_file), shared_table("native", table_file)
    one.store(12345, 0x1234, -50, 3, BOUND_EXACT, 27)
    one.release()
    assert one.probe(12345) is None and one.buckets == two.buckets
    one.store(777, 0x42, 10, 9, BOUND_LOWER, NO_EVAL)
    assert one.probe(777) is not None and two.probe(777) is None
    assert two.probe(12345) == (0x1234, -50, 3, 3)
    two.release()


def test_attach_falls_back_to_a_view_where_words_cannot_be_native(
    table_file: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Compiled, ``attach`` gives the native table; without a POSIX mmap (Windows) the
    memoryview table, over the same file (the pure build always has that one)."""
    native = attach(table_file, 0, PAGE // 8)
    assert isinstance(native, SharedTranspositionTable if COMPILED else ViewTranspositionTable)

    def no_mmap(*args: object) -> SharedWords:
        raise SharedWordsError("no POSIX mmap here")

    monkeypatch.setattr(SharedWords, "map", no_mmap)
    view = attach(table_file, 0, PAGE // 8)
    assert isinstance(view, ViewTranspositionTable) and view.buckets == native.buckets
    native.store(4242, 0x77, 5, 4, BOUND_EXACT, NO_EVAL)
    assert view.probe(4242) == (0x77, 5, 4, BOUND_EXACT)
    view.release()
    native.release()


def test_the_cost_script_compares_the_same_trees(capsys: pytest.CaptureFixture[str]) -> None:
    """scripts/sharedtt_cost.py (the per-node cost in docs/measurements.md) runs and checks that
    both tables searched the same tree."""
    import sharedtt_cost

    kind = "native" if COMPILED else "view"  # the pure build has no native shared table
    assert sharedtt_cost.main(["--depth", "3", "--runs", "1", "--table", kind]) == 0
    out = capsys.readouterr().out
    assert out.count(" nodes; own ") == 4 and "median ratio: shared/own " in out
