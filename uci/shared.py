"""What the two text front ends (UCI in ``uci.protocol``, CECP in ``uci.cecp``) share: the
output channel, reading input lines, quoting input back in error messages, and turning a
FEN into a position.

Bad input is quoted back cut to ``ECHO_LIMIT`` characters, and a whole error message to
``MESSAGE_LIMIT``, so a megabyte of garbage gives a short error line:

>>> echo("e2e4")
"'e2e4'"
>>> len(echo("x" * 1_000_000)) <= ECHO_LIMIT + 5
True
>>> clip_message("bad " + "y" * 10_000).endswith("...")
True
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import IO, Final, TextIO

from engine import FenError, Move, MoveError, Position, parse_uci

ECHO_LIMIT: Final = 80  # characters of one piece of input quoted back in an error message
MOVE_TEXT_LIMIT: Final = 16  # a longer word is not a move: refused before the rules see it
MESSAGE_LIMIT: Final = 400  # characters of a whole error message (a safety net for deeper messages)


class CommandError(ValueError):
    """A command that cannot be carried out; each front end shows the message its own way."""


def one_line(text: str) -> str:
    """``text`` with every run of white space (newlines included) made one space."""
    return " ".join(str(text).split())


def echo(text: str) -> str:
    """``text`` quoted for an error message, cut to ``ECHO_LIMIT`` characters."""
    flat = one_line(text)
    if len(flat) > ECHO_LIMIT:
        return repr(flat[:ECHO_LIMIT]) + "..."
    return repr(flat)


def clip(text: str, limit: int = ECHO_LIMIT) -> str:
    """``text`` on one line, cut to ``limit`` characters (``...`` marks the cut), unquoted."""
    flat = one_line(text)
    return flat if len(flat) <= limit else flat[:limit] + "..."


def clip_message(message: str) -> str:
    """A whole error message on one line, cut to ``MESSAGE_LIMIT`` characters."""
    return clip(message, MESSAGE_LIMIT)


def engine_version() -> str:
    """The version and the build, e.g. ``0.2.0 (compiled: mypyc)``."""
    from engine.build import version_line

    return version_line()


def position_from_fen(fen: str, command: str) -> Position:
    """The position of ``fen`` (compact or 16-wide); a bad one raises ``CommandError``
    naming ``command``, with the FEN quoted (cut) and the reason."""
    try:
        return Position(fen)
    except FenError as exc:  # the reason may quote a field of the FEN: cut it too
        raise CommandError(f"{command}: bad FEN {echo(fen)}: {clip(str(exc))}") from None


def check_move(pos: Position, text: str, command: str) -> Move:
    """The legal move of ``pos`` named by UCI ``text`` (``e2e4``, ``e7e8q``, ``e2e4/B``);
    anything else raises ``CommandError`` naming ``command``. The rules decide
    (``engine.parse_uci``); this only keeps an overlong word out of the message."""
    if len(text) > MOVE_TEXT_LIMIT:
        raise CommandError(f"{command}: malformed move {echo(text)}")
    try:
        return parse_uci(pos, text)
    except MoveError as exc:
        raise CommandError(f"{command}: {exc}") from None


class Output:
    """Line-oriented, flushed writes to stdout under ``lock`` (shared with the search's
    callbacks). A closed pipe makes it silent."""

    def __init__(self, stream: TextIO, lock: AbstractContextManager[object] | None = None) -> None:
        self.stream = stream
        self.lock: AbstractContextManager[object] = lock if lock is not None else _NoLock()
        self.closed = False

    def send(self, line: str) -> None:
        self.send_lines([line])

    def send_lines(self, lines: Sequence[str]) -> None:
        with self.lock:
            if self.closed:
                return
            try:
                self.stream.write("".join(line + "\n" for line in lines))
                self.stream.flush()
            except (BrokenPipeError, ValueError, OSError):
                self._silence()

    def close(self) -> None:
        with self.lock:
            if not self.closed:
                try:
                    self.stream.flush()
                except (BrokenPipeError, ValueError, OSError):
                    self._silence()
                self.closed = True

    def _silence(self) -> None:
        """The reader has gone: write nothing more, and keep Python's exit-time flush quiet."""
        self.closed = True
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self.stream.fileno())
            os.close(devnull)
        except (OSError, ValueError, AttributeError):
            pass


class _NoLock(AbstractContextManager[object]):
    """Stands in for a lock when nothing else writes (a bare ``Output``)."""

    def __exit__(self, *exc: object) -> None:
        return None


def read_line(stream: TextIO | IO[bytes]) -> str | None:
    """The next input line (``None`` at end of input). Bytes are decoded leniently, so stray
    non-UTF-8 bytes are just a bad command; the line end (LF or CR LF) is kept."""
    reader = getattr(stream, "buffer", None)
    raw = reader.readline() if reader is not None else stream.readline()
    if not raw:
        return None
    return raw.decode("utf-8", errors="replace") if isinstance(raw, bytes) else raw


def run_until_quit(step: Callable[[], bool], shutdown: Callable[[], None]) -> int:
    """Call ``step`` until it returns False (quit or end of input), then ``shutdown``; the
    exit status: 0, or 130 after Ctrl-C."""
    try:
        while step():
            pass
    except KeyboardInterrupt:
        shutdown()
        return 130
    shutdown()
    return 0


__all__ = [
    "ECHO_LIMIT",
    "MESSAGE_LIMIT",
    "MOVE_TEXT_LIMIT",
    "CommandError",
    "Output",
    "check_move",
    "clip",
    "clip_message",
    "echo",
    "engine_version",
    "one_line",
    "position_from_fen",
    "read_line",
    "run_until_quit",
]
