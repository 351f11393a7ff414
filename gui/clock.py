"""Chess clocks for Play: a time control (base + increment) and the two clocks of a game.

Pure and immutable: every change returns a new ``Clock``, so a failed request that had
changed it is undone by putting the old object back. Times are seconds (floats); ``now``
is a ``time.monotonic()`` reading passed in by the caller (tests pass their own).

The rules the web board plays by:

* the first move of the game is free: the clocks start when it has been played, with the
  clock of the side to move (time to look at the position, and the engine's first move
  when it has White is not charged);
* after each later move the mover's clock stops, is charged the time since it started and
  gets the increment; the opponent's clock starts;
* a clock that reaches zero is a flag: the side loses on time, unless its opponent has only
  its king (it could never mate: a draw);
* the server is the authority: the page only shows what it is told, ticking in between.

>>> control = TimeControl(60, 2)
>>> clock = Clock.fresh(control).press(chess.WHITE, now=0.0)  # White's first move: free
>>> clock.running, clock.left(chess.BLACK, now=10.0)
(True, 50.0)
>>> clock = clock.press(chess.BLACK, now=10.0)  # Black moved after 10 s: +2 s increment
>>> clock.left(chess.BLACK, now=99.0), clock.running, clock.deadline()
(52.0, True, 70.0)
>>> clock.flagged(now=70.5)
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import chess

MIN_BASE = 1.0  # seconds: the shortest base time offered (tests use a few seconds)
MAX_BASE = 3 * 3600.0  # seconds: three hours
MAX_INCREMENT = 180.0  # seconds per move
CLOCK_CHOICES = ((60, 0), (180, 2), (300, 3), (600, 5), (900, 10))  # (base, increment) offered on the page


class ClockError(ValueError):
    """A time control out of range; the message is for the page."""


@dataclass(frozen=True)
class TimeControl:
    """Base time and increment per move, in seconds, the same for both sides."""

    base: float
    increment: float

    @classmethod
    def checked(cls, base: float, increment: float) -> TimeControl:
        """A control within the offered ranges, else ``ClockError``.

        >>> TimeControl.checked(0.5, 0)
        Traceback (most recent call last):
        ...
        gui.clock.ClockError: the base time must be 1 s to 3 h, not 0.5 s
        """
        if not (math.isfinite(base) and MIN_BASE <= base <= MAX_BASE):
            raise ClockError(f"the base time must be 1 s to 3 h, not {base:g} s")
        if not (math.isfinite(increment) and 0 <= increment <= MAX_INCREMENT):
            raise ClockError(f"the increment must be 0 to {MAX_INCREMENT:g} s, not {increment:g} s")
        return cls(float(base), float(increment))

    def tag(self) -> str:
        """The PGN ``TimeControl`` tag: ``"300+3"``, or ``"300"`` for sudden death (PGN standard 9.6.1).

        >>> TimeControl(300, 3).tag(), TimeControl(5, 0).tag()
        ('300+3', '5')
        """
        base = f"{self.base:g}"
        return f"{base}+{self.increment:g}" if self.increment else base

    def label(self) -> str:
        """As players say it, minutes + seconds: ``"5+3"``; a base of seconds says so.

        >>> TimeControl(300, 3).label(), TimeControl(90, 0).label(), TimeControl(5, 0).label()
        ('5+3', '1.5+0', '5 s+0')
        """
        if self.base % 30 == 0:
            return f"{self.base / 60:g}+{self.increment:g}"
        return f"{self.base:g} s+{self.increment:g}"

    @classmethod
    def from_tag(cls, text: str) -> TimeControl | None:
        """A PGN ``TimeControl`` tag of the form ``base`` or ``base+increment`` (else ``None``).

        >>> TimeControl.from_tag("180+2"), TimeControl.from_tag("40/7200:3600")
        (TimeControl(base=180.0, increment=2.0), None)
        """
        base, _, increment = text.strip().partition("+")
        try:
            return cls.checked(float(base), float(increment or 0))
        except (ValueError, OverflowError):
            return None


@dataclass(frozen=True)
class Clock:
    """The two clocks of one game: seconds left for each side as of ``since`` (the running
    side's, which goes on falling) and whose clock runs (``None``: stopped, as before the
    first move and after the end)."""

    control: TimeControl
    white: float
    black: float
    turn: chess.Color = chess.WHITE  # whose clock runs when ``running``
    running: bool = False
    since: float = 0.0  # when the running clock started (monotonic seconds)

    @classmethod
    def fresh(cls, control: TimeControl) -> Clock:
        return cls(control, control.base, control.base)

    @classmethod
    def at(cls, control: TimeControl, white: float, black: float, turn: chess.Color, now: float, running: bool) -> Clock:
        """Clocks set to given times, ``turn`` 's running from ``now`` when ``running`` (a take back)."""
        return cls(control, white, black, turn, running, now)

    def _stored(self, color: chess.Color) -> float:
        return self.white if color == chess.WHITE else self.black

    def left(self, color: chess.Color, now: float) -> float:
        """Seconds left on ``color`` 's clock at ``now`` (negative past the flag)."""
        stored = self._stored(color)
        if self.running and color == self.turn:
            return stored - (now - self.since)
        return stored

    def _with(self, color: chess.Color, seconds: float) -> Clock:
        return replace(self, white=seconds) if color == chess.WHITE else replace(self, black=seconds)

    def press(self, mover: chess.Color, now: float) -> Clock:
        """``mover`` has played: its clock is charged and gets the increment (not for the
        game's free first move), and the opponent's clock starts at ``now``."""
        clock = self
        if self.running and self.turn == mover:
            clock = self._with(mover, self.left(mover, now) + self.control.increment)
        return replace(clock, turn=not mover, running=True, since=now)

    def stop(self, now: float) -> Clock:
        """Both clocks stopped (the game is over or paused), the running side charged."""
        if not self.running:
            return self
        return replace(self._with(self.turn, max(0.0, self.left(self.turn, now))), running=False, since=now)

    def flagged(self, now: float) -> bool:
        """The running side's time is up."""
        return self.running and self.left(self.turn, now) <= 0

    def deadline(self) -> float | None:
        """When the running side's flag falls (monotonic seconds), or ``None``."""
        if not self.running:
            return None
        return self.since + self._stored(self.turn)


def clock_text(seconds: float) -> str:
    """``h:mm:ss`` as PGN's ``[%clk]`` writes it (whole seconds, rounded down).

    >>> clock_text(3723.9), clock_text(4.2)
    ('1:02:03', '0:00:04')
    """
    whole = max(0, int(seconds))
    return f"{whole // 3600}:{whole % 3600 // 60:02d}:{whole % 60:02d}"


def flag_verdict(flagged: chess.Color, opponent_bare: bool) -> tuple[str, str]:
    """The result and reason when ``flagged`` 's time is up: a loss, or a draw when the
    opponent has only its king (it cannot mate by any series of moves).

    >>> flag_verdict(chess.WHITE, False), flag_verdict(chess.BLACK, True)
    (('0-1', 'White lost on time'), ('1/2-1/2', 'Black ran out of time but White has only its king'))
    """
    name, other = ("White", "Black") if flagged == chess.WHITE else ("Black", "White")
    if opponent_bare:
        return "1/2-1/2", f"{name} ran out of time but {other} has only its king"
    return ("0-1" if flagged == chess.WHITE else "1-0"), f"{name} lost on time"
