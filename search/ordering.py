"""Move ordering: what the search has learned about quiet moves, and the order it tries moves in.

    heur = Heuristics()
    heur.order(pos, moves, tt_move, ply)       # hash move, captures, killers, countermove, quiets, bad captures
    heur.reward(pos, move, ply, depth, quiets) # a quiet move cut off: killer, countermove, history

``Heuristics`` keeps the killers (two per ply), the butterfly history (by side, from and to)
and the countermoves (by the previous move's from and to), across the iterations of a search
and, except the killers, across searches (``clear`` forgets them: ``ucinewgame``).

Moves are ordered by one integer key, ``score << 16 | move``, highest first: ties go to the
larger move number, so every order is total and the same in both builds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from mypy_extensions import i64

from engine.bits import i64_buffer
from engine.movegen import attackers
from engine.position import Position
from engine.tables import Move

if TYPE_CHECKING:
    from librt.vecs import vec

# ---------------------------------------------------------------- tunables
MAX_PLY: Final = 100  # hard limit on the search stack
USE_HISTORY_MALUS: Final = 1  # quiet moves tried before a cutoff lose history
USE_COUNTERMOVE: Final = 1  # order the countermove after the killers
BAD_CAPTURE_ORDER: Final = 1  # order captures of a cheaper piece on a square retaken on the landing board last
HISTORY_MAX: Final = 1 << 14  # with the malus, history scores stay within +-this (gravity)
HISTORY_HALVE_AT: Final = 1 << 20  # without the malus, history scores are halved when one reaches this
HISTORY_BONUS_MAX: Final = 400  # cap of the depth * depth history bonus
TT_MOVE_SCORE: Final = 1 << 30  # ordering: the hash move first
CAPTURE_BASE: Final = 1 << 24  # ordering: captures and promotions above killers and quiet moves
KILLER_SCORE: Final = 1 << 22  # ordering: killer moves above other quiet moves
COUNTER_SCORE: Final = (1 << 22) - 1  # ordering: the countermove just below the killers
BAD_CAPTURE_BASE: Final = -(1 << 24)  # ordering: captures that lose the capturer go after the quiet moves
# MVV-LVA ranks by ptype, not material (search.score.PIECE_VALUE): the king ranks last as a
# capturer. The mate search orders its captures by them too.
ORDER_VALUE: Final = (0, 1, 3, 3, 5, 9, 20)


class Heuristics:
    """Killers, history and countermoves, and the move order built from them (module docstring)."""

    def __init__(self) -> None:
        self.history: vec[i64] = i64_buffer(2 * 4096)  # [side to move << 12 | from | to << 6]
        self.killers: vec[i64] = i64_buffer(2 * (MAX_PLY + 2))  # [2 * ply], [2 * ply + 1]
        self.countermoves: vec[i64] = i64_buffer(4096)  # [the previous move's from | to << 6]

    def clear(self) -> None:
        """Forget everything learned (``ucinewgame``)."""
        self.history = i64_buffer(2 * 4096)
        self.new_search()
        self.countermoves = i64_buffer(4096)

    def new_search(self) -> None:
        """Killers belong to one search; history and countermoves are kept."""
        self.killers = i64_buffer(2 * (MAX_PLY + 2))

    def order(self, pos: Position, moves: list[Move], tt_move: Move, ply: int) -> list[Move]:
        """Hash move, captures/promotions by MVV-LVA, killers, countermove, then quiet moves by
        history, and last the captures of a cheaper piece that the capturer loses on the board
        it lands on."""
        sq = pos.sq
        hist = self.history
        side = pos.turn << 12
        k0 = self.killers[2 * ply]
        k1 = self.killers[2 * ply + 1]
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
                s = hist[side | m & 4095]
            scored.append(s << 16 | m)
        scored.sort(reverse=True)
        return [x & 0xFFFF for x in scored]

    def reward(self, pos: Position, m: Move, ply: int, depth: int, quiets: list[Move]) -> None:
        """A quiet move caused a beta cutoff: killer, countermove and history bonus; the quiet
        moves tried before it get a history malus (``USE_HISTORY_MALUS``)."""
        k = self.killers
        if k[2 * ply] != m:
            k[2 * ply + 1] = k[2 * ply]
            k[2 * ply] = m
        if pos.stack:
            self.countermoves[pos.stack[-1][0] & 4095] = m
        h = self.history
        side = pos.turn << 12
        if USE_HISTORY_MALUS:
            bonus = min(depth * depth, HISTORY_BONUS_MAX)
            i = side | m & 4095
            h[i] += bonus - h[i] * bonus // HISTORY_MAX
            for q in quiets:
                j = side | q & 4095
                h[j] -= bonus + h[j] * bonus // HISTORY_MAX
            return
        i = side | m & 4095
        h[i] += depth * depth
        if h[i] > HISTORY_HALVE_AT:
            for j in range(side, side + 4096):
                h[j] >>= 1
