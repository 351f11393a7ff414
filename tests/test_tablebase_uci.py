"""Tablebases over UCI: the ``AliceTablebasePath`` option, ``tbhits`` in ``info``, exact mate
scores at the root and in the tree, a corrupt file reported once, and the root playing KQK to
mate against a defender."""

from __future__ import annotations

import os
import re
import shutil
import threading
import time

import pytest

from engine.notation import parse_uci
from engine.position import Position
from search.limits import Iteration, Limits
from search.search import Searcher
from support.engine_process import Uci
from tablebase.probe import Tablebases
from tablebase.values import DECIDED, DRAWN

KQK_WIN = "8/8/8/4k3/8/8/8/1Q2K3 w - - 0 1"
KQK_DRAW = "8/8/8/8/8/8/3k4/2Q4K b - - 0 1"  # Kxc1 draws, the rest lose
IN_TREE = "8/8/8/4k3/8/3P4/8/1Q2K3 b - - 0 1"  # 4 pieces: captures of the pawn lead into KQK


def test_option_listed_and_tables_announced(kqk_dir: str) -> None:
    engine = Uci()
    try:
        engine.send("uci")
        _, lines, _ = engine.expect("^uciok$")
        assert "option name AliceTablebasePath type string default <empty>" in lines
        engine.send(f"setoption name AliceTablebasePath value {kqk_dir}")
        assert any("tablebases in" in line and "KQK" in line for line in engine.ready())
        engine.send("setoption name AliceTablebasePath value /no/such/dir")
        assert any(line.startswith("info string error: AliceTablebasePath") for line in engine.ready())
    finally:
        engine.close()


def test_root_mate_score_and_tbhits(kqk_dir: str) -> None:
    mate_in = (Tablebases(kqk_dir).probe(Position(KQK_WIN)) - DECIDED + 1) // 2
    engine = Uci()
    try:
        engine.send(f"setoption name AliceTablebasePath value {kqk_dir}", f"position fen {KQK_WIN}", "go depth 3")
        move, _, lines = engine.bestmove()
        info = [line for line in lines if line.startswith("info depth")]
        assert info and f"score mate {mate_in} " in info[-1]
        assert int(re.search(r"tbhits (\d+)", info[-1]).group(1)) > 0  # type: ignore[union-attr]
        pos = Position(KQK_WIN)
        pos.push(parse_uci(pos, move))
        assert Tablebases(kqk_dir).probe(pos) == DECIDED + 2 * mate_in - 2  # the fastest mate kept
        engine.send(f"position fen {IN_TREE}", "go depth 3")
        _, _, lines = engine.bestmove()
        assert int(re.search(r"tbhits (\d+)", lines[-1]).group(1)) > 0  # type: ignore[union-attr]
        engine.send("setoption name AliceTablebasePath value <empty>", f"position fen {KQK_WIN}", "go depth 2")
        _, _, lines = engine.bestmove()
        assert all("tbhits" not in line for line in lines)
    finally:
        engine.close()


def test_corrupt_file_reported_once(kqk_dir: str, tmp_path: object) -> None:
    bad = os.path.join(str(tmp_path), "KQK.atb")
    shutil.copy(os.path.join(kqk_dir, "KQK.atb"), bad)
    with open(bad, "r+b") as f:
        f.seek(-10, os.SEEK_END)
        f.write(b"0123456789")
    engine = Uci()
    try:
        engine.send(f"setoption name AliceTablebasePath value {tmp_path}")
        lines: list[str] = engine.ready()  # the tables are read from now on: the report may come here
        for _ in range(2):
            engine.send(f"position fen {KQK_WIN}", "go depth 2")
            move, _, before = engine.bestmove()
            lines += before
            assert parse_uci(Position(KQK_WIN), move)
        time.sleep(0.5)
        lines += engine.nothing_within(0.2)
        reports = [line for line in lines if line.startswith("info string") and "ignored" in line]
        assert len(reports) == 1 and "KQK.atb" in reports[0], lines
    finally:
        engine.close()


def test_root_play_mates_a_defender(kqk_dir: str) -> None:
    """KQK from a long win: the engine with tables (white) against the engine without (black,
    depth 3) mates within the table's distance."""
    tables = Tablebases(kqk_dir)
    pos = Position("8/8/8/8/3k4/8/8/K|Q6 w - - 0 1")
    plies = tables.probe(pos) - DECIDED
    assert plies % 2 == 1 and plies >= 9
    attacker, defender = Searcher(4), Searcher(4)
    attacker.set_tablebases(tables)
    for _ in range(plies):
        searcher = attacker if pos.turn else defender
        result = searcher.search(pos, Limits(depth=3), threading.Event(), lambda it: None)
        assert result.best is not None
        pos.push(result.best)
        if not pos.legal_moves():
            break
    assert not pos.legal_moves() and pos.in_check()
    assert len(pos.stack) <= plies


