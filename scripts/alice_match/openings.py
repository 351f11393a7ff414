"""Opening books for matches: EPD (one position a line) or PGN (each game's start position
and moves, optionally cut to ``plies``), checked with our rules when loaded.

EPD lines carry the four FEN fields (compact or 16-wide board) followed by either the two
FEN clocks or EPD operations (``hmvc``/``fmvn`` are honoured, ``id`` names the opening,
the rest is ignored). Empty lines and lines starting with ``#`` are skipped.
"""

from __future__ import annotations

import os
import random
import re
from dataclasses import dataclass, field

from engine import FenError, MoveError, Position, move_to_uci, parse_uci
from engine.position import STARTING_FEN

from .pgn import read_game, uci_moves

DEFAULT_BOOK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "openings.epd")

_OP_RE = re.compile(r'\s*([A-Za-z][A-Za-z0-9_]*)((?:\s+(?:"[^"]*"|[^;\s"]+))*)\s*(?:;|$)')


class OpeningError(ValueError):
    """An opening file or line that cannot be used."""


@dataclass(frozen=True)
class Opening:
    """A start position (compact FEN) and the moves (plain UCI) played from it before the engines take over."""

    fen: str = STARTING_FEN
    moves: tuple[str, ...] = ()
    name: str = ""

    def position(self) -> Position:
        pos = Position(self.fen)
        for text in self.moves:
            pos.push(parse_uci(pos, text))
        return pos


@dataclass
class OpeningBook:
    """Openings handed out in order (``sequential``) or shuffled with the match seed (``random``)."""

    openings: list[Opening]
    order: str = "sequential"
    start: int = 1  # 1-based index of the first opening used
    _rng: random.Random = field(default_factory=random.Random)

    def __post_init__(self) -> None:
        if not self.openings:
            raise OpeningError("the opening book is empty")
        if self.order not in ("sequential", "random"):
            raise OpeningError(f"bad opening order {self.order!r}: expected sequential or random")
        if self.start < 1:
            raise OpeningError(f"bad opening start {self.start}: the first opening is 1")

    def sequence(self, count: int, seed: int) -> list[Opening]:
        """``count`` openings for a match: from ``start`` on, wrapping around; shuffled if ``random``."""
        pool = list(self.openings)
        if self.order == "random":
            random.Random(seed).shuffle(pool)
        first = (self.start - 1) % len(pool)
        return [pool[(first + i) % len(pool)] for i in range(count)]


def _checked(fen: str, moves: list[str], where: str, name: str = "") -> Opening:
    try:
        pos = Position(fen)
    except FenError as error:
        raise OpeningError(f"{where}: bad FEN: {error}") from None
    plain = []
    for text in moves:
        try:
            m = parse_uci(pos, text)
        except MoveError as error:
            raise OpeningError(f"{where}: {error}") from None
        plain.append(move_to_uci(pos, m))
        pos.push(m)
    return Opening(Position(fen).fen(), tuple(plain), name)


def parse_epd_line(line: str, where: str = "EPD") -> Opening:
    """One EPD (or FEN) line as an opening; raises ``OpeningError``."""
    fields = line.split(None, 4)
    if len(fields) < 4:
        raise OpeningError(f"{where}: expected at least 4 fields (board, side, castling, en passant)")
    rest = fields[4] if len(fields) > 4 else ""
    halfmove, fullmove = "0", "1"
    name = ""
    clocks = re.match(r"^(\d+)\s+(\d+)\s*(.*)$", rest)
    if clocks:
        halfmove, fullmove, rest = clocks.groups()
    rest = rest.strip()
    at = 0
    while at < len(rest):
        match = _OP_RE.match(rest, at)
        if not match or match.end() == at:
            raise OpeningError(f"{where}: bad EPD operation near {rest[at:]!r}")
        opcode, operand = match.group(1), match.group(2).strip()
        if opcode == "hmvc":
            halfmove = operand
        elif opcode == "fmvn":
            fullmove = operand
        elif opcode == "id":
            name = operand.strip('"')
        at = match.end()
    fen = " ".join([*fields[:4], halfmove, fullmove])
    return _checked(fen, [], where, name)


def load_epd(path: str) -> list[Opening]:
    openings = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            openings.append(parse_epd_line(text, f"{path}:{number}"))
    return openings


def load_pgn(path: str, plies: int | None = None) -> list[Opening]:
    """Each game's start position and its main line (the first ``plies`` plies if given)."""
    openings = []
    with open(path, encoding="utf-8") as handle:
        number = 0
        while True:
            try:
                game = read_game(handle)
            except UnicodeDecodeError:
                raise
            except ValueError as error:
                raise OpeningError(f"{path}: game {number + 1}: {error}") from None
            if game is None:
                break
            number += 1
            if game.errors:
                raise OpeningError(f"{path}: game {number}: {game.errors[0]}")
            start, moves = uci_moves(game, plies)
            openings.append(_checked(start, moves, f"{path}: game {number}", game.headers.get("Event", "")))
    return openings


def load_book(path: str, fmt: str | None = None, plies: int | None = None) -> list[Opening]:
    """Load ``path`` as ``epd`` or ``pgn`` (guessed from the extension when ``fmt`` is ``None``)."""
    if fmt is None:
        fmt = "pgn" if path.lower().endswith(".pgn") else "epd"
    if fmt not in ("epd", "pgn"):
        raise OpeningError(f"bad opening format {fmt!r}: expected epd or pgn")
    if fmt == "epd" and plies is not None:
        raise OpeningError("plies= applies to PGN openings only")
    try:
        openings = load_epd(path) if fmt == "epd" else load_pgn(path, plies)
    except UnicodeDecodeError as error:
        byte = error.object[error.start]
        raise OpeningError(f"{path}: not UTF-8 text (byte 0x{byte:02x}): not an {fmt.upper()} file") from None
    except OSError as error:
        raise OpeningError(f"{path}: cannot read: {error.strerror or error}") from None
    if not openings:
        raise OpeningError(f"{path}: no openings")
    return openings
