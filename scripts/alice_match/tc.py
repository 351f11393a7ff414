"""Time controls as cutechess-cli writes them, and the clock the runner keeps.

``tc=[moves/]time[+increment]`` with ``time`` in seconds or ``minutes:seconds``
(``40/60+0.6``, ``10+0.1``, ``1:30+1``, ``inf``); ``st=SECONDS`` (fixed time per move),
``nodes=N``, ``depth=N`` and ``timemargin=MS`` complete a player's limits.

>>> parse_tc("40/60+0.6")
TimeControl(moves=40, base_ms=60000, inc_ms=600, infinite=False)
>>> str(parse_tc("1:30+1"))
'90+1'
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

MAX_SECONDS = 10**7  # the longest time a setting may name (16 weeks; Python's waits overflow far beyond)
MAX_COUNT = 2**63 - 1  # the largest node count, depth or move count (UCI engines read 64-bit integers)
MAX_DIGITS = 30  # digits read of a whole number; more is beyond every bound (Python refuses 4300)
_NUMBER = r"[0-9]+(?:\.[0-9]*)?|\.[0-9]+"  # ASCII only: int() and float() also read other scripts' digits
_TC_RE = re.compile(rf"^(?:([0-9]+)/)?(?:([0-9]+):)?({_NUMBER})(?:\+({_NUMBER}))?$")


class TcError(ValueError):
    """A time control or limit that cannot be read."""


@dataclass(frozen=True)
class TimeControl:
    """A clock: ``moves`` per period (0: the whole game), ``base_ms`` per period, ``inc_ms`` per move."""

    moves: int = 0
    base_ms: int = 0
    inc_ms: int = 0
    infinite: bool = False

    def __str__(self) -> str:
        if self.infinite:
            return "inf"
        text = f"{self.moves}/" if self.moves else ""
        text += _seconds(self.base_ms)
        if self.inc_ms:
            text += "+" + _seconds(self.inc_ms)
        return text


def _seconds(ms: int) -> str:
    return str(ms // 1000) if ms % 1000 == 0 else f"{ms / 1000:g}"


def parse_tc(text: str) -> TimeControl:
    """Read ``[moves/]time[+increment]`` or ``inf``; raises ``TcError``."""
    text = text.strip()
    if text in ("inf", "infinite"):
        return TimeControl(infinite=True)
    match = _TC_RE.match(text)
    if not match:
        raise TcError(f"bad time control {_quoted(text)}: expected [moves/]time[+increment], e.g. 40/60+0.6 or 10+0.1")
    moves, minutes, seconds, inc = match.groups()
    base = float(seconds) + 60 * whole_number(minutes or "0")
    increment = float(inc or 0)
    if moves is not None and not 0 < whole_number(moves) <= MAX_COUNT:
        raise TcError(f"bad time control {_quoted(text)}: the number of moves must be positive (at most {MAX_COUNT})")
    if not max(base, increment) <= MAX_SECONDS:  # also catches inf: 400 digits of seconds
        raise TcError(f"bad time control {_quoted(text)}: at most {MAX_SECONDS} seconds")
    tc = TimeControl(moves=whole_number(moves or "0"), base_ms=round(base * 1000), inc_ms=round(increment * 1000))
    if tc.base_ms <= 0 and tc.inc_ms <= 0:
        raise TcError(f"bad time control {_quoted(text)}: no time at all")
    return tc


def whole_number(digits: str) -> int:
    """The value of ASCII ``digits``; one of more than ``MAX_DIGITS`` digits is read as
    ``10**MAX_DIGITS`` (beyond every bound here: ``int`` would refuse 4300 digits, and slowly).

    >>> whole_number("007"), whole_number("9" * 5000) == 10**MAX_DIGITS
    (7, True)
    """
    significant = digits.lstrip("0") or "0"
    return int(significant) if len(significant) <= MAX_DIGITS else 10**MAX_DIGITS


def parse_seconds(text: str, what: str) -> int:
    """Seconds (``st=1.5``) to milliseconds: more than 0, at most ``MAX_SECONDS``.

    >>> parse_seconds("1.5", "st")
    1500
    >>> parse_seconds("nan", "st")
    Traceback (most recent call last):
    ...
    alice_match.tc.TcError: bad st 'nan': expected seconds, more than 0 and at most 10000000
    """
    try:
        value = float(text)
    except ValueError:
        raise TcError(f"bad {what} {_quoted(text)}: expected seconds") from None
    if not (math.isfinite(value) and 0 < value <= MAX_SECONDS) or round(value * 1000) <= 0:
        raise TcError(f"bad {what} {_quoted(text)}: expected seconds, more than 0 and at most {MAX_SECONDS}")
    return round(value * 1000)


def parse_count(text: str, what: str) -> int:
    if not re.fullmatch(r"[0-9]+", text) or not 0 < whole_number(text) <= MAX_COUNT:
        raise TcError(f"bad {what} {_quoted(text)}: expected a positive integer (at most {MAX_COUNT})")
    return int(text)


def parse_margin(text: str) -> int:
    """``timemargin=MS``: milliseconds, 0 to ``MAX_SECONDS`` seconds' worth."""
    if not re.fullmatch(r"[0-9]+", text.strip()) or whole_number(text.strip()) > MAX_SECONDS * 1000:
        raise TcError(f"bad timemargin {_quoted(text)}: expected milliseconds, 0 to {MAX_SECONDS * 1000}")
    return int(text)


