"""The move picker: the moves of a node one at a time, best first, and the keys that order them.

    picker = MovePicker()                        # one per ply, made once
    picker.start(pos, tt_move, ply, heur)        # a node of the main search
    while m := picker.next(pos, heur): ...       # hash move, good captures, killers, countermove, quiets, bad captures
    n = picker.start_qsearch(pos, checks)        # quiescence: captures and promotions (and quiet checks), keyed
    n = picker.start_evasions(pos)               # quiescence in check: every evasion, keyed
    while m := picker.pick(n): ...
    order_moves(pos, moves, tt_move, ply, heur)  # a whole list at once, in the picker's order (the root)

Moves are ordered by one integer key, ``score << 16 | move``, highest first: ties go to the
larger move number, so every order is total and the same in both builds. The keys are made
here only: captures and promotions by MVV-LVA (``ORDER_VALUE``; the capture history of
``search.history`` added when on), quiet moves by their histories, the captures that lose the
capturer (``search.see``) after the quiet moves; the quiescence search's keys are MVV-LVA alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from mypy_extensions import i64

from engine.bits import COMPILED, i64_buffer, i64_table
from engine.movegen import ALL, CAPTURES, MAX_MOVES, QUIETS, CheckInfo, Legality, gives_check
from engine.position import Position
from engine.tables import Move
from search.history import (
    CONT_NEUTRAL,
    USE_CAPTURE_HISTORY,
    USE_CONT_HISTORY,
    USE_COUNTERMOVE,
    Heuristics,
    capture_index,
    cont_context,
    piece_to,
)
from search.see import see_ge

if TYPE_CHECKING:
    from librt.vecs import vec

# ---------------------------------------------------------------- tunables
BAD_CAPTURE_ORDER: Final = 1  # order captures of a cheaper piece that lose the exchange (SEE < 0) last
CAPTURE_HISTORY_DIVISOR: Final = 256  # capture history / this joins MVV-LVA (victims 16 apart): +-64 at most
TT_MOVE_SCORE: Final = 1 << 30  # ordering: the hash move first
CAPTURE_BASE: Final = 1 << 24  # ordering: captures and promotions above killers and quiet moves
KILLER_SCORE: Final = 1 << 22  # ordering: killer moves above other quiet moves
COUNTER_SCORE: Final = (1 << 22) - 1  # ordering: the countermove just below the killers
BAD_CAPTURE_BASE: Final = -(1 << 24)  # ordering: captures that lose the capturer go after the quiet moves
# MVV-LVA ranks by ptype, not material (search.score.PIECE_VALUE): the king ranks last as a
# capturer. The mate search orders its captures by them too. A native table: mypyc reads a Final
# tuple by a variable index by building the tuple as an object first.
ORDER_VALUE: Final = i64_table((0, 1, 3, 3, 5, 9, 20))


def capture_score(pos: Position, m: i64) -> i64:
    """The ordering score of a capture or promotion ``m`` of the side to move:
    MVV-LVA above ``CAPTURE_BASE``, or below the quiet moves (``BAD_CAPTURE_BASE``) when a
    cheaper piece is taken and the exchange loses material (``search.see``: the opponent
    retakes the capturer on the board it lands on)."""
    sq = pos.squares
    d = (m >> 6) & 63
    p = sq[m & 63]
    vv = ORDER_VALUE[sq[d] & 7]
    av = ORDER_VALUE[p & 7]
    s = vv * 16 - av + (m >> 12) * 64
    if BAD_CAPTURE_ORDER and vv < av and not m >> 12 and not see_ge(pos, m, 0):
        return s + BAD_CAPTURE_BASE  # the exchange loses material: the capturer is taken where it lands
    return s + CAPTURE_BASE


def capture_key(pos: Position, m: i64, heur: Heuristics) -> i64:
    """``capture_score`` plus, for a capture that does not lose the capturer, its capture
    history (``USE_CAPTURE_HISTORY``): the ordering score of a capture or promotion."""
    s = capture_score(pos, m)
    if USE_CAPTURE_HISTORY and s >= 0:
        c: int = heur.capture_history[capture_index(pos, m)]
        s += c // CAPTURE_HISTORY_DIVISOR
    return s


def order_moves(pos: Position, moves: list[Move], tt_move: Move, ply: int, heur: Heuristics) -> list[Move]:
    """``moves`` in the picker's order, all keyed at once: hash move, captures/promotions by
    MVV-LVA (and capture history), killers, countermove, then quiet moves by history
    (butterfly and continuation), and last the captures of a cheaper piece that the capturer
    loses on the board it lands on."""
    sq = pos.squares
    hist = heur.history
    cont = heur.cont
    side = pos.turn << 12
    ch1 = cont_context(pos.stack, 1) if USE_CONT_HISTORY else CONT_NEUTRAL
    ch2 = cont_context(pos.stack, 2) if USE_CONT_HISTORY else CONT_NEUTRAL
    k0 = heur.killers[2 * ply]
    k1 = heur.killers[2 * ply + 1]
    counter = heur.countermoves[pos.stack[-1][0] & 4095] if USE_COUNTERMOVE and pos.stack else -1
    scored: list[int] = []  # score << 16 | move: sorting the ints sorts by score, then move
    for m in moves:
        if m == tt_move:
            scored.append(TT_MOVE_SCORE << 16 | m)
            continue
        d = (m >> 6) & 63
        victim = sq[d]
        if victim or m >> 12:
            s = capture_key(pos, m, heur)
        elif m == k0:
            s = KILLER_SCORE + 1
        elif m == k1:
            s = KILLER_SCORE
        elif m == counter:
            s = COUNTER_SCORE
        else:
            s = hist[side | m & 4095]
            if USE_CONT_HISTORY:
                pt = piece_to(sq[m & 63], d)
                c1: int = cont[ch1 + pt]
                c2: int = cont[ch2 + pt]
                s += c1 + c2
        scored.append(s << 16 | m)
    scored.sort(reverse=True)
    return [x & 0xFFFF for x in scored]


# Stages of MovePicker.next: the hash move, captures that do not lose the capturer, the two
# killers, the countermove, the quiet moves, the captures that lose the capturer.
STAGE_TT: Final = 0
STAGE_GEN_CAPTURES: Final = 1
STAGE_GOOD_CAPTURES: Final = 2
STAGE_KILLER_0: Final = 3
STAGE_KILLER_1: Final = 4
STAGE_COUNTER: Final = 5
STAGE_GEN_QUIETS: Final = 6
STAGE_QUIETS: Final = 7
STAGE_BAD_CAPTURES: Final = 8
STAGE_DONE: Final = 9
KEY_MOVE: Final = 0xFFFF  # the move in an ordering key (score << 16 | move)


class MovePicker:
    """The moves of one node, one at a time, best first, generated only when needed: the hash
    move (tested, nothing generated), then the captures and promotions, the killers and the
    countermove (tested), and the quiet moves only when those did not cut off.

    The order is ``order_moves``'s (the same keys, a total order), with each stage keyed
    when it comes: the countermove and the history as they are after the moves before them
    were searched (``order_moves`` keys every move at once). Each search keeps one picker per
    ply, with its buffers: nothing is allocated per node. ``next`` picks the best remaining key
    of the stage (selection, no sort: most nodes cut off after a move or two); ``count`` is how
    many moves it gave. The quiescence search uses ``start_qsearch`` or ``start_evasions``
    (its moves generated and keyed at once), then ``pick`` (best first).
    """

    def __init__(self) -> None:
        self.keys: vec[i64] = i64_buffer(MAX_MOVES)  # ordering keys; the move is key & KEY_MOVE
        self.tried: vec[i64] = i64_buffer(MAX_MOVES)  # quiet moves searched so far (history malus)
        self.ntried: i64 = 0
        self.tried_captures: vec[i64] = i64_buffer(MAX_MOVES)  # captures and promotions searched so far
        self.ncaptures: i64 = 0
        self.ch1: i64 = CONT_NEUTRAL  # continuation contexts of the node: the move one ply back ...
        self.ch2: i64 = CONT_NEUTRAL  # ... and two plies back (cont_context)
        self.legality = Legality()
        self.stage: i64 = STAGE_DONE
        self.cur: i64 = 0  # next key to look at in the current stage
        self.end: i64 = 0  # end of the current stage's keys
        self.bad_end: i64 = 0  # the captures that lose the capturer are keys[cur:bad_end] once quiets start
        self.count: i64 = 0  # moves given
        self.tt_move: i64 = 0
        self.k0: i64 = 0
        self.k1: i64 = 0
        self.counter: i64 = 0
        self.ply: i64 = 0

    def start(self, pos: Position, tt_move: i64, ply: i64, heur: Heuristics) -> None:
        """Begin picking the moves of ``pos`` at ``ply``; ``tt_move`` may be 0 or garbage."""
        self.legality.set(pos)
        self.stage = STAGE_TT
        self.tt_move = tt_move
        self.ply = ply
        self.k0 = heur.killers[2 * ply]
        self.k1 = heur.killers[2 * ply + 1]
        self.counter = 0  # read when its turn comes: the table changes while the first moves are searched
        self.count = 0
        self.ntried = 0
        self.ncaptures = 0
        if USE_CONT_HISTORY:
            stack = pos.stack
            self.ch1 = cont_context(stack, 1)
            self.ch2 = cont_context(stack, 2)

    def _quiet_legal(self, pos: Position, m: i64) -> bool:
        """``m`` is a legal move that captures nothing and does not promote."""
        return not pos.squares[(m >> 6) & 63] and not m >> 12 and self.legality.is_legal(pos, m)

    def _sort(self, start: i64, end: i64) -> None:
        """Pure build: sort ``keys[start:end]`` best first at once (a C sort beats picking in
        interpreted code); ``_pick`` then takes them in turn. Compiled: nothing (picking is cheap)."""
        if not COMPILED:
            keys = self.keys
            keys[start:end] = sorted(keys[start:end], reverse=True)  # type: ignore[assignment,index]

    def _pick(self, end: i64) -> i64:
        """The highest key in ``keys[cur:end]`` (not empty), swapped to ``cur`` and taken (cur + 1)."""
        cur = self.cur
        keys = self.keys
        if not COMPILED:  # sorted by _sort
            self.cur = cur + 1
            return keys[cur]
        best = cur
        best_key = keys[cur]
        i = cur + 1
        while i < end:
            k = keys[i]
            if k > best_key:
                best_key = k
                best = i
            i += 1
        keys[best] = keys[cur]
        keys[cur] = best_key
        self.cur = cur + 1
        return best_key

    def next(self, pos: Position, heur: Heuristics) -> i64:
        """The next move to search, or 0 when there is none left."""
        while True:
            stage = self.stage
            if stage == STAGE_TT:
                self.stage = STAGE_GEN_CAPTURES
                tt = self.tt_move
                if tt and self.legality.is_legal(pos, tt):
                    self.count += 1
                    return tt
            elif stage == STAGE_GEN_CAPTURES:
                self._score_captures(pos, heur)
                self.stage = STAGE_GOOD_CAPTURES
            elif stage == STAGE_GOOD_CAPTURES:
                cur = self.cur
                if cur < self.end:
                    key = self._pick(self.end)
                    if key >= 0:
                        self.count += 1
                        return key & KEY_MOVE
                    self.cur = cur  # the best left loses the capturer: all the rest do too
                self.stage = STAGE_KILLER_0
            elif stage == STAGE_KILLER_0:
                self.stage = STAGE_KILLER_1
                m = self.k0
                if m and m != self.tt_move and self._quiet_legal(pos, m):
                    self.count += 1
                    return m
            elif stage == STAGE_KILLER_1:
                self.stage = STAGE_COUNTER
                m = self.k1
                if m and m != self.tt_move and m != self.k0 and self._quiet_legal(pos, m):
                    self.count += 1
                    return m
            elif stage == STAGE_COUNTER:
                self.stage = STAGE_GEN_QUIETS
                m = heur.countermoves[pos.stack[-1][0] & 4095] if USE_COUNTERMOVE and pos.stack else 0
                self.counter = m
                if m and m != self.tt_move and m != self.k0 and m != self.k1 and self._quiet_legal(pos, m):
                    self.count += 1
                    return m
            elif stage == STAGE_GEN_QUIETS:
                self._score_quiets(pos, heur)
                self.stage = STAGE_QUIETS
            elif stage == STAGE_QUIETS:
                if self.cur < self.end:
                    key = self._pick(self.end)
                    self.count += 1
                    return key & KEY_MOVE
                # Back to the captures that lose the capturer, left at the front.
                self.cur = 0
                self.end = self.bad_end
                self.stage = STAGE_BAD_CAPTURES
            elif stage == STAGE_BAD_CAPTURES:
                if self.cur < self.end:
                    key = self._pick(self.end)
                    self.count += 1
                    return key & KEY_MOVE
                self.stage = STAGE_DONE
            else:
                return 0

    def _score_captures(self, pos: Position, heur: Heuristics) -> None:
        """Generate the captures and promotions (not the hash move) and key them as ``order_moves``."""
        keys = self.keys
        n = self.legality.generate(pos, keys, 0, CAPTURES)
        capt = heur.capture_history
        tt = self.tt_move
        j: i64 = 0
        for i in range(n):
            m = keys[i]
            if m == tt:
                continue
            s = capture_score(pos, m)
            if USE_CAPTURE_HISTORY and s >= 0:  # as capture_key
                c: int = capt[capture_index(pos, m)]
                s += c // CAPTURE_HISTORY_DIVISOR
            keys[j] = s << 16 | m
            j += 1
        self.cur = 0
        self.end = j
        self._sort(0, j)

    def _score_quiets(self, pos: Position, heur: Heuristics) -> None:
        """Move the captures not yet given (those that lose the capturer) to the front, then
        generate the quiet moves after them, less those already given, keyed by history."""
        keys = self.keys
        start: i64 = 0
        i = self.cur
        while i < self.end:
            keys[start] = keys[i]
            start += 1
            i += 1
        self.bad_end = start
        n = self.legality.generate(pos, keys, start, QUIETS)
        hist = heur.history
        cont = heur.cont
        sq = pos.squares
        ch1 = self.ch1
        ch2 = self.ch2
        side = pos.turn << 12
        tt = self.tt_move
        k0 = self.k0
        k1 = self.k1
        counter = self.counter
        j: i64 = start
        for i in range(start, n):
            m = keys[i]
            if m == tt or m == k0 or m == k1 or m == counter:
                continue
            s = hist[side | m & 4095]
            if USE_CONT_HISTORY:
                pt = piece_to(sq[m & 63], (m >> 6) & 63)
                c1: int = cont[ch1 + pt]
                c2: int = cont[ch2 + pt]
                s += c1 + c2
            keys[j] = s << 16 | m
            j += 1
        self.cur = start
        self.end = j
        self._sort(start, j)

    def add_tried(self, m: i64) -> None:
        """A quiet move was searched (the history malus goes to these on a cutoff)."""
        self.tried[self.ntried] = m
        self.ntried += 1

    def add_tried_capture(self, m: i64) -> None:
        """A capture or promotion was searched (the capture-history malus goes to these on a cutoff)."""
        self.tried_captures[self.ncaptures] = m
        self.ncaptures += 1

    def start_qsearch(self, pos: Position, checks: CheckInfo | None) -> i64:
        """Generate and key the quiescence moves of ``pos`` (not in check): the captures and
        promotions, and with ``checks`` (the position's ``CheckInfo``) the quiet moves that give
        check too; ``pick`` then gives them best first. Returns how many.

        Keys are MVV-LVA: a promotion by its piece, then by what it takes; a capture by the
        victim, then the cheaper capturer (a quiet check has no victim: after the captures)."""
        lg = self.legality
        lg.set(pos)
        keys = self.keys
        n = lg.generate(pos, keys, 0, CAPTURES)
        if checks is not None:
            start = n
            n = lg.generate(pos, keys, n, QUIETS)
            j: i64 = start
            for i in range(start, n):
                m = keys[i]
                if gives_check(pos, m, checks):
                    keys[j] = m
                    j += 1
            n = j
        sq = pos.squares
        for i in range(n):
            m = keys[i]
            vv = ORDER_VALUE[sq[(m >> 6) & 63] & 7]
            if m >> 12:
                keys[i] = ((m >> 12) * 64 + vv * 16) << 16 | m
            else:
                keys[i] = (vv * 16 - ORDER_VALUE[sq[m & 63] & 7]) << 16 | m
        self.cur = 0
        self._sort(0, n)
        return n

    def start_evasions(self, pos: Position) -> i64:
        """Generate and key every legal move of ``pos`` (in check: the quiescence search tries
        them all); ``pick`` then gives them best first. Returns how many (0: mated).

        Keys are MVV-LVA with the promotions' piece: captures first, quiet moves by the cheaper
        mover."""
        lg = self.legality
        lg.set(pos)
        keys = self.keys
        n = lg.generate(pos, keys, 0, ALL)
        sq = pos.squares
        for i in range(n):
            m = keys[i]
            keys[i] = (ORDER_VALUE[sq[(m >> 6) & 63] & 7] * 16 - ORDER_VALUE[sq[m & 63] & 7] + (m >> 12) * 64) << 16 | m
        self.cur = 0
        self._sort(0, n)
        return n

    def pick(self, end: i64) -> i64:
        """The move of the highest key left in ``keys[cur:end]`` (after ``start_qsearch`` or
        ``start_evasions``), or 0."""
        cur = self.cur
        if cur >= end:
            return 0
        if not COMPILED:  # sorted when keyed
            self.cur = cur + 1
            return self.keys[cur] & KEY_MOVE
        return self._pick(end) & KEY_MOVE
