"""Iterative deepening PVS alpha-beta for Alice chess.

    searcher = Searcher(hash_mb=16)
    result = searcher.search(pos, limits, stop_event, on_iteration)

The search works on a copy of ``pos``; it reports every finished iteration (every
MultiPV line) through ``on_iteration`` and returns a ``Result`` whose ``best`` is a
legal move whenever one exists (``None`` only when there is none), even when
``stop_event`` is already set on entry. ``searcher.nodes`` is the node count of the
current (or last) search; ``searcher.seldepth`` its deepest ply.

Scores are centipawns from the side to move; a mate in ``n`` plies scores
``MATE - n`` (``-(MATE - n)`` when being mated). Draws (stalemate, fifty moves,
repetition -- with the board of every piece in the key --, bare kings) score 0.

Every tunable, the feature switches (``USE_*``) included, is a named constant in the
tunables block; A/B matches compare git revisions (``scripts/selfplay.py``).
"""

from __future__ import annotations

import threading
import time
from array import array
from collections.abc import Callable
from typing import Final

from engine.bits import Bitboard, bit_length
from engine.movegen import attackers, checking_squares
from engine.position import UNDO_KEY, Position
from engine.tables import (
    BB_SQUARES,
    KING,
    Move,
    diag_attacks,
    ortho_attacks,
)
from search.evaluate import evaluate
from search.limits import Iteration, Limits, PonderHit, Result
from search.timeman import SCALE_MIN_DEPTH, budget, soft_scale
from search.score import DRAW, INF, MATE, MATE_BOUND
from search.tt import (
    BOUND_EXACT,
    BOUND_LOWER,
    BOUND_UPPER,
    TranspositionTable,
    score_from_tt,
    score_to_tt,
    unpack,
)

# ---------------------------------------------------------------- tunables
MAX_PLY: Final = 100  # hard limit on the search stack
MAX_DEPTH: Final = 64  # deepest iteration
CHECK_EVERY: Final = 128  # nodes between clock / stop-event checks (a few ms at Python speed)
ASPIRATION_MIN_DEPTH: Final = 4  # first iteration that uses an aspiration window
ASPIRATION_WINDOW: Final = 30  # initial half-width of the aspiration window (cp); doubles on each fail
ASPIRATION_GIVE_UP: Final = 800  # beyond this half-width the window opens fully
NULL_MIN_DEPTH: Final = 2  # null-move pruning from this depth on
NULL_REDUCTION: Final = 2  # base null-move depth reduction ...
NULL_REDUCTION_DIVISOR: Final = 4  # ... plus one ply per this many plies of depth
RFP_MAX_DEPTH: Final = 5  # reverse futility pruning up to this depth ...
RFP_MARGIN: Final = 100  # ... when static eval exceeds beta by this much per ply
FUTILITY_MAX_DEPTH: Final = 3  # futility pruning of quiet moves up to this depth ...
FUTILITY_MARGIN: Final = 120  # ... when static eval + this much per ply cannot reach alpha
LMP_MOVES: Final = (0, 5, 9, 14)  # late move pruning: at depth d (< 4), quiet moves after this many are skipped
LMR_MIN_DEPTH: Final = 3  # late move reductions from this depth on ...
LMR_MIN_MOVES: Final = 3  # ... after this many moves searched at full depth
LMR_MORE_AFTER: Final = 8  # one more ply of reduction from this move number on
LMR_DEEP: Final = 6  # one more ply of reduction from this depth on
CHECK_EXTENSION: Final = 1  # plies added when the side to move is in check
# Switches are 1/0, not True/False: mypyc 2.4 folds the constants True and 1 into one.
USE_NULL: Final = 1  # null-move pruning
USE_LMR: Final = 1  # late move reductions
USE_RFP: Final = 1  # reverse futility pruning
USE_FUTILITY: Final = 1  # futility pruning of quiet moves
USE_LMP: Final = 1  # late move pruning
USE_CHECK_EXTENSION: Final = 1  # extend when in check
USE_ASPIRATION: Final = 1  # aspiration windows from ASPIRATION_MIN_DEPTH on
USE_HISTORY_MALUS: Final = 1  # quiet moves tried before a cutoff lose history
USE_COUNTERMOVE: Final = 1  # order the countermove after the killers
QS_CHECKS: Final = 1  # first quiescence ply also tries quiet moves that give direct check
BAD_CAPTURE_ORDER: Final = 1  # order captures of a cheaper piece on a square retaken on the landing board last
QS_TT: Final = 1  # quiescence probes and stores the transposition table (depth 0)
QS_BAD_CAPTURES: Final = 1  # quiescence skips taking a cheaper piece where the capturer can be retaken
DELTA_MARGIN: Final = 200  # quiescence: skip captures that cannot lift alpha even with this margin
HISTORY_MAX: Final = 1 << 14  # with the malus, history scores stay within +-this (gravity)
HISTORY_HALVE_AT: Final = 1 << 20  # without the malus, history scores are halved when one reaches this
HISTORY_BONUS_MAX: Final = 400  # cap of the depth * depth history bonus
TT_MOVE_SCORE: Final = 1 << 30  # ordering: the hash move first
CAPTURE_BASE: Final = 1 << 24  # ordering: captures and promotions above killers and quiet moves
KILLER_SCORE: Final = 1 << 22  # ordering: killer moves above other quiet moves
COUNTER_SCORE: Final = (1 << 22) - 1  # ordering: the countermove just below the killers
BAD_CAPTURE_BASE: Final = -(1 << 24)  # ordering: captures that lose the capturer go after the quiet moves
ORDER_VALUE: Final = (0, 1, 3, 3, 5, 9, 20)  # MVV-LVA piece values by ptype
QS_VALUE: Final = (0, 100, 320, 330, 500, 950, 0)  # quiescence delta pruning: what a capture can win, by ptype
EVAL_CACHE_BITS: Final = 16  # static evaluations remembered (2**bits slots, 8 bytes each)
EVAL_CHECK_MASK: Final = 0xFF_FFFF_FFFF  # 40 key bits above the slot index, kept in a slot to tell positions apart
EVAL_OFFSET: Final = 32768  # a cached score is stored as score + this in 16 bits


