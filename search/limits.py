"""What a caller tells the search (``Limits``, ``PonderHit``) and what the search reports
back (``Iteration``, ``Result``). The contract under the facade (``search.thinker``):

    searcher = Searcher(hash_mb=16)          # search.search.Searcher
    searcher.resize(mb); searcher.clear()    # Hash option, Clear Hash, ucinewgame
    result = searcher.search(pos, limits, stop_event, on_iteration, ponderhit)

``search`` runs on the caller's (worker) thread, works on its own copy of ``pos``,
calls ``on_iteration(Iteration)`` after each finished iteration (and each MultiPV
line), checks ``stop_event`` often enough to return within a few ms of it being set,
and always returns a legal best move when one exists. Setting ``ponderhit`` (from any
thread, before or during the search) switches a pondering search to its normal time
limits, counted from that moment.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from engine.tables import Move


@dataclass
class Limits:
    """Limits from ``go``; ``None`` means not given. Times are milliseconds."""

    wtime: int | None = None
    btime: int | None = None
    winc: int | None = None
    binc: int | None = None
    movestogo: int | None = None
    movetime: int | None = None
    depth: int | None = None
    nodes: int | None = None
    mate: int | None = None  # stop once a mate in this many moves is proved
    infinite: bool = False
    ponder: bool = False
    searchmoves: list[Move] = field(default_factory=list)
    multipv: int = 1
    move_overhead: int = 30  # ms, the Move Overhead option
    skill: float | None = None  # play weaker at this skill (search.skill), None: full strength


@dataclass
class Iteration:
    """One finished iteration (one line of it when MultiPV > 1)."""

    depth: int
    seldepth: int
    multipv: int  # 1-based line number
    score: int  # centipawns from the side to move, unless ``mate`` is set
    mate: int | None  # moves to mate, negative when being mated
    nodes: int
    time_ms: int
    pv: list[Move]
    hashfull: int  # permille
    tbhits: int | None = None  # tablebase probes that found a value (None: no tables set)


@dataclass
class Result:
    best: Move | None  # None only when there is no legal move
    ponder: Move | None = None


class PonderHit:
    """``set()`` once from any thread when the pondered move is played; the search polls
    ``at`` (``time.perf_counter()`` seconds of the hit, ``None`` before). Made before the
    search starts, so a ponderhit that comes first is not lost."""

    __slots__ = ("at",)

    def __init__(self) -> None:
        self.at: float | None = None

    def set(self) -> None:
        if self.at is None:
            self.at = time.perf_counter()
