"""The search driver: iterative deepening, aspiration windows, MultiPV, reporting, ponder.

    searcher = Searcher(hash_mb=16)
    result = searcher.search(pos, limits, stop_event, on_iteration)

The search works on a copy of ``pos``; it reports every finished iteration (every
MultiPV line) through ``on_iteration`` and returns a ``Result`` whose ``best`` is a
legal move whenever one exists (``None`` only when there is none), even when
``stop_event`` is already set on entry. ``searcher.nodes`` is the node count of the
current (or last) search; ``searcher.seldepth`` its deepest ply.

The rooms: this module drives ``search.tree`` (negamax and quiescence below the root),
which orders moves with ``search.movepick`` (from ``search.history``), evaluates through ``search.evalcache`` and
stops when ``search.clock`` says so; ``go mate`` runs ``search.mate`` first. Scores are as
``search.tree`` and ``search.score`` define them.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Final

from engine.position import Position
from engine.tables import Move
from search.clock import Clock, SearchStoppedError
from search.limits import Iteration, Limits, PonderHit, Result
from search.mate import FALLBACK_DEPTH, MateSearch
from search.movepick import order_moves
from search.score import DRAW, INF, MATE, MATE_BOUND
from search.timeman import SCALE_MIN_DEPTH, soft_scale
from search.tree import Tree, tablebase_score
from search.tt import TranspositionTable
from tablebase.probe import Tablebases
from tablebase.values import DECIDED, DRAWN

# ---------------------------------------------------------------- tunables
MAX_DEPTH: Final = 64  # deepest iteration
ASPIRATION_MIN_DEPTH: Final = 4  # first iteration that uses an aspiration window
ASPIRATION_WINDOW: Final = 30  # initial half-width of the aspiration window (cp); doubles on each fail
ASPIRATION_GIVE_UP: Final = 800  # beyond this half-width the window opens fully
USE_ASPIRATION: Final = 1  # aspiration windows from ASPIRATION_MIN_DEPTH on (1/0: see search.tree)


def _line_score(line: tuple[int, Move, list[Move]]) -> int:
    """The score of a MultiPV line ``(score, move, pv)`` (the sort key)."""
    return line[0]


class Searcher:
    """Holds the transposition table and the tree (with its heuristics) across searches."""

    def __init__(self, hash_mb: int = 16) -> None:
        self.tree = Tree(TranspositionTable(hash_mb))

    @property
    def tt(self) -> TranspositionTable:
        """The transposition table (the tree's: a test may give the tree another)."""
        return self.tree.tt

    @property
    def clock(self) -> Clock:
        return self.tree.clock

    @property
    def nodes(self) -> int:
        return self.tree.nodes

    @property
    def seldepth(self) -> int:
        return self.tree.seldepth

    # ------------------------------------------------------------ management
    def resize(self, mb: int) -> None:
        """Resize the hash table to ``mb`` MB (clears it)."""
        self.tt.resize(mb)

    def clear(self) -> None:
        """Forget everything learned (hash, history, killers, eval cache): ``ucinewgame``."""
        self.tt.clear()
        self.tree.heuristics.clear()
        self.tree.evals.clear()

    @property
    def tablebases(self) -> Tablebases | None:
        return self.tree.tablebases

    def set_tablebases(self, tablebases: Tablebases | None) -> None:
        """Use these endgame tables at the root and in the tree (``None``: none)."""
        self.tree.set_tablebases(tablebases)

    def ponderhit(self) -> None:
        """The opponent played the pondered move: apply the time limits from now (any thread;
        the search picks it up within ``CHECK_EVERY`` nodes)."""
        self.clock.ponderhit()

    def mate_search(self) -> MateSearch:
        """A ``go mate`` proof on this searcher's tree, table size and clock."""
        return MateSearch(self.tree, self.clock)

    # ------------------------------------------------------------ entry point
    def search(
        self,
        pos: Position,
        limits: Limits,
        stop_event: threading.Event,
        on_iteration: Callable[[Iteration], None],
        ponderhit: PonderHit | None = None,
    ) -> Result:
        """Search ``pos`` within ``limits``; see the module docstring for the contract.

        With ``limits.infinite`` or an unanswered ``limits.ponder`` the search does
        not return before ``stop_event`` is set (or ``ponderhit`` for pondering), as
        UCI requires, even when it has nothing left to search. ``ponderhit`` may be set
        before this starts (it is then applied at once) or at any time during it.
        """
        clock = self.clock
        tree = self.tree
        clock.start(limits, bool(pos.turn), stop_event, ponderhit, pos.fullmove)
        tree.new_search()
        self.tt.new_search()
        pos = pos.copy()

        legal = pos.legal_moves()
        if limits.searchmoves:
            allowed = set(limits.searchmoves)
            root_moves = [m for m in legal if m in allowed] or legal
        else:
            root_moves = legal
        if not root_moves:
            mated = pos.in_check()
            on_iteration(
                Iteration(
                    depth=0, seldepth=0, multipv=1, score=-MATE if mated else DRAW, mate=0 if mated else None,
                    nodes=0, time_ms=0, pv=[], hashfull=0,
                )
            )
            clock.wait_if_required(limits)
            return Result(best=None)
        # A weakened level (Skill Level, UCI_LimitStrength) plays without the tables: their
        # perfect endings are not the strength it was asked for.
        tree.use_tablebases(limits.skill is None)
        tables = tree.tablebases if tree.tb_men else None
        if tables is not None:
            tables.hits = 0
            tables.blocking = clock.budget is None  # on the clock, never wait for a table to be read
            settled = self._tablebase_root(pos, tables, root_moves, max(1, limits.multipv), on_iteration)
            if isinstance(settled, Result):
                clock.wait_if_required(limits)
                return settled
            root_moves = settled
        root_moves = order_moves(pos, root_moves, self._tt_move(pos, root_moves), 0, tree.heuristics)
        best: Move = root_moves[0]
        ponder: Move | None = None

        max_depth = MAX_DEPTH
        if limits.depth:
            max_depth = max(1, min(MAX_DEPTH, limits.depth))
        multipv = max(1, min(limits.multipv, len(root_moves)))
        if limits.mate:  # the exact mate search first; the normal search gives the line if it fails
            proof = self.mate_search().run(pos, root_moves, limits.mate, on_iteration)
            if proof is not None:
                clock.wait_if_required(limits)
                return proof
            if clock.budget is None and not (limits.depth or limits.nodes or limits.infinite):
                max_depth = FALLBACK_DEPTH
        prev_score = 0
        stable = 0  # iterations the best move has held
        try:
            for depth in range(1, max_depth + 1):
                last_best = best
                last_score = prev_score
                excluded: list[Move] = []
                lines: list[tuple[int, Move, list[Move]]] = []
                for pv_idx in range(multipv):
                    candidates = [m for m in root_moves if m not in excluded]
                    tree.root_best = 0
                    score, move = self._aspiration(pos, candidates, depth, prev_score if pv_idx == 0 else None)
                    excluded.append(move)
                    pv = self._pv(pos, move)
                    lines.append((score, move, pv))
                    on_iteration(self._iteration(depth, pv_idx + 1, score, pv))
                # With MultiPV a later line can score above an earlier one (the table changed
                # under it): then the lines are reported again, best first, and the best is the move.
                ordered = sorted(lines, key=_line_score, reverse=True)
                if ordered != lines:
                    for pv_idx, (score, move, pv) in enumerate(ordered):
                        on_iteration(self._iteration(depth, pv_idx + 1, score, pv))
                prev_score, best, pv = ordered[0]
                ponder = pv[1] if len(pv) > 1 else None
                # Keep the best move in front for the next iteration.
                root_moves.remove(best)
                root_moves.insert(0, best)
                clock.poll_ponderhit()
                if limits.mate and prev_score >= MATE_BOUND and (MATE - prev_score + 1) // 2 <= limits.mate:
                    break
                stable = stable + 1 if best == last_best else 0
                if clock.soft_ms is not None:
                    soft = float(clock.soft_ms)
                    if depth >= SCALE_MIN_DEPTH:
                        share = tree.root_nodes_best / max(1, tree.root_nodes_all)
                        soft *= soft_scale(stable, last_score - prev_score, share)
                    if clock.elapsed_ms() >= min(soft, float(clock.hard_ms or soft)):
                        break
                if len(root_moves) == 1 and clock.soft_ms is not None and depth >= 2:
                    break  # forced move: do not spend the clock
                if prev_score >= MATE_BOUND and MATE - prev_score < depth and clock.soft_ms is not None:
                    break  # our mate was proved well inside the depth: do not spend the clock
        except SearchStoppedError:
            # A move that beat the previous best in the unfinished iteration (first line).
            if tree.root_best and tree.root_best != best and multipv == 1:
                best = tree.root_best
                ponder = None
        clock.wait_if_required(limits)
        return Result(best=best, ponder=ponder)

    def _tablebase_root(
        self, pos: Position, tables: Tablebases, root_moves: list[Move], multipv: int,
        on_iteration: Callable[[Iteration], None],
    ) -> Result | list[Move]:
        """A root the tables cover, answered at once: the fastest mate or the longest resistance
        (its ``Result``), with ``multipv`` lines, best first, each scored by the tables. A drawn
        one with one line: the moves that keep the draw, for the search to choose among.
        Otherwise the root moves unchanged."""
        ranked = tables.root_values(pos)
        if ranked is None:
            return root_moves
        ranked = [(m, v) for m, v in ranked if m in root_moves]
        if ranked[0][1] == DRAWN and multipv == 1:
            return [m for m, v in ranked if v == DRAWN]
        lines: list[list[Move]] = []
        for move, value in ranked[:multipv]:
            pos.push(move)
            lines.append([move, *self._tablebase_line(pos, tables)])
            pos.pop()
            depth = 1 if value == DRAWN else max(1, value - DECIDED)  # the mate's length in plies
            on_iteration(self._iteration(depth, len(lines), tablebase_score(value, 0), lines[-1]))
        best = lines[0]
        return Result(best=best[0], ponder=best[1] if len(best) > 1 else None)

    @staticmethod
    def _tablebase_line(pos: Position, tables: Tablebases) -> list[Move]:
        """Best play by the tables from ``pos`` to the mate (both sides), as far as covered."""
        line: list[Move] = []
        while len(line) < MAX_DEPTH:
            ranked = tables.root_values(pos)
            if not ranked or ranked[0][1] == DRAWN:
                break
            line.append(ranked[0][0])
            pos.push(ranked[0][0])
        for _ in line:
            pos.pop()
        return line

    def _iteration(self, depth: int, line: int, score: int, pv: list[Move]) -> Iteration:
        mate: int | None = None
        if score >= MATE_BOUND:
            mate = (MATE - score + 1) // 2
        elif score <= -MATE_BOUND:
            mate = -((MATE + score) // 2)
        return Iteration(
            depth=depth,
            seldepth=max(self.tree.seldepth, depth),
            multipv=line,
            score=score,
            mate=mate,
            nodes=self.tree.nodes,
            time_ms=self.clock.search_ms(),
            pv=pv,
            hashfull=self.tt.hashfull(),
            tbhits=self.tablebases.hits if self.tablebases is not None and self.tree.tb_men else None,
        )

    def _pv(self, pos: Position, first: Move) -> list[Move]:
        """The principal variation: ``first`` then legal hash moves, no repeats."""
        pv = [first]
        pos.push(first)
        seen = {pos.key}
        while len(pv) < MAX_DEPTH:
            entry = self.tt.probe(pos.key)
            if entry is None or not entry[0]:
                break
            m = entry[0]
            if m not in pos.legal_moves():
                break
            pos.push(m)
            pv.append(m)
            if pos.key in seen:
                break
            seen.add(pos.key)
        for _ in pv:
            pos.pop()
        return pv

    # ------------------------------------------------------------ root
    def search_depth(self, pos: Position, moves: list[Move], depth: int, guess: int | None) -> tuple[int, Move]:
        """One root search of ``moves`` to ``depth`` with an aspiration window around ``guess``
        (full window if None): ``(score, best move)``. A helper's iteration (``search.helper``);
        the caller has started the clock and the tree."""
        return self._aspiration(pos, moves, depth, guess)

    def _aspiration(self, pos: Position, moves: list[Move], depth: int, guess: int | None) -> tuple[int, Move]:
        """Root search with an aspiration window around ``guess`` (full window if None)."""
        if guess is None or not USE_ASPIRATION or depth < ASPIRATION_MIN_DEPTH or abs(guess) >= MATE_BOUND:
            return self.tree.root(pos, moves, depth, -INF, INF)
        delta = ASPIRATION_WINDOW
        alpha = max(-INF, guess - delta)
        beta = min(INF, guess + delta)
        while True:
            score, move = self.tree.root(pos, moves, depth, alpha, beta)
            if score <= alpha:
                alpha = max(-INF, score - delta)
            elif score >= beta:
                beta = min(INF, score + delta)
                moves = [move] + [m for m in moves if m != move]
            else:
                return score, move
            delta *= 2
            if delta > ASPIRATION_GIVE_UP:
                alpha, beta = -INF, INF

    def _tt_move(self, pos: Position, moves: list[Move]) -> Move:
        """The stored move for ``pos`` if it is one of ``moves`` (a legal move), else 0."""
        entry = self.tt.probe(pos.key)
        if entry is not None and entry[0] and entry[0] in moves:
            return entry[0]
        return 0