class SearchStopped(Exception):
    """Raised inside the tree when the clock, node limit or stop event ends the search."""


# (enemy king's board, checking squares by ptype, king square, its board's occupancy,
#  our diagonal sliders there, our orthogonal sliders there)
CheckInfo = tuple[int, list[Bitboard], int, Bitboard, Bitboard, Bitboard]


def check_info(pos: Position) -> CheckInfo:
    """What ``gives_check`` needs, computed once per node: the enemy king's board, the
    checking squares by ptype on it (``engine.movegen.checking_squares``), the king square,
    that board's occupancy and our diagonal and orthogonal sliders on it."""
    us = pos.turn
    them = us ^ 1
    k = bit_length(pos.kings & (pos.black if us else pos.white)) - 1
    kb = pos.sq[k] >> 4
    o = pos.occ_b if kb else pos.occ_a
    mine = (pos.white if us else pos.black) & o
    _, pw, kn, dg, ot, qu, _ = checking_squares(k, o, them)
    return (
        kb,
        [0, pw, kn, dg, ot, qu, 0],
        k,
        o,
        mine & (pos.bishops | pos.queens),
        mine & (pos.rooks | pos.queens),
    )


def gives_check(pos: Position, m: Move, info: CheckInfo) -> bool:
    """Does legal move ``m`` check the opponent? Same answer as ``pos.gives_check(m)``
    without making the move (castling falls back to it).

    A piece from the other board lands on the king's board: a direct check if it lands
    on a checking square. A piece leaving the king's board (every move transfers) can
    only uncover a line from one of our sliders there: a discovered check.
    """
    kb, chk, k, o, bq, rq = info
    s = m & 63
    d = (m >> 6) & 63
    p = pos.sq[s]
    if p & 7 == KING and (d - s == 2 or s - d == 2):
        return pos.gives_check(m)
    if p >> 4 != kb:
        return bool(chk[(m >> 12) or (p & 7)] >> d & 1)
    fb = BB_SQUARES[s]
    o2 = (o ^ fb) & ~(BB_SQUARES[d])  # a capture on this board removes the captured piece too
    if diag_attacks(k, o2) & bq & ~fb:
        return True
    return bool(ortho_attacks(k, o2) & rq & ~fb)


