"""Time management: budgets are sane and never exceed the time left on the clock."""

from __future__ import annotations

import itertools

from search.limits import Limits
from search.timeman import budget


def test_no_clock_means_no_budget() -> None:
    assert budget(Limits(), True) is None
    assert budget(Limits(depth=5), False) is None
    assert budget(Limits(nodes=1000), True) is None


def test_movetime_minus_overhead() -> None:
    assert budget(Limits(movetime=1000, move_overhead=30), True) == (970, 970)
    soft, hard = budget(Limits(movetime=10, move_overhead=30), True)  # type: ignore[misc]
    assert 0 < soft == hard <= 10


def test_uses_the_side_to_move_clock() -> None:
    w = budget(Limits(wtime=60000, btime=1000), True)
    b = budget(Limits(wtime=60000, btime=1000), False)
    assert w is not None and b is not None
    assert w[1] > b[1]


def test_budgets_never_exceed_remaining_time() -> None:
    times = [1, 20, 50, 100, 300, 1000, 5000, 60000, 600000]
    incs = [0, 10, 100, 2000]
    mtgs = [None, 1, 2, 5, 40, 100]
    overheads = [0, 30, 100]
    for t, inc, mtg, ov in itertools.product(times, incs, mtgs, overheads):
        res = budget(Limits(wtime=t, winc=inc, movestogo=mtg, move_overhead=ov), True)
        assert res is not None
        soft, hard = res
        assert 0 < soft <= hard
        # Never plan beyond the clock minus the overhead (1 ms floor when nothing is left).
        assert hard <= max(1, t - ov), (t, inc, mtg, ov, res)
        if t >= 1000 and inc < t / 10:
            assert hard <= t / 2  # no single move gambles more than half the clock


def test_one_second_plus_small_increment_survives_a_long_game() -> None:
    """Spend the hard limit on every move (the worst case) plus 5 ms of real lag, 300 moves."""
    clock = 1000
    for _ in range(300):
        res = budget(Limits(wtime=clock, winc=10, move_overhead=30), True)
        assert res is not None
        clock -= res[1] + 5
        assert clock > 0
        clock += 10


def test_sudden_death_spreads_the_time() -> None:
    res = budget(Limits(wtime=60000), True)
    assert res is not None
    soft, hard = res
    assert 500 < soft < 5000
    assert soft < hard < 15000
