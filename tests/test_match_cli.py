"""alice_match.cli: cutechess-style arguments into a match configuration."""

from __future__ import annotations

import pytest

from alice_match.cli import UsageError, parse_args, split_options
from alice_match.game import DrawAdjudication, ResignAdjudication
from alice_match.stats import Sprt
from alice_match.tc import parse_tc

TWO = ["-engine", "cmd=one", "-engine", "cmd=two"]


def test_full_command_line() -> None:
    config, seed = parse_args(
        [
            "-engine", "cmd=./alice-engine", "name=A", "option.Hash=64", "arg=--fast", "arg=-q", "dir=/tmp",
            "-engine", "cmd=python -m alice_match.players greedy", "name=G", "tc=10+0.1", "restart=on",
            "-each", "tc=40/60+0.6", "option.Threads=1", "timemargin=50",
            "-variant", "alice", "-games", "2", "-rounds", "50", "-repeat", "-concurrency", "2",
            "-openings", "file=default", "order=random", "start=3",
            "-pgnout", "out.pgn", "min", "-sprt", "elo0=0", "elo1=5", "alpha=0.05", "beta=0.1",
            "-draw", "movenumber=40", "movecount=8", "score=10", "-resign", "movecount=3", "score=600",
            "-maxmoves", "200", "-recover", "-srand", "99", "-event", "Test match", "-ratinginterval", "5",
        ]
    )  # fmt: skip
    a, g = config.engines
    assert (a.cmd, a.name, a.args, a.dir, a.options) == ("./alice-engine", "A", ["--fast", "-q"], "/tmp",
                                                          {"Threads": "1", "Hash": "64"})  # fmt: skip
    assert g.argv() == ["python", "-m", "alice_match.players", "greedy"] and g.restart and not a.restart
    assert g.options == {"Threads": "1"}
    la, lg = config.limits
    assert la.tc == parse_tc("40/60+0.6") and lg.tc == parse_tc("10+0.1")  # the engine's own value wins
    assert la.margin_ms == lg.margin_ms == 50
    assert (config.games, config.rounds, config.total_games, config.repeat, config.concurrency) == (2, 50, 100, 2, 2)
    assert len(config.openings) == 300  # the whole book, in playing order (game n: n-th pair's opening)
    assert (config.pgnout, config.pgn_min, config.recover, config.event, config.rating_interval) == (
        "out.pgn", True, True, "Test match", 5)  # fmt: skip
    assert config.sprt == Sprt(0, 5, 0.05, 0.1)
    assert config.settings is not None
    assert config.settings.draw == DrawAdjudication(40, 8, 10)
    assert config.settings.resign == ResignAdjudication(3, 600, False)
    assert config.settings.maxmoves == 200
    assert seed == 99


def test_defaults_and_other_limits() -> None:
    config, _ = parse_args([*TWO, "-each", "nodes=500", "depth=3"])
    assert config.total_games == 1 and config.repeat == 1 and config.openings == []
    assert config.limits[0].nodes == 500 and config.limits[0].depth == 3 and config.limits[0].tc is None
    config, _ = parse_args([*TWO, "-each", "st=0.5", "-rounds", "3"])
    assert config.limits[1].movetime_ms == 500 and config.total_games == 3
    config, _ = parse_args([*TWO, "-each", "tc=inf", "nodes=10", "-games", "4", "-repeat", "4"])
    assert config.limits[0].tc is None and config.limits[0].nodes == 10 and config.repeat == 4


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["-engine", "cmd=one", "-each", "nodes=1"], "at least two engines"),
        ([*TWO], "no limit"),
        ([*TWO, "-each", "tc=abc"], "bad time control"),
        ([*TWO, "-each", "tc=inf"], "tc=inf needs"),
        (["-engine", "name=x", "-engine", "cmd=two", "-each", "nodes=1"], "missing cmd"),
        ([*TWO, "-each", "nodes=1", "-variant", "chess"], "only alice"),
        ([*TWO, "-each", "nodes=1", "-games", "0"], "at least 1"),
        ([*TWO, "-each", "nodes=1", "-bogus"], "unknown option"),
        ([*TWO, "-each", "nodes=1", "colour=red"], "unknown key"),
        ([*TWO, "-each", "nodes=1", "-sprt", "elo0=0"], "-sprt takes"),
        ([*TWO, "-each", "nodes=1", "-sprt", "elo0=0", "elo1=0"], "elo0 != elo1"),
        ([*TWO, "-each", "nodes=1", "-draw", "movenumber=1", "score=3"], "-draw takes"),
        ([*TWO, "-each", "nodes=1", "-resign", "movecount=1", "score=3", "twosided=maybe"], "true or false"),
        ([*TWO, "-each", "nodes=1", "-openings", "order=random"], "needs file="),
        ([*TWO, "-each", "nodes=1", "-openings", "file=/no/such.epd"], "no such file"),
        ([*TWO, "-each", "nodes=1", "-openings", "file=default", "order=backwards"], "bad opening order"),
        ([*TWO, "-each", "nodes=1", "-pgnout", "a.pgn", "max"], "expected 'min'"),
        (["-engine", "cmd=one", "tc=10", "-engine", "cmd=two", "nodes=5"], "both engines play with a clock"),
        (["-engine", "cmd=a", "proto=xboard", "-engine", "cmd=b", "-each", "nodes=1"], "only proto=uci"),
        (["stray", *TWO], "unexpected argument"),
    ],
)
def test_usage_errors(argv: list[str], message: str) -> None:
    with pytest.raises(UsageError, match=message):
        parse_args(argv)


def test_split_options_keeps_negative_numbers_as_values() -> None:
    assert split_options(["-srand", "5", "-draw", "movenumber=1", "movecount=2", "score=-3"]) == [
        ("-srand", ["5"]),
        ("-draw", ["movenumber=1", "movecount=2", "score=-3"]),
    ]
    with pytest.raises(UsageError):
        split_options(["-games"])
