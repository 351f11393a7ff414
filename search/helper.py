"""One Lazy SMP helper: a process that searches the main search's root into the shared table.

``run(conn, path, index, words, parent)`` is the process's target (``search.workers`` starts
it, with ``fork`` or ``spawn``). It maps the shared file ``path`` (a header of node counters,
then the table: ``search.workers``' layout), answers ``("ready", index)`` and then obeys the
messages of its pipe:

* a ``Go`` (job, FEN, moves, searchmoves, generation): search that root (the game's moves
  replayed, so repetitions count) by iterative deepening until ``stop``; helper ``index``
  skips some depths (``skipped``, Stockfish's skip blocks), so the helpers spread over depths
  and fill the table ahead of the main search; results go only to the table;
* ``Stop(job)`` ends that job's search (a late stop of an earlier job is ignored; a ``Go``
  ends the running search too); ``"clear"`` forgets histories and evaluations
  (``ucinewgame``); ``"quit"`` ends the process.

A listener thread reads the pipe, so ``stop`` reaches the search (a ``threading.Event`` the
clock checks every ``CHECK_EVERY`` nodes) while it runs, and it writes the search's node
count to the header every ``REPORT_EVERY`` seconds for the main process's ``info``. The
helper never outlives the main process: the pipe's end of file, or a parent process id that
is no longer ``parent`` (checked every ``REPORT_EVERY``), ends it at once (``os._exit``).
"""

from __future__ import annotations

import mmap
import os
import queue
import signal
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from engine.position import Position
from search.clock import SearchStoppedError
from search.limits import Limits
from search.movepick import order_moves
from search.search import MAX_DEPTH, Searcher
from search.sharedtt import PAGE, attach

if TYPE_CHECKING:  # multiprocessing is imported only when helpers start (one thread: not at all)
    from multiprocessing.connection import Connection

