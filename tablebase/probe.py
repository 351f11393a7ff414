"""A directory of tables: the value of a position, its score for the search, the best root moves.

    tb = Tablebases("tables", report=print)   # report: each unusable file's message, once
    tb.probe(pos)                             # 0 (not covered) or a value (tablebase.values)
    tb.root_values(pos)                       # [(move, value for the mover after it)] or None

A table is read when first needed, or by ``preload`` (a 4-man table takes 0.2 to 0.5 s to read
and check; all 35 3- and 4-man tables hold 2.2 GB in memory). With
``blocking`` off -- a search on the clock -- the read runs in a thread and the table counts as
absent until it is in: the search never waits for it (it lost games on time when it did). A
missing, truncated or corrupt file is reported once through ``report`` and then treated as
absent. Positions with castling rights are never covered (the tables assume none).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable

from engine.bits import popcount, unsigned
from engine.position import Position
from engine.tables import BOARD_BIT, Move
from tablebase.ending import Ending, Placement, ending, valid_name
from tablebase.fileformat import SUFFIX, TableFileError, file_name, read_table
from tablebase.values import DECIDED, DRAWN, ILLEGAL, value_of

Report = Callable[[str], None]


def placement(pos: Position) -> Placement:
    """The pieces of ``pos`` as (code without board, slot)."""
    pieces = []
    occ = unsigned(pos.white | pos.black)  # a plain int below 2**64 in both builds
    while occ:
        b = occ & -occ
        occ ^= b
        s = b.bit_length() - 1
        p = pos.squares[s]
        pieces.append((p & 15, s | (p >> 4) << 6))
    return pieces


def position_at(e: Ending, slots: list[int], stm: int) -> Position:
    """The position of a table entry (its slots in ``e``'s order, ``stm`` to move)."""
    codes = [0] * 64
    for code, s in zip(e.codes, slots):
        codes[s & 63] = code | (BOARD_BIT if s & 64 else 0)
    pos = Position(None)
    pos.sq = codes
    pos.turn = stm
    pos.rebuild()
    return pos


def mover_value(child: int) -> int:
    """The value for the side that moved into a position of value ``child``."""
    if child == DRAWN:
        return DRAWN
    return child + 1


def preference(value: int) -> tuple[int, int]:
    """A sort key, best first: fastest wins, then draws, then the longest losses."""
    if value == DRAWN:
        return (1, 0)
    plies = value - DECIDED
    return (0, plies) if plies % 2 else (2, -plies)


class Tablebases:
    """The tables found in ``directory`` (``*.atb`` with an ending's name)."""

    def __init__(self, directory: str, report: Report | None = None) -> None:
        self.directory = directory
        self.report = report
        self.hits = 0
        self._tables: dict[str, bytes | None] = {}
        self._names: set[str] = set()
        try:
            entries = os.listdir(directory)
        except OSError as error:
            raise TableFileError(f"cannot read the directory {directory} ({error.strerror or error})") from None
        for entry in entries:
            name = entry[: -len(SUFFIX)]
            if entry.endswith(SUFFIX) and valid_name(name):
                self._names.add(name)
        self.max_men = max((len(n) for n in self._names), default=0)
        self.blocking = True  # read a table when first probed; False: in a thread, absent meanwhile
        self._readers: dict[str, threading.Thread] = {}  # the thread that reads each table
        self._lock = threading.Lock()

    @property
    def names(self) -> list[str]:
        """The endings this directory has a file for (usable or not), sorted."""
        return sorted(self._names)

    def table(self, name: str) -> bytes | None:
        """The values of ``name``, read on first use (by one thread, however many ask); ``None``
        when there is no usable file or, not ``blocking``, while it is being read."""
        if name in self._tables:
            return self._tables[name]
        if name not in self._names:
            return None
        reader = self._reader(name)
        if not self.blocking:
            return None
        reader.join()
        return self._tables.get(name)

    def preload(self) -> threading.Thread:
        """Read every table now, smallest first, in a thread (returned): the engine does this
        when the path is set, so a game's endings find their tables in memory instead of reading
        them under the clock (a read holds the interpreter for up to 0.1 s while it copies)."""

        def read_all() -> None:
            for name in sorted(self._names, key=lambda n: (len(n), "P" in n, n)):
                self._reader(name).join()

        loader = threading.Thread(target=read_all, name="tablebase preload", daemon=True)
        loader.start()
        return loader

    def _reader(self, name: str) -> threading.Thread:
        """The thread that reads ``name`` (started on the first call)."""
        with self._lock:
            reader = self._readers.get(name)
            if reader is None:
                reader = threading.Thread(target=self._read, args=(name,), name=f"tablebase {name}", daemon=True)
                self._readers[name] = reader
                reader.start()
        return reader

    def _read(self, name: str) -> None:
        """Read and keep the values of ``name``: ``None`` if the file is unusable (reported once)."""
        path = os.path.join(self.directory, file_name(name))
        data: bytes | None = None
        try:
            data = read_table(path, name, ending(name).size)
        except TableFileError as error:
            if self.report is not None:
                self.report(f"tablebase {path} ignored: {error}")
        self._tables[name] = data

    def covers(self, pos: Position) -> bool:
        """Cheap test first: few enough pieces and no castling rights."""
        return self.max_men > 0 and not pos.castling and popcount(pos.white | pos.black) <= self.max_men

    def probe(self, pos: Position) -> int:
        """The value of ``pos`` for the side to move, or 0 (``ILLEGAL``) when no table covers it."""
        if not self.covers(pos):
            return ILLEGAL
        value = value_of(self.table, placement(pos), pos.turn)
        if value is None:
            return ILLEGAL
        self.hits += 1
        return value

    def root_values(self, pos: Position) -> list[tuple[Move, int]] | None:
        """Each legal move with the value for the mover after it, best first; ``None`` unless
        the tables cover the position and every position a move leads to."""
        if not self.covers(pos):
            return None
        ranked = []
        for m in pos.legal_moves():
            pos.push(m)
            child = ILLEGAL if pos.castling else value_of(self.table, placement(pos), pos.turn)
            pos.pop()
            if not child:
                return None
            self.hits += 1
            ranked.append((m, mover_value(child)))
        ranked.sort(key=lambda mv: preference(mv[1]))
        return ranked
