"""The self-play A/B harness: the alice-match run it builds for two source trees."""

from __future__ import annotations

import sys

import selfplay
from alice_match.cli import parse_args


def test_selfplay_runs_each_tree_at_equal_nodes_with_colours_reversed() -> None:
    args = selfplay.match_args("/tmp/base", "/tmp/test", nodes=1234, rounds=7, sprt=True, concurrency=2)
    config, _ = parse_args(args)
    test, base = config.engines
    assert (test.name, test.dir) == ("test", "/tmp/test")
    assert (base.name, base.dir) == ("base", "/tmp/base")
    assert test.argv() == base.argv() == [sys.executable, "-m", "uci"]
    assert [lim.nodes for lim in config.limits] == [1234, 1234]
    assert config.total_games == 14 and config.repeat == 2 and config.concurrency == 2
    assert config.sprt is not None and config.openings


def test_selfplay_without_sprt_plays_every_game() -> None:
    config, _ = parse_args(selfplay.match_args("/b", "/t", nodes=10, rounds=3, sprt=False, concurrency=1))
    assert config.sprt is None and config.total_games == 6
