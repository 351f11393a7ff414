"""The search facade: one search at a time on a worker thread, with stop and ponderhit.

    thinker = Thinker(hash_mb=16)
    thinker.go(position, limits, on_info, on_done)   # returns at once
    thinker.ponderhit()                              # the pondered move was played
    thinker.stop()                                   # on_done has run when this returns
    thinker.wait()                                   # until on_done has run

``on_info(Iteration)`` is called for every finished iteration (every MultiPV line) and
``on_done(Result)`` exactly once per ``go``, with a legal best move whenever the position
has one: the search's own, or, if it crashed or ignored ``stop`` for ``STOP_GRACE``
seconds, the first move of the last reported line, else the first legal move. Both run
under ``thinker.lock``; a caller that prints its own lines holds the same lock so that
nothing interleaves (the UCI front end does). A late result of a search that ignored
``stop`` is dropped.

With ``limits.infinite`` or ``limits.ponder``, ``on_done`` waits for ``stop`` (or for
``ponderhit``, when pondering without ``infinite``), as UCI requires. A ``ponderhit``
is never lost, whatever the timing: it is recorded in a ``PonderHit`` made before the
worker starts, and the search polls it (``search.search``).

UCI, the match players and the web board's engine all go through this class; it is
the only place of the engine that starts threads, and (through ``search.workers``) processes.

Threads (``set_threads(n)``, Lazy SMP): with ``n`` > 1 the search runs as before on its
thread, now over a table shared with ``n - 1`` helper processes (``search.workers``), which
each ``go`` starts on the same root and each end of a search stops; the main search alone
reports and decides, its ``info`` nodes counting the helpers' too. Helpers are not used for
``go mate``, ``go nodes`` and a weakened search (``limits.skill``): those stay exactly as
with one thread. ``Hash`` stays the memory of the one table; ``close()`` ends the helpers.
"""

from __future__ import annotations

import dataclasses
import random
import sys
import threading
import traceback
from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from engine.position import Position
from engine.tables import Move
from search import skill
from search.limits import Iteration, Limits, PonderHit, Result
from search.search import Searcher
from search.tt import GENERATION_MASK, TranspositionTable

if TYPE_CHECKING:  # imported when helpers start: one thread never loads multiprocessing
    from search.workers import HelperPool

# ---------------------------------------------------------------- tunables
STOP_GRACE: Final = 0.05  # seconds the search gets to return after stop before it is answered for
IDLE_WAIT: Final = 2.0  # seconds go() waits for a stopped (answered) search thread to end
MEGABYTE: Final = 1024 * 1024

InfoCallback = Callable[[Iteration], None]
DoneCallback = Callable[[Result], None]
ErrorCallback = Callable[[str], None]


class ThinkerBusyError(RuntimeError):
    """``go`` (or a table change) while a search is running; the message says what to do."""


def _ignore_error(message: str) -> None:
    return None


class _Job:
    """One ``go``: its root, callbacks and the signals shared with the worker thread."""

    def __init__(
        self, root: Position, limits: Limits, on_info: InfoCallback, on_done: DoneCallback, on_error: ErrorCallback
    ) -> None:
        self.root = root  # never mutated: the search works on a copy
        self.limits = limits
        self.on_info = on_info
        self.on_done = on_done
        self.on_error = on_error
        self.stop = threading.Event()
        self.hit = PonderHit()
        self.release = threading.Event()  # set when on_done may run (infinite/ponder wait)
        self.answered = False
        self.last_pv: list[Move] = []
        legal = root.legal_moves()
        self.candidates: list[Move] = [m for m in limits.searchmoves if m in legal] or legal
        self.thread: threading.Thread | None = None
        self.helper_job = 0  # the helpers' job number when they search with it, else 0
        # A weakened search (limits.skill) looks at more lines than it shows, then picks one.
        self.plan = skill.plan(limits.skill) if limits.skill is not None else None
        self.shown_lines = limits.multipv
        self.lines: dict[int, Iteration] = {}  # the root lines of the iteration under way
        self.previous: dict[int, Iteration] = {}  # ... and of the one before it
        if self.plan is not None:
            self.limits = skill.search_limits(limits, self.plan)
        if not (limits.infinite or limits.ponder):
            self.release.set()

    def running(self) -> bool:
        return self.thread is not None and self.thread.is_alive()


