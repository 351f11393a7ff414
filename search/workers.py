"""Lazy SMP's helper processes and the table they share with the main search (``Threads`` > 1).

    pool = HelperPool(threads=4, hash_mb=16)    # 3 helper processes, one 16 MB shared table
    searcher.tree.tt = pool.table               # the main search uses the shared table too
    pool.go(job, root, searchmoves, generation) # the helpers search the same root ...
    pool.nodes(job)                             # ... their node count so far (for info)
    pool.stop(job)                              # returns at once
    pool.close()                                # quit them, free the table (also on errors)

CPython runs one thread at a time (the GIL), so the helpers are processes (``multiprocessing``,
start method ``START_METHOD_ENV`` = ``spawn`` (the default) or ``fork``), each running
``search.helper.run``. The table is a file in ``/dev/shm`` (else the temporary directory)
mapped by everyone: ``HEADER_WORDS`` words of node counters (job, nodes per helper), then from
``TABLE_OFFSET`` (whole pages) ``Hash`` megabytes of buckets (``search.sharedtt``), so ``Hash``
is the memory of the one table whatever the thread count. The file is unlinked as soon as
every helper has mapped it: nothing is left in ``/dev/shm`` when the processes end, however
they end.

A helper that dies is noticed by ``reap`` (the thinker asks between iterations and at each
``go``) and left out from then on; the others go on. Helpers end themselves when the main
process goes (``search.helper``), and ``close`` sends ``quit``, then terminates and kills
what is left after ``CLOSE_WAIT`` seconds.
"""

from __future__ import annotations

import mmap
import multiprocessing
import multiprocessing.connection
import multiprocessing.context
import os
import tempfile
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Final

from engine.position import Position
from search import helper
from search.helper import HEADER_WORDS, MAX_THREADS, TABLE_OFFSET, Go, Stop, WorkerStartError
from search.sharedtt import BUCKET_BYTES, SharedTranspositionTable, ViewTranspositionTable, attach

# ---------------------------------------------------------------- tunables
START_METHOD_ENV: Final = "ALICE_ENGINE_START_METHOD"  # environment variable: "spawn" or "fork"
DEFAULT_START_METHOD: Final = "spawn"  # safe with threads blocked on stdin (fork would copy their locks)
START_TIMEOUT: Final = 60.0  # seconds for the helpers to start and map the table
CLOSE_WAIT: Final = 1.0  # seconds helpers get to quit before they are terminated
SHM_DIR: Final = "/dev/shm"  # where the table's file goes when it exists (memory, not disk)


def start_method() -> str:
    """The start method the environment asks for (``START_METHOD_ENV``), else the default."""
    method = os.environ.get(START_METHOD_ENV, "") or DEFAULT_START_METHOD
    if method not in ("fork", "spawn") or method not in multiprocessing.get_all_start_methods():
        raise WorkerStartError(f"{START_METHOD_ENV}={method}: expected fork or spawn (where the system has it)")
    return method


def _context() -> multiprocessing.context.ForkContext | multiprocessing.context.SpawnContext:
    if start_method() == "fork":
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def root_message(job: int, root: Position, searchmoves: list[int], generation: int) -> Go:
    """The ``Go`` for ``root``: the FEN before the game's moves and the moves (repetitions count)."""
    moves = root.move_stack
    base = root.copy()
    for _ in moves:
        base.pop()
    return Go(job, base.fen(), moves, list(searchmoves), generation)


