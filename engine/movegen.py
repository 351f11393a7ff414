"""Legal move generation for Alice chess.

Legality without make/unmake, from what a move does to the board of the mover's
king (board K):

* a piece on the other board only *adds* a blocker on K where it lands, so it is
  legal unless the king is in check, when it must land between king and checker;
* a piece on K leaves K (and a capture removes the captured piece from K), so it
  can never block; it may open a line, which is tested only when it starts or
  captures on a line from an enemy slider to the king with at most two blockers;
  in check it must capture the checker;
* the king must land on a square safe on K (king removed) and on the other board.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from mypy_extensions import i64

from engine.bits import BB_ALL, Bitboard, bit_length, i64_buffer, popcount
from engine.tables import (
    BB_RANK_1,
    BB_RANK_2,
    BB_RANK_7,
    BB_RANK_8,
    BB_SQUARES,
    BETWEEN,
    BISHOP,
    CASTLE_CROSS,
    CASTLE_EMPTY,
    CASTLE_KING_FROM,
    CASTLE_KING_TO,
    CASTLE_LAND,
    CASTLE_ROOK_SQ_FROM,
    CASTLE_ROOK_SQ_TO,
    DIAG_RAYS,
    KING,
    KING_ATTACKS,
    KNIGHT,
    KNIGHT_ATTACKS,
    LINE,
    ORTHO_RAYS,
    PAWN,
    PAWN_ATTACKS,
    QUEEN,
    ROOK,
    Move,
    Piece,
    Square,
    diag_attacks,
    ortho_attacks,
)

if TYPE_CHECKING:
    from librt.vecs import vec

    from engine.position import Position

PROMOTIONS: Final = (5 << 12, 4 << 12, 3 << 12, 2 << 12)  # queen, rook, bishop, knight
WHITE_RIGHTS: Final = (1, 2)
BLACK_RIGHTS: Final = (4, 8)


def attackers(pos: Position, color: int, s: Square, o: Bitboard) -> Bitboard:
    """Pieces of ``color`` on the board whose occupancy is ``o`` that attack ``s`` there.

    The one attack test of the engine: pieces on the other board are invisible (not in
    ``o``), so they neither attack nor block.

    >>> import chess
    >>> from engine.position import Position
    >>> pos = Position()
    >>> bin(attackers(pos, 1, chess.F3, pos.occ_a)).count("1")  # e2, g2, g1
    3
    """
    mine = (pos.white if color else pos.black) & o
    found = mine & (
        (KNIGHT_ATTACKS[s] & pos.knights) | (KING_ATTACKS[s] & pos.kings) | (PAWN_ATTACKS[(color ^ 1) << 6 | s] & pos.pawns)
    )
    # Sliders: look a line up only when one of ours stands on it (empty-board rays).
    queens = pos.queens
    diag = mine & (pos.bishops | queens) & DIAG_RAYS[s]
    if diag:
        found |= diag_attacks(s, o) & diag
    ortho = mine & (pos.rooks | queens) & ORTHO_RAYS[s]
    if ortho:
        found |= ortho_attacks(s, o) & ortho
    return found


def piece_attacks(code: Piece, s: Square, o: Bitboard) -> Bitboard:
    """Squares the piece ``code`` on ``s`` attacks over the occupancy ``o`` of its board
    (a pawn: its two capture squares; castling is not an attack).

    >>> import chess
    >>> from engine.tables import BOARD_A, piece_code
    >>> piece_attacks(piece_code(KNIGHT, 1, BOARD_A), chess.G1, 0) == chess.BB_KNIGHT_ATTACKS[chess.G1]
    True
    """
    t = code & 7
    if t == PAWN:
        return PAWN_ATTACKS[(code & 8) << 3 | s]
    if t == KNIGHT:
        return KNIGHT_ATTACKS[s]
    if t == KING:
        return KING_ATTACKS[s]
    a: Bitboard = 0
    if t != ROOK:
        a = diag_attacks(s, o)
    if t != BISHOP:
        a |= ortho_attacks(s, o)
    return a


def checking_squares(k: Square, o: Bitboard, king_color: int) -> tuple[i64, i64, i64, i64, i64, i64, i64]:
    """By piece type (index 1..5), the squares from which an enemy piece standing on the
    king's board (occupancy ``o``) would attack the king on ``k``. A piece arriving there
    from the other board (every move transfers) gives check.

    >>> import chess
    >>> checking_squares(chess.E8, 0, 0)[KNIGHT] == chess.BB_KNIGHT_ATTACKS[chess.E8]
    True
    """
    dg = diag_attacks(k, o)
    ot = ortho_attacks(k, o)
    return (0, PAWN_ATTACKS[king_color << 6 | k], KNIGHT_ATTACKS[k], dg, ot, dg | ot, 0)


class CheckInfo:
    """What ``gives_check`` needs about the side to move's opponent, computed once per node
    (``set``), as typed fields: the enemy king's square and board, that board's occupancy,
    the squares from which a piece arriving there checks it, by piece type (``engine.movegen.
    checking_squares``), and our diagonal and orthogonal sliders standing on that board (they
    give a discovered check when a piece of ours leaves the line). A search keeps one per ply
    and refills it: nothing is allocated per node.

    >>> from engine.position import Position
    >>> info = check_info(Position())
    >>> info.king == 60 and info.board == 0
    True
    """

    __slots__ = ("bishop", "board", "diag", "king", "knight", "occ", "ortho", "pawn", "queen", "rook")

    def __init__(self) -> None:
        self.king: int = 0
        self.board: int = 0
        self.occ: Bitboard = 0
        self.pawn: Bitboard = 0
        self.knight: Bitboard = 0
        self.bishop: Bitboard = 0
        self.rook: Bitboard = 0
        self.queen: Bitboard = 0
        self.diag: Bitboard = 0
        self.ortho: Bitboard = 0

    def set(self, pos: Position) -> None:
        """Fill the fields for ``pos`` (the side to move is the one that would give check)."""
        us = pos.turn
        k = bit_length(pos.kings & (pos.black if us else pos.white)) - 1
        kb = pos.squares[k] >> 4
        o = pos.occ_b if kb else pos.occ_a
        mine = (pos.white if us else pos.black) & o
        dg = diag_attacks(k, o)
        ot = ortho_attacks(k, o)
        self.king = k
        self.board = kb
        self.occ = o
        self.pawn = PAWN_ATTACKS[(us ^ 1) << 6 | k]
        self.knight = KNIGHT_ATTACKS[k]
        self.bishop = dg
        self.rook = ot
        self.queen = dg | ot
        self.diag = mine & (pos.bishops | pos.queens)
        self.ortho = mine & (pos.rooks | pos.queens)

    def checking(self, ptype: int) -> Bitboard:
        """The squares from which a piece of type ``ptype`` on the king's board gives check."""
        if ptype == PAWN:
            return self.pawn
        if ptype == KNIGHT:
            return self.knight
        if ptype == BISHOP:
            return self.bishop
        if ptype == ROOK:
            return self.rook
        if ptype == QUEEN:
            return self.queen
        return 0