class Thinker:
    """Owns the ``Searcher`` (tables and heuristics) and the search thread (see module doc)."""

    def __init__(self, hash_mb: int = 16, searcher: Searcher | None = None) -> None:
        self.searcher = searcher if searcher is not None else Searcher(hash_mb)
        table = getattr(self.searcher, "tt", None)  # a test's stand-in searcher may have none
        self.hash_mb = max(1, table.bytes_used // MEGABYTE) if isinstance(table, TranspositionTable) else hash_mb
        self.threads = 1
        self.pool: HelperPool | None = None  # the helpers when threads > 1
        self.own_table: TranspositionTable | None = None  # the one-thread table, kept tiny while helpers run
        self.helper_jobs = 0  # helper job numbers given so far
        self.lock = threading.RLock()
        self._job: _Job | None = None
        self.rng = random.Random()  # a weakened search's choices (seed it for repeatable play)

    # ------------------------------------------------------------ state
    @property
    def busy(self) -> bool:
        """A search is running and has not answered yet."""
        job = self._job
        return job is not None and not job.answered and job.running()

    def require_idle(self, what: str) -> None:
        """Raise ``ThinkerBusyError`` unless no search runs (a stopped one gets ``IDLE_WAIT`` to end)."""
        job = self._job
        if job is None or not job.running():
            return
        if not job.answered:
            raise ThinkerBusyError(f"{what}: a search is running; send stop first")
        assert job.thread is not None
        job.thread.join(IDLE_WAIT)
        if job.thread.is_alive():
            raise ThinkerBusyError(f"{what}: the previous search has not finished stopping yet")

    def resize(self, mb: int) -> None:
        """Resize the hash table (clears it); only when idle."""
        self.require_idle("Hash")
        self.hash_mb = max(1, mb)
        if self.pool is None:
            self.searcher.resize(mb)
            return
        threads = self.threads
        self._close_pool()
        self.threads = 1  # until the new helpers have started (if they cannot: one thread)
        self._open_pool(threads)
        self.threads = threads

    def clear(self) -> None:
        """Forget everything learned (a new game); only when idle."""
        self.require_idle("clear")
        self.searcher.clear()
        if self.pool is not None:
            self.pool.clear()

    def set_threads(self, threads: int) -> None:
        """Search with ``threads`` workers (1: no helper processes); clears the table; only when
        idle. ``search.workers.WorkerStartError`` if the helpers cannot start (then one thread)."""
        self.require_idle("Threads")
        if threads == self.threads:
            return
        self._close_pool()
        self.threads = 1
        if threads > 1:
            self._open_pool(threads)
        self.threads = threads

    def close(self) -> None:
        """End the helper processes (at exit; the thinker works on with one thread)."""
        self._close_pool()
        self.threads = 1

    def _open_pool(self, threads: int) -> None:
        from search.workers import HelperPool

        own = self.own_table = self.searcher.tt
        own.resize_buckets(1)  # Hash is the shared table's now
        try:
            self.pool = HelperPool(threads, self.hash_mb)
        except BaseException:
            own.resize(self.hash_mb)
            raise
        self.searcher.tree.tt = self.pool.table

    def _close_pool(self) -> None:
        pool, self.pool = self.pool, None
        own = self.own_table
        if pool is None or own is None:
            return
        self.searcher.tree.tt = own
        pool.close()
        own.resize(self.hash_mb)

    # ------------------------------------------------------------ commands
    def go(
        self,
        position: Position,
        limits: Limits,
        on_info: InfoCallback,
        on_done: DoneCallback,
        on_error: ErrorCallback | None = None,
    ) -> None:
        """Start searching a copy of ``position``; returns at once (see the module doc).

        ``limits.searchmoves`` that are not legal are ignored (all legal moves if none is).
        ``on_error(message)`` hears of a crash inside the search (the answer still comes).
        """
        self.require_idle("go")
        job = _Job(position.copy(), limits, on_info, on_done, on_error or _ignore_error)
        self._start_helpers(job)
        job.thread = threading.Thread(target=self._work, args=(job,), name="alice-search", daemon=True)
        self._job = job
        job.thread.start()

    def stop(self) -> None:
        """Stop the search; its ``on_done`` has run when this returns. Idle: nothing."""
        job = self._job
        if job is None:
            return
        job.stop.set()
        job.release.set()
        self._stop_helpers(job)
        if not job.answered and job.thread is not None:
            job.thread.join(STOP_GRACE)
        self._answer(job, None)  # no-op if the search answered; else answer for it

    def ponderhit(self) -> None:
        """The opponent played the pondered move: the search switches to its clock now."""
        job = self._job
        if job is None or job.answered or not job.limits.ponder:
            return
        job.hit.set()
        if not job.limits.infinite:
            job.release.set()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until the running search has answered; False if ``timeout`` ran out first."""
        job = self._job
        if job is None or job.thread is None:
            return True
        job.thread.join(timeout)
        return job.answered

    # ------------------------------------------------------------ worker
    def _work(self, job: _Job) -> None:
        result: Result | None = None
        try:
            result = self.searcher.search(job.root, job.limits, job.stop, lambda it: self._info(job, it), job.hit)
        except Exception as exc:
            traceback.print_exc(file=sys.stderr)
            with self.lock:
                if not job.answered:
                    job.on_error(f"internal: search: {type(exc).__name__}: {exc}")
        self._stop_helpers(job)
        job.release.wait()
        self._answer(job, result)

    # ------------------------------------------------------------ helpers
    def _start_helpers(self, job: _Job) -> None:
        """Start the helpers on the job's root unless the limits keep them out (module doc)."""
        pool = self.pool
        if pool is None:
            return
        self._reap(job)
        limits = job.limits
        if limits.mate or limits.nodes or limits.skill is not None or job.plan is not None or not pool.size:
            return
        self.helper_jobs += 1
        job.helper_job = self.helper_jobs
        generation = (self.searcher.tt.generation + 1) & GENERATION_MASK  # the search's new_search makes it so
        pool.go(job.helper_job, job.root, list(limits.searchmoves), generation)

    def _stop_helpers(self, job: _Job) -> None:
        pool = self.pool
        if pool is not None and job.helper_job:
            pool.stop(job.helper_job)

    def _reap(self, job: _Job) -> None:
        """Report helpers that died (``info string``); the search goes on without them."""
        pool = self.pool
        if pool is not None:
            for line in pool.reap():
                job.on_error(line)

    def _info(self, job: _Job, it: Iteration) -> None:
        with self.lock:
            if job.answered:
                return
            pool = self.pool
            if pool is not None and job.helper_job:
                self._reap(job)
                it = dataclasses.replace(it, nodes=it.nodes + pool.nodes(job.helper_job))
            if it.multipv <= 1 and it.pv:
                job.last_pv = list(it.pv)
            if job.plan is not None:
                if it.multipv <= 1:
                    job.previous, job.lines = job.lines, {}
                job.lines[it.multipv] = it
                if it.multipv > job.shown_lines:
                    return  # a line searched only to choose among
            job.on_info(it)

    def _answer(self, job: _Job, result: Result | None) -> None:
        """Call ``on_done`` once: the search's result if legal, else the fallback."""
        with self.lock:
            if job.answered:
                return
            job.answered = True
            job.on_done(self._choose(job, result))

    def _choose(self, job: _Job, result: Result | None) -> Result:
        """A legal best move (the search's, else the last line's, else the first candidate);
        a weakened search draws it among its root lines (``search.skill.choose``)."""
        if not job.candidates:
            return Result(best=None)
        if job.plan is not None and result is not None:
            chosen = skill.choose(skill.merge_lines(job.lines, job.previous), job.plan, self.rng)
            if chosen is not None and chosen != result.best:
                result = Result(best=chosen)
        if result is not None and result.best in job.candidates:
            best, ponder = result.best, result.ponder
        elif job.last_pv and job.last_pv[0] in job.candidates:
            best = job.last_pv[0]
            ponder = job.last_pv[1] if len(job.last_pv) > 1 else None
        else:
            best, ponder = job.candidates[0], None
        if ponder is not None:
            after = job.root.copy()
            after.push(best)
            if ponder not in after.legal_moves():
                ponder = None
        return Result(best=best, ponder=ponder)