def _quoted(text: str) -> str:
    """``text`` quoted for an error line, shortened if long (a 5000-digit value)."""
    return repr(text) if len(text) <= 2 * MAX_DIGITS else repr(text[:MAX_DIGITS]) + f"... ({len(text)} characters)"


@dataclass(frozen=True)
class Limits:
    """Everything that bounds one player's thinking (any combination; at least one)."""

    tc: TimeControl | None = None
    movetime_ms: int | None = None  # st=
    nodes: int | None = None
    depth: int | None = None
    margin_ms: int = 0  # timemargin=: the overrun tolerated before a time forfeit

    def has_clock(self) -> bool:
        return self.tc is not None and not self.tc.infinite

    def pgn_tag(self) -> str:
        """The PGN ``TimeControl`` value: ``40/60+0.6``, ``10+0.1``, ``1/5`` (st=5), ``-`` otherwise."""
        if self.has_clock():
            return str(self.tc)
        if self.movetime_ms is not None:
            return "1/" + _seconds(self.movetime_ms)
        return "-"

    def describe(self) -> str:
        parts = []
        if self.tc is not None:
            parts.append(f"tc={self.tc}")
        if self.movetime_ms is not None:
            parts.append(f"st={_seconds(self.movetime_ms)}")
        if self.nodes is not None:
            parts.append(f"nodes={self.nodes}")
        if self.depth is not None:
            parts.append(f"depth={self.depth}")
        return " ".join(parts) or "none"


@dataclass
class Clock:
    """One player's clock under a ``TimeControl``: time left, moves to the next control."""

    tc: TimeControl
    left_ms: int = 0
    moves_made: int = 0
    history: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.left_ms = self.tc.base_ms

    def moves_to_go(self) -> int | None:
        """Moves until the next time control (``movestogo``), or ``None`` in sudden death."""
        if not self.tc.moves:
            return None
        return self.tc.moves - self.moves_made % self.tc.moves

    def spend(self, elapsed_ms: int, margin_ms: int = 0) -> bool:
        """Charge one move; ``False`` if the flag fell (more than ``margin_ms`` over)."""
        self.history.append(elapsed_ms)
        self.left_ms -= elapsed_ms
        if self.left_ms + margin_ms < 0:
            return False
        self.left_ms = max(self.left_ms, 0)
        self.moves_made += 1
        self.left_ms += self.tc.inc_ms
        if self.tc.moves and self.moves_made % self.tc.moves == 0:
            self.left_ms += self.tc.base_ms
        return True
