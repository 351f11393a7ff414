"""One UCI engine process: start, handshake, options, ``go`` with a deadline, stop, kill.

The project's one UCI client: the match runner, and every tool that drives an engine
process (``scripts/compare_depth.py``, ``scripts/bench_latency.py``,
``scripts/make_openings.py``, ``scripts/tune``'s reference labeller) use this class.

A reader thread timestamps every line the engine prints and queues it, so the runner can
wait for ``bestmove`` with a deadline and measure thinking time from the moment ``go``
was written to the moment ``bestmove`` was read. A process that exits (or closes its
output) is *disconnected*; one that does not answer in time is *stalled*; one that sends
a line it should not (``bestmovefoo``, a line of more than ``MAX_LINE_CHARS`` characters)
sends *malformed output*.

An engine cannot flood the runner: the queue holds at most ``LINE_QUEUE`` lines (a faster
engine waits, its pipe full), a line is read at most ``MAX_LINE_CHARS`` characters at a
time (the rest of a longer one is dropped), and a line read after the deadline is a stall
even if more keep coming: a deadline holds however much the engine prints.

Every engine runs in a process group of its own (``start_new_session``): a kill ends the
whole group (``os.killpg``), so an engine started through a wrapper script cannot leave a
child behind that keeps the pipes open, and every wait on the process has a timeout. A
process is never reused once its output has ended, even if the operating system has not
reaped it yet (``alive()`` is false from the moment the reader sees the end of its output).
"""

from __future__ import annotations

import io
import os
import queue
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import IO, Any, cast

VARIANT = "alice"
REAP_TIMEOUT = 5.0  # seconds to wait for a killed process group's leader to be reaped
READER_JOIN = 1.0  # seconds to wait for the reader thread after the process ended
LAST_OUTPUT = 3  # lines of an engine's output quoted when it fails its handshake
QUOTE_LIMIT = 80  # characters of one quoted line
LINE_QUEUE = 1000  # lines read ahead of the runner; a faster engine waits for it (bounded memory)
MAX_LINE_CHARS = 16384  # characters of one line: a longer one is malformed output (a PV of 3000 moves fits)
MAX_OPTIONS = 1000  # options kept from a handshake; an engine offering more floods it
PUT_POLL = 0.1  # seconds between looks at the end of the process while the queue is full
UCI_WORDS = ("id", "option", "uciok", "readyok", "info", "bestmove", "copyprotection", "registration")


class EngineError(RuntimeError):
    """The engine could not be started or broke the protocol badly."""


class Disconnected(EngineError):
    """The engine process exited or closed its output."""


class Stalled(EngineError):
    """The engine did not answer within the allowed time."""


class MalformedOutputError(EngineError):
    """The engine sent a line that breaks the protocol; ``line`` quotes it (cut, one line),
    followed by ``why`` in brackets when given."""

    def __init__(self, name: str, line: str, why: str = "") -> None:
        self.line = quote(line) + (f" ({why})" if why else "")
        super().__init__(f"engine {name} sent malformed output: {self.line}")


class CutLine(str):
    """The first ``MAX_LINE_CHARS`` characters of a longer line (the rest was dropped)."""


def quote(line: str) -> str:
    """``line`` cut to ``QUOTE_LIMIT`` characters and quoted on one line, without ", " (a PGN
    reason ends at the last one).

    >>> quote("bestmovefoo"), quote("a, b" + "x" * 100)[-6:]
    ("'bestmovefoo'", "xx'...")
    """
    text = repr(line[:QUOTE_LIMIT]).replace(", ", ",")
    return text + ("..." if len(line) > QUOTE_LIMIT else "")


def setup_problem(line: str, after_uciok: bool) -> bool:
    """A line of the handshake the user should see: an ``info string`` that reports an error
    (a misspelled or out-of-range option), or, once ``uciok`` is in, any line that is not
    UCI (``No such option: X``, as Stockfish answers a wrong ``setoption``).

    >>> setup_problem("info string error: unknown option 'Skil Level'", False)
    True
    >>> setup_problem("info string variant alice files 8 ranks 8", True), setup_problem("Stockfish 16 by ...", False)
    (False, False)
    >>> setup_problem("No such option: Skil Level", True)
    True
    """
    words = line.split()
    if words[:2] == ["info", "string"]:
        return any(word in line.lower() for word in ("error", "warning", "invalid", "unknown"))
    return after_uciok and bool(words) and words[0] not in UCI_WORDS


