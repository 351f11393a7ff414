"""The search facade (``search.thinker.Thinker``): one answer per ``go``, stop, and a
ponderhit that switches to the clock whatever its timing."""

from __future__ import annotations

import threading
import time
from typing import Any

from engine import Position
from search.evaluate import evaluate
from search.limits import Iteration, Limits, PonderHit, Result
from search.search import Searcher
from search.thinker import Thinker, ThinkerBusyError

AFTER_E4 = "rnbqkbnr/pppppppp/8/8/4|P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
GENEROUS = 10.0  # seconds: an answer that should take well under one second on any machine


class Recorder:
    """Collects what a thinker reports; ``done`` is set when the answer comes."""

    def __init__(self) -> None:
        self.infos: list[Iteration] = []
        self.results: list[Result] = []
        self.done = threading.Event()
        self.answered_at = 0.0

    def info(self, it: Iteration) -> None:
        self.infos.append(it)

    def answer(self, result: Result) -> None:
        self.results.append(result)
        self.answered_at = time.perf_counter()
        self.done.set()


def go(thinker: Thinker, fen: str, limits: Limits) -> Recorder:
    rec = Recorder()
    thinker.go(Position(fen), limits, rec.info, rec.answer)
    return rec


class SlowStart:
    """A searcher whose thread starts searching only when ``gate`` opens (a wrapper: the
    compiled ``Searcher`` cannot be subclassed by interpreted code)."""

    def __init__(self) -> None:
        self.inner = Searcher(4)
        self.gate = threading.Event()

    def search(self, *args: Any, **kwargs: Any) -> Result:
        self.gate.wait(GENEROUS)
        return self.inner.search(*args, **kwargs)


def test_ponderhit_before_the_search_starts_is_not_lost() -> None:
    searcher = SlowStart()
    thinker = Thinker(searcher=searcher)  # type: ignore[arg-type]
    rec = go(thinker, AFTER_E4, Limits(ponder=True, movetime=200))
    thinker.ponderhit()  # the worker has not begun searching
    searcher.gate.set()
    assert rec.done.wait(GENEROUS), "the search kept pondering: the ponderhit was lost"
    assert rec.results[0].best in Position(AFTER_E4).legal_moves()


def test_ponderhit_during_the_first_iteration_switches_to_the_clock() -> None:
    searcher = Searcher(4)
    thinker = Thinker(searcher=searcher)
    rec = Recorder()
    calls = [0]
    infos_at_hit: list[int] = []

    def hooked(pos: Position) -> int:
        calls[0] += 1
        if calls[0] == 5:  # inside the first iteration
            infos_at_hit.append(len(rec.infos))
            thinker.ponderhit()
        return evaluate(pos)

    searcher.tree.evals.hook = hooked
    thinker.go(Position(AFTER_E4), Limits(ponder=True, movetime=200), rec.info, rec.answer)
    assert rec.done.wait(GENEROUS)
    assert infos_at_hit == [0]  # the hit came before any iteration was reported


def test_late_ponderhit_answers_within_the_budget() -> None:
    thinker = Thinker(hash_mb=4)
    rec = go(thinker, AFTER_E4, Limits(ponder=True, wtime=2000, btime=2000))
    time.sleep(0.5)
    assert not rec.done.is_set()  # pondering ignores the clock
    hit = time.perf_counter()
    thinker.ponderhit()
    assert rec.done.wait(GENEROUS)
    assert rec.answered_at - hit < 2.0  # well inside the 2 s clock, counted from the hit
    assert rec.infos, "a pondering search reports its iterations"


def test_ponderhit_object_set_early_applies_at_once() -> None:
    hit = PonderHit()
    hit.set()
    out = Searcher(4).search(Position(AFTER_E4), Limits(ponder=True, movetime=100), threading.Event(), lambda it: None, hit)
    assert out.best in Position(AFTER_E4).legal_moves()


def test_go_while_busy_is_refused_and_stop_answers_once() -> None:
    thinker = Thinker(hash_mb=4)
    rec = go(thinker, AFTER_E4, Limits(infinite=True))
    time.sleep(0.1)
    try:
        go(thinker, AFTER_E4, Limits(depth=1))
    except ThinkerBusyError as exc:
        assert "stop" in str(exc)
    else:
        raise AssertionError("a second go during a search was accepted")
    assert not rec.done.is_set()  # infinite: no answer before stop
    thinker.stop()
    assert rec.done.is_set() and len(rec.results) == 1  # answered when stop returns
    thinker.stop()  # idle: nothing more
    assert len(rec.results) == 1
    assert thinker.wait(GENEROUS)
    rec2 = go(thinker, AFTER_E4, Limits(depth=1))
    assert rec2.done.wait(GENEROUS) and rec2.results[0].best is not None


def test_no_legal_move_answers_none() -> None:
    mated = "rnbqkbnr/ppp1pppp/8/1B6/4p3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 3"
    thinker = Thinker(hash_mb=4)
    rec = go(thinker, mated, Limits(depth=3))
    assert rec.done.wait(GENEROUS)
    assert rec.results == [Result(best=None)]
    assert [it.mate for it in rec.infos] == [0]


def test_searchmoves_that_are_illegal_fall_back_to_all_moves() -> None:
    thinker = Thinker(hash_mb=4)
    rec = go(thinker, AFTER_E4, Limits(depth=1, searchmoves=[12345]))
    assert rec.done.wait(GENEROUS)
    assert rec.results[0].best in Position(AFTER_E4).legal_moves()
