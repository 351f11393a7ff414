"""UCI engines for the web board, driven with ``chess.engine`` like any GUI drives them.

All engine I/O runs on one background asyncio loop (``EngineLoop``); the HTTP threads
submit work to it and never block on an engine. ``EngineProcess.search`` runs one
``go`` (a move or an analysis) and turns every way an engine can fail into an
``EngineFailure`` with a message for the page:

* it cannot be started or does not answer ``uci`` within ``START_TIMEOUT``;
* it exits (a crash), reported with its exit code;
* it hangs: no ``bestmove`` by the end of its time budget plus ``HANG_GRACE``, or
  ``STOP_TIMEOUT`` after ``stop``; the process is killed;
* it sends an illegal or malformed move (``bestmove`` checked with ``AliceBoard`` as it
  arrives, so it is reported at once: python-chess's own check fails inside its reader
  and the search would only end as a hang), or a line of more than ``MAX_LINE_BYTES``.

An engine printing without end cannot grow the server's memory: a line is at most
``MAX_LINE_BYTES`` (python-chess would keep an endless one whole); a flood of ``info``
lines is throttled by python-chess's reader itself (measured: 0.6 MB in 4 s of flood).

A failed engine is restarted at its next search, so a new game can always be started.
The commands come only from the command line (``--engine``), never from a request. The
default engine is this one, from the same installation as the web board, started so that
the current folder cannot stand in for it (``python -m uci`` would run a ``uci`` folder or
``uci.py`` there, or the pure sources of a checkout, first).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import shlex
import sys
import threading
import time
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

import chess
import chess.engine

START_TIMEOUT = 20.0  # seconds for an engine to start and answer uci (a Python engine imports a while)
READY_TIMEOUT = 10.0  # seconds for isready after ucinewgame/setoption
STOP_TIMEOUT = 5.0  # seconds for a bestmove after stop before the engine counts as hung
HANG_GRACE = 10.0  # seconds past a time or node budget before we send stop ourselves
MIN_NODES_PER_SECOND = 2000  # the slowest engine we expect: sets the wait for a node limit
QUIT_TIMEOUT = 2.0  # seconds an engine gets to quit before it is killed
MAX_LINE_BYTES = 1 << 16  # bytes of one line of an engine's output; a longer one is a failure

T = TypeVar("T")


class EngineFailure(Exception):
    """An engine that failed (did not start, crashed, hung, sent a bad move)."""


@dataclass(frozen=True)
class EngineSpec:
    """An engine the page may choose: its command line, the label shown until it names itself,
    and UCI options set for every search (``--threads``: ``Threads``; skipped where the engine
    lacks them)."""

    command: tuple[str, ...]
    label: str
    options: Mapping[str, chess.engine.ConfigValue] = field(default_factory=dict)

    @classmethod
    def parse(cls, text: str) -> EngineSpec:
        """From an ``--engine`` argument (split like a shell would)."""
        command = tuple(shlex.split(text))
        if not command:
            raise ValueError("--engine needs a command")
        return cls(command, os.path.basename(command[0]))


@dataclass(frozen=True)
class SearchRequest:
    """One search: the position, its limit (``None``: until stopped), the UCI options it
    needs (those the engine lacks are skipped), the lines wanted, and the game it belongs
    to (a new object sends ``ucinewgame``)."""

    board: chess.Board
    limit: chess.engine.Limit | None
    options: Mapping[str, chess.engine.ConfigValue]
    multipv: int = 1
    game: object = None


def default_engine() -> EngineSpec:
    """This engine, run with the interpreter that runs the web board, from the folder that
    holds this ``gui`` package (site-packages, or a checkout): the current folder is taken
    off ``sys.path`` (``python -m uci`` would put it first)."""
    return EngineSpec((sys.executable, "-c", launcher(PACKAGES_ROOT)), "alice-engine")


PACKAGES_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # where gui, uci, engine live


def launcher(root: str) -> str:
    """``python -c`` code that runs ``uci`` from ``root``, the current folder ('') off the path.

    >>> "sys.path[:] = ['/opt/x', *(p for p in sys.path if p)]" in launcher("/opt/x")
    True
    """
    return (
        f"import sys; sys.path[:] = [{root!r}, *(p for p in sys.path if p)]; "
        "from uci.__main__ import main; sys.exit(main())"
    )


class CheckedUciProtocol(chess.engine.UciProtocol):
    """python-chess's UCI protocol with the engine's output checked as it arrives: a
    ``bestmove`` that is malformed or not legal in the position searched, or a line of more
    than ``MAX_LINE_BYTES``, sets ``failure`` (the message) at once instead of reaching
    python-chess (whose own check fails inside its reader, leaving the search waiting)."""

    def __init__(self) -> None:
        super().__init__()
        self.failure: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    def fail(self, message: str) -> None:
        if not self.failure.done():
            self.failure.set_result(message)

    def pipe_data_received(self, fd: int, data: bytes | str) -> None:
        super().pipe_data_received(fd, data)
        pending = self.buffer[fd]  # the unfinished line python-chess keeps (a bytearray)
        if len(pending) > MAX_LINE_BYTES:
            pending.clear()  # the rest of that line is dropped
            if fd == 1:
                self.fail(f"sent a line of more than {MAX_LINE_BYTES} bytes")

    def _line_received(self, line: str) -> None:
        if self.failure.done():
            return  # it has failed: it is ended, nothing more is read
        problem = bestmove_problem(line, self.board) if self.command is not None else None
        if problem is not None:
            self.fail(problem)
            return
        super()._line_received(line)


def bestmove_problem(line: str, board: chess.Board) -> str | None:
    """What is wrong with ``line`` if it is a ``bestmove`` that cannot be played on ``board``.

    >>> from engine.board import AliceBoard
    >>> bestmove_problem("bestmove e2e4", AliceBoard()), bestmove_problem("info depth 1", AliceBoard())
    (None, None)
    >>> bestmove_problem("bestmove e3e4 ponder e7e5", AliceBoard())
    "sent an illegal move: 'bestmove e3e4 ponder e7e5'"
    >>> bestmove_problem("bestmovefoo", AliceBoard())
    "sent malformed output: 'bestmovefoo'"
    """
    words = line.split()
    if not words or not words[0].startswith("bestmove"):
        return None
    if words[0] != "bestmove":
        return f"sent malformed output: {line[:80]!r}"
    if len(words) < 2 or words[1] in ("(none)", "NULL"):
        return None  # no move: the search's answer says so
    try:
        board.parse_uci(words[1].lower())
    except ValueError:
        return f"sent an illegal move: {line[:80]!r}"
    return None


def time_budget(limit: chess.engine.Limit | None, turn: chess.Color = chess.WHITE) -> float | None:
    """Seconds after which a search with ``limit`` should surely have answered (``None``: no
    bound); on a clock, the clock of the side to move (``turn``) bounds it.

    >>> time_budget(chess.engine.Limit(time=1.0))
    11.0
    >>> time_budget(chess.engine.Limit(white_clock=60, black_clock=2.5), chess.BLACK)
    12.5
    """
    if limit is None:
        return None
    budgets = []
    if limit.time is not None:
        budgets.append(limit.time)
    if limit.nodes is not None:
        budgets.append(limit.nodes / MIN_NODES_PER_SECOND)
    clock = limit.white_clock if turn == chess.WHITE else limit.black_clock
    if clock is not None:
        budgets.append(clock)
    return min(budgets) + HANG_GRACE if budgets else None


class EngineLoop:
    """A daemon thread running an asyncio loop, for all engine work."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self._run, name="engine-loop", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_forever()

    def submit(self, coro: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        return asyncio.run_coroutine_threadsafe(coro, self.loop)

    def call(self, fn: Callable[[], None]) -> None:
        self.loop.call_soon_threadsafe(fn)

    def call_later(self, delay: float, fn: Callable[[], None]) -> None:
        """Run ``fn`` on the loop after ``delay`` seconds (from any thread)."""
        self.loop.call_soon_threadsafe(self.loop.call_later, delay, fn)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(QUIT_TIMEOUT)


class EngineProcess:
    """One engine process, started on demand and restarted after a failure.

    Searches on one process run one at a time (an ``asyncio.Lock``); each brings its
    own ``stop`` event, which makes it answer at once (or not start at all).
    """

    def __init__(self, spec: EngineSpec) -> None:
        self.spec = spec
        self.name = spec.label
        self.options: Mapping[str, chess.engine.Option] = {}
        self._transport: asyncio.SubprocessTransport | None = None
        self._protocol: CheckedUciProtocol | None = None
        self._lock: asyncio.Lock | None = None

    # ------------------------------------------------------------ life cycle
    def alive(self) -> bool:
        return self._protocol is not None and not self._protocol.returncode.done()

    def _guard(self) -> asyncio.Lock:
        if self._lock is None:
            self._lock = asyncio.Lock()
        return self._lock

    async def warm_up(self) -> None:
        """Start the engine now (to learn its name and options), unless it runs."""
        async with self._guard():
            await self.start()

    async def start(self) -> CheckedUciProtocol:
        """The running protocol, starting the engine if needed (call with the lock held)."""
        if self._protocol is not None and self.alive():
            return self._protocol
        self.kill()
        try:
            transport, protocol = await CheckedUciProtocol.popen(list(self.spec.command))
        except OSError as error:
            raise EngineFailure(f"cannot start {self.spec.label}: {error.strerror or error}") from None
        try:
            await asyncio.wait_for(protocol.initialize(), START_TIMEOUT)
        except asyncio.TimeoutError:
            transport.close()
            raise EngineFailure(f"{self.spec.label} did not answer 'uci' within {START_TIMEOUT:g} s") from None
        except chess.engine.EngineError as error:
            transport.close()
            raise EngineFailure(f"{self.spec.label} could not start: {error}") from None
        self._transport, self._protocol = transport, protocol
        self.name = protocol.id.get("name", self.spec.label)
        self.options = dict(protocol.options)
        return protocol

    def kill(self) -> None:
        """End the process at once (a hung engine), if there is one."""
        if self._transport is not None:
            self._transport.close()
        self._transport = self._protocol = None

    async def quit(self) -> None:
        protocol = self._protocol
        if protocol is not None and self.alive():
            try:
                await asyncio.wait_for(protocol.quit(), QUIT_TIMEOUT)
            except (asyncio.TimeoutError, chess.engine.EngineError):
                pass
        self.kill()
        if protocol is not None:  # wait for the killed process to be reaped (no zombie, no warning)
            try:
                await asyncio.wait_for(asyncio.shield(protocol.returncode), QUIT_TIMEOUT)
            except (asyncio.TimeoutError, chess.engine.EngineError):
                pass

    def _exit_message(self) -> str:
        """Why the process has gone, for the page."""
        code = None
        if self._protocol is not None and self._protocol.returncode.done():
            code = self._protocol.returncode.result()
        self.kill()
        return f"{self.name} stopped unexpectedly" + (f" (exit code {code})" if code is not None else "")

    # ------------------------------------------------------------ searching
    async def search(
        self,
        request: SearchRequest,
        on_info: Callable[[chess.engine.InfoDict], None],
        stop: asyncio.Event,
    ) -> chess.engine.BestMove | None:
        """One search (``request.limit`` ``None``: until stopped); ``on_info`` gets every
        ``info``; setting ``stop`` makes the engine answer now. Returns the engine's
        ``bestmove``, or ``None`` when stopped before it began; raises ``EngineFailure``."""
        async with self._guard():
            if stop.is_set():
                return None
            protocol = await self.start()
            try:
                return await self._search(protocol, request, on_info, stop)
            except chess.engine.EngineTerminatedError:
                raise EngineFailure(self._exit_message()) from None
            except chess.engine.EngineError as error:
                self.kill()
                raise EngineFailure(f"{self.name}: {error}") from None

    async def _search(
        self,
        protocol: CheckedUciProtocol,
        request: SearchRequest,
        on_info: Callable[[chess.engine.InfoDict], None],
        stop: asyncio.Event,
    ) -> chess.engine.BestMove:
        limit = request.limit
        asked = {**self.spec.options, **request.options}
        wanted = {name: value for name, value in asked.items() if name in self.options}
        search = protocol.analysis(request.board, limit, multipv=request.multipv, game=request.game, options=wanted)
        try:
            analysis = await asyncio.wait_for(search, READY_TIMEOUT)
        except asyncio.TimeoutError:
            self.kill()
            raise EngineFailure(f"{self.name} did not answer 'isready' within {READY_TIMEOUT:g} s") from None
        budget = time_budget(limit, request.board.turn)
        limit_deadline = None if budget is None else time.monotonic() + budget
        stop_deadline: float | None = None
        stop_wait = asyncio.ensure_future(stop.wait())
        failed = protocol.failure
        try:
            while True:
                if stop.is_set() and stop_deadline is None:
                    analysis.stop()
                    stop_deadline = time.monotonic() + STOP_TIMEOUT
                deadline = stop_deadline if stop_deadline is not None else limit_deadline
                timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
                get = asyncio.ensure_future(analysis.get())
                waiting: set[asyncio.Future[Any]] = {get, failed}
                if stop_deadline is None:
                    waiting.add(stop_wait)
                done, _ = await asyncio.wait(waiting, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
                if failed.done():
                    get.cancel()
                    self.kill()
                    raise EngineFailure(f"{self.name} {failed.result()}")
                if get in done:
                    try:
                        on_info(get.result())
                    except chess.engine.AnalysisComplete:
                        return await analysis.wait()
                    continue
                get.cancel()
                if stop_wait in done:
                    continue  # stop requested: send it at the top of the loop
                if stop_deadline is None:
                    stop.set()  # past its budget: tell it to answer
                    continue
                self.kill()
                raise EngineFailure(f"{self.name} did not answer within {STOP_TIMEOUT:g} s of 'stop': it was ended")
        finally:
            stop_wait.cancel()
            _settle(analysis)


def _settle(analysis: chess.engine.AnalysisResult) -> None:
    """Take the outcome of a search given up (its engine killed: python-chess ends it with an
    error later), so asyncio does not log it as never retrieved."""
    waiter = asyncio.ensure_future(analysis.wait())
    waiter.add_done_callback(lambda done: done.cancelled() or done.exception())
