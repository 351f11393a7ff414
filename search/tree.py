"""The tree search: PVS alpha-beta with pruning, and quiescence, below the root.

    tree = Tree(tt)
    score, move = tree.root(pos, moves, depth, alpha, beta)   # one root search (search.search drives it)

Scores are centipawns from the side to move; a mate in ``n`` plies scores ``MATE - n``
(``-(MATE - n)`` when being mated); draws (stalemate, fifty moves, repetition -- with the
board of every piece in the key --, bare kings) score 0. Fail-soft throughout.

The tree counts ``nodes`` and asks its ``clock`` (``search.clock``) every ``CHECK_EVERY``
nodes, which raises ``SearchStopped`` at a limit; it orders moves with ``heuristics``
(``search.ordering``) and takes a node's static evaluation from its transposition-table entry
when that has one, else through ``evals`` (``search.evalcache``); every store records it. Every
tunable, the feature switches (``USE_*``) included, is a named constant in the block below.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Final

from mypy_extensions import i64

from engine.bits import i64_buffer
from engine.movegen import ALL, CAPTURES, CheckInfo, gives_check
from engine.position import UNDO_KEY, Position
from engine.tables import Move
from search.clock import Clock
from search.evalcache import EvalCache
from search.ordering import (
    MAX_PLY,
    ORDER_VALUE,
    STAGE_BAD_CAPTURES,
    USE_CAPTURE_HISTORY,
    USE_CONT_HISTORY,
    Heuristics,
    MovePicker,
    piece_to,
)
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

if TYPE_CHECKING:
    from librt.vecs import vec

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


LMR: Final = _lmr_table()
LMR_LAST: Final = LMR_TABLE_SIZE - 1  # the last row and column


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
        # Per ply, made once: the move pickers (with their buffers) and the check information.
        self.pickers = [MovePicker() for _ in range(MAX_PLY + 2)]
        self.statics: vec[i64] = i64_buffer(MAX_PLY + 2)  # static eval by ply (-INF in check): "improving"
        self.check_infos = [CheckInfo() for _ in range(MAX_PLY + 2)]

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
        """
        self.nodes += 1
        if self.nodes >= self.clock.next_check:
            self.clock.check(self.nodes)
        self.seldepth = max(self.seldepth, ply)
        if self.is_draw(pos, ply):
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
            return self.qsearch(pos, alpha, beta, ply, 0)

        key = pos.key
        word = 0 if excluded else self.tt.probe_word(key)
        tt_move: i64 = 0
        tt_score: i64 = 0
        tt_depth: i64 = 0
        tt_bound: i64 = 0
        tt_eval: i64 = NO_EVAL
        if word:
            tt_eval = self.tt.probe_eval
            tt_move, tt_score, tt_depth, tt_bound = unpack(word)
            tt_score = score_from_tt(tt_score, ply)
            if not is_pv and tt_depth >= depth:
                if tt_bound == BOUND_EXACT:
                    return tt_score
                if tt_bound == BOUND_LOWER and tt_score >= beta:
                    return tt_score
                if tt_bound == BOUND_UPPER and tt_score <= alpha:
                    return tt_score

        static = -INF
        improving = False
        if not in_check:
            static = tt_eval if tt_eval != NO_EVAL else self.evals.static(pos)  # the entry's, when it has one
            # The static eval rose since this side's previous move (or that one was in check).
            improving = ply < 2 or static > self.statics[ply - 2]
        self.statics[ply] = static
        if not in_check and not excluded:
            if not is_pv:
                if (
                    USE_RFP
                    and depth <= RFP_MAX_DEPTH
                    and static - RFP_MARGIN * (depth - improving) >= beta
                    and beta > -MATE_BOUND
                ):
                    return static
                if (
                    USE_NULL
                    and can_null
                    and depth >= NULL_MIN_DEPTH
                    and ply >= self.null_min_ply
                    and static >= beta
                    and beta < MATE_BOUND
                    and self.has_pieces(pos)
                ):
                    r = NULL_REDUCTION + depth // NULL_REDUCTION_DIVISOR + min(NULL_EVAL_MAX, (static - beta) // NULL_EVAL_DIVISOR)
                    null_depth = depth - 1 - r  # the null move's search, and its verification's
                    saved_null = self.last_null
                    self.last_null = len(pos.stack)
                    pos.push_null()
                    score = -self.negamax(pos, null_depth, -beta, -beta + 1, ply + 1, False, False, 0, not cut_node)
                    pos.pop_null()
                    self.last_null = saved_null
                    if score >= beta:
                        if score >= MATE_BOUND:
                            score = beta  # an unproved mate
                        if not USE_NULL_VERIFY or depth < NULL_VERIFY_MIN_DEPTH or self.null_min_ply:
                            return score
                        # Deep: verify without the null move, at the null move's depth, with no
                        # null move for either side in the first 3/4 of it.
                        self.null_verifications += 1
                        self.null_min_ply = ply + 3 * null_depth // 4
                        verified = self.negamax(pos, null_depth, beta - 1, beta, ply, False, False, 0, cut_node)
                        self.null_min_ply = 0
                        if verified >= beta:
                            return score
                        self.null_refutations += 1

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
            s_beta = tt_score - SE_MARGIN * depth
            score = self.negamax(pos, (depth - 1) // 2, s_beta - 1, s_beta, ply, False, False, tt_move, cut_node)
            if score < s_beta:
                singular = tt_move  # every other move fails low: the hash move is singular
                self.singular_extensions += 1
            elif s_beta >= beta:
                self.multi_cuts += 1
                return s_beta  # multi-cut: another move also beats beta
        elif USE_IIR and depth >= IIR_MIN_DEPTH and not tt_move and not excluded:
            depth -= 1  # no hash move: a cheaper search here, its result orders the next visit

        heur = self.heuristics
        picker = self.pickers[ply]
        picker.start(pos, tt_move, ply, heur)
        futile = (
            bool(USE_FUTILITY)
            and not is_pv
            and not in_check
            and depth <= FUTILITY_MAX_DEPTH
            and static + FUTILITY_MARGIN * depth <= alpha
            and alpha > -MATE_BOUND
        )
        late_futile = (
            bool(USE_FUTILITY)
            and not is_pv
            and not in_check
            and depth <= LATE_FUTILITY_MAX_DEPTH
            and alpha > -MATE_BOUND
        )
        lmr_row = min(depth, LMR_LAST) * LMR_TABLE_SIZE  # this depth's row of the reduction table
        orig_alpha = alpha
        best_score = -INF
        best_move = 0
        sq = pos.squares
        searched = 0
        prune_see = bool(USE_SEE_PRUNING) and not is_pv and not in_check and depth <= SEE_PRUNE_MAX_DEPTH
        lmp_limit = 999
        if USE_LMP and not is_pv and not in_check and depth <= LMP_MAX_DEPTH:
            lmp_limit = (LMP_BASE + depth * depth) * (1 + improving) // 2
        prune_hist = (
            bool(USE_HISTORY_PRUNING and USE_CONT_HISTORY)
            and not is_pv
            and not in_check
            and depth <= HISTORY_PRUNE_MAX_DEPTH
        )
        cont = heur.cont
        ch1 = picker.ch1
        ch2 = picker.ch2
        hist_limit = -HISTORY_PRUNE_MARGIN * depth
        cinfo = self.check_infos[ply]
        cinfo_set = False
        while True:
            m = picker.next(pos, heur)
            if not m:
                break
            if m == excluded:
                continue
            quiet = not sq[(m >> 6) & 63] and not m >> 12
            # SEE pruning: not the first move, nor while every move so far is mated.
            see_now = prune_see and searched > 0 and best_score > -MATE_BOUND
            cont_score: i64 = 0  # the quiet move's continuation history, one and two plies back
            if quiet:
                if USE_CONT_HISTORY:
                    pt = piece_to(sq[m & 63], (m >> 6) & 63)
                    c1: int = cont[ch1 + pt]
                    c2: int = cont[ch2 + pt]
                    cont_score = c1 + c2
                # Futility, late-move count, bad continuation history or (low depth) landing en
                # prise: skipped unless it checks.
                bad_history = (
                    prune_hist
                    and searched > 0
                    and cont_score < hist_limit
                    and m != picker.k0
                    and m != picker.k1
                    and m != picker.counter
                )
                if best_score > -MATE_BOUND and (
                    futile
                    or (
                        late_futile
                        and searched > 0
                        and static + FUTILITY_MARGIN * (1 + max(0, depth - LMR[lmr_row + min(searched, LMR_LAST)])) <= alpha
                    )
                    or searched >= lmp_limit
                    or bad_history
                    or (see_now and not see_ge(pos, m, -SEE_QUIET_MARGIN * depth * depth))
                ):
                    if not cinfo_set:
                        cinfo.set(pos)
                        cinfo_set = True
                    if not gives_check(pos, m, cinfo):
                        if bad_history and not futile and searched < lmp_limit:
                            self.history_prunes += 1
                        continue
            elif see_now and not m >> 12 and not see_ge(pos, m, -SEE_CAPTURE_MARGIN * depth):
                continue  # low depth: a capture that loses too much
            pos.push(m)
            new_depth = depth - 1 + (m == singular)
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
                    reduction = LMR[lmr_row + min(searched, LMR_LAST)]
                    reduction += (not is_pv) and (not improving)
                    if cut_node:
                        reduction += CUT_NODE_REDUCTION
                    reduction -= is_pv
                    if quiet:
                        if m == picker.k0 or m == picker.k1 or m == picker.counter:
                            reduction -= 1
                        h = heur.history[(pos.turn ^ 1) << 12 | m & 4095]  # pushed: the mover is not to move
                        if USE_CONT_HISTORY:
                            h += cont_score
                            reduction -= h // LMR_CONT_HISTORY_DIVISOR if h >= 0 else -(-h // LMR_CONT_HISTORY_DIVISOR)
                        else:
                            reduction -= h // LMR_HISTORY_DIVISOR if h >= 0 else -(-h // LMR_HISTORY_DIVISOR)
                    reduction = max(0, min(reduction, depth - 2))
                    if reduction > 0 and pos.in_check():
                        reduction = 0
                # A late move's null-window child is expected to fail high (its re-search is not).
                score = -self.negamax(pos, new_depth - reduction, -alpha - 1, -alpha, ply + 1, False, True, 0, True)
                if score > alpha and reduction > 0:
                    score = -self.negamax(pos, new_depth, -alpha - 1, -alpha, ply + 1, False, True, 0, not cut_node)
                if is_pv and alpha < score < beta:
                    score = -self.negamax(pos, new_depth, -beta, -alpha, ply + 1, True, True)
            pos.pop()
            searched += 1
            if score > best_score:
                best_score = score
                best_move = m
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        if quiet:
                            heur.reward(pos, m, ply, depth, picker.tried, picker.ntried, ch1, ch2)
                        if USE_CAPTURE_HISTORY and (not quiet or picker.ncaptures):
                            heur.reward_capture(pos, 0 if quiet else m, depth, picker.tried_captures, picker.ncaptures)
                        break
            if quiet:
                picker.add_tried(m)
            elif USE_CAPTURE_HISTORY:
                picker.add_tried_capture(m)
        if not picker.count:  # no legal move
            return -MATE + ply if in_check else DRAW
        if excluded:
            return best_score if best_score > -INF else alpha  # no other move: the excluded one is singular

        bound = BOUND_LOWER if best_score >= beta else (BOUND_EXACT if best_score > orig_alpha else BOUND_UPPER)
        self.tt.store(key, best_move, score_to_tt(best_score, ply), depth, bound, static)  # -INF: in check, none
        return best_score

    def qsearch(self, pos: Position, alpha: i64, beta: i64, ply: i64, qply: i64) -> i64:
        """Quiescence: captures and promotions (and, at ``qply`` 0, quiet direct checks);
        all evasions when in check, so a mate at the horizon is seen. Fail-soft.

        Not in check, captures that cannot lift alpha (delta pruning) and captures of a
        cheaper piece on a square the opponent covers on the landing board (the capturer
        transfers there and is lost) are skipped.
        """
        self.nodes += 1
        if self.nodes >= self.clock.next_check:
            self.clock.check(self.nodes)
        self.seldepth = max(self.seldepth, ply)
        use_tt = QS_TT
        word: i64 = 0
        tt_eval: i64 = NO_EVAL
        if use_tt:
            word = self.tt.probe_word(pos.key)
            if word:
                tt_eval = self.tt.probe_eval
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
        picker = self.pickers[ply]
        stand: i64 = -INF  # the static eval: none in check
        if in_check:
            n = picker.start_qsearch(pos, ALL, None)
            if not n:
                return -MATE + ply
            if ply >= MAX_PLY:
                return self.evals.static(pos)
            best = -INF
            alpha = max(alpha, -MATE + ply)
        else:
            if pos.halfmove >= 100:
                return DRAW
            stand = tt_eval if tt_eval != NO_EVAL else self.evals.static(pos)  # the entry's, when it has one
            if stand >= beta or ply >= MAX_PLY:
                if QS_TT_STAND_PAT and use_tt and stand >= beta and not word:
                    # The result a probe would recompute (stand >= any beta up to it), and the
                    # eval for the next visit: the eval cache keeps only 2**16.
                    self.tt.store(pos.key, 0, score_to_tt(stand, ply), 0, BOUND_LOWER, stand)
                return stand
            alpha = max(alpha, stand)
            best = stand
            checks: CheckInfo | None = None
            if qply == 0 and QS_CHECKS:  # quiet moves that give check (direct or discovered) too
                checks = self.check_infos[ply]
                checks.set(pos)
            n = picker.start_qsearch(pos, CAPTURES, checks)
            if not n:
                return stand
        sq = pos.squares
        keys = picker.keys  # the moves, keyed in place: score << 16 | move, as in Heuristics.order
        j = 0
        if in_check:
            for i in range(n):
                m = keys[i]
                victim = sq[(m >> 6) & 63]
                keys[j] = (ORDER_VALUE[victim & 7] * 16 - ORDER_VALUE[sq[m & 63] & 7] + (m >> 12) * 64) << 16 | m
                j += 1
        else:
            # Delta pruning: a capture that cannot lift alpha even with a margin is skipped.
            hopeless = alpha - best - DELTA_MARGIN
            prune_bad = QS_BAD_CAPTURES
            for i in range(n):
                m = keys[i]
                d = (m >> 6) & 63
                victim = sq[d]
                if m >> 12:
                    keys[j] = ((m >> 12) * 64 + ORDER_VALUE[victim & 7] * 16) << 16 | m
                    j += 1
                    continue
                vv = ORDER_VALUE[victim & 7]
                if PIECE_VALUE[victim & 7] < hopeless:  # what the capture can win
                    continue
                p = sq[m & 63]
                av = ORDER_VALUE[p & 7]
                if prune_bad and vv < av and not see_ge(pos, m, 0):
                    continue  # the exchange loses material (the capturer is taken where it lands)
                keys[j] = (vv * 16 - av) << 16 | m
                j += 1
        best_move = 0
        picker.keyed(j)
        while True:
            m = picker.pick(j)
            if not m:
                break
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
        if use_tt:
            bound = BOUND_LOWER if best >= beta else (BOUND_EXACT if best > orig_alpha else BOUND_UPPER)
            self.tt.store(pos.key, best_move, score_to_tt(best, ply), 0, bound, stand)
        return best