# ---------------------------------------------------------------- tunables
REPORT_EVERY: Final = 0.05  # seconds between node-count reports and looks at the parent
SKIP_SIZE: Final = (1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4)  # Stockfish 9's skip blocks ...
SKIP_PHASE: Final = (0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7)  # ... and their phases
HEADER_WORDS: Final = 512  # the shared file's header: (job, nodes) per helper, before the table
MAX_THREADS: Final = HEADER_WORDS // 2  # the Threads option's maximum: helper i uses header slot i (1..255)
TABLE_OFFSET: Final = -(-8 * HEADER_WORDS // PAGE) * PAGE  # the table's first byte in the file: whole pages (mmap offsets)


class WorkerStartError(RuntimeError):
    """The helper processes could not be started (the message says why; ``search.workers``)."""


def skipped(index: int, depth: int, game_ply: int) -> bool:
    """Whether helper ``index`` (1-based) skips the iteration at ``depth``.

    >>> [d for d in range(1, 9) if not skipped(1, d, 0)]  # the first helper: even depths
    [2, 4, 6, 8]
    >>> [d for d in range(1, 9) if not skipped(3, d, 0)]  # the third: blocks of two
    [1, 4, 5, 8]
    """
    i = (index - 1) % len(SKIP_SIZE)
    return ((depth + game_ply + SKIP_PHASE[i]) // SKIP_SIZE[i]) % 2 == 1


@dataclass
class Go:
    """The ``go`` message: the job's number (for the node counters), the root as a FEN and
    the moves played from it, the allowed root moves (empty: all) and the table's generation."""

    job: int
    fen: str
    moves: list[int]
    searchmoves: list[int]
    generation: int


@dataclass
class Stop:
    """The ``stop`` message of job ``job``."""

    job: int


@dataclass
class _Task:
    """A ``go`` as the search thread takes it, with its own stop event."""

    go: Go
    stop: threading.Event = field(default_factory=threading.Event)


class _Helper:
    """The helper's state: its searcher over the shared table, the header, the job queue."""

    def __init__(self, conn: Connection, path: str, index: int, words: int, parent: int) -> None:
        self.conn = conn
        self.index = index
        self.parent = parent
        self.searcher = Searcher(1)
        fd = os.open(path, os.O_RDWR)
        try:
            self.map = mmap.mmap(fd, TABLE_OFFSET)
            self.searcher.tree.tt = attach(fd, TABLE_OFFSET, words)
        finally:
            os.close(fd)
        self.header = memoryview(self.map).cast("q")[:HEADER_WORDS]
        self.jobs: queue.Queue[_Task | str] = queue.Queue()
        self.current: _Task | None = None  # the last go received (its stop event is what stop sets)
        self.searching = 0  # the job whose nodes the search thread is counting (0: none)

    # ------------------------------------------------------------ listener thread
    def listen(self) -> None:
        """Read the pipe; report nodes and watch the parent between messages."""
        while True:
            try:
                ready = self.conn.poll(REPORT_EVERY)
                message = self.conn.recv() if ready else None
            except (EOFError, OSError):
                os._exit(0)  # the main process is gone
            if os.getppid() != self.parent:
                os._exit(0)
            self.report()
            if message is not None:
                self.dispatch(message)

    def dispatch(self, message: object) -> None:
        """A message from the pipe: a ``Go``, a ``Stop``, ``"clear"`` or ``"quit"``."""
        current = self.current
        if isinstance(message, Stop):
            if current is not None and current.go.job == message.job:
                current.stop.set()
            return
        if current is not None:
            current.stop.set()  # a new job, clear or quit ends the running search
        if isinstance(message, Go):
            self.current = _Task(message)
            self.jobs.put(self.current)
        elif message in ("clear", "quit"):
            self.jobs.put(str(message))

    def report(self) -> None:
        job = self.searching
        if job:
            slot = 2 * self.index
            self.header[slot] = job
            self.header[slot + 1] = self.searcher.nodes

    # ------------------------------------------------------------ search thread
    def serve(self) -> None:
        """Run the jobs in order until ``quit``."""
        threading.Thread(target=self.listen, name="alice-helper-pipe", daemon=True).start()
        self.conn.send(("ready", self.index))
        while True:
            item = self.jobs.get()
            if item == "quit":
                return
            if item == "clear":
                self.searcher.tree.heuristics.clear()
                self.searcher.tree.evals.clear()
            elif isinstance(item, _Task):
                self.search(item.go, item.stop)

    def search(self, go: Go, stop: threading.Event) -> None:
        """Iterative deepening of ``go``'s root, skipping this helper's depths, until stopped."""
        pos = Position.from_fen(go.fen)
        for m in go.moves:
            pos.push(m)
        legal = pos.legal_moves()
        moves = [m for m in legal if m in go.searchmoves] or legal
        if not moves:
            return
        searcher = self.searcher
        searcher.clock.start(Limits(infinite=True), bool(pos.turn), stop, None, pos.fullmove)
        searcher.tree.new_search()
        searcher.tt.generation = go.generation
        self.searching = go.job
        game_ply = len(go.moves)
        guess: int | None = None
        try:
            for depth in range(1, MAX_DEPTH + 1):
                if skipped(self.index, depth, game_ply):
                    continue
                entry = searcher.tt.probe(pos.key)
                hint = entry[0] if entry is not None and entry[0] in moves else 0
                moves = order_moves(pos, moves, hint, 0, searcher.tree.heuristics)
                guess, best = searcher.search_depth(pos, moves, depth, guess)
                moves.remove(best)
                moves.insert(0, best)
        except SearchStoppedError:
            pass
        self.report()


def run(conn: Connection, path: str, index: int, words: int, parent: int) -> None:
    """The helper process's target (see the module docstring)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole terminal group: the engine decides
    helper = _Helper(conn, path, index, words, parent)
    helper.serve()
    os._exit(0)  # no interpreter teardown: nothing to flush, and the mapping dies with us
