"""An engine started as a process and spoken to over stdin/stdout, as a GUI does: the
UCI and CECP (XBoard) black-box tests build on it; ``Uci`` speaks UCI. Every read has a timeout, so a hung
engine fails a test instead of hanging the run.

A thin layer over the project's one engine client, ``alice_match.uci_process.UciProcess``
(its process group, reader thread and timed reads), started without the UCI handshake: these
tests check the engine's protocol handling itself, so they say every line (CECP lines too)
and read every line raw. What they need beyond the client, and why: bytes as they are
(``send(b"...")``: malformed input that is not UTF-8 or ends in ``\\r\\n``), the engine's stderr
(no traceback may appear there), the process itself (close its input, Ctrl-C, the exit code),
and lines matched by a regex with nothing dropped (the client's protocol waits skip what they
do not need).
"""

from __future__ import annotations

import re
import subprocess
import tempfile
import time

from alice_match.uci_process import Disconnected, EngineConfig, EngineError, Stalled, UciProcess
from support.installed import CHILD_CWD, default_sigint, engine_command

UNBOUNDED = 0  # lines read ahead: a test may read late (queue.Queue's "no bound")


class EngineProcess:
    """A running engine: ``send`` lines, ``expect`` a line matching a regex within a timeout.

    ``command`` defaults to this project's engine (the installed build if any), followed by
    ``args`` (``("xboard",)`` for CECP).
    """

    def __init__(self, command: list[str] | None = None, args: tuple[str, ...] = ()) -> None:
        self._stderr_file = tempfile.TemporaryFile()
        config = EngineConfig.from_argv([*(command or engine_command()), *args], dir=CHILD_CWD)
        self.client = UciProcess(
            config, stderr_file=self._stderr_file, max_queued=UNBOUNDED, preexec_fn=default_sigint
        )
        self.client.launch()
        self.log: list[str] = []  # every stdout line read so far, in order

    @property
    def proc(self) -> subprocess.Popen[str]:
        """The engine's process (its input closed, a signal sent, its exit code read)."""
        proc = self.client.process
        assert proc is not None, "the engine was closed"
        return proc

    @property
    def stderr(self) -> bytes:
        """Everything the engine wrote to stderr so far (complete once it has exited)."""
        self._stderr_file.seek(0)
        return self._stderr_file.read()

    def send(self, *lines: str | bytes) -> float:
        """Write ``lines`` (a ``str`` gets its newline, ``bytes`` go as they are); the time sent
        (``time.monotonic``, the clock of the arrival times)."""
        sent = time.monotonic()
        for line in lines:
            sent = self.client.send_bytes(line) if isinstance(line, bytes) else self.client.send(line)
        return sent

    def _next(self, deadline: float) -> tuple[float, str] | None:
        """The next line, or ``None`` at the deadline; ``Disconnected`` at the end of the output."""
        try:
            at, line = self.client.read_line(deadline - time.monotonic())
        except Stalled:
            return None
        self.log.append(line)
        return at, line

    def expect_at(self, pattern: str, timeout: float = 5.0) -> tuple[str, list[str], float]:
        """Read until a line matches ``pattern``: (line, the lines before it, arrival time)."""
        deadline = time.monotonic() + timeout
        skipped: list[str] = []
        regex = re.compile(pattern)
        while True:
            try:
                found = self._next(deadline)
            except Disconnected:
                raise AssertionError(f"engine closed stdout while waiting for {pattern!r}; got {skipped}") from None
            except EngineError as error:  # a line of more than the client's limit
                raise AssertionError(f"{error}; got {skipped}") from None
            if found is None:
                raise AssertionError(f"no line matching {pattern!r} within {timeout}s; got {skipped}")
            at, line = found
            if regex.search(line):
                return line, skipped, at
            skipped.append(line)

    def nothing_within(self, seconds: float) -> list[str]:
        """The lines that arrive within ``seconds`` (normally none)."""
        got: list[str] = []
        deadline = time.monotonic() + seconds
        while True:
            try:
                found = self._next(deadline)
            except Disconnected:
                return got
            if found is None:
                return got
            got.append(found[1])

    def close(self, timeout: float = 10.0) -> int:
        """``quit``, close stdin and wait for the exit code (killed, and an AssertionError, if it hangs)."""
        proc = self.proc
        if proc.poll() is None:
            try:
                self.send("quit")
                proc.stdin.close()  # type: ignore[union-attr]
            except (EngineError, OSError):  # it has gone already
                pass
        try:
            return proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.client.kill()
            raise AssertionError("engine did not exit") from None


BESTMOVE = re.compile(r"^bestmove (\S+)(?: ponder (\S+))?$")


class Uci(EngineProcess):
    """A running engine speaking UCI (``send``, ``expect`` with a timeout; see ``EngineProcess``)."""

    def expect(self, pattern: str, timeout: float = 5.0) -> tuple[str, list[str], float]:
        """Read until a line matches ``pattern``: (line, the lines before it, arrival time)."""
        return self.expect_at(pattern, timeout)

    def ready(self, timeout: float = 5.0) -> list[str]:
        """``isready``; the lines printed before ``readyok``."""
        self.send("isready")
        return self.expect("^readyok$", timeout)[1]

    def fen(self) -> str:
        self.send("d")
        line, _, _ = self.expect("^Fen: ")
        self.expect("^Checkers:")
        return line[len("Fen: ") :]

    def bestmove(self, timeout: float = 10.0) -> tuple[str, str | None, list[str]]:
        line, before, _ = self.expect("^bestmove ", timeout)
        match = BESTMOVE.match(line)
        assert match, line
        return match.group(1), match.group(2), before
