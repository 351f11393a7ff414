"""An engine started as a process and spoken to over stdin/stdout, as a GUI does: the
UCI and CECP (XBoard) black-box tests build on it; ``Uci`` speaks UCI. Every read has a timeout, so a hung
engine fails a test instead of hanging the run.
"""

from __future__ import annotations

import queue
import re
import subprocess
import threading
import time

from support.installed import CHILD_CWD, default_sigint, engine_command


class EngineProcess:
    """A running engine: ``send`` lines, ``expect`` a line matching a regex within a timeout.

    ``command`` defaults to this project's engine (the installed build if any), followed by
    ``args`` (``("xboard",)`` for CECP).
    """

    def __init__(self, command: list[str] | None = None, args: tuple[str, ...] = ()) -> None:
        self.proc = subprocess.Popen(
            [*(command or engine_command()), *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=CHILD_CWD,
            bufsize=0,
            preexec_fn=default_sigint,
        )
        self.lines: queue.Queue[tuple[float, str | None]] = queue.Queue()
        self.log: list[str] = []  # every stdout line read so far, in order
        self._stderr = b""
        threading.Thread(target=self._read_stdout, daemon=True).start()
        self._err_thread = threading.Thread(target=self._read_stderr, daemon=True)
        self._err_thread.start()

    def _read_stdout(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            self.lines.put((time.perf_counter(), raw.decode("utf-8", "replace").rstrip("\r\n")))
        self.lines.put((time.perf_counter(), None))

    def _read_stderr(self) -> None:
        assert self.proc.stderr is not None
        self._stderr = self.proc.stderr.read()

    @property
    def stderr(self) -> bytes:
        """Everything the engine wrote to stderr (complete once it has exited)."""
        if self.proc.poll() is not None:
            self._err_thread.join(5)
        return self._stderr

    def send(self, *lines: str | bytes) -> float:
        """Write ``lines`` (a ``str`` gets its newline, ``bytes`` go as they are); the time sent."""
        assert self.proc.stdin is not None
        for line in lines:
            self.proc.stdin.write(line if isinstance(line, bytes) else (line + "\n").encode())
        self.proc.stdin.flush()
        return time.perf_counter()

    def expect_at(self, pattern: str, timeout: float = 5.0) -> tuple[str, list[str], float]:
        """Read until a line matches ``pattern``: (line, the lines before it, arrival time)."""
        deadline = time.perf_counter() + timeout
        skipped: list[str] = []
        regex = re.compile(pattern)
        while True:
            try:
                at, line = self.lines.get(timeout=max(0.0, deadline - time.perf_counter()))
            except queue.Empty:
                raise AssertionError(f"no line matching {pattern!r} within {timeout}s; got {skipped}") from None
            if line is None:
                raise AssertionError(f"engine closed stdout while waiting for {pattern!r}; got {skipped}")
            self.log.append(line)
            if regex.search(line):
                return line, skipped, at
            skipped.append(line)

    def nothing_within(self, seconds: float) -> list[str]:
        """The lines that arrive within ``seconds`` (normally none)."""
        got: list[str] = []
        deadline = time.perf_counter() + seconds
        while True:
            try:
                _, line = self.lines.get(timeout=max(0.0, deadline - time.perf_counter()))
            except queue.Empty:
                return got
            if line is None:
                return got
            self.log.append(line)
            got.append(line)

    def close(self, timeout: float = 10.0) -> int:
        """``quit``, close stdin and wait for the exit code (killed, and an AssertionError, if it hangs)."""
        if self.proc.poll() is None:
            try:
                self.send("quit")
                self.proc.stdin.close()  # type: ignore[union-attr]
            except OSError:  # BrokenPipeError included: it has gone already
                pass
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
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