def check_info(pos: Position) -> CheckInfo:
    """A new ``CheckInfo`` for ``pos`` (the search refills one per ply instead)."""
    info = CheckInfo()
    info.set(pos)
    return info


def gives_check(pos: Position, m: Move, info: CheckInfo) -> bool:
    """Does legal move ``m`` check the opponent? Same answer as ``pos.gives_check(m)``
    without making the move (castling falls back to it); ``info`` is ``pos``'s ``CheckInfo``.

    A piece from the other board lands on the king's board: a direct check if it lands
    on a checking square. A piece leaving the king's board (every move transfers) can
    only uncover a line from one of our sliders there: a discovered check.

    >>> from engine.position import Position
    >>> from engine.notation import parse_uci
    >>> pos = Position("4k3/8/8/8/8/8/8/3QK3 w - - 0 1")
    >>> gives_check(pos, parse_uci(pos, "d1d8"), check_info(pos))  # lands on B: no check on A
    False
    """
    s = m & 63
    d = (m >> 6) & 63
    p = pos.squares[s]
    if p & 7 == KING and (d - s == 2 or s - d == 2):
        return pos.gives_check(m)
    if p >> 4 != info.board:
        return bool(info.checking((m >> 12) or (p & 7)) & BB_SQUARES[d])
    fb = BB_SQUARES[s]
    o2 = (info.occ ^ fb) & ~(BB_SQUARES[d])  # a capture on this board removes the captured piece too
    k = info.king
    if diag_attacks(k, o2) & info.diag & ~fb:
        return True
    return bool(ortho_attacks(k, o2) & info.ortho & ~fb)


