"""UCI protocol in-process: the safety nets a black-box test cannot reach with the real
search (a searcher that crashes, ignores stop, or returns nonsense; a handler bug)."""

from __future__ import annotations

import io
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

from engine import Position, parse_uci
from search.limits import Iteration, Limits, Result
from search.thinker import Thinker
from uci.options import CheckOption, ComboOption, OptionError, Options, SpinOption
from uci.protocol import Output, UciEngine


class Captured(io.StringIO):
    def lines(self) -> list[str]:
        return self.getvalue().splitlines()


class FakeSearcher:
    """Stands in for ``search.search.Searcher``; ``behaviour`` decides what search does."""

    def __init__(self, behaviour: Callable[..., Result]) -> None:
        self.behaviour = behaviour
        self.nodes = 0
        self.cleared = 0

    def resize(self, mb: int) -> None:
        pass

    def clear(self) -> None:
        self.cleared += 1

    def ponderhit(self) -> None:
        pass

    def search(
        self,
        pos: Position,
        limits: Limits,
        stop: threading.Event,
        on_iteration: Callable[[Iteration], None],
        ponderhit: object = None,
    ) -> Result:
        return self.behaviour(pos, limits, stop, on_iteration)


def make(behaviour: Callable[..., Result]) -> tuple[UciEngine, Captured]:
    out = Captured()
    engine = UciEngine(Output(out), Thinker(searcher=FakeSearcher(behaviour)))  # type: ignore[arg-type]
    return engine, out


def wait_for(out: Captured, prefix: str, timeout: float = 2.0) -> str:
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        for line in out.lines():
            if line.startswith(prefix):
                return line
        time.sleep(0.002)
    raise AssertionError(f"no {prefix!r} in {out.lines()}")


def iteration(pv: list[int]) -> Iteration:
    return Iteration(depth=1, seldepth=1, multipv=1, score=12, mate=None, nodes=10, time_ms=1, pv=pv, hashfull=0)


def test_a_crashing_search_still_gives_a_legal_bestmove() -> None:
    def crash(*_: Any) -> Result:
        raise RuntimeError("boom")

    engine, out = make(crash)
    engine.execute("go depth 3")
    best = wait_for(out, "bestmove ").split()[1]
    parse_uci(Position(), best)
    assert any(line.startswith("info string error: internal: search: RuntimeError: boom") for line in out.lines())
    assert engine.execute("isready") and out.lines()[-1] == "readyok"


def test_a_search_that_ignores_stop_is_answered_for() -> None:
    e2e4 = parse_uci(Position(), "e2e4")

    def stubborn(pos: Position, limits: Limits, stop: threading.Event, report: Callable[[Iteration], None]) -> Result:
        report(
            iteration(
                [e2e4, parse_uci(Position("rnbqkbnr/pppppppp/8/8/4|P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"), "e7e5")]
            )
        )
        time.sleep(0.5)  # deaf to stop
        report(iteration([parse_uci(pos, "a2a3")]))  # too late: must not be printed
        return Result(best=parse_uci(pos, "a2a3"))

    engine, out = make(stubborn)
    engine.execute("go infinite")
    wait_for(out, "info depth 1")
    start = time.perf_counter()
    engine.execute("stop")
    assert time.perf_counter() - start < 1.0  # STOP_GRACE is 0.05 s; generous for a loaded machine
    assert out.lines()[-1] == "bestmove e2e4 ponder e7e5"
    engine.execute("go depth 1")  # waits for the deaf thread to end, then searches
    deadline = time.perf_counter() + 3
    while sum(line.startswith("bestmove") for line in out.lines()) < 2 and time.perf_counter() < deadline:
        time.sleep(0.01)
    bestmoves = [line for line in out.lines() if line.startswith("bestmove")]
    assert bestmoves == ["bestmove e2e4 ponder e7e5", "bestmove a2a3"], out.lines()
    assert not any("pv a2a3" in line for line in out.lines()[: out.lines().index("bestmove e2e4 ponder e7e5")])


def test_an_illegal_result_is_replaced_by_a_legal_move() -> None:
    engine, out = make(lambda *_: Result(best=12345, ponder=999))
    engine.execute("position startpos moves e2e4")
    engine.execute("go depth 1 searchmoves g8f6 b8c6")
    best = wait_for(out, "bestmove ")
    assert best in ("bestmove g8f6", "bestmove b8c6")


def test_a_handler_bug_is_one_error_line(monkeypatch: pytest.MonkeyPatch) -> None:
    engine, out = make(lambda pos, *_: Result(best=pos.legal_moves()[0]))

    def broken(self: UciEngine, args: list[str]) -> None:
        raise KeyError("oops")

    monkeypatch.setitem(UciEngine.HANDLERS, "d", broken)
    assert engine.execute("d") is True
    assert out.lines() == ["info string error: internal: d: KeyError: 'oops'"]
    engine.execute("isready")
    assert out.lines()[-1] == "readyok"


def test_quit_returns_false_and_silences_output() -> None:
    engine, out = make(lambda pos, *_: Result(best=pos.legal_moves()[0]))
    assert engine.execute("quit") is False
    engine.shutdown()
    engine.out.send("late line")
    assert "late line" not in out.getvalue()


def test_options_parse_and_list() -> None:
    options = Options(
        [
            SpinOption("Move Overhead", 30, 0, 5000),
            CheckOption("Ponder", False),
            ComboOption("UCI_Variant", "alice", ["alice"]),
        ]
    )
    options.set("move  overhead", "70")
    assert options["Move Overhead"] == 70
    options.set("PONDER", "True")
    assert options["ponder"] is True
    for name, value in (
        ("Move Overhead", "-1"),
        ("Move Overhead", "x"),
        ("Ponder", "1"),
        ("UCI_Variant", "chess"),
        ("Nope", "1"),
    ):
        with pytest.raises(OptionError):
            options.set(name, value)
    assert options["Move Overhead"] == 70 and options["UCI_Variant"] == "alice"
    assert [o.uci_line() for o in options] == [
        "option name Move Overhead type spin default 30 min 0 max 5000",
        "option name Ponder type check default false",
        "option name UCI_Variant type combo default alice var alice",
    ]