@dataclass
class EngineConfig:
    """How to run one engine (``-engine`` / ``-each`` settings)."""

    cmd: str
    name: str | None = None
    args: list[str] = field(default_factory=list)
    dir: str | None = None
    options: dict[str, str] = field(default_factory=dict)
    restart: bool = False  # a fresh process for every game
    ponder: bool = False  # think on the opponent's time (if the engine offers Ponder)

    @classmethod
    def from_argv(cls, argv: Sequence[str], name: str | None = None, dir: str | None = None) -> EngineConfig:
        """A config that runs ``argv`` as it is: a program and its arguments, no shell splitting
        (the tools' ``--engine`` commands, already split).

        >>> EngineConfig.from_argv(["/no such/engine", "-m", "uci"]).argv()
        ['/no such/engine', '-m', 'uci']
        """
        return cls(cmd=shlex.quote(argv[0]), name=name, args=list(argv[1:]), dir=dir)

    def argv(self) -> list[str]:
        """The command line: ``cmd`` (split like a shell when it has spaces and is no file) plus ``arg=`` values."""
        cmd = self.cmd
        if os.path.exists(cmd) or (self.dir and os.path.exists(os.path.join(self.dir, cmd))):
            base = [cmd]
        else:
            base = shlex.split(cmd)
        return base + list(self.args)


def unrunnable(config: EngineConfig) -> str | None:
    """Why ``config``'s command cannot be run (not found, not executable), or ``None``."""
    program = config.argv()[0]
    if os.sep in program or (os.altsep and os.altsep in program):
        path = os.path.join(config.dir, program) if config.dir and not os.path.isabs(program) else program
        if not os.path.isfile(path):
            return f"no such file {program!r}"
        if not os.access(path, os.X_OK):
            return f"{program!r} is not executable"
        return None
    if shutil.which(program) is None:
        return f"command not found: {program!r}"
    return None


@dataclass
class Info:
    """The last search report before ``bestmove``: score (``("cp", n)`` or ``("mate", moves)``),
    depth and nodes."""

    score: tuple[str, int] | None = None
    depth: int | None = None
    nodes: int | None = None

    @property
    def cp(self) -> int | None:
        return self.score[1] if self.score is not None and self.score[0] == "cp" else None

    @property
    def mate(self) -> int | None:
        return self.score[1] if self.score is not None and self.score[0] == "mate" else None

    def score_cp(self) -> int | None:
        """Score in centipawns, mates as +-(30000 - plies) like cutechess adjudication expects."""
        if self.mate is not None:
            return 30000 - abs(self.mate) if self.mate > 0 else -(30000 - abs(self.mate))
        return self.cp

    def pgn_text(self) -> str:
        """``+0.35/12`` or ``+M3/12`` / ``-M2/9`` (cutechess comment style)."""
        if self.mate is not None:
            score = ("+M" if self.mate > 0 else "-M") + str(abs(self.mate))
        elif self.cp is not None:
            score = f"{self.cp / 100:+.2f}"
        else:
            return ""
        return score + (f"/{self.depth}" if self.depth is not None else "")


def parse_info(line: str, info: Info) -> None:
    """Update ``info`` from one ``info ...`` line (score, depth, nodes); ignores the rest."""
    tokens = line.split()
    i = 1
    while i < len(tokens):
        tok = tokens[i]
        if tok == "string":
            return
        if tok in ("depth", "nodes") and i + 1 < len(tokens):
            try:
                setattr(info, tok, int(tokens[i + 1]))
            except ValueError:
                pass
            i += 2
        elif tok == "score" and i + 2 < len(tokens):
            try:
                value = int(tokens[i + 2])
            except ValueError:
                value = None
            if value is not None and tokens[i + 1] in ("cp", "mate"):
                info.score = (tokens[i + 1], value)
            i += 3
        elif tok == "pv":
            return
        else:
            i += 1


@dataclass
class SearchResult:
    """What came back from one ``go``."""

    move: str  # the bestmove token, as sent
    elapsed_ms: int
    info: Info
    ponder: str | None = None  # the move it expects in reply (``bestmove X ponder Y``)