def _score_text(mover_value: int) -> str:
    """What ``info`` says for a move of this table value (``Tablebases.root_values``)."""
    plies = mover_value - DECIDED
    if mover_value == DRAWN:
        return "score cp 0"
    return f"score mate {(plies + 1) // 2}" if plies % 2 else f"score mate -{plies // 2}"


def test_multipv_lines_come_from_the_tables(kqk_dir: str) -> None:
    # Black to move in KQK: Kxc1 keeps the draw, every other move loses: line 1 says draw and the
    # others the longest resistance first. White to move: the three fastest mates.
    tables = Tablebases(kqk_dir)
    engine = Uci()
    try:
        engine.send(f"setoption name AliceTablebasePath value {kqk_dir}", "setoption name MultiPV value 3")
        for fen in (KQK_DRAW, KQK_WIN):
            ranked = tables.root_values(Position(fen))
            assert ranked is not None and len(ranked) >= 3
            engine.send(f"position fen {fen}", "go depth 4")
            move, _, lines = engine.bestmove()
            info = [line for line in lines if line.startswith("info depth")]
            assert len(info) == 3, info
            for n, (line, (expected_move, value)) in enumerate(zip(info, ranked), 1):
                assert f" multipv {n} " in line and f" {_score_text(value)} " in line, (line, value)
                assert int(re.search(r"tbhits (\d+)", line).group(1)) > 0  # type: ignore[union-attr]
            assert move == info[0].split(" pv ")[1].split()[0]
            if fen == KQK_DRAW:
                assert " score cp 0 " in info[0] and " score mate -" in info[1]
    finally:
        engine.close()


def test_a_weakened_level_plays_without_the_tables(kqk_dir: str) -> None:
    engine = Uci()
    try:
        engine.send(f"setoption name AliceTablebasePath value {kqk_dir}")
        for option in ("Skill Level value 3", "UCI_LimitStrength value true"):
            engine.send("ucinewgame", f"setoption name {option}", f"position fen {KQK_WIN}", "go depth 4")
            move, _, lines = engine.bestmove()
            assert parse_uci(Position(KQK_WIN), move)
            assert [line for line in lines if "tbhits" in line] == [], option
            engine.send("setoption name Skill Level value 20", "setoption name UCI_LimitStrength value false")
        engine.send(f"position fen {KQK_WIN}", "go depth 4")
        _, _, lines = engine.bestmove()
        assert any("tbhits" in line for line in lines)  # full strength: the tables again
    finally:
        engine.close()


def test_a_timed_search_never_waits_for_a_table(kqk_dir: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # A 4-man table takes up to half a second to read: a search on the clock that waited for it
    # lost games on time at 10 s + 0.1 s. It searches without the table until a thread has read it.
    import tablebase.probe as probe

    real = probe.read_table

    def slow_read(path: str, name: str, size: int) -> bytes:
        time.sleep(1.5)
        return real(path, name, size)

    monkeypatch.setattr(probe, "read_table", slow_read)
    searcher = Searcher(16)
    searcher.set_tablebases(Tablebases(kqk_dir))
    pos = Position(KQK_WIN)
    iterations: list[Iteration] = []
    started = time.perf_counter()
    result = searcher.search(pos, Limits(movetime=200), threading.Event(), iterations.append)
    assert time.perf_counter() - started < 1.0 and result.best in pos.legal_moves()
    assert iterations[0].nodes > 0  # a real search: the table was not there yet
    time.sleep(2.0)  # the thread has read it by now
    iterations.clear()
    searcher.search(pos, Limits(movetime=200), threading.Event(), iterations.append)
    mate_in = (Tablebases(kqk_dir).probe(pos) - DECIDED + 1) // 2
    assert iterations[0].nodes == 0 and iterations[0].mate == mate_in  # answered by the table
    # Without a clock (go depth, analysis) the search waits for the table: exact from the start.
    fresh = Searcher(16)
    fresh.set_tablebases(Tablebases(kqk_dir))
    iterations.clear()
    started = time.perf_counter()
    fresh.search(pos, Limits(depth=2), threading.Event(), iterations.append)
    assert time.perf_counter() - started >= 1.5 and iterations[0].nodes == 0 and iterations[0].mate == mate_in


def test_setting_the_path_reads_every_table_in_a_thread(kqk_dir: str, tmp_path: object) -> None:
    shutil.copy(os.path.join(kqk_dir, "KQK.atb"), os.path.join(str(tmp_path), "KQK.atb"))
    with open(os.path.join(str(tmp_path), "KRK.atb"), "wb") as f:
        f.write(b"not a table\n")
    tables = Tablebases(str(tmp_path), report=(reports := []).append)
    tables.blocking = False
    assert tables.table("KQK") is None  # not read yet: a search on the clock goes on without it
    tables.preload().join(30)
    assert tables.table("KQK") is not None and tables.table("KRK") is None
    assert len(reports) == 1 and "KRK.atb" in reports[0]
