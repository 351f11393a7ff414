"""alice_match.standings: tournament standings, Elo per engine, result formats, crosstable."""

from __future__ import annotations

import pytest

from alice_match.standings import FormatError, Standings, classify, format_help, parse_format

# Seven games between a (0), b (1) and c (2): (white, black, result, termination, reason).
GAMES = [
    (0, 1, "1-0", "normal", "White mates"),
    (1, 0, "1/2-1/2", "normal", "Draw by 3-fold repetition"),
    (0, 2, "1-0", "normal", "White mates"),
    (2, 0, "0-1", "time forfeit", "White loses on time"),
    (1, 2, "1/2-1/2", "adjudication", "Draw by adjudication"),
    (2, 1, "1-0", "normal", "White mates"),
    (0, 1, "0-1", "illegal move", "White makes an illegal move: a1a5"),
]


def standings(seed_count: int = 0) -> Standings:
    s = Standings(["a", "b", "c"], ["nodes=500"] * 3, seed_count)
    for game in GAMES:
        s.add(*game)
    return s


def test_default_table_by_hand() -> None:
    # a: 3 wins 1 loss 1 draw = 3.5/5 = 70%: Elo = -400 log10(1/0.7 - 1) = 147.2; the 95% interval
    #    of the score, 0.7 +- 1.96 * 0.4/sqrt(5), leaves (0, 1): no error margin (nan).
    # b: 1-2-2 = 2/5 = 40%: Elo = -400 log10(1.5) = -70.4; stdev sqrt(0.14/5) = 0.1673, score
    #    interval 0.0720..0.7280 = -444.0..+171.0 Elo: margin 307.5 -> "307".
    # c: 1-2-1 = 1.5/4 = 37.5%: Elo = -400 log10(5/3) = -88.7; margin nan.
    assert standings().table_text(parse_format("default")).split("\n") == [
        "Rank Name                          Elo     +/-   Games   Score    Draw",
        "   1 a                             147     nan       5   70.0%   20.0%",
        "   2 b                             -70     307       5   40.0%   40.0%",
        "   3 c                             -89     nan       4   37.5%   25.0%",
    ]


def test_short_and_per_color_formats() -> None:
    s = standings()
    assert s.table_text(parse_format("short")).split("\n") == [
        "Rank Name                          Elo   Games",
        "   1 a                             147       5",
        "   2 b                             -70       5",
        "   3 c                             -89       4",
    ]
    per_color = s.table_text(parse_format("per-color")).split("\n")
    assert per_color[0].split() == [
        "Rank", "Name", "Elo", "+/-", "Games", "Wins", "Losses", "Draws", "Points",
        "WWins", "WLoss.", "WDraws", "WPoints", "BWins", "BLoss.", "BDraws", "BPoints",
    ]  # fmt: skip
    # a with White: won 1 and 3, lost 7 (2 of 3); with Black: drew 2, won 4 (1.5 of 2).
    assert per_color[1].split() == ["1", "a", "147", "nan", "5", "3", "1", "1", "3.5", "2", "1", "0", "2.0",
                                    "1", "0", "1", "1.5"]  # fmt: skip


def test_rows_sorted_by_score_and_gauntlet_first() -> None:
    s = Standings(["x", "y", "z", "idle"])
    s.add(0, 1, "0-1", "normal", "Black mates")
    s.add(2, 0, "1/2-1/2", "normal", "Draw by stalemate")
    assert [p.name for _, p in s.ranked()] == ["y", "z", "x", "idle"]  # idle: no games, last
    tied = Standings(["p", "q", "r"])
    tied.add(0, 1, "1/2-1/2", "normal", "Draw by stalemate")
    assert [p.name for _, p in tied.ranked()] == ["p", "q", "r"]  # ties keep the -engine order
    gauntlet = Standings(["g", "o1", "o2"], seed_count=1)
    gauntlet.add(0, 1, "0-1", "normal", "Black mates")
    gauntlet.add(2, 0, "0-1", "normal", "Black mates")
    assert [(rank, p.name) for rank, p in gauntlet.ranked()] == [(0, "g"), (1, "o1"), (2, "o2")]


def test_outcome_kinds_and_texts() -> None:
    s = standings()
    a, b, c = s.players
    assert (a.kinds["RegulW"], a.kinds["OtherW"], a.kinds["Illegal"], a.kinds["DRepet"]) == (2, 1, 1, 1)
    assert (b.kinds["DAdj"], c.kinds["Time"], c.kinds["DAdj"], c.kinds["RegulW"]) == (1, 1, 1, 1)
    assert classify("1/2-1/2", "normal", "Draw by fifty moves rule") == ("DMoves", "DMoves")
    assert classify("0-1", "stalled connection", "White's connection stalls") == ("Stall", "OtherW")
    assert classify("1-0", "abandoned", "Black disconnects") == ("OtherW", "Discon")
    assert s.outcomes_text().split("\n")[:5] == [
        "Player: a",
        '   "Draw by 3-fold repetition": 1',
        '   "Loss: White makes an illegal move: a1a5": 1',
        '   "Win: White loses on time": 1',
        '   "Win: White mates": 2',
    ]
    term = s.table_text(parse_format("term")).split("\n")
    assert term[0].split()[-5:] == ["Time", "Illegal", "Discon", "Stall", "WrClaim"]
    assert term[3].split()[-5:] == ["1", "0", "0", "0", "0"]  # c lost once on time


def test_crosstable() -> None:
    headers, rows = standings().crosstable()
    assert headers == ["Rank", "Name", "1", "2", "3", "Points"]
    assert rows == [
        ["1", "a", "x", "1.5/3", "2/2", "3.5/5"],
        ["2", "b", "1.5/3", "x", "0.5/2", "2/5"],
        ["3", "c", "0/2", "1.5/2", "x", "1.5/4"],
    ]
    text = standings().crosstable_text().split("\n")
    assert text[0].startswith("Crosstable") and text[2].split() == ["1", "a", "x", "1.5/3", "2/2", "3.5/5"]


def test_result_formats() -> None:
    assert parse_format("Rank, Name,Games") == ["Rank", "Name", "Games"]
    assert "wPoints" in parse_format("wide3") and "Illegal" in parse_format("wide3")
    for bad in ("Rank,Nmae", "nosuchformat", ""):
        with pytest.raises(FormatError):
            parse_format(bad)
    assert "per-color" in format_help() and "WLDStats" in format_help()
