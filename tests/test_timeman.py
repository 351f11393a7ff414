"""Time management: budgets are sane and never exceed the time left on the clock."""

from __future__ import annotations

import itertools

from search.limits import Limits
from search.timeman import MOVES_TO_GO_MIN, MOVES_TO_GO_START, budget, moves_to_go


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


def play_out(base_ms: int, inc_ms: int, moves: int, spend_hard: bool, lag_ms: int = 5) -> list[int]:
    """The clock before each of ``moves`` moves when every move spends its soft (or hard) limit
    plus ``lag_ms``, the move number advancing as in a game."""
    clock = base_ms
    seen = []
    for fullmove in range(1, moves + 1):
        seen.append(clock)
        res = budget(Limits(wtime=clock, winc=inc_ms, move_overhead=30), True, fullmove)
        assert res is not None
        clock -= res[1 if spend_hard else 0] + lag_ms
        assert clock > 0, (fullmove, seen[-1], res)
        clock += inc_ms
    return seen


def test_moves_to_go_falls_with_the_move_number() -> None:
    plans = [moves_to_go(n) for n in range(1, 120)]
    assert plans[0] == MOVES_TO_GO_START and min(plans) == MOVES_TO_GO_MIN
    assert all(a >= b for a, b in itertools.pairwise(plans))


def test_plan_at_sixty_seconds_plus_increment() -> None:
    """60 s + 0.6 s: after 35 moves that each spent the soft limit, less than half the clock is
    left (the old plan, 30 moves to go at every move, left 62 %; the search's stability and
    score-drop factors spend more than the soft limit on average, and Fairy-Stockfish ends such
    games with about 22 %), the middle game is not starved, and the worst case (the hard limit
    every move) survives 200 moves."""
    seen = play_out(60000, 600, 36, spend_hard=False)
    assert 0.3 * 60000 < seen[35] < 0.5 * 60000, seen[35]
    first = budget(Limits(wtime=60000, winc=600), True, 1)
    later = budget(Limits(wtime=seen[29], winc=600), True, 30)
    assert first is not None and later is not None
    assert later[0] > 0.5 * first[0]  # the plan does not starve the middle game
    play_out(60000, 600, 200, spend_hard=True)


def test_plan_at_ten_seconds_plus_increment() -> None:
    seen = play_out(10000, 100, 36, spend_hard=False)
    assert 0.3 * 10000 < seen[35] < 0.5 * 10000, seen[35]
    play_out(10000, 100, 200, spend_hard=True)
    play_out(1000, 10, 300, spend_hard=True)