def _line_score(line: tuple[int, Move, list[Move]]) -> int:
    """The score of a MultiPV line ``(score, move, pv)`` (the sort key)."""
    return line[0]


class Searcher:
    """Holds the transposition table and heuristics across searches (see module doc)."""

    def __init__(self, hash_mb: int = 16) -> None:
        self.tt = TranspositionTable(hash_mb)
        self.nodes = 0
        self.seldepth = 0
        self.history: list[list[int]] = [[0] * 4096 for _ in range(2)]
        self.killers: list[list[Move]] = [[0, 0] for _ in range(MAX_PLY + 2)]
        self.countermoves: list[Move] = [0] * 4096
        self._eval_cache = array("Q", bytes(8 << EVAL_CACHE_BITS))  # see _static
        self._stop_event: threading.Event = threading.Event()
        self._start = 0.0
        self._soft_ms: float | None = None
        self._hard_ms: float | None = None
        self._node_limit: int | None = None
        self._next_check = CHECK_EVERY
        self._pondering = False
        self._hit = PonderHit()
        self._budget: tuple[int, int] | None = None
        self._last_null = -1  # stack index of the innermost null move on the current path
        self._root_best: Move = 0  # best move found so far in the running iteration
        self._root_nodes_best = 0  # nodes spent under the best root move in the last root search
        self._root_nodes_all = 0  # nodes of that root search
        # None: search.evaluate, called natively; tests hook in a function of their own.
        self.eval_hook: Callable[[Position], int] | None = None

    # ------------------------------------------------------------ management
    def resize(self, mb: int) -> None:
        """Resize the hash table to ``mb`` MB (clears it)."""
        self.tt.resize(mb)

    def clear(self) -> None:
        """Forget everything learned (hash, history, killers, eval cache): ``ucinewgame``."""
        self.tt.clear()
        self.history = [[0] * 4096 for _ in range(2)]
        self.killers = [[0, 0] for _ in range(MAX_PLY + 2)]
        self.countermoves = [0] * 4096
        self._eval_cache = array("Q", bytes(8 << EVAL_CACHE_BITS))

    def ponderhit(self) -> None:
        """The opponent played the pondered move: apply the time limits from now (any thread;
        the search picks it up within ``CHECK_EVERY`` nodes)."""
        self._hit.set()

    def _apply_ponderhit(self) -> None:
        """Switch a pondering search to its clock, counted from the moment of the hit."""
        if self._hit.at is not None:
            self._start = self._hit.at
        if self._budget is not None:
            self._soft_ms, self._hard_ms = self._budget
        self._pondering = False

    def elapsed_ms(self) -> int:
        return int((time.perf_counter() - self._start) * 1000)

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
        self._start = time.perf_counter()
        self._hit = ponderhit if ponderhit is not None else PonderHit()
        self._stop_event = stop_event
        self.nodes = 0
        self.seldepth = 0
        self.tt.new_search()
        self.killers = [[0, 0] for _ in range(MAX_PLY + 2)]
        self._last_null = -1
        pos = pos.copy()

        self._budget = None if limits.infinite else budget(limits, bool(pos.turn))
        self._pondering = bool(limits.ponder)
        if self._pondering or self._budget is None:
            self._soft_ms = self._hard_ms = None
        else:
            self._soft_ms, self._hard_ms = self._budget
        if self._pondering and self._hit.at is not None:
            self._apply_ponderhit()  # the hit came before the search started
        self._node_limit = limits.nodes if limits.nodes else None
        self._next_check = min(CHECK_EVERY, self._node_limit) if self._node_limit else CHECK_EVERY

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
            self._wait_if_required(limits)
            return Result(best=None)
        root_moves = self._order(pos, root_moves, self._tt_move(pos, root_moves), 0)
        best: Move = root_moves[0]
        ponder: Move | None = None

        max_depth = MAX_DEPTH
        if limits.depth:
            max_depth = max(1, min(MAX_DEPTH, limits.depth))
        multipv = max(1, min(limits.multipv, len(root_moves)))
        if limits.mate:  # the exact mate search first; the normal search gives the line if it fails
            from search.mate import FALLBACK_DEPTH, MateSearch  # here: search.mate imports this module

            proof = MateSearch(self).run(pos, root_moves, limits.mate, on_iteration)
            if proof is not None:
                self._wait_if_required(limits)
                return proof
            if self._budget is None and not (limits.depth or limits.nodes or limits.infinite):
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
                    self._root_best = 0
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
                if self._pondering and self._hit.at is not None:
                    self._apply_ponderhit()
                if limits.mate and prev_score >= MATE_BOUND and (MATE - prev_score + 1) // 2 <= limits.mate:
                    break
                stable = stable + 1 if best == last_best else 0
                if self._soft_ms is not None:
                    soft = float(self._soft_ms)
                    if depth >= SCALE_MIN_DEPTH:
                        share = self._root_nodes_best / max(1, self._root_nodes_all)
                        soft *= soft_scale(stable, last_score - prev_score, share)
                    if self.elapsed_ms() >= min(soft, float(self._hard_ms or soft)):
                        break
                if len(root_moves) == 1 and self._soft_ms is not None and depth >= 2:
                    break  # forced move: do not spend the clock
                if prev_score >= MATE_BOUND and MATE - prev_score < depth and self._soft_ms is not None:
                    break  # our mate was proved well inside the depth: do not spend the clock
        except SearchStopped:
            # A move that beat the previous best in the unfinished iteration (first line).
            if self._root_best and self._root_best != best and multipv == 1:
                best = self._root_best
                ponder = None
        self._wait_if_required(limits)
        return Result(best=best, ponder=ponder)

    def _wait_if_required(self, limits: Limits) -> None:
        """UCI forbids ``bestmove`` during ``go infinite`` or pondering before stop."""
        if not (limits.infinite or limits.ponder):
            return
        while not self._stop_event.is_set():
            if limits.ponder and not limits.infinite and (not self._pondering or self._hit.at is not None):
                return  # ponderhit arrived: the normal search is over
            self._stop_event.wait(0.005)

    def _iteration(self, depth: int, line: int, score: int, pv: list[Move]) -> Iteration:
        mate: int | None = None
        if score >= MATE_BOUND:
            mate = (MATE - score + 1) // 2
        elif score <= -MATE_BOUND:
            mate = -((MATE + score) // 2)
        return Iteration(
            depth=depth,
            seldepth=max(self.seldepth, depth),
            multipv=line,
            score=score,
            mate=mate,
            nodes=self.nodes,
            time_ms=self.elapsed_ms(),
            pv=pv,
            hashfull=self.tt.hashfull(),
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

    # ------------------------------------------------------------ clock
    def _check(self) -> None:
        """Called every ``CHECK_EVERY`` nodes (and at the node limit); raises ``SearchStopped``."""
        if self._node_limit is not None and self.nodes >= self._node_limit:
            raise SearchStopped
        if self._stop_event.is_set():
            raise SearchStopped
        if self._pondering and self._hit.at is not None:
            self._apply_ponderhit()
        if self._hard_ms is not None and (time.perf_counter() - self._start) * 1000 >= self._hard_ms:
            raise SearchStopped
        nxt = self.nodes + CHECK_EVERY
        if self._node_limit is not None and nxt > self._node_limit:
            nxt = self._node_limit
        self._next_check = nxt

    # ------------------------------------------------------------ root
    def _aspiration(self, pos: Position, moves: list[Move], depth: int, guess: int | None) -> tuple[int, Move]:
        """Root search with an aspiration window around ``guess`` (full window if None)."""
        if guess is None or not USE_ASPIRATION or depth < ASPIRATION_MIN_DEPTH or abs(guess) >= MATE_BOUND:
            return self._root(pos, moves, depth, -INF, INF)
        delta = ASPIRATION_WINDOW
        alpha = max(-INF, guess - delta)
        beta = min(INF, guess + delta)
        while True:
            score, move = self._root(pos, moves, depth, alpha, beta)
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

    def _root(self, pos: Position, moves: list[Move], depth: int, alpha: int, beta: int) -> tuple[int, Move]:
        """Search the root moves, the first with the full window, the rest with PVS.

        Returns ``(score, best move)``, fail-soft: a fail low returns an upper bound
        and the first move, a fail high the refuting move and a lower bound.
        ``self._root_best`` follows the best move that raised alpha so far.
        """
        best_score = -INF
        best_move = moves[0]
        orig_alpha = alpha
        start_nodes = self.nodes
        best_nodes = 0
        for i, m in enumerate(moves):
            before = self.nodes
            pos.push(m)
            if i == 0:
                score = -self._negamax(pos, depth - 1, -beta, -alpha, 1, True, True)
            else:
                score = -self._negamax(pos, depth - 1, -alpha - 1, -alpha, 1, False, True)
                if alpha < score < beta:
                    score = -self._negamax(pos, depth - 1, -beta, -alpha, 1, True, True)
            pos.pop()
            if score > best_score:
                best_score = score
                best_move = m
                best_nodes = self.nodes - before
                if score > alpha:
                    alpha = score
                    self._root_best = m
                    if score >= beta:
                        break
        self._root_nodes_best = best_nodes
        self._root_nodes_all = self.nodes - start_nodes
        bound = BOUND_LOWER if best_score >= beta else (BOUND_EXACT if best_score > orig_alpha else BOUND_UPPER)
        self.tt.store(pos.key, best_move, score_to_tt(best_score, 0), depth, bound)
        return best_score, best_move

    # ------------------------------------------------------------ helpers
    def _tt_move(self, pos: Position, moves: list[Move]) -> Move:
        """The stored move for ``pos`` if it is one of ``moves`` (a legal move), else 0."""
        entry = self.tt.probe(pos.key)
        if entry is not None and entry[0] and entry[0] in moves:
            return entry[0]
        return 0

    def _static(self, pos: Position) -> int:
        """``evaluate(pos)`` (or ``eval_hook``) through a small direct-mapped cache.

        One word per slot, read once: 40 bits of the key (``EVAL_CHECK_MASK``) above the slot
        index, then the score + ``EVAL_OFFSET`` in 16 bits (never 0, so 0 is an empty
        slot). The word stays below 2**62, where the compiled build keeps ints unboxed.
        """
        key = pos.key
        i = key & ((1 << EVAL_CACHE_BITS) - 1)
        check = (key >> EVAL_CACHE_BITS) & EVAL_CHECK_MASK
        word = self._eval_cache[i]
        if word and word >> 16 == check:
            return (word & 0xFFFF) - EVAL_OFFSET
        hook = self.eval_hook
        v = evaluate(pos) if hook is None else hook(pos)
        if -EVAL_OFFSET < v < EVAL_OFFSET:
            self._eval_cache[i] = check << 16 | (v + EVAL_OFFSET)
        return v

    def _is_draw(self, pos: Position, ply: int) -> bool:
        """Fifty moves or a repetition: twofold inside the tree, threefold with the game history.

        Keys include the board of every piece; no repetition is seen across a null move.
        """
        hm = pos.halfmove
        if hm >= 100:
            return True
        if hm < 4:
            return False
        stack = pos.stack
        n = len(stack)
        limit = max(n - hm, self._last_null + 1)
        key = pos.key
        seen = 0
        i = n - 4
        while i >= limit:
            if stack[i][UNDO_KEY] == key:
                if n - i <= ply:
                    return True
                seen += 1
                if seen >= 2:
                    return True
            i -= 2
        return False

    def _order(self, pos: Position, moves: list[Move], tt_move: Move, ply: int) -> list[Move]:
        """Hash move, captures/promotions by MVV-LVA, killers, then quiet moves by history."""
        sq = pos.sq
        hist = self.history[pos.turn]
        k = self.killers[ply]
        k0, k1 = k[0], k[1]
        see = BAD_CAPTURE_ORDER
        counter = self.countermoves[pos.stack[-1][0] & 4095] if USE_COUNTERMOVE and pos.stack else -1
        them = pos.turn ^ 1
        scored: list[int] = []  # score << 16 | move: sorting the ints sorts by score, then move
        for m in moves:
            if m == tt_move:
                scored.append(TT_MOVE_SCORE << 16 | m)
                continue
            d = (m >> 6) & 63
            victim = sq[d]
            if victim or m >> 12:
                p = sq[m & 63]
                vv = ORDER_VALUE[victim & 7]
                av = ORDER_VALUE[p & 7]
                s = vv * 16 - av + (m >> 12) * 64
                if see and vv < av and not m >> 12 and attackers(pos, them, d, pos.occ_a if p >> 4 else pos.occ_b):
                    s += BAD_CAPTURE_BASE  # the capturer is lost on the landing board
                else:
                    s += CAPTURE_BASE
            elif m == k0:
                s = KILLER_SCORE + 1
            elif m == k1:
                s = KILLER_SCORE
            elif m == counter:
                s = COUNTER_SCORE
            else:
                s = hist[m & 4095]
            scored.append(s << 16 | m)
        scored.sort(reverse=True)
        return [x & 0xFFFF for x in scored]

    @staticmethod
    def _has_pieces(pos: Position) -> bool:
        """Side to move has something besides king and pawns (null-move safety)."""
        return bool((pos.white if pos.turn else pos.black) & ~(pos.pawns | pos.kings))

    # ------------------------------------------------------------ tree
    def _negamax(self, pos: Position, depth: int, alpha: int, beta: int, ply: int, is_pv: bool, can_null: bool) -> int:
        """Score of ``pos`` for the side to move, searched ``depth`` plies; fail-soft.

        ``ply`` is the distance from the root (mate scores are root-relative);
        ``is_pv`` marks nodes of the principal variation (open window), where no TT
        cutoff or pruning is done; ``can_null`` forbids two null moves in a row.
        """
        self.nodes += 1
        if self.nodes >= self._next_check:
            self._check()
        self.seldepth = max(self.seldepth, ply)
        if self._is_draw(pos, ply):
            return DRAW
        # Mate distance pruning.
        alpha = max(alpha, -MATE + ply)
        beta = min(beta, MATE - ply - 1)
        if alpha >= beta:
            return alpha
        in_check = pos.in_check()
        if in_check and USE_CHECK_EXTENSION:
            depth += CHECK_EXTENSION
        if depth <= 0 or ply >= MAX_PLY:
            return self._qsearch(pos, alpha, beta, ply, 0)

        key = pos.key
        word = self.tt.probe_word(key)
        tt_move = 0
        if word:
            tt_move, tt_score, tt_depth, tt_bound = unpack(word)
            if not is_pv and tt_depth >= depth:
                tt_score = score_from_tt(tt_score, ply)
                if tt_bound == BOUND_EXACT:
                    return tt_score
                if tt_bound == BOUND_LOWER and tt_score >= beta:
                    return tt_score
                if tt_bound == BOUND_UPPER and tt_score <= alpha:
                    return tt_score

        static = -INF
        if not in_check:
            static = self._static(pos)
            if not is_pv:
                if USE_RFP and depth <= RFP_MAX_DEPTH and static - RFP_MARGIN * depth >= beta and beta > -MATE_BOUND:
                    return static
                if (
                    USE_NULL
                    and can_null
                    and depth >= NULL_MIN_DEPTH
                    and static >= beta
                    and beta < MATE_BOUND
                    and self._has_pieces(pos)
                ):
                    r = NULL_REDUCTION + depth // NULL_REDUCTION_DIVISOR
                    saved_null = self._last_null
                    self._last_null = len(pos.stack)
                    pos.push_null()
                    score = -self._negamax(pos, depth - 1 - r, -beta, -beta + 1, ply + 1, False, False)
                    pos.pop_null()
                    self._last_null = saved_null
                    if score >= beta:
                        return beta if score >= MATE_BOUND else score

        moves = pos.legal_moves()
        if not moves:
            return -MATE + ply if in_check else DRAW
        if tt_move and tt_move in moves:
            # The hash move is searched first; the others are ordered only if it does not
            # cut off (most hash moves do, and ordering is a large share of a node's cost).
            rest = moves
            rest.remove(tt_move)
            moves = [tt_move]
        else:
            # No hash move, or a key collision or a stale entry: never play an unverified move.
            rest = []
            moves = self._order(pos, moves, 0, ply)

        futile = (
            bool(USE_FUTILITY)
            and not is_pv
            and not in_check
            and depth <= FUTILITY_MAX_DEPTH
            and static + FUTILITY_MARGIN * depth <= alpha
            and alpha > -MATE_BOUND
        )
        orig_alpha = alpha
        best_score = -INF
        best_move = 0
        sq = pos.sq
        searched = 0
        lmp_limit = LMP_MOVES[depth] if USE_LMP and not is_pv and not in_check and depth < len(LMP_MOVES) else 999
        quiets: list[Move] = []
        cinfo: CheckInfo | None = None
        i = 0
        while True:
            if i == 1 and rest:  # the hash move did not cut off: now order the others
                moves.extend(self._order(pos, rest, 0, ply))
            if i >= len(moves):
                break
            m = moves[i]
            i += 1
            quiet = not sq[(m >> 6) & 63] and not m >> 12
            if quiet and (futile or searched >= lmp_limit) and best_score > -MATE_BOUND:
                if cinfo is None:
                    cinfo = check_info(pos)
                if not gives_check(pos, m, cinfo):
                    continue
            pos.push(m)
            if searched == 0:
                score = -self._negamax(pos, depth - 1, -beta, -alpha, ply + 1, is_pv, True)
            else:
                reduction = 0
                if (
                    USE_LMR
                    and depth >= LMR_MIN_DEPTH
                    and searched >= LMR_MIN_MOVES
                    and quiet
                    and not in_check
                ):
                    reduction = 1 + (searched >= LMR_MORE_AFTER) + (depth >= LMR_DEEP) - is_pv
                    reduction = min(reduction, depth - 2)
                    if reduction > 0 and pos.in_check():
                        reduction = 0
                score = -self._negamax(pos, depth - 1 - reduction, -alpha - 1, -alpha, ply + 1, False, True)
                if score > alpha and reduction > 0:
                    score = -self._negamax(pos, depth - 1, -alpha - 1, -alpha, ply + 1, False, True)
                if is_pv and alpha < score < beta:
                    score = -self._negamax(pos, depth - 1, -beta, -alpha, ply + 1, True, True)
            pos.pop()
            searched += 1
            if score > best_score:
                best_score = score
                best_move = m
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        if quiet:
                            self._reward(pos, m, ply, depth, quiets)
                        break
            if quiet:
                quiets.append(m)

        bound = BOUND_LOWER if best_score >= beta else (BOUND_EXACT if best_score > orig_alpha else BOUND_UPPER)
        self.tt.store(key, best_move, score_to_tt(best_score, ply), depth, bound)
        return best_score

    def _reward(self, pos: Position, m: Move, ply: int, depth: int, quiets: list[Move]) -> None:
        """A quiet move caused a beta cutoff: killer, countermove and history bonus; the quiet
        moves tried before it get a history malus (``use_history_malus``)."""
        k = self.killers[ply]
        if k[0] != m:
            k[1] = k[0]
            k[0] = m
        if pos.stack:
            self.countermoves[pos.stack[-1][0] & 4095] = m
        h = self.history[pos.turn]
        if USE_HISTORY_MALUS:
            bonus = min(depth * depth, HISTORY_BONUS_MAX)
            i = m & 4095
            h[i] += bonus - h[i] * bonus // HISTORY_MAX
            for q in quiets:
                j = q & 4095
                h[j] -= bonus + h[j] * bonus // HISTORY_MAX
            return
        i = m & 4095
        h[i] += depth * depth
        if h[i] > HISTORY_HALVE_AT:
            for j in range(4096):
                h[j] >>= 1

    def _qsearch(self, pos: Position, alpha: int, beta: int, ply: int, qply: int) -> int:
        """Quiescence: captures and promotions (and, at ``qply`` 0, quiet direct checks);
        all evasions when in check, so a mate at the horizon is seen. Fail-soft.

        Not in check, captures that cannot lift alpha (delta pruning) and captures of a
        cheaper piece on a square the opponent covers on the landing board (the capturer
        transfers there and is lost) are skipped.
        """
        self.nodes += 1
        if self.nodes >= self._next_check:
            self._check()
        self.seldepth = max(self.seldepth, ply)
        use_tt = QS_TT
        if use_tt:
            word = self.tt.probe_word(pos.key)
            if word:
                _, tt_score, _, tt_bound = unpack(word)
                tt_score = score_from_tt(tt_score, ply)
                if (
                    tt_bound == BOUND_EXACT
                    or (tt_bound == BOUND_LOWER and tt_score >= beta)
                    or (tt_bound == BOUND_UPPER and tt_score <= alpha)
                ):
                    return tt_score
        in_check = pos.in_check()
        orig_alpha = alpha
        if in_check:
            moves = pos.legal_moves()
            if not moves:
                return -MATE + ply
            if ply >= MAX_PLY:
                return self._static(pos)
            best = -INF
            alpha = max(alpha, -MATE + ply)
        else:
            if pos.halfmove >= 100:
                return DRAW
            stand = self._static(pos)
            if stand >= beta or ply >= MAX_PLY:
                return stand
            alpha = max(alpha, stand)
            best = stand
            if qply == 0 and QS_CHECKS:
                moves = self._captures_and_checks(pos)
            else:
                moves = pos.captures()
            if not moves:
                return stand
        sq = pos.sq
        scored: list[int] = []  # score << 16 | move, as in _order
        if in_check:
            for m in moves:
                victim = sq[(m >> 6) & 63]
                scored.append((ORDER_VALUE[victim & 7] * 16 - ORDER_VALUE[sq[m & 63] & 7] + (m >> 12) * 64) << 16 | m)
        else:
            # Delta pruning: a capture that cannot lift alpha even with a margin is skipped.
            hopeless = alpha - best - DELTA_MARGIN
            prune_bad = QS_BAD_CAPTURES
            them = pos.turn ^ 1
            for m in moves:
                d = (m >> 6) & 63
                victim = sq[d]
                if m >> 12:
                    scored.append(((m >> 12) * 64 + ORDER_VALUE[victim & 7] * 16) << 16 | m)
                    continue
                vv = ORDER_VALUE[victim & 7]
                if QS_VALUE[victim & 7] < hopeless:
                    continue
                p = sq[m & 63]
                av = ORDER_VALUE[p & 7]
                if prune_bad and vv < av and attackers(pos, them, d, pos.occ_a if p >> 4 else pos.occ_b):
                    continue
                scored.append((vv * 16 - av) << 16 | m)
        scored.sort(reverse=True)
        best_move = 0
        for x in scored:
            m = x & 0xFFFF
            pos.push(m)
            score = -self._qsearch(pos, -beta, -alpha, ply + 1, qply + 1)
            pos.pop()
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    best_move = m
                    if score >= beta:
                        break
        if use_tt:
            bound = BOUND_LOWER if best >= beta else (BOUND_EXACT if best > orig_alpha else BOUND_UPPER)
            self.tt.store(pos.key, best_move, score_to_tt(best, ply), 0, bound)
        return best

    @staticmethod
    def _captures_and_checks(pos: Position) -> list[Move]:
        """Legal captures, promotions and quiet moves that give check (direct or discovered)."""
        moves = pos.legal_moves()
        if not moves:
            return moves
        info = check_info(pos)
        sq = pos.sq
        return [m for m in moves if sq[(m >> 6) & 63] or m >> 12 or gives_check(pos, m, info)]