def pin_ray(pos: Position, color: int, s: Square) -> Bitboard:
    """The ray from ``color``'s king through ``s`` to an enemy slider, when the piece on ``s``
    is the only piece between them on the king's board, else ``BB_ALL``.

    In Alice such a piece can never stay on the line (every move leaves its board), so it
    may only move by capturing that slider.
    """
    k = bit_length(pos.kings & (pos.white if color else pos.black)) - 1
    p = pos.squares[s]
    if k < 0 or not p or p >> 4 != pos.squares[k] >> 4:
        return BB_ALL
    o = pos.occ_b if p >> 4 else pos.occ_a
    enemy = (pos.black if color else pos.white) & o
    snipers = enemy & ((DIAG_RAYS[k] & (pos.bishops | pos.queens)) | (ORTHO_RAYS[k] & (pos.rooks | pos.queens)))
    fb = BB_SQUARES[s]
    while snipers:
        b = snipers & -snipers
        snipers ^= b
        x = bit_length(b) - 1
        if BETWEEN[k << 6 | x] & o == fb:
            return LINE[k << 6 | x]
    return BB_ALL


def pseudo_legal_moves(pos: Position) -> list[Move]:
    """Moves that follow the pieces' paths on their own board and land on a coordinate that
    is free for them (not our piece on our board, empty on the other), king safety ignored,
    plus the castling moves that are fully legal. Not a search path: for ``AliceBoard``.

    >>> from engine.position import Position
    >>> len(pseudo_legal_moves(Position()))
    20
    """
    sq = pos.squares
    us = pos.turn
    ours = pos.white if us else pos.black
    forward = 8 if us else -8
    moves: list[Move] = []
    pieces = ours
    while pieces:
        fb = pieces & -pieces
        pieces ^= fb
        s = bit_length(fb) - 1
        p = sq[s]
        own = pos.occ_b if p >> 4 else pos.occ_a
        other = pos.occ_a if p >> 4 else pos.occ_b
        dests: Bitboard
        if p & 7 == PAWN:
            dests = PAWN_ATTACKS[us << 6 | s] & (pos.black if us else pos.white) & own
            one = BB_SQUARES[s + forward]
            if not one & (own | other):
                dests |= one
            if fb & (BB_RANK_2 if us else BB_RANK_7) and not one & own:
                two = BB_SQUARES[s + 2 * forward]
                if not two & (own | other):
                    dests |= two  # the passed square may be taken on the other board only
        else:
            dests = piece_attacks(p, s, own) & ~(ours & own) & ~other
        _append(moves, s, dests, p & 7 == PAWN)
    moves += [m for m in legal_moves(pos) if is_castling(pos, m)]
    return moves


def is_castling(pos: Position, m: Move) -> bool:
    """``m`` is a king's two-square move (castling)."""
    s = m & 63
    d = (m >> 6) & 63
    return pos.squares[s] & 7 == KING and (d - s == 2 or s - d == 2)


def _append(moves: list[Move], s: Square, dests: Bitboard, pawn: bool) -> None:
    """Moves from ``s`` to each of ``dests``; a pawn reaching its last rank promotes (Q, R, B, N)."""
    while dests:
        b = dests & -dests
        dests ^= b
        m = s | ((bit_length(b) - 1) << 6)
        if pawn and b & (BB_RANK_1 | BB_RANK_8):
            moves.extend(m | pr for pr in PROMOTIONS)
        else:
            moves.append(m)


# Generation modes (``Legality.generate``): every legal move, or one of the two stages a search
# asks for in turn. CAPTURES holds the captures and every promotion (quiet ones too); QUIETS
# the rest (castling included). Together they are ALL, each move once.
ALL: Final = 0
CAPTURES: Final = 1
QUIETS: Final = 2
MAX_MOVES: Final = 512  # more than any position's legal moves (a buffer of this many never overflows)


