"""The tree search: PVS alpha-beta with pruning, and quiescence, below the root.

    tree = Tree(tt)
    score, move = tree.root(pos, moves, depth, alpha, beta)   # one root search (search.search drives it)

Scores are centipawns from the side to move; a mate in ``n`` plies scores ``MATE - n``
(``-(MATE - n)`` when being mated); draws (stalemate, fifty moves, repetition -- with the
board of every piece in the key --, bare kings) score 0. Fail-soft throughout.

The tree counts ``nodes`` and asks its ``clock`` (``search.clock``) every ``CHECK_EVERY``
nodes, which raises ``SearchStoppedError`` at a limit; it takes moves from one ``MovePicker`` per
ply (``search.movepick``), ordered by its ``heuristics`` (``search.history``), and takes a
node's static evaluation from its transposition-table entry when that has one, else through
``evals`` (``search.evalcache``); every store records it. Every tunable, the feature switches
(``USE_*``) included, is a named constant in the block below.

``negamax`` and ``qsearch`` read as numbered steps, in the manner of Stockfish's ``search()``
and ``qsearch()``; the large steps are methods named after them: ``_null_move`` (with its
verification), ``_singular`` (the singular test and multi-cut), ``_moves_loop`` (the moves of
a node, steps 10 to 17), ``_prune`` (pruning at shallow depth), ``_reduction`` (late-move
reductions) and ``_update_histories`` (a cutoff's lessons).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Final

from mypy_extensions import i64

from engine.bits import i64_buffer, i64_table, popcount
from engine.movegen import CheckInfo, gives_check
from engine.position import UNDO_KEY, Position
from engine.tables import Move
from search.clock import Clock
from search.evalcache import EvalCache
from search.history import MAX_PLY, USE_CAPTURE_HISTORY, USE_CONT_HISTORY, Heuristics, piece_to
from search.movepick import ORDER_VALUE, STAGE_BAD_CAPTURES, MovePicker
from search.score import DRAW, INF, MATE, MATE_BOUND, PIECE_VALUE
from search.see import see_ge
from search.tt import (
    BOUND_EXACT,
    BOUND_LOWER,
    BOUND_UPPER,
    NO_EVAL,
    TranspositionTable,
    score_from_tt,
    score_to_tt,
    unpack,
)
from tablebase.values import DECIDED, DRAWN

if TYPE_CHECKING:
    from librt.vecs import vec

    from tablebase.probe import Tablebases

# ---------------------------------------------------------------- tunables
NULL_MIN_DEPTH: Final = 2  # null-move pruning from this depth on
NULL_REDUCTION: Final = 2  # base null-move depth reduction ...
NULL_REDUCTION_DIVISOR: Final = 4  # ... plus one ply per this many plies of depth ...
NULL_EVAL_DIVISOR: Final = 200  # ... plus one per this many centipawns of static eval above beta ...
NULL_EVAL_MAX: Final = 3  # ... up to this many
NULL_VERIFY_MIN_DEPTH: Final = 12  # from this depth on a null-move fail high is verified: the same depth without
# the null move, and no null move for either side in the first 3/4 of its plies (zugzwang)
RFP_MAX_DEPTH: Final = 8  # reverse futility pruning up to this depth ...
RFP_MARGIN: Final = 100  # ... when static eval exceeds beta by this much per ply (one ply less when improving)
IIR_MIN_DEPTH: Final = 4  # internal iterative reduction: one ply less from this depth on without a hash move
FUTILITY_MAX_DEPTH: Final = 3  # futility pruning of quiet moves up to this depth ...
FUTILITY_MARGIN: Final = 120  # ... when static eval + this much per ply cannot reach alpha
LATE_FUTILITY_MAX_DEPTH: Final = 8  # and, up to this depth, a late quiet move when static eval + the margin times
# (1 + the depth left after the move's late-move reduction) cannot reach alpha
LMP_MAX_DEPTH: Final = 8  # late move pruning: at depth d up to this, quiet moves after ...
LMP_BASE: Final = 6  # ... (this + d * d) / 2 moves searched are skipped (twice as many when improving)
LMR_MIN_DEPTH: Final = 3  # late move reductions from this depth on ...
LMR_MIN_MOVES: Final = 3  # ... after this many moves searched at full depth
LMR_BASE: Final = 0.75  # reduction table: LMR_BASE + ln(depth) * ln(moves searched) / LMR_DIVISOR plies ...
LMR_DIVISOR: Final = 2.25  # ... so it grows with depth and with the move number
LMR_HISTORY_DIVISOR: Final = 8192  # one ply less per this much history (more for a move with bad history) ...
LMR_CONT_HISTORY_DIVISOR: Final = 16384  # ... or this much butterfly + continuation history (USE_CONT_HISTORY)
LMR_TABLE_SIZE: Final = 64  # the table's rows (depth) and columns (moves searched); larger ones use the last
CUT_NODE_REDUCTION: Final = 1  # LMR: plies more at an expected cut node (a null-window child of a late move)
CHECK_EXTENSION: Final = 1  # plies added when the side to move is in check
# Switches are 1/0, not True/False: mypyc 2.4 folds the constants True and 1 into one.
USE_NULL: Final = 1  # null-move pruning
USE_NULL_VERIFY: Final = 1  # verification of deep null-move cutoffs (NULL_VERIFY_MIN_DEPTH)
USE_LMR: Final = 1  # late move reductions
USE_RFP: Final = 1  # reverse futility pruning
USE_FUTILITY: Final = 1  # futility pruning of quiet moves
USE_LMP: Final = 1  # late move pruning
USE_CHECK_EXTENSION: Final = 1  # extend when in check
USE_IIR: Final = 1  # internal iterative reduction
USE_SINGULAR: Final = 1  # singular extensions with multi-cut (+58 +/- 40 Elo at 60,000 nodes: docs/measurements.md)
SE_MIN_DEPTH: Final = 8  # singular extension: from this depth on, when the hash move's entry ...
SE_TT_DEPTH_MARGIN: Final = 3  # ... is at most this much shallower and not an upper bound: the other moves
SE_MARGIN: Final = 2  # are searched to half depth against (hash score - this * depth); all fail low: +1 ply
QS_CHECKS: Final = 1  # first quiescence ply also tries quiet moves that give direct check
QS_TT: Final = 1  # quiescence probes and stores the transposition table (depth 0) ...
QS_TT_STAND_PAT: Final = 1  # ... a stand-pat cutoff too when the probe missed (lower bound: the eval kept)
QS_BAD_CAPTURES: Final = 1  # quiescence skips taking a cheaper piece when the exchange loses (SEE < 0)
USE_SEE_PRUNING: Final = 1  # low depth, non-PV: skip quiet moves landing en prise and captures losing material
SEE_PRUNE_MAX_DEPTH: Final = 6  # ... up to this depth ...
SEE_QUIET_MARGIN: Final = 30  # ... a quiet move whose SEE is below -this * depth^2 (unless it checks) ...
SEE_CAPTURE_MARGIN: Final = 100  # ... a capture whose SEE is below -this * depth
DELTA_MARGIN: Final = 200  # quiescence: skip captures that cannot lift alpha even with this margin
# History pruning's margin is in the tables' units: the bonus is depth * depth (at most 400)
# against a bound of 16384, so they fill slowly (after 600,000 nodes one continuation entry in a
# hundred was below -80, pure build) and keep growing over a game (``ucinewgame`` clears them).
USE_HISTORY_PRUNING: Final = 1  # low depth, non-PV: skip quiet moves with a bad continuation history (USE_CONT_HISTORY)
HISTORY_PRUNE_MAX_DEPTH: Final = 3  # ... up to this depth, a quiet move (not killer or countermove) that does
HISTORY_PRUNE_MARGIN: Final = 64  # ... not check, whose two continuation entries sum below -this * depth


def _lmr_table() -> list[int]:
    """Late-move reductions by ``depth * LMR_TABLE_SIZE + moves searched`` (plies, before the
    adjustments of ``Tree.negamax``)."""
    table = [0] * (LMR_TABLE_SIZE * LMR_TABLE_SIZE)
    for d in range(1, LMR_TABLE_SIZE):
        for n in range(1, LMR_TABLE_SIZE):
            table[d * LMR_TABLE_SIZE + n] = int(LMR_BASE + math.log(d) * math.log(n) / LMR_DIVISOR)
    return table


LMR: Final = i64_table(_lmr_table())
LMR_LAST: Final = LMR_TABLE_SIZE - 1  # the last row and column
CAPTURE_GAIN: Final = i64_table(PIECE_VALUE)  # what a capture wins by victim type: a native table (delta pruning)
# Answers of a step that are not scores (every score is within +-INF).
NO_CUTOFF: Final = INF + 1  # the step does not end the node: search on
SINGULAR: Final = INF + 2  # the singular test: every other move fails low, extend the hash move


def bound_cuts(bound: i64, score: i64, alpha: i64, beta: i64) -> bool:
    """A transposition-table entry's ``score`` with its ``bound`` settles the window: exact, a
    lower bound at or above ``beta``, or an upper bound at or below ``alpha``."""
    return (
        bound == BOUND_EXACT
        or (bound == BOUND_LOWER and score >= beta)
        or (bound == BOUND_UPPER and score <= alpha)
    )


def tablebase_score(value: int, ply: i64) -> i64:
    """A table value (``tablebase.values``) as a score at ``ply``: mates in plies, draws 0."""
    if value == DRAWN:
        return DRAW
    plies: i64 = value - DECIDED
    if plies % 2:
        return MATE - ply - plies
    return -(MATE - ply - plies)


class Tree:
    """Negamax and quiescence over one position, with the tables they share (module docstring)."""

    def __init__(self, tt: TranspositionTable) -> None:
        self.tt = tt
        self.clock = Clock()
        self.heuristics = Heuristics()
        self.evals = EvalCache()
        self.nodes: i64 = 0
        self.seldepth: i64 = 0
        self.last_null: i64 = -1  # stack index of the innermost null move on the current path
        self.null_min_ply: i64 = 0  # no null move before this ply (inside a null-move verification)
        self.root_best: Move = 0  # best move found so far in the running root search
        self.root_nodes_best = 0  # nodes spent under the best root move in the last root search
        self.root_nodes_all = 0  # nodes of that root search
        self.singular_extensions: i64 = 0  # counted for tests and tuning
        self.multi_cuts: i64 = 0
        self.null_verifications: i64 = 0  # deep null-move cutoffs verified ...
        self.null_refutations: i64 = 0  # ... and those the verification refuted (the node searched normally)
        self.history_prunes: i64 = 0  # quiet moves skipped by history pruning alone
        self.tablebases: Tablebases | None = None  # endgame tables (``set_tablebases``)
        self.tb_men: i64 = 0  # the most pieces a table has (0: none, the probe is skipped)
        # Per ply, made once: the move pickers (with their buffers) and the check information.
        self.pickers = [MovePicker() for _ in range(MAX_PLY + 2)]
        self.statics: vec[i64] = i64_buffer(MAX_PLY + 2)  # static eval by ply (-INF in check): "improving"
        self.check_infos = [CheckInfo() for _ in range(MAX_PLY + 2)]
        self.check_info_set: vec[i64] = i64_buffer(MAX_PLY + 2)  # 1: the ply's check_infos entry is the node's

    def set_tablebases(self, tablebases: Tablebases | None) -> None:
        """Probe these tables below the root (``None``: no tables)."""
        self.tablebases = tablebases
        self.tb_men = tablebases.max_men if tablebases is not None else 0

    def use_tablebases(self, on: bool) -> None:
        """Probe ``set_tablebases``'s tables in the next searches, or not (a weakened level)."""
        tables = self.tablebases
        self.tb_men = tables.max_men if on and tables is not None else 0

    def probe_tables(self, pos: Position) -> int:
        """The tables' value of ``pos`` (``tablebase.values``), 0 when none covers it."""
        tables = self.tablebases
        return tables.probe(pos) if tables is not None else 0

    def new_search(self) -> None:
        self.nodes = 0
        self.seldepth = 0
        self.last_null = -1
        self.null_min_ply = 0  # a stop inside a verification leaves it set
        self.heuristics.new_search()

    def root(self, pos: Position, moves: list[Move], depth: int, alpha: int, beta: int) -> tuple[int, Move]:
        """Search the root moves, the first with the full window, the rest with PVS.

        Returns ``(score, best move)``, fail-soft: a fail low returns an upper bound
        and the first move, a fail high the refuting move and a lower bound.
        ``self.root_best`` follows the best move that raised alpha so far.
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
                score = -self.negamax(pos, depth - 1, -beta, -alpha, 1, True, True)
            else:
                score = -self.negamax(pos, depth - 1, -alpha - 1, -alpha, 1, False, True, 0, True)
                if alpha < score < beta:
                    score = -self.negamax(pos, depth - 1, -beta, -alpha, 1, True, True)
            pos.pop()
            if score > best_score:
                best_score = score
                best_move = m
                best_nodes = self.nodes - before
                if score > alpha:
                    alpha = score
                    self.root_best = m
                    if score >= beta:
                        break
        self.root_nodes_best = best_nodes
        self.root_nodes_all = self.nodes - start_nodes
        bound = BOUND_LOWER if best_score >= beta else (BOUND_EXACT if best_score > orig_alpha else BOUND_UPPER)
        self.tt.store(pos.key, best_move, score_to_tt(best_score, 0), depth, bound)
        return best_score, best_move

    def is_draw(self, pos: Position, ply: i64) -> bool:
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
        limit = max(n - hm, self.last_null + 1)
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

    @staticmethod
    def has_pieces(pos: Position) -> bool:
        """Side to move has something besides king and pawns (null-move safety)."""
        return bool((pos.white if pos.turn else pos.black) & ~(pos.pawns | pos.kings))

    # ------------------------------------------------------------ tree
    def negamax(
        self,
        pos: Position,
        depth: i64,
        alpha: i64,
        beta: i64,
        ply: i64,
        is_pv: bool,
        can_null: bool,
        excluded: i64 = 0,
        cut_node: bool = False,
    ) -> i64:
        """Score of ``pos`` for the side to move, searched ``depth`` plies; fail-soft.

        ``ply`` is the distance from the root (mate scores are root-relative);
        ``is_pv`` marks nodes of the principal variation (open window), where no TT
        cutoff or pruning is done; ``can_null`` forbids two null moves in a row.
        ``excluded`` (the singular-extension test) is a move left out: that search of the
        position without its hash move neither reads nor writes the transposition table, so
        it never overwrites the real entry, and does no null move or reverse futility.
        ``cut_node`` marks a node expected to fail high (a null-window child of a late move,
        every other ply below): late moves there are reduced more.

        The steps are numbered as in Stockfish's ``search()``; the large ones are methods.
        """
        # Step 1. Initialize the node: count it, ask the clock now and then, the deepest ply.
        self.nodes += 1
        if self.nodes >= self.clock.next_check:
            self.clock.check(self.nodes)
        self.seldepth = max(self.seldepth, ply)

        # Step 2. A draw by the rules ends the node: fifty moves, a repetition.
        if self.is_draw(pos, ply):
            return DRAW

        # Step 2b. A tablebase covers the position: its exact score ends the node.
        if self.tb_men and popcount(pos.white | pos.black) <= self.tb_men:
            value = self.probe_tables(pos)
            if value:
                return tablebase_score(value, ply)

        # Step 3. Mate distance pruning: no mate found below can beat one already found.
        alpha = max(alpha, -MATE + ply)
        beta = min(beta, MATE - ply - 1)
        if alpha >= beta:
            return alpha

        # Step 4. Check extension; at the horizon (or the stack's end), quiescence.
        in_check = pos.in_check()
        if in_check and USE_CHECK_EXTENSION:
            depth += CHECK_EXTENSION
        if depth <= 0 or ply >= MAX_PLY:
            return self.qsearch(pos, alpha, beta, ply, 0)

        # Step 5. Transposition table lookup: outside the PV a deep enough bound is the answer.
        word = 0 if excluded else self.tt.probe_word(pos.key)
        tt_move: i64 = 0
        tt_score: i64 = 0
        tt_depth: i64 = 0
        tt_bound: i64 = 0
        tt_eval: i64 = NO_EVAL
        if word:
            tt_eval = self.tt.probe_eval
            tt_move, tt_score, tt_depth, tt_bound = unpack(word)
            tt_score = score_from_tt(tt_score, ply)
            if not is_pv and tt_depth >= depth and bound_cuts(tt_bound, tt_score, alpha, beta):
                return tt_score

        # Step 6. Static evaluation (the entry's, when it has one; none in check), and whether
        # it rose since this side's previous move (or that one was in check): improving.
        static = -INF
        improving = False
        if not in_check:
            static = tt_eval if tt_eval != NO_EVAL else self.evals.static(pos)
            improving = ply < 2 or static > self.statics[ply - 2]
        self.statics[ply] = static

        if not is_pv and not in_check and not excluded:
            # Step 7. Reverse futility pruning: the static eval beats beta by a margin per ply.
            if USE_RFP and depth <= RFP_MAX_DEPTH and static - RFP_MARGIN * (depth - improving) >= beta > -MATE_BOUND:
                return static

            # Step 8. Null move search with verification (``_null_move``).
            if (
                USE_NULL
                and can_null
                and depth >= NULL_MIN_DEPTH
                and ply >= self.null_min_ply
                and static >= beta
                and beta < MATE_BOUND
                and self.has_pieces(pos)
            ):
                score = self._null_move(pos, depth, beta, ply, static, cut_node)
                if score != NO_CUTOFF:
                    return score

        # Step 9. Singular extension and multi-cut (``_singular``); without a hash move, an
        # internal iterative reduction: a cheaper search here, its result orders the next visit.
        singular: i64 = 0  # the hash move, when it is singular: searched one ply deeper
        if (
            USE_SINGULAR
            and tt_move
            and ply > 0
            and depth >= SE_MIN_DEPTH
            and tt_bound != BOUND_UPPER
            and tt_depth >= depth - SE_TT_DEPTH_MARGIN
            and -MATE_BOUND < tt_score < MATE_BOUND
        ):
            verdict = self._singular(pos, depth, beta, ply, tt_move, tt_score, cut_node)
            if verdict == SINGULAR:
                singular = tt_move
            elif verdict != NO_CUTOFF:
                return verdict  # multi-cut
        elif USE_IIR and depth >= IIR_MIN_DEPTH and not tt_move and not excluded:
            depth -= 1

        # Step 10. Loop through the moves (``_moves_loop``: steps 11 to 17).
        return self._moves_loop(
            pos, depth, alpha, beta, ply, is_pv, cut_node, in_check, excluded, tt_move, singular, static, improving
        )

    def _moves_loop(
        self,
        pos: Position,
        depth: i64,
        alpha: i64,
        beta: i64,
        ply: i64,
        is_pv: bool,
        cut_node: bool,
        in_check: bool,
        excluded: i64,
        tt_move: i64,
        singular: i64,
        static: i64,
        improving: bool,
    ) -> i64:
        """Steps 10 to 17 of ``negamax``: the node's moves searched, best first
        (``search.movepick``), once its steps 1 to 9 found no cutoff. The arguments are the
        node's as those steps left them (``depth`` after an internal iterative reduction,
        ``singular`` the hash move when it is singular, else 0, ``static`` the static eval,
        -INF in check). Returns the node's score, fail-soft, and stores it in the
        transposition table unless a move is ``excluded``."""
        heur = self.heuristics
        picker = self.pickers[ply]
        picker.start(pos, tt_move, ply, heur)
        prunable = not is_pv and not in_check  # step 11 may skip moves here
        self.check_info_set[ply] = 0  # the node's CheckInfo, filled when step 11 first needs it
        node_alpha = alpha
        best_score = -INF
        best_move = 0
        sq = pos.squares
        cont = heur.cont
        searched = 0
        while True:
            m = picker.next(pos, heur)
            if not m:
                break
            if m == excluded:
                continue
            quiet = not sq[(m >> 6) & 63] and not m >> 12
            cont_score: i64 = 0  # the quiet move's continuation history, one and two plies back
            if quiet and USE_CONT_HISTORY:
                pt = piece_to(sq[m & 63], (m >> 6) & 63)
                c1: int = cont[picker.ch1 + pt]
                c2: int = cont[picker.ch2 + pt]
                cont_score = c1 + c2

            # Step 11. Pruning at shallow depth (``_prune``): not while every move so far is mated.
            if prunable and best_score > -MATE_BOUND:
                if self._prune(pos, m, quiet, depth, alpha, node_alpha, static, improving, searched, cont_score, picker, ply):
                    continue

            # Step 12. Make the move; the singular hash move is searched one ply deeper.
            pos.push(m)
            new_depth = depth - 1 + (m == singular)

            # Step 13. Principal variation search: the first move with the full window, the
            # others with a null window, late ones reduced (``_reduction``) and searched again
            # unreduced when they beat alpha, then with the full window in a PV node. A late
            # move's null-window child is expected to fail high (its re-search is not).
            if searched == 0:
                score = -self.negamax(pos, new_depth, -beta, -alpha, ply + 1, is_pv, True, 0, not is_pv and not cut_node)
            else:
                reduction: i64 = 0
                if (
                    USE_LMR
                    and depth >= LMR_MIN_DEPTH
                    and searched >= LMR_MIN_MOVES
                    and (quiet or picker.stage == STAGE_BAD_CAPTURES)
                    and not in_check
                ):
                    reduction = self._reduction(pos, m, quiet, depth, searched, is_pv, improving, cut_node, cont_score, picker)
                score = -self.negamax(pos, new_depth - reduction, -alpha - 1, -alpha, ply + 1, False, True, 0, True)
                if score > alpha and reduction > 0:
                    score = -self.negamax(pos, new_depth, -alpha - 1, -alpha, ply + 1, False, True, 0, not cut_node)
                if is_pv and alpha < score < beta:
                    score = -self.negamax(pos, new_depth, -beta, -alpha, ply + 1, True, True)

            # Step 14. Undo the move.
            pos.pop()
            searched += 1

            # Step 15. A new best move; a beta cutoff ends the loop and teaches the histories.
            if score > best_score:
                best_score = score
                best_move = m
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        self._update_histories(pos, m, quiet, ply, depth, picker)
                        break
            if quiet:
                picker.add_tried(m)
            elif USE_CAPTURE_HISTORY:
                picker.add_tried_capture(m)

        # Step 16. No legal move: mated or stalemate. The singular test's search has no entry.
        if not picker.count:
            return -MATE + ply if in_check else DRAW
        if excluded:
            return best_score if best_score > -INF else alpha  # no other move: the excluded one is singular

        # Step 17. Store the result, its bound and the static eval (-INF: in check, none).
        bound = BOUND_LOWER if best_score >= beta else (BOUND_EXACT if best_score > node_alpha else BOUND_UPPER)
        self.tt.store(pos.key, best_move, score_to_tt(best_score, ply), depth, bound, static)
        return best_score

    def _null_move(self, pos: Position, depth: i64, beta: i64, ply: i64, static: i64, cut_node: bool) -> i64:
        """Step 8 of ``negamax``: give the opponent a free move; if a reduced search of that
        still beats ``beta``, the node is cut off. Returns the node's score then (beta for an
        unproved mate), else ``NO_CUTOFF``.

        The reduction grows with depth and with the static eval's lead over beta. From
        ``NULL_VERIFY_MIN_DEPTH`` on a cutoff is verified against zugzwang: the position is
        searched without the null move, at the null move's depth, with no null move for
        either side in the first 3/4 of it; a verification that fails low refutes the cutoff.
        """
        r = NULL_REDUCTION + depth // NULL_REDUCTION_DIVISOR + min(NULL_EVAL_MAX, (static - beta) // NULL_EVAL_DIVISOR)
        null_depth = depth - 1 - r  # the null move's search, and its verification's
        saved_null = self.last_null
        self.last_null = len(pos.stack)
        pos.push_null()
        score = -self.negamax(pos, null_depth, -beta, -beta + 1, ply + 1, False, False, 0, not cut_node)
        pos.pop_null()
        self.last_null = saved_null
        if score < beta:
            return NO_CUTOFF
        if score >= MATE_BOUND:
            score = beta  # an unproved mate
        if not USE_NULL_VERIFY or depth < NULL_VERIFY_MIN_DEPTH or self.null_min_ply:
            return score
        self.null_verifications += 1
        self.null_min_ply = ply + 3 * null_depth // 4
        verified = self.negamax(pos, null_depth, beta - 1, beta, ply, False, False, 0, cut_node)
        self.null_min_ply = 0
        if verified >= beta:
            return score
        self.null_refutations += 1  # the node is searched normally
        return NO_CUTOFF

    def _singular(self, pos: Position, depth: i64, beta: i64, ply: i64, tt_move: i64, tt_score: i64, cut_node: bool) -> i64:
        """Step 9 of ``negamax``: the other moves are searched to half depth, without the hash
        move (whose entry is deep enough and not an upper bound), against ``tt_score`` less a
        margin per ply. ``SINGULAR`` when they all fail low (the hash move is searched one ply
        deeper); when they beat that bound and it is at or above ``beta``, the bound (multi-cut:
        more than one move beats beta, the node is cut off); else ``NO_CUTOFF``."""
        s_beta = tt_score - SE_MARGIN * depth
        score = self.negamax(pos, (depth - 1) // 2, s_beta - 1, s_beta, ply, False, False, tt_move, cut_node)
        if score < s_beta:
            self.singular_extensions += 1
            return SINGULAR
        if s_beta >= beta:
            self.multi_cuts += 1
            return s_beta
        return NO_CUTOFF

    def _prune(
        self,
        pos: Position,
        m: i64,
        quiet: bool,
        depth: i64,
        alpha: i64,
        node_alpha: i64,
        static: i64,
        improving: bool,
        searched: i64,
        cont_score: i64,
        picker: MovePicker,
        ply: i64,
    ) -> bool:
        """Step 11 of ``negamax`` (a node outside the PV, not in check, some move so far better
        than mated): whether to skip move ``m`` (not made yet).

        A quiet move is skipped unless it gives check when the node is futile (its static eval
        plus a margin per ply cannot reach the window's alpha, ``node_alpha``), when it is
        futile at the depth left after its late-move reduction, when ``searched`` passed the
        late-move count (LMP), when its continuation history ``cont_score`` is bad (not a
        killer or the countermove), or when it lands en prise (SEE). A capture is skipped when
        its exchange loses too much. Only the node's futility skips the first move.
        """
        see_now = bool(USE_SEE_PRUNING) and searched > 0 and depth <= SEE_PRUNE_MAX_DEPTH
        if not quiet:
            return see_now and not m >> 12 and not see_ge(pos, m, -SEE_CAPTURE_MARGIN * depth)
        futile = (
            bool(USE_FUTILITY)
            and depth <= FUTILITY_MAX_DEPTH
            and static + FUTILITY_MARGIN * depth <= node_alpha
            and node_alpha > -MATE_BOUND
        )
        late_count = LMP_BASE + depth * depth  # LMP: the moves searched before the rest are skipped
        late = bool(USE_LMP) and depth <= LMP_MAX_DEPTH and searched >= (late_count if improving else late_count // 2)
        bad_history = False
        if not futile and not late:
            bad_history = (
                bool(USE_HISTORY_PRUNING and USE_CONT_HISTORY)
                and depth <= HISTORY_PRUNE_MAX_DEPTH
                and searched > 0
                and cont_score < -HISTORY_PRUNE_MARGIN * depth
                and m != picker.k0
                and m != picker.k1
                and m != picker.counter
            )
            late_futile = (
                bool(USE_FUTILITY)
                and depth <= LATE_FUTILITY_MAX_DEPTH
                and searched > 0
                and node_alpha > -MATE_BOUND
                and static + FUTILITY_MARGIN * (1 + max(0, depth - LMR[min(depth, LMR_LAST) * LMR_TABLE_SIZE + min(searched, LMR_LAST)])) <= alpha
            )
            if not (
                bad_history or late_futile or (see_now and not see_ge(pos, m, -SEE_QUIET_MARGIN * depth * depth))
            ):
                return False
        cinfo = self.check_infos[ply]
        if not self.check_info_set[ply]:
            cinfo.set(pos)
            self.check_info_set[ply] = 1
        if gives_check(pos, m, cinfo):
            return False
        if bad_history:  # history pruning alone: neither futile nor late
            self.history_prunes += 1
        return True

    def _reduction(
        self,
        pos: Position,
        m: i64,
        quiet: bool,
        depth: i64,
        searched: i64,
        is_pv: bool,
        improving: bool,
        cut_node: bool,
        cont_score: i64,
        picker: MovePicker,
    ) -> i64:
        """Step 13 of ``negamax``: the late-move reduction of move ``m`` (made: ``pos`` is after
        it), in plies, from ``LMR`` by depth and moves ``searched``: one more outside the PV
        when not improving, ``CUT_NODE_REDUCTION`` more at an expected cut node, one less in
        the PV and for a killer or the countermove, less for a good history (more for a bad
        one); at least 0, at most ``depth - 2``, and 0 when the move gives check."""
        reduction: i64 = LMR[min(depth, LMR_LAST) * LMR_TABLE_SIZE + min(searched, LMR_LAST)]
        reduction += (not is_pv) and (not improving)
        if cut_node:
            reduction += CUT_NODE_REDUCTION
        reduction -= is_pv
        if quiet:
            if m == picker.k0 or m == picker.k1 or m == picker.counter:
                reduction -= 1
            h = self.heuristics.history[(pos.turn ^ 1) << 12 | m & 4095]  # pushed: the mover is not to move
            if USE_CONT_HISTORY:
                h += cont_score
                reduction -= h // LMR_CONT_HISTORY_DIVISOR if h >= 0 else -(-h // LMR_CONT_HISTORY_DIVISOR)
            else:
                reduction -= h // LMR_HISTORY_DIVISOR if h >= 0 else -(-h // LMR_HISTORY_DIVISOR)
        reduction = max(0, min(reduction, depth - 2))
        if reduction > 0 and pos.in_check():
            reduction = 0
        return reduction

    def _update_histories(self, pos: Position, m: i64, quiet: bool, ply: i64, depth: i64, picker: MovePicker) -> None:
        """Step 15 of ``negamax``: move ``m`` cut off. A quiet one becomes a killer and the
        countermove and gains history, the quiet moves tried before it lose some; with the
        capture history on, a capture gains and the captures tried before it lose."""
        heur = self.heuristics
        if quiet:
            heur.reward(pos, m, ply, depth, picker.tried, picker.ntried, picker.ch1, picker.ch2)
        if USE_CAPTURE_HISTORY and (not quiet or picker.ncaptures):
            heur.reward_capture(pos, 0 if quiet else m, depth, picker.tried_captures, picker.ncaptures)

    def qsearch(self, pos: Position, alpha: i64, beta: i64, ply: i64, qply: i64) -> i64:
        """Quiescence: captures and promotions (and, at ``qply`` 0, quiet direct checks);
        all evasions when in check, so a mate at the horizon is seen. Fail-soft.

        Not in check, captures that cannot lift alpha (delta pruning) and captures of a
        cheaper piece on a square the opponent covers on the landing board (the capturer
        transfers there and is lost) are skipped. The steps are numbered as in Stockfish's
        ``qsearch()``.
        """
        # Step 1. Initialize the node: count it, ask the clock now and then, the deepest ply.
        self.nodes += 1
        if self.nodes >= self.clock.next_check:
            self.clock.check(self.nodes)
        self.seldepth = max(self.seldepth, ply)

        # Step 2. Transposition table lookup: any entry's bound may be the answer (depth 0 is enough).
        use_tt = QS_TT
        word: i64 = 0
        tt_eval: i64 = NO_EVAL
        if use_tt:
            word = self.tt.probe_word(pos.key)
            if word:
                tt_eval = self.tt.probe_eval
                _, tt_score, _, tt_bound = unpack(word)
                tt_score = score_from_tt(tt_score, ply)
                if bound_cuts(tt_bound, tt_score, alpha, beta):
                    return tt_score

        # Step 3. In check: every evasion is searched (none: mated). Else a draw by fifty moves,
        # then the static eval (the entry's, when it has one) as the score of standing pat.
        in_check = pos.in_check()
        node_alpha = alpha
        picker = self.pickers[ply]
        stand: i64 = -INF  # the static eval: none in check
        if in_check:
            n = picker.start_evasions(pos)
            if not n:
                return -MATE + ply
            if ply >= MAX_PLY:
                return self.evals.static(pos)
            best = -INF
            alpha = max(alpha, -MATE + ply)
        else:
            if pos.halfmove >= 100:
                return DRAW
            stand = tt_eval if tt_eval != NO_EVAL else self.evals.static(pos)
            if stand >= beta or ply >= MAX_PLY:
                if QS_TT_STAND_PAT and use_tt and stand >= beta and not word:
                    # The result a probe would recompute (stand >= any beta up to it), and the
                    # eval for the next visit: the eval cache keeps only 2**16.
                    self.tt.store(pos.key, 0, score_to_tt(stand, ply), 0, BOUND_LOWER, stand)
                return stand
            alpha = max(alpha, stand)
            best = stand
            # Step 4. The captures and promotions, and on the first ply the quiet moves that
            # give check (direct or discovered), keyed by the picker.
            checks: CheckInfo | None = None
            if qply == 0 and QS_CHECKS:
                checks = self.check_infos[ply]
                checks.set(pos)
            n = picker.start_qsearch(pos, checks)
            if not n:
                return stand

        # Step 5. Loop through the moves, best first.
        sq = pos.squares
        hopeless = alpha - best - DELTA_MARGIN  # a capture winning less cannot lift alpha, even with a margin
        best_move = 0
        while True:
            m = picker.pick(n)
            if not m:
                break
            # Step 6. Pruning, not in check: delta pruning, and a capture of a cheaper piece
            # whose exchange loses material (the capturer is taken where it lands).
            if not in_check and not m >> 12:
                victim = sq[(m >> 6) & 63] & 7
                if CAPTURE_GAIN[victim] < hopeless:
                    continue
                if QS_BAD_CAPTURES and ORDER_VALUE[victim] < ORDER_VALUE[sq[m & 63] & 7] and not see_ge(pos, m, 0):
                    continue

            # Step 7. Make and search the move, undo it; a new best move, a beta cutoff.
            pos.push(m)
            score = -self.qsearch(pos, -beta, -alpha, ply + 1, qply + 1)
            pos.pop()
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    best_move = m
                    if score >= beta:
                        break

        # Step 8. Store the result, its bound and the static eval (-INF: in check, none).
        if use_tt:
            bound = BOUND_LOWER if best >= beta else (BOUND_EXACT if best > node_alpha else BOUND_UPPER)
            self.tt.store(pos.key, best_move, score_to_tt(best, ply), 0, bound, stand)
        return best
