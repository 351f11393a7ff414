"""The first tablebase generator, kept as an independent oracle for tests: it sets up an engine
``Position`` per index and takes the legal moves from ``engine.movegen`` (so the rules are the
engine's by construction), stores every in-table move as an edge and settles positions through
the stored predecessor lists. Slow (tens of microseconds per index) and memory-hungry; the
tables of ``tablebase.generate`` (un-moves, no Position) must equal its tables byte for byte.

Two passes. The forward pass visits every index once: it sets the position up, generates its
legal moves with ``engine.movegen`` (so the rules are exactly the engine's), and records each
move's result: a position of the same ending (an edge, kept as the predecessor lists), or an
exit -- a capture or a promotion -- whose value is read in the smaller or other table (which
must exist: ``generate`` takes them from ``tables``). The backward pass settles positions in
order of plies (a bucket queue): a position lost in ``n`` makes each predecessor a win in
``n + 1``; a position won in ``n`` takes one from each predecessor's count of unsettled moves,
and a predecessor whose moves are then all lost for it (and with no drawing or winning exit)
is lost in one more than its longest. What never settles is a draw. The fifty-move rule is
ignored (as in every distance-to-mate table); repetitions do not matter for a value.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from engine import movegen
from engine.position import Position
from tablebase.ending import Ending, Placement, canonical, ending, side_name
from tablebase.values import DECIDED, DRAWN, MAX_PLIES, TableSource, value_of

UNKNOWN: Final = 255  # a legal position not settled yet (a draw when the passes end)
PROGRESS_EVERY: Final = 4096  # positions between two progress reports
NO_EXIT: Final = -1  # no exit of that kind

Progress = Callable[[int, int], None]  # (positions done, positions in all)


class MissingTableError(Exception):
    """A capture or promotion leads to an ending whose table is not given."""


@dataclass
class Graph:
    """The forward pass's result: values known outright, moves into the table, exits."""

    values: bytearray
    edges_from: array[int] = field(default_factory=lambda: array("i"))
    edges_to: array[int] = field(default_factory=lambda: array("i"))
    moves_left: array[int] = field(default_factory=lambda: array("i"))  # in-table moves not yet lost for the mover
    win_exit: dict[int, int] = field(default_factory=dict)  # index -> fewest plies to mate through an exit
    loss_exit: dict[int, int] = field(default_factory=dict)  # index -> most plies to be mated through an exit
    draw_exit: set[int] = field(default_factory=set)  # indices with an exit to a draw
    mated: list[int] = field(default_factory=list)  # checkmated now


def _setup(pos: Position, e: Ending, slots: list[int], stm: int) -> None:
    codes = [0] * 64
    for code, s in zip(e.codes, slots):
        codes[s & 63] = code | (s >> 6) << 4
    pos.sq = codes
    pos.turn = stm
    pos.rebuild()


def _opponent_in_check(pos: Position) -> bool:
    them = pos.turn ^ 1
    k = pos.king(them)
    occ = pos.occ_b if pos.squares[k] >> 4 else pos.occ_a
    return bool(movegen.attackers(pos, pos.turn, k, occ))


def _exit_value(tables: TableSource, e: Ending, slots: list[int], stm: int, j: int, m: int) -> int:
    """The value (for the side to move after it) of move ``m`` of piece ``j`` that leaves the
    table: a capture or a promotion."""
    d = (m >> 6) & 63
    promo = m >> 12
    pieces = []
    for i, (code, s) in enumerate(zip(e.codes, slots)):
        if i == j:
            pieces.append((promo | (code & 8) if promo else code, d | (64 - (s & 64))))
        elif s & 63 != d:
            pieces.append((code, s))
    value = value_of(tables, pieces, stm ^ 1)
    if value is None:
        raise MissingTableError(f"{e.name} needs the table of {_name(pieces)}: generate it first")
    return value


def _name(pieces: Placement) -> str:
    return canonical(side_name([c for c, _ in pieces if c & 8]), side_name([c for c, _ in pieces if not c & 8]))[0]


