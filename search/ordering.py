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

from typing import Final

from engine.movegen import attackers
from engine.position import Position
from engine.tables import Move

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
        self.history: list[list[int]] = [[0] * 4096 for _ in range(2)]
        self.killers: list[list[Move]] = [[0, 0] for _ in range(MAX_PLY + 2)]
        self.countermoves: list[Move] = [0] * 4096

    def clear(self) -> None:
        """Forget everything learned (``ucinewgame``)."""
        self.history = [[0] * 4096 for _ in range(2)]
        self.new_search()
        self.countermoves = [0] * 4096

    def new_search(self) -> None:
        """Killers belong to one search; history and countermoves are kept."""
        self.killers = [[0, 0] for _ in range(MAX_PLY + 2)]

    def order(self, pos: Position, moves: list[Move], tt_move: Move, ply: int) -> list[Move]:
        """Hash move, captures/promotions by MVV-LVA, killers, countermove, then quiet moves by
        history, and last the captures of a cheaper piece that the capturer loses on the board
        it lands on."""
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

    def reward(self, pos: Position, m: Move, ply: int, depth: int, quiets: list[Move]) -> None:
        """A quiet move caused a beta cutoff: killer, countermove and history bonus; the quiet
        moves tried before it get a history malus (``USE_HISTORY_MALUS``)."""
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
