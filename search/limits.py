"""What the UCI layer tells the search (``Limits``) and what the search reports back
(``Iteration``, ``Result``). The contract between ``uci`` and ``search``:

    searcher = Searcher(hash_mb=16)          # search.search.Searcher
    searcher.resize(mb); searcher.clear()    # Hash option, Clear Hash, ucinewgame
    result = searcher.search(pos, limits, stop_event, on_iteration)

``search`` runs on the caller's (worker) thread, works on its own copy of ``pos``,
calls ``on_iteration(Iteration)`` after each finished iteration (and each MultiPV
line), checks ``stop_event`` often enough to return within a few ms of it being set,
and always returns a legal best move when one exists. ``searcher.ponderhit()``
switches a pondering search to its normal time limits, counted from that moment.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional

from engine.tables import Move


@dataclass
class Limits:
    """Limits from ``go``; ``None`` means not given. Times are milliseconds."""

    wtime: Optional[int] = None
    btime: Optional[int] = None
    winc: Optional[int] = None
    binc: Optional[int] = None
    movestogo: Optional[int] = None
    movetime: Optional[int] = None
    depth: Optional[int] = None
    nodes: Optional[int] = None
    mate: Optional[int] = None  # stop once a mate in this many moves is proved
    infinite: bool = False
    ponder: bool = False
    searchmoves: List[Move] = field(default_factory=list)
    multipv: int = 1
    move_overhead: int = 30  # ms, the Move Overhead option


@dataclass
class Iteration:
    """One finished iteration (one line of it when MultiPV > 1)."""

    depth: int
    seldepth: int
    multipv: int  # 1-based line number
    score: int  # centipawns from the side to move, unless ``mate`` is set
    mate: Optional[int]  # moves to mate, negative when being mated
    nodes: int
    time_ms: int
    pv: List[Move]
    hashfull: int  # permille


@dataclass
class Result:
    best: Optional[Move]  # None only when there is no legal move
    ponder: Optional[Move] = None