def _visit(pos: Position, e: Ending, idx: int, tables: TableSource, graph: Graph) -> None:
    """The forward pass at one index."""
    decoded = e.decode(idx)
    if decoded is None:
        return
    slots, stm = decoded
    _setup(pos, e, slots, stm)
    if _opponent_in_check(pos):
        return
    moves = movegen.legal_moves(pos)
    graph.values[idx] = UNKNOWN
    if not moves:
        if pos.in_check():
            graph.mated.append(idx)
        else:
            graph.values[idx] = DRAWN
        return
    where = {s & 63: j for j, s in enumerate(slots)}
    inside = 0
    for m in moves:
        s, d = m & 63, (m >> 6) & 63
        j = where[s]
        if m >> 12 or d in where:
            _record_exit(graph, idx, _exit_value(tables, e, slots, stm, j, m))
            continue
        child = slots[:]
        child[j] = d | (64 - (slots[j] & 64))
        graph.edges_from.append(idx)
        graph.edges_to.append(e.index(child, stm ^ 1))
        inside += 1
    graph.moves_left[idx] = inside


def _record_exit(graph: Graph, idx: int, value: int) -> None:
    if value == DRAWN:
        graph.draw_exit.add(idx)
        return
    plies = value - DECIDED + 1
    if plies % 2:  # the child is lost: a win for the mover
        graph.win_exit[idx] = min(plies, graph.win_exit.get(idx, plies))
    else:
        graph.loss_exit[idx] = max(plies, graph.loss_exit.get(idx, plies))


def forward(e: Ending, tables: TableSource, progress: Progress | None = None) -> Graph:
    """The forward pass over every index of ``e``."""
    graph = Graph(bytearray(e.size))
    graph.moves_left = array("i", bytes(4 * e.size))
    pos = Position(None)
    for idx in range(e.size):
        _visit(pos, e, idx, tables, graph)
        if progress is not None and idx % PROGRESS_EVERY == 0:
            progress(idx, e.size)
    if progress is not None:
        progress(e.size, e.size)
    return graph


def _predecessors(graph: Graph, size: int) -> tuple[array[int], array[int]]:
    """The edges grouped by their target: ``preds[start[c]:start[c + 1]]`` lead to ``c``."""
    start = array("i", bytes(4 * (size + 1)))
    for c in graph.edges_to:
        start[c + 1] += 1
    for i in range(size):
        start[i + 1] += start[i]
    fill = array("i", start)
    preds = array("i", bytes(4 * len(graph.edges_to)))
    for p, c in zip(graph.edges_from, graph.edges_to):
        preds[fill[c]] = p
        fill[c] += 1
    return start, preds


def _initial_buckets(graph: Graph) -> list[list[int]]:
    """Positions whose value is known before any propagation, by plies."""
    buckets: list[list[int]] = [[] for _ in range(MAX_PLIES + 2)]
    buckets[0].extend(graph.mated)
    for idx, plies in graph.win_exit.items():
        buckets[plies].append(idx)
    for idx, plies in graph.loss_exit.items():
        if graph.moves_left[idx] == 0 and idx not in graph.draw_exit and idx not in graph.win_exit:
            buckets[plies].append(idx)
    for idx in graph.draw_exit:
        if graph.moves_left[idx] == 0 and idx not in graph.win_exit:
            graph.values[idx] = DRAWN
    return buckets


def backward(graph: Graph, size: int) -> bytearray:
    """Settle every position (see the module docstring); returns the values."""
    values = graph.values
    start, preds = _predecessors(graph, size)
    buckets = _initial_buckets(graph)
    left = graph.moves_left
    for plies in range(MAX_PLIES + 1):
        for idx in buckets[plies]:
            if values[idx] != UNKNOWN:
                continue
            values[idx] = DECIDED + plies
            for q in preds[start[idx] : start[idx + 1]]:
                if values[q] != UNKNOWN:
                    continue
                if plies % 2 == 0:
                    buckets[plies + 1].append(q)
                    continue
                left[q] -= 1
                if left[q] == 0 and q not in graph.draw_exit and q not in graph.win_exit:
                    buckets[max(plies + 1, graph.loss_exit.get(q, 0))].append(q)
        buckets[plies] = []
    if any(buckets):
        raise OverflowError(f"a mate longer than {MAX_PLIES} plies does not fit a table byte")
    return values.translate(bytes(range(255)) + bytes([DRAWN]))


def generate(name: str, tables: TableSource, progress: Progress | None = None) -> bytearray:
    """The values of every index of ending ``name``."""
    e = ending(name)
    graph = forward(e, tables, progress)
    return backward(graph, e.size)

