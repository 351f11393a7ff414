"""What the search has learned about moves: killers, histories and countermoves.

    heur = Heuristics()
    heur.reward(pos, move, ply, depth, quiets, n, ch1, ch2)  # a quiet move cut off: killer, countermove, histories
    heur.reward_capture(pos, move, depth, captures, n)         # a capture cut off (or 0: a quiet one did)
    heur.new_search()                                          # forget the killers
    heur.clear()                                               # forget everything (``ucinewgame``)

``Heuristics`` keeps the killers (two per ply), the butterfly history (by side, from and to),
the countermoves (by the previous move's from and to), the continuation history and the
capture history, across the iterations of a search and, except the killers, across searches.
``search.movepick`` reads them to order moves; ``search.tree`` writes them on a cutoff.

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
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from mypy_extensions import i64

from engine.bits import i16_store, i64_buffer
from engine.position import Position, Undo
from engine.tables import Move

if TYPE_CHECKING:
    from librt.vecs import vec
    from mypy_extensions import i16

# ---------------------------------------------------------------- tunables
MAX_PLY: Final = 100  # hard limit on the search stack (the killers have a pair per ply)
USE_HISTORY_MALUS: Final = 1  # quiet moves tried before a cutoff lose history
USE_COUNTERMOVE: Final = 1  # order the countermove after the killers
HISTORY_MAX: Final = 1 << 14  # with the malus, history scores stay within +-this (gravity)
HISTORY_HALVE_AT: Final = 1 << 20  # without the malus, history scores are halved when one reaches this
HISTORY_BONUS_MAX: Final = 400  # cap of the depth * depth history bonus
# Off: +47 +/- 46 Elo at 20,000 nodes but +2 +/- 43 at 8 s + 0.08 s (docs/measurements.md):
# the tree is better, the time per node eats it. Tests switch them on in the pure build.
USE_CONT_HISTORY: Final = 0  # continuation history (1 and 2 plies back) in quiet order, LMR and history pruning
USE_CAPTURE_HISTORY: Final = 0  # capture history added to the MVV-LVA key of captures that do not lose the capturer
CONT_HISTORY_MAX: Final = 1 << 14  # continuation and capture history stay within +-this (gravity; i16 values)
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


class Heuristics:
    """Killers, histories and countermoves (module docstring)."""

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

    def new_search(self) -> None:
        """Killers belong to one search; history and countermoves are kept."""
        self.killers = i64_buffer(2 * (MAX_PLY + 2))

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
