"""The limits of one search: time, nodes, the stop flag and the ponderhit switch.

    clock = Clock()
    clock.start(limits, white_to_move, stop_event, ponderhit)
    ...
    if nodes >= clock.next_check:   # the tree's test, every node: one field read
        clock.check(nodes)          # raises SearchStoppedError at a limit
    clock.elapsed_ms(); clock.soft_ms; clock.hard_ms

The tree and the mate search (``search.mate``, through ``share``) count their nodes and ask
the clock every ``CHECK_EVERY`` nodes (and exactly at a node limit). ``check`` raises
``SearchStoppedError`` at the node limit, when the stop event is set, or past the hard time
limit; it also switches a pondering search to its clock once ``ponderhit`` has come.

>>> import threading
>>> from search.limits import Limits
>>> clock = Clock()
>>> clock.start(Limits(nodes=300), True, threading.Event(), None)
>>> clock.next_check
128
>>> clock.check(300)
Traceback (most recent call last):
...
search.clock.SearchStoppedError
"""

from __future__ import annotations

import threading
import time
from typing import Final

from mypy_extensions import i64

from search.limits import Limits, PonderHit
from search.timeman import budget

# ---------------------------------------------------------------- tunables
CHECK_EVERY: Final = 128  # nodes between clock / stop-event checks (well under a ms compiled)
WAIT_POLL: Final = 0.005  # seconds between looks at the stop event while UCI forbids answering


class SearchStoppedError(Exception):
    """Raised inside a search when the clock, node limit or stop event ends it."""


class Clock:
    """When a search must stop (see the module docstring)."""

    def __init__(self) -> None:
        self.start_time = 0.0  # time.perf_counter() at the start (or at the ponderhit): the budget's origin
        self.go_time = 0.0  # time.perf_counter() at the start, pondering included: ``info time``'s origin
        self.soft_ms: float | None = None  # no new iteration after this; None: no clock
        self.hard_ms: float | None = None  # the running iteration is abandoned here
        self.node_limit: i64 = 0  # 0: none
        self.next_check: i64 = CHECK_EVERY  # node count of the next ``check``
        self.pondering = False
        self.stop_event = threading.Event()
        self.hit = PonderHit()
        self.budget: tuple[int, int] | None = None  # (soft, hard) the clock limits give

    def start(
        self,
        limits: Limits,
        white_to_move: bool,
        stop_event: threading.Event,
        ponderhit: PonderHit | None,
        fullmove: int = 1,
    ) -> None:
        """Start the clock of a search within ``limits`` at move ``fullmove`` of the game;
        ``ponderhit`` may already be set."""
        self.start_time = self.go_time = time.perf_counter()
        self.hit = ponderhit if ponderhit is not None else PonderHit()
        self.stop_event = stop_event
        self.budget = None if limits.infinite else budget(limits, white_to_move, fullmove)
        self.pondering = bool(limits.ponder)
        if self.pondering or self.budget is None:
            self.soft_ms = self.hard_ms = None
        else:
            self.soft_ms, self.hard_ms = self.budget
        if self.pondering and self.hit.at is not None:
            self.apply_ponderhit()  # the hit came before the search started
        self.node_limit = limits.nodes if limits.nodes else 0
        self.next_check = min(CHECK_EVERY, self.node_limit) if self.node_limit else CHECK_EVERY

    def share(self, time_share: float, node_share: float, nodes: int) -> Clock:
        """A clock for a first part of this search (the mate proof): the same start and stop
        event, ``time_share`` of the hard limit and ``node_share`` of the node limit, counting
        from ``nodes``; it does not switch on a ponderhit."""
        part = Clock()
        part.start_time = self.start_time
        part.go_time = self.go_time
        part.stop_event = self.stop_event
        part.hard_ms = None if self.hard_ms is None else self.hard_ms * time_share
        if self.node_limit:
            part.node_limit = max(1, int(float(self.node_limit) * node_share))
        part.next_check = nodes + 1
        return part

    def ponderhit(self) -> None:
        """The opponent played the pondered move (any thread; applied at the next check)."""
        self.hit.set()

    def apply_ponderhit(self) -> None:
        """Switch a pondering search to its clock, counted from the moment of the hit."""
        if self.hit.at is not None:
            self.start_time = self.hit.at
        if self.budget is not None:
            self.soft_ms, self.hard_ms = self.budget
        self.pondering = False

    def poll_ponderhit(self) -> None:
        """Between iterations: apply a ponderhit that has come."""
        if self.pondering and self.hit.at is not None:
            self.apply_ponderhit()

    def elapsed_ms(self) -> int:
        """Milliseconds of the budget spent: since the start, or since the ponderhit."""
        return int((time.perf_counter() - self.start_time) * 1000)

    def search_ms(self) -> int:
        """Milliseconds since the search started, pondering included: ``info time``, which the
        nodes (also counted from the start) are divided by for ``nps``."""
        return int((time.perf_counter() - self.go_time) * 1000)

    def check(self, nodes: i64) -> None:
        """Called at ``next_check`` nodes; raises ``SearchStoppedError`` at a limit, else sets the next."""
        if self.node_limit and nodes >= self.node_limit:
            raise SearchStoppedError
        if self.stop_event.is_set():
            raise SearchStoppedError
        if self.pondering and self.hit.at is not None:
            self.apply_ponderhit()
        if self.hard_ms is not None and (time.perf_counter() - self.start_time) * 1000 >= self.hard_ms:
            raise SearchStoppedError
        nxt = nodes + CHECK_EVERY
        if self.node_limit and nxt > self.node_limit:
            nxt = self.node_limit
        self.next_check = nxt

    def check_at(self, nodes: int) -> None:
        """Make the next node (at ``nodes``) check the limits at once."""
        self.next_check = nodes

    def wait_if_required(self, limits: Limits) -> None:
        """UCI forbids ``bestmove`` during ``go infinite``, or while pondering, before ``stop``
        (or, pondering, before ``ponderhit``)."""
        if not (limits.infinite or limits.ponder):
            return
        while not self.stop_event.is_set():
            if limits.ponder and not limits.infinite and (not self.pondering or self.hit.at is not None):
                return  # ponderhit arrived: the normal search is over
            self.stop_event.wait(WAIT_POLL)
