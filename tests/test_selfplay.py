"""The self-play A/B harness: the alice-match run it builds for two source trees."""

from __future__ import annotations

import sys

import pytest

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


def test_selfplay_at_a_time_control_with_sprt_bounds() -> None:
    args = selfplay.match_args("/b", "/t", rounds=5, sprt=True, concurrency=1, tc="5+0.05", elo0=-5, elo1=5)
    config, _ = parse_args(args)
    assert [lim.nodes for lim in config.limits] == [None, None]
    assert "tc=5+0.05" in args and "elo0=-5" in args and "elo1=5" in args
    assert config.sprt is not None and config.total_games == 10


def test_build_in_place_without_a_setup_script_is_pure(tmp_path: object) -> None:
    assert selfplay.build_in_place(str(tmp_path)) is False


def test_a_time_control_run_stops_when_a_tree_does_not_compile(
    monkeypatch: pytest.MonkeyPatch, tmp_path: object, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(selfplay, "build_in_place", lambda tree: False)
    assert selfplay.main(["HEAD", "--tc", "5+0.05", "--rounds", "1", "--test-dir", str(tmp_path)]) == 2
    assert "could not be compiled" in capsys.readouterr().err