class HelperPool:
    """``threads - 1`` helper processes and the shared table (see the module docstring)."""

    def __init__(self, threads: int, hash_mb: int) -> None:
        if not 2 <= threads <= MAX_THREADS:
            raise WorkerStartError(f"Threads must be 2..{MAX_THREADS} for helpers, not {threads}")
        buckets = max(1, hash_mb) * 1024 * 1024 // BUCKET_BYTES
        words = buckets * (BUCKET_BYTES // 8)
        self.context = _context()
        self.procs: dict[int, BaseProcess] = {}
        self.conns: dict[int, Connection] = {}
        self.path = self._create_file(TABLE_OFFSET + 8 * words)
        try:
            fd = os.open(self.path, os.O_RDWR)
            try:
                self.map = mmap.mmap(fd, TABLE_OFFSET)
                self.table: SharedTranspositionTable | ViewTranspositionTable = attach(fd, TABLE_OFFSET, words)
            finally:
                os.close(fd)
            self.header = memoryview(self.map).cast("q")[:HEADER_WORDS]
            self._start(threads - 1, words)
        except BaseException:
            self.close()
            raise
        finally:
            self._unlink()

    @staticmethod
    def _create_file(size: int) -> str:
        """A new file of ``size`` zero bytes for the table, in memory where there is room for it
        (``SHM_DIR``), else in the temporary directory; ``WorkerStartError`` if neither has room.
        The space is reserved now (``posix_fallocate`` where the system has it): a file whose
        pages could not all be had would kill the engine (SIGBUS) when the search touched them
        (Docker gives ``/dev/shm`` 64 MB)."""
        folders = [tempfile.gettempdir()]
        if os.path.isdir(SHM_DIR) and os.access(SHM_DIR, os.W_OK):
            folders.insert(0, SHM_DIR)
        refusals = []
        for folder in folders:
            fd, path = tempfile.mkstemp(prefix="alice-tt-", dir=folder)
            try:
                if hasattr(os, "posix_fallocate"):
                    os.posix_fallocate(fd, 0, size)
                else:
                    os.ftruncate(fd, size)
                return path
            except OSError as exc:
                refusals.append(f"{folder}: {exc.strerror or exc}")
                os.unlink(path)
            finally:
                os.close(fd)
        raise WorkerStartError(f"no room for the {size >> 20} MB shared table ({'; '.join(refusals)})")

    def _unlink(self) -> None:
        """Remove the table's file name (the mappings stay)."""
        try:
            os.unlink(self.path)
        except FileNotFoundError:
            pass

    def _start(self, helpers: int, words: int) -> None:
        """Start the helpers and wait until each has mapped the table (``ready``)."""
        for index in range(1, helpers + 1):
            mine, theirs = self.context.Pipe()
            proc = self.context.Process(
                target=helper.run, args=(theirs, self.path, index, words, os.getpid()),
                name=f"alice-helper-{index}", daemon=True,
            )
            proc.start()
            theirs.close()
            self.procs[index] = proc
            self.conns[index] = mine
        for index, conn in self.conns.items():
            if not conn.poll(START_TIMEOUT):
                raise WorkerStartError(f"helper {index} did not start within {START_TIMEOUT:.0f} s")
            try:
                conn.recv()
            except EOFError:
                raise WorkerStartError(f"helper {index} ended while starting") from None

    # ------------------------------------------------------------ commands
    @property
    def size(self) -> int:
        """Helpers alive (as far as known: see ``reap``)."""
        return len(self.procs)

    def _send(self, message: object) -> None:
        """``message`` to every helper; a dead one is skipped (``reap`` reports it)."""
        for index, conn in list(self.conns.items()):
            try:
                conn.send(message)
            except (OSError, ValueError):
                pass  # a dead helper: reap reports it

    def go(self, job: int, root: Position, searchmoves: list[int], generation: int) -> None:
        """The helpers start on ``root`` (the game's moves included) for job number ``job``."""
        self._send(root_message(job, root, searchmoves, generation))

    def stop(self, job: int) -> None:
        """End the helpers' search of job ``job`` (returns at once)."""
        self._send(Stop(job))

    def clear(self) -> None:
        """The helpers forget their histories and evaluations (``ucinewgame``; the table is
        cleared by its user, ``table.clear()``)."""
        self._send("clear")

    def nodes(self, job: int) -> int:
        """The helpers' nodes in job ``job`` so far (counters written every ``REPORT_EVERY``)."""
        header = self.header
        return sum(header[2 * i + 1] for i in list(self.procs) if header[2 * i] == job)

    def reap(self) -> list[str]:
        """Forget the helpers that have died since the last call; a line about each."""
        lines = []
        for index, proc in list(self.procs.items()):
            if proc.is_alive():
                continue
            proc.join(0)
            del self.procs[index]
            self.conns.pop(index).close()
            threads = len(self.procs) + 1
            lines.append(f"helper {index} died (exit code {proc.exitcode}); searching on with {threads} threads")
        return lines

    def pids(self) -> list[int]:
        """The helpers' process ids (tests)."""
        return [p.pid for p in self.procs.values() if p.pid is not None]

    def close(self) -> None:
        """Quit every helper (terminate, then kill, the late ones) and free the table."""
        self._send("quit")
        for proc in self.procs.values():
            proc.join(CLOSE_WAIT)
        for proc in self.procs.values():
            if proc.is_alive():
                proc.kill()
                proc.join(CLOSE_WAIT)
        for conn in self.conns.values():
            conn.close()
        for proc in self.procs.values():
            try:
                proc.close()
            except ValueError:
                pass  # still running after kill: the process object is dropped anyway
        self.procs.clear()
        self.conns.clear()
        self._release()

    def _release(self) -> None:
        """Unmap the table, release the header's view, then unmap the header (a view left would
        block that)."""
        table = getattr(self, "table", None)  # None when __init__ failed before it
        if table is not None:
            table.release()
        header = getattr(self, "header", None)
        if header is not None:
            header.release()
        mapping = getattr(self, "map", None)
        if mapping is not None and not mapping.closed:
            mapping.close()
