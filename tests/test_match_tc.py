"""alice_match.tc: time-control parsing (cutechess syntax), limits and the clock."""

from __future__ import annotations

import pytest

from alice_match.tc import Clock, Limits, TcError, TimeControl, parse_count, parse_seconds, parse_tc


@pytest.mark.parametrize(
    ("text", "moves", "base_ms", "inc_ms", "shown"),
    [
        ("40/60+0.6", 40, 60000, 600, "40/60+0.6"),
        ("10+0.1", 0, 10000, 100, "10+0.1"),
        ("60", 0, 60000, 0, "60"),
        ("40/60", 40, 60000, 0, "40/60"),
        ("1:30+1", 0, 90000, 1000, "90+1"),
        ("2:00", 0, 120000, 0, "120"),
        ("0.5+0.05", 0, 500, 50, "0.5+0.05"),
        ("40/4:00+2", 40, 240000, 2000, "40/240+2"),
        ("0+1", 0, 0, 1000, "0+1"),
        (".5", 0, 500, 0, "0.5"),
    ],
)
def test_parse_tc(text: str, moves: int, base_ms: int, inc_ms: int, shown: str) -> None:
    tc = parse_tc(text)
    assert (tc.moves, tc.base_ms, tc.inc_ms, tc.infinite) == (moves, base_ms, inc_ms, False)
    assert str(tc) == shown
    assert parse_tc(str(tc)) == tc


def test_infinite() -> None:
    assert parse_tc("inf") == TimeControl(infinite=True)
    assert str(parse_tc("inf")) == "inf"


@pytest.mark.parametrize(
    "text", ["", "abc", "40/", "/60", "10+", "0/60", "0", "0+0", "-5", "10+-1", "1:2:3", "40/60/1"]
)
def test_bad_tc(text: str) -> None:
    with pytest.raises(TcError):
        parse_tc(text)


def test_seconds_and_counts() -> None:
    assert parse_seconds("1.5", "st") == 1500
    assert parse_count("500", "nodes") == 500
    for bad in ("0", "-1", "x"):
        with pytest.raises(TcError):
            parse_seconds(bad, "st")
        with pytest.raises(TcError):
            parse_count(bad, "nodes")
    with pytest.raises(TcError):
        parse_count("1.5", "nodes")


def test_limits_pgn_tags() -> None:
    assert Limits(tc=parse_tc("40/60+0.6")).pgn_tag() == "40/60+0.6"
    assert Limits(movetime_ms=5000).pgn_tag() == "1/5"
    assert Limits(movetime_ms=250).pgn_tag() == "1/0.25"
    assert Limits(nodes=500).pgn_tag() == "-"
    assert Limits(tc=parse_tc("10+0.1"), nodes=100).describe() == "tc=10+0.1 nodes=100"


def test_clock_sudden_death_with_increment() -> None:
    clock = Clock(parse_tc("10+0.1"))
    assert clock.left_ms == 10000 and clock.moves_to_go() is None
    assert clock.spend(2500)
    assert clock.left_ms == 7600
    assert clock.spend(7600)  # exactly all of it: still in time
    assert clock.left_ms == 100
    assert not clock.spend(101)  # flag falls
    assert clock.history == [2500, 7600, 101]


def test_clock_margin() -> None:
    clock = Clock(parse_tc("1"))
    assert clock.spend(1040, margin_ms=50)  # 40 ms over, within the margin
    assert clock.left_ms == 0
    assert not Clock(parse_tc("1")).spend(1060, margin_ms=50)


def test_clock_moves_to_go_and_new_period() -> None:
    clock = Clock(parse_tc("3/6"))  # 3 moves in 6 s, repeating
    assert clock.moves_to_go() == 3
    assert clock.spend(1000) and clock.moves_to_go() == 2
    assert clock.spend(1000) and clock.moves_to_go() == 1
    assert clock.spend(1000)
    assert clock.moves_to_go() == 3
    assert clock.left_ms == 3000 + 6000  # the unused time carries over
