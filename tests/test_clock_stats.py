"""scripts/clock_stats.py: time per move and clock left, read back from alice-match PGNs."""

from __future__ import annotations

from pathlib import Path

import clock_stats
from support.matchargs import each, player
from support.matchrun import run


def test_clock_figures_of_a_clocked_match(tmp_path: Path) -> None:
    pgn = tmp_path / "games.pgn"
    argv = [
        *player("random", name="rnd"), *player("greedy", name="grd"), *each(tc="2+0.1"),
        "-games", "2", "-repeat", "-openings", "file=default", "-pgnout", str(pgn),
    ]  # fmt: skip
    done = run(argv)
    assert done.status == 0, done.err
    figures = clock_stats.tally([str(pgn)])
    assert set(figures) == {"rnd", "grd"}
    for t in figures.values():
        assert t.games == 2 and t.time_losses == 0
        assert t.move_times and all(0 <= s < 2 for s in t.move_times)
        assert len(t.clock_left) == 2
        # Quick movers keep their clock: it only grows by the increments, less what they used.
        assert all(0 < left <= 2 + 0.1 * len(t.move_times) for left in t.clock_left)


def test_reading_move_times_and_time_controls() -> None:
    assert clock_stats.move_seconds("+0.35/12 0.123s") == 0.123
    assert clock_stats.move_seconds("+0.35/12 [%emt 0:01:02.345]") == 62.345
    assert clock_stats.move_seconds("book") is None
    assert clock_stats.time_control("10+0.1") == (None, 10.0, 0.1)
    assert clock_stats.time_control("40/60+0.6") == (40, 60.0, 0.6)
    assert clock_stats.time_control("-") is None


def test_the_command_prints_a_row_per_engine(tmp_path: Path, capsys: object) -> None:
    pgn = tmp_path / "g.pgn"
    pgn.write_text(
        '[White "a"]\n[Black "b"]\n[Result "0-1"]\n[Variant "Alice"]\n[TimeControl "1+0"]\n'
        '[Termination "time forfeit"]\n\n1. e4/B { 0.5s } e5/B { 0.25s } 0-1\n'
    )
    assert clock_stats.main([str(pgn)]) == 0
    out = capsys.readouterr().out.splitlines()  # type: ignore[attr-defined]
    rows = {line.split()[0]: line.split() for line in out[1:]}
    assert rows["a"][-1] == "1" and rows["b"][-1] == "0"  # white lost on time
    assert rows["a"][5] == "0.50s" and rows["b"][5] == "0.75s"  # clock left after one move each
    assert rows["a"][7] == "0.50s" and rows["b"][7] == "-"  # left in lost games: only white lost
