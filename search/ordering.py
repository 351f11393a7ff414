"""Move ordering: what the search has learned about quiet moves, and the order it tries moves in.

    heur = Heuristics()
    heur.order(pos, moves, tt_move, ply)       # hash move, captures, killers, countermove, quiets, bad captures
    heur.reward(pos, move, ply, depth, quiets, n, ch1, ch2)  # a quiet move cut off: killer, countermove, histories
    heur.reward_capture(pos, move, depth, captures, n)         # a capture cut off (or 0: a quiet one did)

``Heuristics`` keeps the killers (two per ply), the butterfly history (by side, from and to),
the countermoves (by the previous move's from and to), the continuation history and the
capture history, across the iterations of a search and, except the killers, across searches
(``clear`` forgets them: ``ucinewgame``).

The continuation history scores a quiet move by the move one ply back and the move two plies
back: one table ``cont[context + piece_to(piece, to)]``, where ``piece_to`` packs a piece
code that exists (6 types x 2 colours x 2 boards, the code on the from square before the
move: the board it leaves) with the destination, 1536 values, and a context is the
``piece_to`` of an earlier move times 1536. The same from-to on the other board is another
index. One table serves both distances, as the colours tell them apart (the move one ply back
is the opponent's, two plies back the mover's own); ``CONT_NEUTRAL`` is the context with no
move (the game's first move, a null move): zeros, never written. 1537 x 1536 values of 2 bytes
(``i16``): 4.7 MB. The capture history is keyed by the capturer's ``piece_to`` and the
captured type (0: a promotion that takes nothing).

Moves are ordered by one integer key, ``score << 16 | move``, highest first: ties go to the
larger move number, so every order is total and the same in both builds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from mypy_extensions import i64

from engine.bits import COMPILED, i16_store, i64_buffer
from engine.movegen import CAPTURES, MAX_MOVES, QUIETS, CheckInfo, Legality, gives_check
from engine.position import Position, Undo
from engine.tables import Move
from search.see import see_ge

if TYPE_CHECKING:
    from librt.vecs import vec
    from mypy_extensions import i16

# ---------------------------------------------------------------- tunables
MAX_PLY: Final = 100  # hard limit on the search stack
USE_HISTORY_MALUS: Final = 1  # quiet moves tried before a cutoff lose history
USE_COUNTERMOVE: Final = 1  # order the countermove after the killers
BAD_CAPTURE_ORDER: Final = 1  # order captures of a cheaper piece that lose the exchange (SEE < 0) last
HISTORY_MAX: Final = 1 << 14  # with the malus, history scores stay within +-this (gravity)
HISTORY_HALVE_AT: Final = 1 << 20  # without the malus, history scores are halved when one reaches this
HISTORY_BONUS_MAX: Final = 400  # cap of the depth * depth history bonus
# Off: +47 +/- 46 Elo at 20,000 nodes but +2 +/- 43 at 8 s + 0.08 s (docs/measurements.md):
# the tree is better, the time per node eats it. Tests switch them on in the pure build.
USE_CONT_HISTORY: Final = 0  # continuation history (1 and 2 plies back) in quiet order, LMR and history pruning
USE_CAPTURE_HISTORY: Final = 0  # capture history added to the MVV-LVA key of captures that do not lose the capturer
CONT_HISTORY_MAX: Final = 1 << 14  # continuation and capture history stay within +-this (gravity; i16 values)
CAPTURE_HISTORY_DIVISOR: Final = 256  # capture history / this joins MVV-LVA (victims 16 apart): +-64 at most
TT_MOVE_SCORE: Final = 1 << 30  # ordering: the hash move first
CAPTURE_BASE: Final = 1 << 24  # ordering: captures and promotions above killers and quiet moves
KILLER_SCORE: Final = 1 << 22  # ordering: killer moves above other quiet moves
COUNTER_SCORE: Final = (1 << 22) - 1  # ordering: the countermove just below the killers
BAD_CAPTURE_BASE: Final = -(1 << 24)  # ordering: captures that lose the capturer go after the quiet moves
# MVV-LVA ranks by ptype, not material (search.score.PIECE_VALUE): the king ranks last as a
# capturer. The mate search orders its captures by them too.
ORDER_VALUE: Final = (0, 1, 3, 3, 5, 9, 20)
# The continuation and capture tables' layout (module docstring).
PIECE_TO_SIZE: Final = 24 * 64  # piece codes that exist (type, colour, board) x destination
CONT_NEUTRAL: Final = PIECE_TO_SIZE * PIECE_TO_SIZE  # the context of no move: the last sub-table, zeros
CONT_SIZE: Final = CONT_NEUTRAL + PIECE_TO_SIZE
CAPTURE_HISTORY_SIZE: Final = PIECE_TO_SIZE * 8  # capturer's piece_to x captured type


def piece_to(p: i64, d: i64) -> i64:
    """The index (0 .. PIECE_TO_SIZE - 1) of piece code ``p`` (type, colour and board: the
    code before the move) going to ``d``. ``p >> 3`` is colour + 2 * board."""
    return ((p >> 3) * 6 + (p & 7) - 1) << 6 | d


def cont_context(stack: list[Undo], back: i64) -> i64:
    """The continuation sub-table of the move ``back`` plies ago (an undo stack's record):
    ``piece_to`` of its piece and destination times PIECE_TO_SIZE, or ``CONT_NEUTRAL`` when
    there is none or it was a null move."""
    n: i64 = len(stack)
    if n < back:
        return CONT_NEUTRAL
    u = stack[n - back]
    m: i64 = u[0]
    if not m:
        return CONT_NEUTRAL
    p: i64 = u[1]
    return piece_to(p, (m >> 6) & 63) * PIECE_TO_SIZE


def add_gravity(table: vec[i16], i: i64, bonus: i64) -> None:
    """Add ``bonus`` (a malus when negative, ``|bonus| <= CONT_HISTORY_MAX``) to ``table[i]``,
    less the share that keeps every value within +-CONT_HISTORY_MAX."""
    v: int = table[i]
    size = bonus if bonus >= 0 else -bonus
    nv: int = v + bonus - v * size // CONT_HISTORY_MAX
    table[i] = nv


def capture_index(pos: Position, m: i64) -> i64:
    """The capture-history index of capture or promotion ``m``: capturer, destination, captured type."""
    sq = pos.squares
    d = (m >> 6) & 63
    return piece_to(sq[m & 63], d) << 3 | sq[d] & 7


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


class Heuristics:
    """Killers, histories and countermoves, and the move order built from them (module docstring)."""

    def __init__(self) -> None:
        self.history: vec[i64] = i64_buffer(2 * 4096)  # [side to move << 12 | from | to << 6]
        self.killers: vec[i64] = i64_buffer(2 * (MAX_PLY + 2))  # [2 * ply], [2 * ply + 1]
        self.countermoves: vec[i64] = i64_buffer(4096)  # [the previous move's from | to << 6]
        # [cont_context + piece_to], [capture_index]; empty while switched off (4.7 MB otherwise)
        self.cont: vec[i16] = i16_store(CONT_SIZE if USE_CONT_HISTORY else 0)
        self.capture_history: vec[i16] = i16_store(CAPTURE_HISTORY_SIZE if USE_CAPTURE_HISTORY else 0)

    def clear(self) -> None:
        """Forget everything learned (``ucinewgame``)."""
        self.history = i64_buffer(2 * 4096)
        self.new_search()
        self.countermoves = i64_buffer(4096)
        self.cont = i16_store(CONT_SIZE if USE_CONT_HISTORY else 0)
        self.capture_history = i16_store(CAPTURE_HISTORY_SIZE if USE_CAPTURE_HISTORY else 0)

    def capture_key(self, pos: Position, m: i64) -> i64:
        """``capture_score`` plus, for a capture that does not lose the capturer, its capture
        history (``USE_CAPTURE_HISTORY``): the ordering score of a capture or promotion."""
        s = capture_score(pos, m)
        if USE_CAPTURE_HISTORY and s >= 0:
            c: int = self.capture_history[capture_index(pos, m)]
            s += c // CAPTURE_HISTORY_DIVISOR
        return s

    def new_search(self) -> None:
        """Killers belong to one search; history and countermoves are kept."""
        self.killers = i64_buffer(2 * (MAX_PLY + 2))

    def order(self, pos: Position, moves: list[Move], tt_move: Move, ply: int) -> list[Move]:
        """Hash move, captures/promotions by MVV-LVA (and capture history), killers,
        countermove, then quiet moves by history (butterfly and continuation), and last the
        captures of a cheaper piece that the capturer loses on the board it lands on."""
        sq = pos.squares
        hist = self.history
        cont = self.cont
        side = pos.turn << 12
        ch1 = cont_context(pos.stack, 1) if USE_CONT_HISTORY else CONT_NEUTRAL
        ch2 = cont_context(pos.stack, 2) if USE_CONT_HISTORY else CONT_NEUTRAL
        k0 = self.killers[2 * ply]
        k1 = self.killers[2 * ply + 1]
        counter = self.countermoves[pos.stack[-1][0] & 4095] if USE_COUNTERMOVE and pos.stack else -1
        scored: list[int] = []  # score << 16 | move: sorting the ints sorts by score, then move
        for m in moves:
            if m == tt_move:
                scored.append(TT_MOVE_SCORE << 16 | m)
                continue
            d = (m >> 6) & 63
            victim = sq[d]
            if victim or m >> 12:
                s = self.capture_key(pos, m)
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

    def reward(
        self, pos: Position, m: Move, ply: int, depth: int, quiets: vec[i64], nquiets: int, ch1: i64, ch2: i64
    ) -> None:
        """A quiet move caused a beta cutoff: killer, countermove and history bonus; the quiet
        moves tried before it (``quiets[:nquiets]``) get a history malus (``USE_HISTORY_MALUS``).
        The continuation history of the contexts ``ch1`` and ``ch2`` (one and two plies back,
        ``cont_context``) gets the same bonus and malus, with gravity, when on."""
        k = self.killers
        if k[2 * ply] != m:
            k[2 * ply + 1] = k[2 * ply]
            k[2 * ply] = m
        if pos.stack:
            self.countermoves[pos.stack[-1][0] & 4095] = m
        if USE_CONT_HISTORY:
            self._reward_cont(pos, m, depth, quiets, nquiets, ch1, ch2)
        h = self.history
        side = pos.turn << 12
        if USE_HISTORY_MALUS:
            bonus = min(depth * depth, HISTORY_BONUS_MAX)
            i = side | m & 4095
            h[i] += bonus - h[i] * bonus // HISTORY_MAX
            for qi in range(nquiets):
                j = side | quiets[qi] & 4095
                h[j] -= bonus + h[j] * bonus // HISTORY_MAX
            return
        i = side | m & 4095
        h[i] += depth * depth
        if h[i] > HISTORY_HALVE_AT:
            for j in range(side, side + 4096):
                h[j] >>= 1

    def _reward_cont(self, pos: Position, m: i64, depth: i64, quiets: vec[i64], nquiets: i64, ch1: i64, ch2: i64) -> None:
        """The continuation-history part of ``reward``; the neutral context is left at zero."""
        bonus = min(depth * depth, HISTORY_BONUS_MAX)
        cont = self.cont
        sq = pos.squares
        for ch in (ch1, ch2):
            if ch == CONT_NEUTRAL:
                continue
            add_gravity(cont, ch + piece_to(sq[m & 63], (m >> 6) & 63), bonus)
            for qi in range(nquiets):
                q = quiets[qi]
                add_gravity(cont, ch + piece_to(sq[q & 63], (q >> 6) & 63), -bonus)

    def reward_capture(self, pos: Position, m: i64, depth: i64, captures: vec[i64], ncaptures: i64) -> None:
        """A beta cutoff at ``pos``: the capture or promotion ``m`` that made it (0 when a quiet
        move did) gets a capture-history bonus, the ones tried before it
        (``captures[:ncaptures]``) a malus, with gravity."""
        bonus = min(depth * depth, HISTORY_BONUS_MAX)
        ch = self.capture_history
        if m:
            add_gravity(ch, capture_index(pos, m), bonus)
        for i in range(ncaptures):
            add_gravity(ch, capture_index(pos, captures[i]), -bonus)


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

    The order is ``Heuristics.order``'s (the same keys, a total order), with each stage keyed
    when it comes: the countermove and the history as they are after the moves before them
    were searched (``order`` keys every move at once). Each search keeps one picker per ply,
    with its buffers: nothing is allocated per node. ``next`` picks the best remaining key of
    the stage (selection, no sort: most nodes cut off after a move or two); ``count`` is how
    many moves it gave. The quiescence search uses ``start_qsearch`` (its moves generated at
    once), keys them itself, then ``keyed`` and ``pick`` (best first).
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
        """Generate the captures and promotions (not the hash move) and key them as ``order``."""
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

    def start_qsearch(self, pos: Position, mode: i64, checks: CheckInfo | None) -> i64:
        """Generate the quiescence moves of ``pos`` into ``keys`` (bare moves, to be keyed by the
        caller, then picked with ``pick``): ``mode`` ``ALL`` (evasions) or ``CAPTURES``, and with
        ``checks`` (the position's ``CheckInfo``) the quiet moves that give check too. Returns
        how many."""
        lg = self.legality
        lg.set(pos)
        n = lg.generate(pos, self.keys, 0, mode)
        if checks is not None:
            start = n
            n = lg.generate(pos, self.keys, n, QUIETS)
            keys = self.keys
            j: i64 = start
            for i in range(start, n):
                m = keys[i]
                if gives_check(pos, m, checks):
                    keys[j] = m
                    j += 1
            n = j
        return n

    def keyed(self, end: i64) -> None:
        """The caller has keyed ``keys[:end]``: pick from the best (``pick``)."""
        self.cur = 0
        self._sort(0, end)

    def pick(self, end: i64) -> i64:
        """The move of the highest key left in ``keys[cur:end]`` (after ``keyed``), or 0."""
        cur = self.cur
        if cur >= end:
            return 0
        if not COMPILED:  # sorted by keyed
            self.cur = cur + 1
            return self.keys[cur] & KEY_MOVE
        return self._pick(end) & KEY_MOVE