class Legality:
    """What legality needs about the side to move's king, computed once per node (``set``),
    then used to generate the legal moves by stage (``generate``) and to test a single move
    without generating anything (``is_legal``: the hash move, a killer).

    The king's board is K (``kb``; occupancy ``occ_k``, the other board's ``occ_y``):
    ``checkers`` are the enemy pieces giving check there; a piece on K that starts or captures
    on ``danger`` (the blockers of enemy slider lines to the king, at most two on a line) may
    expose the king; in check, a piece on K must capture the checker (``k_mask``), a piece
    from the other board must land between (``y_mask``); double check: only the king moves.

    >>> from engine.position import Position
    >>> lg = Legality()
    >>> lg.set(Position())
    >>> buf = [0] * MAX_MOVES
    >>> lg.generate(Position(), buf, 0, QUIETS), lg.generate(Position(), buf, 0, CAPTURES)
    (20, 0)
    """

    __slots__ = ("bq", "checkers", "danger", "k_mask", "kb", "ksq", "occ_k", "occ_y", "rq", "them_k", "y_mask")

    def __init__(self) -> None:
        self.ksq: int = 0
        self.kb: int = 0
        self.occ_k: Bitboard = 0
        self.occ_y: Bitboard = 0
        self.them_k: Bitboard = 0
        self.bq: Bitboard = 0
        self.rq: Bitboard = 0
        self.checkers: Bitboard = 0
        self.danger: Bitboard = 0
        self.k_mask: Bitboard = 0
        self.y_mask: Bitboard = 0

    def set(self, pos: Position) -> None:
        """Fill the fields for ``pos`` (see the class docstring)."""
        sq = pos.squares
        us = pos.turn
        occ_us = pos.white if us else pos.black
        occ_them = pos.black if us else pos.white
        ksq = bit_length(pos.kings & occ_us) - 1
        kb = sq[ksq] >> 4
        occ_k = pos.occ_b if kb else pos.occ_a
        them_k = occ_them & occ_k
        bq = pos.bishops | pos.queens
        rq = pos.rooks | pos.queens
        checkers = them_k & (
            (KNIGHT_ATTACKS[ksq] & pos.knights)
            | (PAWN_ATTACKS[us << 6 | ksq] & pos.pawns)
            | (diag_attacks(ksq, occ_k) & bq)
            | (ortho_attacks(ksq, occ_k) & rq)
        )
        # Blockers of slider lines to the king with at most two pieces in the way:
        # a move on board K starting or capturing there may expose the king.
        danger: Bitboard = 0
        snipers = them_k & ((DIAG_RAYS[ksq] & bq) | (ORTHO_RAYS[ksq] & rq)) & ~checkers
        while snipers:
            b = snipers & -snipers
            snipers ^= b
            blk = BETWEEN[ksq << 6 | (bit_length(b) - 1)] & occ_k
            if popcount(blk) <= 2:
                danger |= blk
        k_mask: Bitboard = BB_ALL
        y_mask: Bitboard = BB_ALL
        if checkers:
            if checkers & (checkers - 1):
                k_mask = 0  # double check: only the king moves
                y_mask = 0
            else:
                k_mask = checkers
                y_mask = BETWEEN[ksq << 6 | (bit_length(checkers) - 1)]
        self.ksq = ksq
        self.kb = kb
        self.occ_k = occ_k
        self.occ_y = pos.occ_a if kb else pos.occ_b
        self.them_k = them_k
        self.bq = bq
        self.rq = rq
        self.checkers = checkers
        self.danger = danger
        self.k_mask = k_mask
        self.y_mask = y_mask

    def generate(self, pos: Position, buf: vec[i64], n: i64, mode: i64) -> i64:
        """Write the legal moves of ``mode`` (``ALL``, ``CAPTURES``, ``QUIETS``) into ``buf`` from
        index ``n`` on; return the index after the last. ``set(pos)`` must have run.

        One long function on purpose: it is the hottest code of the engine, and every call
        saved here counts in the pure-Python build (the piece attacks are ``piece_attacks``
        written out). The order: piece by piece from a1, each piece's destinations from a1
        (a promotion as Q, R, B, N), then the king's moves, then castling.
        """
        sq = pos.squares
        us = pos.turn
        them = us ^ 1
        occ_us = pos.white if us else pos.black
        occ_them = pos.black if us else pos.white
        empty = BB_ALL ^ (occ_us | occ_them)
        occ_a = pos.occ_a
        occ_b = pos.occ_b
        ksq = self.ksq
        kb = self.kb
        k_mask = self.k_mask
        y_mask = self.y_mask
        danger = self.danger
        caps = mode != QUIETS
        quiets = mode != CAPTURES
        target_a: Bitboard = 0
        target_b: Bitboard = 0
        if caps:
            target_a = occ_them & occ_a
            target_b = occ_them & occ_b
        if quiets:
            target_a |= empty
            target_b |= empty
        forward = 8 if us else -8
        last_rank = BB_RANK_8 if us else BB_RANK_1
        start_rank = BB_RANK_2 if us else BB_RANK_7

        pieces = occ_us ^ (BB_SQUARES[ksq])
        dests: Bitboard
        while pieces:
            fb = pieces & -pieces
            pieces ^= fb
            s = bit_length(fb) - 1
            p = sq[s]
            t = p & 7
            x = p >> 4
            o = occ_b if x else occ_a
            if t == PAWN:
                dests = PAWN_ATTACKS[us << 6 | s] & occ_them & o if caps else 0
                d1 = s + forward
                b1 = BB_SQUARES[d1]
                if b1 & empty:
                    if caps if b1 & last_rank else quiets:
                        dests |= b1
                    if fb & start_rank and quiets:
                        b2 = BB_SQUARES[d1 + forward]
                        if b2 & empty and not b1 & o:
                            dests |= b2
                elif fb & start_rank and not b1 & o and quiets:
                    # The passed square is taken only on the other board.
                    b2 = BB_SQUARES[d1 + forward]
                    if b2 & empty:
                        dests |= b2
            else:
                if t == KNIGHT:
                    dests = KNIGHT_ATTACKS[s]
                elif t == BISHOP:
                    dests = diag_attacks(s, o)
                elif t == ROOK:
                    dests = ortho_attacks(s, o)
                else:
                    dests = diag_attacks(s, o) | ortho_attacks(s, o)
                dests &= target_b if x else target_a
            if x == kb:
                dests &= k_mask
                if dests and (danger & fb or danger & dests):
                    dests = _safe_from_k(dests, fb, danger, ksq, self.occ_k, self.them_k, self.bq, self.rq)
            else:
                dests &= y_mask
            if t == PAWN and dests & last_rank:
                while dests:
                    b = dests & -dests
                    dests ^= b
                    m = s | ((bit_length(b) - 1) << 6)
                    if b & last_rank:
                        buf[n] = m | QUEEN << 12
                        buf[n + 1] = m | ROOK << 12
                        buf[n + 2] = m | BISHOP << 12
                        buf[n + 3] = m | KNIGHT << 12
                        n += 4
                    else:
                        buf[n] = m
                        n += 1
            else:
                while dests:
                    b = dests & -dests
                    dests ^= b
                    buf[n] = s | ((bit_length(b) - 1) << 6)
                    n += 1

        # King moves: safe on its board (king lifted) and on the board it lands on.
        dests = KING_ATTACKS[ksq] & (target_b if kb else target_a)
        occ_k_noking = self.occ_k ^ (BB_SQUARES[ksq])
        occ_y = self.occ_y
        while dests:
            b = dests & -dests
            dests ^= b
            d = bit_length(b) - 1
            if not attackers(pos, them, d, occ_k_noking) and not attackers(pos, them, d, occ_y):
                buf[n] = ksq | (d << 6)
                n += 1

        if pos.castling and not self.checkers and quiets:
            n = _castling(pos, buf, n, us, them, ksq, kb, self.occ_k, occ_y)
        return n

    def is_legal(self, pos: Position, m: i64) -> bool:
        """Is ``m`` (any 16-bit number: a hash move may be garbage) one of the legal moves of
        ``pos``? The same answer as ``m in legal_moves(pos)``, generating only the moves of the
        piece on ``m``'s from-square (castling: the castling moves). ``set(pos)`` must have run."""
        if m <= 0 or m >= 1 << 15:
            return False
        s = m & 63
        d = (m >> 6) & 63
        promo = m >> 12
        sq = pos.squares
        p = sq[s]
        us = pos.turn
        if not p or (p >> 3) & 1 != us:
            return False
        t = p & 7
        tb = BB_SQUARES[d]
        last_rank = BB_RANK_8 if us else BB_RANK_1
        if t == PAWN:
            if (promo != 0) != bool(tb & last_rank) or (promo and (promo < KNIGHT or promo > QUEEN)):
                return False
        elif promo:
            return False
        if t == KING:
            if d - s == 2 or s - d == 2:
                if not pos.castling or self.checkers:
                    return False
                buf = i64_buffer(2)
                n = _castling(pos, buf, 0, us, us ^ 1, self.ksq, self.kb, self.occ_k, self.occ_y)
                return (n > 0 and buf[0] == m) or (n > 1 and buf[1] == m)
            occ_them = pos.black if us else pos.white
            own = pos.occ_b if self.kb else pos.occ_a
            if not tb & KING_ATTACKS[s] or not tb & ((occ_them & own) | (BB_ALL ^ (pos.white | pos.black))):
                return False
            them = us ^ 1
            return not attackers(pos, them, d, self.occ_k ^ BB_SQUARES[s]) and not attackers(pos, them, d, self.occ_y)
        occ_them = pos.black if us else pos.white
        empty = BB_ALL ^ (pos.white | pos.black)
        x = p >> 4
        o = pos.occ_b if x else pos.occ_a
        fb = BB_SQUARES[s]
        dests: Bitboard
        if t == PAWN:
            forward = 8 if us else -8
            dests = PAWN_ATTACKS[us << 6 | s] & occ_them & o
            b1 = BB_SQUARES[s + forward]
            if b1 & empty:
                dests |= b1
            if fb & (BB_RANK_2 if us else BB_RANK_7) and not b1 & o:
                b2 = BB_SQUARES[s + 2 * forward]
                if b2 & empty:
                    dests |= b2
        else:
            dests = piece_attacks(p, s, o) & ((occ_them & o) | empty)
        dests &= tb
        if not dests:
            return False
        if x == self.kb:
            dests &= self.k_mask
            danger = self.danger
            if dests and (danger & fb or danger & dests):
                dests = _safe_from_k(dests, fb, danger, self.ksq, self.occ_k, self.them_k, self.bq, self.rq)
        else:
            dests &= self.y_mask
        return bool(dests)


