"""The CECP state machine in-process, with a stand-in search: what a black-box test cannot
steer (a search that crashes or waits, the expected reply while pondering, a handler bug).
About 2 seconds."""

from __future__ import annotations

import io
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

from engine import Position
from search.limits import Iteration, Limits, PonderHit, Result
from search.thinker import Thinker
from uci.cecp import CecpEngine, serve_cecp
from uci.shared import Output
from uci.xboard_board import move_text, parse_move

Behaviour = Callable[[Position, Limits, threading.Event, Callable[[Iteration], None], PonderHit], Result]


class FakeSearcher:
    """Stands in for the searcher under ``search.thinker.Thinker``."""

    def __init__(self, behaviour: Behaviour) -> None:
        self.behaviour = behaviour
        self.calls: list[tuple[str, Limits]] = []

    def resize(self, mb: int) -> None:
        pass

    def clear(self) -> None:
        pass

    def search(
        self,
        pos: Position,
        limits: Limits,
        stop: threading.Event,
        on_iteration: Callable[[Iteration], None],
        ponderhit: PonderHit,
    ) -> Result:
        self.calls.append((pos.fen(), limits))
        return self.behaviour(pos, limits, stop, on_iteration, ponderhit)


class Captured(io.StringIO):
    def lines(self) -> list[str]:
        return self.getvalue().splitlines()


def make(behaviour: Behaviour) -> tuple[CecpEngine, Captured, FakeSearcher]:
    out = Captured()
    searcher = FakeSearcher(behaviour)
    engine = CecpEngine(Output(out), Thinker(searcher=searcher))  # type: ignore[arg-type]
    return engine, out, searcher


def run(engine: CecpEngine, *lines: str, settle: float = 0.3) -> None:
    for line in lines:
        engine.execute(line)
    engine.drain(settle)


def first_move(pos: Position, limits: Limits, stop: threading.Event, report: Any, hit: PonderHit) -> Result:
    moves = sorted(pos.legal_moves())
    if limits.ponder:  # wait for the ponderhit or the stop, as a real search does
        while hit.at is None and not stop.is_set():
            time.sleep(0.005)
    return Result(best=moves[0], ponder=None)


def test_a_crashing_search_still_moves(capsys: pytest.CaptureFixture[str]) -> None:
    def crash(*_: Any) -> Result:
        raise RuntimeError("boom")

    engine, out, _ = make(crash)
    run(engine, "new", "usermove e2m4")
    assert "# error: internal: search: RuntimeError: boom" in out.lines()
    move = next(line for line in out.lines() if line.startswith("move "))
    pos = Position()
    pos.push(parse_move(pos, "e2m4"))
    parse_move(pos, move.split()[1])
    assert "Traceback" in capsys.readouterr().err


def test_a_handler_bug_is_one_error_line(monkeypatch: pytest.MonkeyPatch) -> None:
    engine, out, _ = make(first_move)

    def broken(self: CecpEngine, args: list[str]) -> None:
        raise KeyError("oops")

    monkeypatch.setitem(CecpEngine.HANDLERS, "d", broken)
    assert engine.execute("d") is True
    assert out.lines() == ["Error (internal error: KeyError: 'oops'): d"]


def test_ping_while_thinking_waits_for_the_move() -> None:
    def slow(pos: Position, limits: Limits, stop: threading.Event, *_: Any) -> Result:
        stop.wait(0.3)
        return Result(best=sorted(pos.legal_moves())[0])

    engine, out, _ = make(slow)
    run(engine, "new", "usermove e2m4", "ping 7", settle=0.0)
    assert "pong 7" not in out.lines()
    engine.drain(1.0)
    lines = out.lines()
    assert lines.index("pong 7") == next(i for i, line in enumerate(lines) if line.startswith("move ")) + 1


def test_pondering_on_the_expected_reply_and_on_a_surprise() -> None:
    def with_ponder(pos: Position, limits: Limits, stop: threading.Event, report: Any, hit: PonderHit) -> Result:
        result = first_move(pos, limits, stop, report, hit)
        after = pos.copy()
        assert result.best is not None
        after.push(result.best)
        return Result(best=result.best, ponder=sorted(after.legal_moves())[0])

    engine, out, searcher = make(with_ponder)
    run(engine, "new", "hard", "usermove e2m4")
    assert [limits.ponder for _, limits in searcher.calls] == [False, True]  # moved, then pondering

    def moves() -> int:
        return sum(line.startswith("move ") for line in out.lines())

    assert moves() == 1
    # The expected reply: the ponder search goes on with the clock and answers (no new search).
    assert engine.job is not None and engine.job.expected is not None
    run(engine, f"usermove {move_text(engine.pos, engine.job.expected)}")
    assert moves() == 2
    assert [limits.ponder for _, limits in searcher.calls] == [False, True, True]  # and pondering again
    # A surprise: the ponder search is dropped; a new search on the real position answers.
    assert engine.job is not None and engine.job.expected is not None
    surprise = next(m for m in sorted(engine.pos.legal_moves()) if m != engine.job.expected)
    run(engine, f"usermove {move_text(engine.pos, surprise)}")
    assert moves() == 3
    assert [limits.ponder for _, limits in searcher.calls] == [False, True, True, False, True]
    run(engine, "easy", "force")
    assert engine.job is None


def test_limits_follow_the_clock_commands() -> None:
    engine, _, searcher = make(first_move)
    run(engine, "new", "level 40 2:30 0", "time 6000", "otim 5000", "sd 7", "usermove e2m4")
    limits = searcher.calls[-1][1]
    assert (limits.btime, limits.wtime, limits.movestogo, limits.depth) == (60000, 50000, 40, 7)
    run(engine, "level 0 5 2.5", "time 12000", "otim -5", "go")  # the engine now plays white
    limits = searcher.calls[-1][1]
    assert (limits.wtime, limits.btime, limits.winc, limits.binc, limits.movestogo) == (120000, 0, 2500, 2500, None)
    run(engine, "st 0.25", "force", "go")
    limits = searcher.calls[-1][1]
    assert (limits.movetime, limits.wtime) == (250, None)


def test_serve_reads_until_quit_or_end_of_input() -> None:
    engine, out, _ = make(first_move)
    assert serve_cecp(engine, io.StringIO("xboard\nprotover 2\nping 1\n")) == 0
    assert out.lines()[-2:] == ["feature done=1", "pong 1"]