class UciProcess:
    """A running UCI engine. All waits take a timeout in seconds and raise ``Stalled``."""

    def __init__(
        self,
        config: EngineConfig,
        log: Callable[[str], None] | None = None,
        show_stderr: bool = False,
        *,
        stderr_file: IO[Any] | None = None,
        max_queued: int = LINE_QUEUE,
        preexec_fn: Callable[[], None] | None = None,
    ) -> None:
        """``log`` receives every line sent and read (and warnings); ``show_stderr`` lets the
        engine's stderr through to ours (else it is discarded, or written to ``stderr_file``).
        ``max_queued`` lines are read ahead (0: no bound, for a caller that reads late, as the
        black-box tests do); ``preexec_fn`` runs in the child before the engine (the tests:
        Ctrl-C as in a terminal; not from a threaded runner)."""
        self.config = config
        self.log = log
        self.id_name: str | None = None
        self.options: dict[str, str] = {}  # name -> type line
        self._max_queued = max_queued
        self._lines: queue.Queue[tuple[float, str | None]] = queue.Queue(max_queued)
        self._proc: subprocess.Popen[str] | None = None
        self._show_stderr = show_stderr
        self._stderr_file = stderr_file
        self._preexec_fn = preexec_fn
        self._reader: threading.Thread | None = None
        self._write_lock = threading.Lock()
        self._ended = threading.Event()  # the reader saw the end of the engine's output
        self._closing = threading.Event()  # the process is being closed: its reader may stop
        self._broken = False  # a write failed: the engine closed its input
        self._recent: list[str] = []  # its last lines (quoted in a failed handshake's error)
        self._uciok = False  # the handshake got as far as uciok
        self.pondering = False  # a ``go ponder`` is running

    @property
    def can_ponder(self) -> bool:
        """Asked to ponder (``ponder``) and offering the ``Ponder`` option."""
        return self.config.ponder and "Ponder" in self.options

    # -------------------------------------------------------------- process
    @property
    def name(self) -> str:
        return self.config.name or self.id_name or os.path.basename(self.config.argv()[0])

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc else None

    @property
    def process(self) -> subprocess.Popen[str] | None:
        """The running process (for a test that closes its input or signals it)."""
        return self._proc

    def start(self, timeout: float = 10.0) -> None:
        """Launch, ``uci`` handshake, ``UCI_Variant alice`` if offered, the configured options, ``isready``."""
        self.launch()
        try:
            self._handshake(timeout)
        except EngineError as error:
            raise type(error)(self._handshake_failure(error)) from None

    def launch(self) -> None:
        """Start the process and its reader, and say nothing to it (``start`` goes on with the
        handshake; the black-box tests speak to the engine line by line themselves)."""
        argv = self.config.argv()
        stderr: IO[Any] | int | None = None if self._show_stderr else subprocess.DEVNULL
        try:
            self._proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr_file if self._stderr_file is not None else stderr,
                cwd=self.config.dir or None,
                encoding="utf-8",
                errors="replace",  # bytes that are not UTF-8 do not end the connection
                bufsize=1,
                # Its own session: a Ctrl-C in the terminal reaches the runner only, which then
                # stops the engines itself (an engine dying of the Ctrl-C would look like a crash).
                start_new_session=True,
                preexec_fn=self._preexec_fn,
            )
        except OSError as error:
            raise EngineError(f"cannot start engine {argv!r}: {error}") from None
        self._lines = queue.Queue(self._max_queued)
        self._ended = threading.Event()
        self._closing = threading.Event()
        self._broken = False
        self._recent = []
        self._uciok = False
        self._reader = threading.Thread(
            target=self._read, args=(self._proc, self._lines, self._ended, self._closing), daemon=True
        )
        self._reader.start()

    def _handshake(self, timeout: float) -> None:
        self.send("uci")
        deadline = time.monotonic() + timeout
        while True:
            line = self._next_line(deadline, "uciok")
            self._recent = [*self._recent[-(LAST_OUTPUT - 1) :], line]
            if line.startswith("id name "):
                self.id_name = line[len("id name ") :].strip()
            elif line.startswith("option name "):
                rest = line[len("option name ") :]
                name = rest.split(" type ")[0].strip()
                if len(self.options) < MAX_OPTIONS:
                    self.options[name] = rest
            elif line.strip() == "uciok":
                self._uciok = True
                break
            elif setup_problem(line, after_uciok=False):
                self._warn_setup(line)
        if "UCI_Variant" in self.options:
            self.setoption("UCI_Variant", VARIANT)
        elif self.log:
            self.log(f"warning: engine {self.name} offers no UCI_Variant option; assuming it plays Alice chess")
        if self.config.ponder:
            if "Ponder" in self.options:
                self.setoption("Ponder", "true")
            elif self.log:
                self.log(f"warning: engine {self.name} offers no Ponder option; it will not ponder")
        for key, value in self.config.options.items():
            self.setoption(key, value)
        self.send("isready")
        deadline = time.monotonic() + timeout
        while (line := self._next_line(deadline, "readyok")).strip() != "readyok":
            if setup_problem(line, after_uciok=True):
                self._warn_setup(line)

    def _warn_setup(self, line: str) -> None:
        """Show what the engine said about its setup (an option it refused) on the terminal."""
        if self.log:
            self.log(f"warning: engine {self.name} says: {line[:2 * QUOTE_LIMIT]}")

    def _handshake_failure(self, error: EngineError) -> str:
        """The error of a failed start, with the exit code and the last lines it printed."""
        text = str(error)
        proc = self._proc
        if isinstance(error, Disconnected) and proc is not None:
            try:
                code = proc.wait(READER_JOIN)
            except subprocess.TimeoutExpired:
                code = None
            if code is not None:
                text = f"engine {self.name} exited (exit code {code}) before {'readyok' if self._uciok else 'uciok'}"
        if self._recent:
            quoted = ", ".join(repr(line[:QUOTE_LIMIT]) for line in self._recent)
            text += f"; its last output: {quoted}"
        else:
            text += "; it printed nothing"
        return text

    @staticmethod
    def _read(
        proc: subprocess.Popen[str],
        lines: queue.Queue[tuple[float, str | None]],
        ended: threading.Event,
        closing: threading.Event,
    ) -> None:
        """Queue the engine's lines, stamped, until its output ends (or ``closing`` is set while
        the queue is full: nobody will read it any more); then the sentinel ``None``."""
        stream = proc.stdout
        assert stream is not None
        try:
            while line := stream.readline(MAX_LINE_CHARS + 1):
                cut = len(line) > MAX_LINE_CHARS and not line.endswith("\n")
                text = CutLine(line[:MAX_LINE_CHARS]) if cut else line.rstrip("\r\n")
                if not _put(lines, (time.monotonic(), text), closing):
                    break
                while cut and line and not line.endswith("\n"):  # the rest of a long line is dropped
                    line = stream.readline(MAX_LINE_CHARS)
        except (OSError, ValueError, UnicodeDecodeError):
            pass
        finally:
            ended.set()  # before the sentinel: whoever reads the sentinel sees alive() false
            _put(lines, (time.monotonic(), None), closing)
            try:
                stream.close()  # here, not in another thread: closing a stream a thread reads blocks
            except (OSError, ValueError):
                pass

    def alive(self) -> bool:
        """Running and usable: not exited, output not ended, input not closed."""
        return (
            self._proc is not None and not self._ended.is_set() and not self._broken and self._proc.poll() is None
        )

    def send(self, line: str) -> float:
        """Write one line; the moment it was flushed (``time.monotonic``, as the read lines' stamps)."""
        if self.log:
            self.log(f"{self.name} <  {line}")
        proc = self._proc
        if proc is None or proc.stdin is None:
            raise Disconnected(f"engine {self.name} is not running")
        try:
            with self._write_lock:
                proc.stdin.write(line + "\n")
                proc.stdin.flush()
                return time.monotonic()
        except (OSError, ValueError):
            self._broken = True
            raise Disconnected(f"engine {self.name} closed its input") from None

    def send_bytes(self, data: bytes) -> float:
        """Write ``data`` as it is (no newline added: malformed input for the black-box tests);
        the moment it was flushed."""
        proc = self._proc
        if proc is None or proc.stdin is None:
            raise Disconnected(f"engine {self.name} is not running")
        try:
            with self._write_lock:
                proc.stdin.flush()  # the text written before goes first
                raw = cast(io.TextIOWrapper, proc.stdin).buffer
                raw.write(data)
                raw.flush()
                return time.monotonic()
        except (OSError, ValueError):
            self._broken = True
            raise Disconnected(f"engine {self.name} closed its input") from None

    def read_line(self, timeout: float) -> tuple[float, str]:
        """The next line and when it was read, waiting at most ``timeout`` seconds (``Stalled``;
        ``Disconnected`` once its output has ended). Unlike the waits of the protocol, a line
        that arrives late is still returned, never dropped: for callers that read every line."""
        try:
            stamp, line = self._lines.get(timeout=max(0.0, timeout))
        except queue.Empty:
            raise Stalled(f"engine {self.name} printed nothing within {timeout:g} s") from None
        if line is None:
            self._lines.put((stamp, None))
            raise Disconnected(f"engine {self.name} closed its output")
        if isinstance(line, CutLine):
            raise MalformedOutputError(self.name, line, f"a line of more than {MAX_LINE_CHARS} characters")
        return stamp, line

    def _next_line(self, deadline: float | None, waiting_for: str) -> str:
        stamped = self._next_stamped(deadline, waiting_for)
        return stamped[1]

    def _next_stamped(self, deadline: float | None, waiting_for: str) -> tuple[float, str]:
        """The next line and when it was read; ``Stalled`` if none was read by ``deadline``
        (a line read later counts as none: an engine printing without end is timed out too)."""
        timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
        try:
            stamp, line = self._lines.get(timeout=timeout)
        except queue.Empty:
            raise Stalled(f"engine {self.name} did not send {waiting_for} in time") from None
        if line is None:
            self._lines.put((stamp, None))  # stay disconnected for later waits (the reader has ended: room)
            raise Disconnected(f"engine {self.name} disconnected while waiting for {waiting_for}")
        if self.log:
            self.log(f"{self.name} >  {line}")
        if isinstance(line, CutLine):
            raise MalformedOutputError(self.name, line, f"a line of more than {MAX_LINE_CHARS} characters")
        if deadline is not None and stamp > deadline:
            raise Stalled(f"engine {self.name} did not send {waiting_for} in time")
        return stamp, line

    def wait_for(self, prefix: str, timeout: float) -> tuple[float, list[str]]:
        """Read until a line that starts with ``prefix``: when it was read (``time.monotonic``)
        and the lines up to and including it. For tools that time or read lines themselves
        (``bench_latency``); ``Stalled`` after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        seen: list[str] = []
        while True:
            stamp, line = self._next_stamped(deadline, prefix)
            seen.append(line)
            if line.startswith(prefix):
                return stamp, seen

    # ------------------------------------------------------------- commands
    def set_if_offered(self, name: str, value: str) -> bool:
        """``setoption`` for ``name`` (in any case, sent with the engine's spelling) if the
        engine offers it; whether it did (``Hash`` and ``Threads`` where an engine has them)."""
        for offered in self.options:
            if offered.lower() == name.lower():
                self.setoption(offered, value)
                return True
        return False

    def setoption(self, name: str, value: str) -> None:
        if name not in self.options and self.log:
            self.log(f"warning: engine {self.name} has no option {name!r}; sending it anyway")
        if value == "" and "type button" in self.options.get(name, ""):
            self.send(f"setoption name {name}")
        else:
            self.send(f"setoption name {name} value {value}")

    def isready(self, timeout: float) -> None:
        self.send("isready")
        deadline = time.monotonic() + timeout
        while self._next_line(deadline, "readyok").strip() != "readyok":
            pass

    def new_game(self, timeout: float) -> None:
        self.send("ucinewgame")
        self.isready(timeout)

    def position(self, start_fen: str | None, moves: list[str]) -> None:
        text = "position startpos" if start_fen is None else f"position fen {start_fen}"
        if moves:
            text += " moves " + " ".join(moves)
        self.send(text)

    def go(
        self, go_args: str, timeout: float | None, on_info: Callable[[str], None] | None = None
    ) -> SearchResult:
        """Send ``go <args>`` and wait for ``bestmove`` until ``timeout`` seconds pass;
        ``on_info`` sees each ``info`` line as it is read (a tool that wants more than ``Info``)."""
        # Stale lines (a late bestmove of an earlier search) must not answer this go.
        self._drain()
        started = time.monotonic()
        self.send(f"go {go_args}".strip())
        return self._bestmove(started, timeout, on_info)

    def go_ponder(self, go_args: str) -> None:
        """Send ``go ponder <args>`` and return at once; ``ponderhit`` or ``stop_search`` ends it."""
        self._drain()
        self.send(f"go ponder {go_args}".strip())
        self.pondering = True

    def ponderhit(self, timeout: float | None) -> SearchResult:
        """Send ``ponderhit`` and wait for ``bestmove``; the time runs from the ``ponderhit``.
        The ``info`` lines of the ponder search count (they are about the same position)."""
        self.pondering = False
        started = time.monotonic()
        self.send("ponderhit")
        return self._bestmove(started, timeout)

    def _bestmove(
        self, started: float, timeout: float | None, on_info: Callable[[str], None] | None = None
    ) -> SearchResult:
        deadline = None if timeout is None else started + timeout
        info = Info()
        while True:
            stamp, line = self._next_stamped(deadline, "bestmove")
            if line.startswith("info "):
                parse_info(line, info)
                if on_info is not None:
                    on_info(line)
            elif line.startswith("bestmove"):
                tokens = line.split()
                if tokens[0] != "bestmove":
                    raise MalformedOutputError(self.name, line)  # bestmovefoo: no move, and no bestmove
                move = tokens[1] if len(tokens) > 1 else ""
                ponder = tokens[3] if len(tokens) > 3 and tokens[2] == "ponder" else None
                return SearchResult(move, max(0, round((stamp - started) * 1000)), info, ponder)

    def _drain(self) -> None:
        """Discard the lines read so far (not those still coming: an engine that prints
        without end cannot keep this loop going)."""
        for _ in range(self._lines.qsize()):
            try:
                stamp, line = self._lines.get_nowait()
            except queue.Empty:
                return
            if line is None:
                self._lines.put((stamp, None))
                return
            if self.log:
                self.log(f"{self.name} >  {line} (discarded)")

    def stop_search(self, timeout: float) -> bool:
        """``stop`` and wait for the ``bestmove`` (discarded); ``False`` if none came (or the engine is gone)."""
        self.pondering = False
        try:
            self.send("stop")
            deadline = time.monotonic() + timeout
            while not self._next_line(deadline, "bestmove").startswith("bestmove"):
                pass
            return True
        except EngineError:
            return False

    def quit(self, timeout: float = 2.0) -> None:
        """``quit``; kill the process group if the engine has not exited after ``timeout`` seconds."""
        proc = self._proc
        if proc is None:
            return
        if proc.poll() is None and not self._broken:
            try:
                self.send("quit")
            except EngineError:
                pass
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                pass
        self.kill()

    def kill(self) -> None:
        """End the engine's whole process group at once and reap it (it hangs, misbehaves or
        has exited: children a wrapper script left behind go too)."""
        proc = self._proc
        if proc is None:
            return
        if proc.poll() is None and self.log:
            self.log(f"killing engine {self.name} (pid {proc.pid})")
        kill_group(proc)
        try:
            proc.wait(REAP_TIMEOUT)
        except subprocess.TimeoutExpired:
            print(f"warning: engine {self.name} (pid {proc.pid}) survived kill", file=sys.stderr)
        self._close()

    def _close(self) -> None:
        """Close our end of the input; the reader thread closes the output when it ends
        (the group is dead, so it ends at once unless a process left the group)."""
        proc = self._proc
        if proc is None:
            return
        try:
            if proc.stdin is not None:
                proc.stdin.close()
        except (OSError, ValueError):
            pass
        self._closing.set()  # a reader waiting for room in a full queue stops
        if self._reader is not None:
            self._reader.join(READER_JOIN)
        self._ended.set()
        self._proc = None


def _put(lines: queue.Queue[tuple[float, str | None]], item: tuple[float, str | None], closing: threading.Event) -> bool:
    """Queue ``item``, waiting while the queue is full; ``False`` if the process is closed
    meanwhile (``closing`` set: nobody will read it)."""
    while True:
        try:
            lines.put(item, timeout=PUT_POLL)
            return True
        except queue.Full:
            if closing.is_set():
                return False


def kill_group(proc: subprocess.Popen[str]) -> None:
    """SIGKILL to the process group ``proc`` leads (its own session), or to ``proc`` alone
    where there are no process groups."""
    killpg = getattr(os, "killpg", None)
    if killpg is not None:
        try:
            killpg(proc.pid, signal.SIGKILL)
            return
        except (ProcessLookupError, PermissionError):
            pass  # the group is gone (leader and children exited)
    if proc.poll() is None:
        proc.kill()