def legal_moves(pos: Position, captures_only: bool = False) -> list[Move]:
    """All legal moves, or only the captures and promotions (in ``Legality.generate``'s order).

    >>> from engine.position import Position
    >>> len(legal_moves(Position()))
    20
    """
    lg = Legality()
    lg.set(pos)
    buf = i64_buffer(MAX_MOVES)
    n = lg.generate(pos, buf, 0, CAPTURES if captures_only else ALL)
    return list(buf[:n])


def _safe_from_k(
    dests: Bitboard, fb: Bitboard, danger: Bitboard, ksq: Square, occ_k: Bitboard, them_k: Bitboard, bq: Bitboard, rq: Bitboard
) -> Bitboard:
    """Drop the destinations of a piece leaving board K that expose the king."""
    check = dests if danger & fb else dests & danger
    while check:
        tb = check & -check
        check ^= tb
        o2 = occ_k & ~(fb | tb)
        enemy = them_k & ~tb
        if (diag_attacks(ksq, o2) & enemy & bq) or (ortho_attacks(ksq, o2) & enemy & rq):
            dests ^= tb
    return dests


def _castling(
    pos: Position, buf: vec[i64], n: i64, us: int, them: int, ksq: Square, kb: int, occ_k: Bitboard, occ_y: Bitboard
) -> i64:
    """Write the legal castling moves into ``buf`` from ``n``; return the index after them."""
    sq = pos.squares
    king_code = KING | us << 3 | kb << 4
    rook_code = ROOK | us << 3 | kb << 4
    for right in WHITE_RIGHTS if us else BLACK_RIGHTS:
        if not pos.castling & right:
            continue
        kf = CASTLE_KING_FROM[right]
        rf = CASTLE_ROOK_SQ_FROM[right]
        if ksq != kf or sq[rf] != rook_code or sq[kf] != king_code:
            continue
        kt = CASTLE_KING_TO[right]
        rt = CASTLE_ROOK_SQ_TO[right]
        if CASTLE_EMPTY[right] & occ_k or ((BB_SQUARES[kt]) | (BB_SQUARES[rt])) & occ_y:
            continue
        if attackers(pos, them, CASTLE_CROSS[right], occ_k) or attackers(pos, them, CASTLE_LAND[right], occ_k):
            continue
        # The king lands on the other board beside its rook, which may shield it.
        if attackers(pos, them, kt, occ_y | (BB_SQUARES[rt])):
            continue
        buf[n] = kf | (kt << 6)
        n += 1
    return n
