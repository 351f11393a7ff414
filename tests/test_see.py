"""Static exchange evaluation (``search.see``): hand-made Alice exchanges, and a brute-force
reference that plays only captures on the target square with the real legal-move generator.

Where the two may legitimately differ: SEE ignores pins and checks (a piece that may not
legally capture is counted as if it could). The reference notices those positions itself: at
every node of its exchange tree it compares the legal captures on the square with the
pseudo-legal ones (``engine.movegen.pseudo_legal_moves``: paths and landing squares only, no
king safety), kings left out, and a position-move pair where they differ anywhere is not
compared (counted, and the count is bounded). King captures are compared always: SEE's
king rule is Alice's legality of a king capture. SEE lets a pawn recapturing on its last rank
promote to a queen; the reference tries all four promotions.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest

from engine.movegen import legal_moves, pseudo_legal_moves
from engine.notation import parse_uci
from engine.position import Position
from engine.tables import KING
from search.score import PIECE_VALUE
from search.see import see, see_ge
from support.walks import random_positions

FAST_POSITIONS = 300  # random positions of the unmarked comparison
SLOW_POSITIONS = 3000  # random positions of the slow comparison
QUIET_SAMPLE = 3  # quiet moves per position compared (every capture is)
THRESHOLD_OFFSETS = (-1000, -117, -1, 0, 1, 117, 1000)  # see_ge thresholds around the exact value


# ------------------------------------------------------------------ the brute-force reference
def material(pos: Position) -> int:
    """White's material minus black's (``PIECE_VALUE``)."""
    total = 0
    for p in pos.squares:
        if p:
            total += PIECE_VALUE[p & 7] if p & 8 else -PIECE_VALUE[p & 7]
    return total


P, N, R, Q = PIECE_VALUE[1], PIECE_VALUE[2], PIECE_VALUE[4], PIECE_VALUE[5]  # the values SEE counts


def captures_on(moves: list[int], pos: Position, d: int, kings: bool) -> set[int]:
    """The captures on ``d`` among ``moves`` (with or without king captures)."""
    return {m for m in moves if (m >> 6) & 63 == d and pos.squares[d] and (kings or pos.squares[m & 63] & 7 != KING)}


@dataclass
class Exchange:
    """The brute-force exchange on square ``d``: ``regular`` stays true while every node's legal
    non-king captures on ``d`` are its pseudo-legal ones (no pin or check changed anything)."""

    d: int
    regular: bool = True
    deepest: int = 0  # the longest capture sequence seen
    memo: dict[int, int] = field(default_factory=dict)

    def best(self, pos: Position, depth: int) -> int:
        """The side to move's best net material from here: stop (0) or capture on ``d``."""
        if pos.key in self.memo:
            return self.memo[pos.key]
        legal = legal_moves(pos)
        if captures_on(legal, pos, self.d, False) != captures_on(pseudo_legal_moves(pos), pos, self.d, False):
            self.regular = False
        sign = 1 if pos.turn else -1
        before = material(pos) * sign
        best = 0
        for m in captures_on(legal, pos, self.d, True):
            self.deepest = max(self.deepest, depth + 1)
            pos.push(m)
            best = max(best, material(pos) * sign - before - self.best(pos, depth + 1))
            pos.pop()
        self.memo[pos.key] = best
        return best


def reference(pos: Position, m: int) -> Exchange:
    """The exchange started by legal move ``m``; its ``value`` field holds the result."""
    ex = Exchange((m >> 6) & 63)
    sign = 1 if pos.turn else -1
    before = material(pos) * sign
    pos.push(m)
    ex.memo[-1] = material(pos) * sign - before - ex.best(pos, 1)
    pos.pop()
    return ex


def reference_value(pos: Position, m: int) -> int:
    return reference(pos, m).memo[-1]


# ------------------------------------------------------------------ hand-made positions
def value(fen: str, uci: str) -> int:
    pos = Position(fen)
    m = parse_uci(pos, uci)
    exact = see(pos, m)
    assert exact == reference_value(pos, m), "the hand-made answer must also be the brute force's"
    for t in (exact - 1, exact, exact + 1):
        assert see_ge(pos, m, t) == (exact >= t)
    return exact


def test_undefended_and_defended_on_the_landing_board() -> None:
    # Qxd5 on A lands on d5 of B: a defender on A cannot retake, one on B can.
    assert value("4k3/8/8/3p4/8/8/8/3QK3 w - - 0 1", "d1d5") == P
    assert value("4k3/3r4/8/3p4/8/8/8/3QK3 w - - 0 1", "d1d5") == P
    assert value("4k3/3|r4/8/3p4/8/8/8/3QK3 w - - 0 1", "d1d5") == P - Q


def test_capture_from_board_b_lands_on_a() -> None:
    # The rook on B takes the knight on B at e4 and lands on A, where the f5 pawn (A) retakes.
    assert value("k7/8/8/5p2/|R3|n3/8/8/7K w - - 0 1", "a4e4") == N - R
    assert value("k7/8/8/5|p2/|R3|n3/8/8/7K w - - 0 1", "a4e4") == N  # the pawn on B cannot


def test_recaptures_alternate_boards() -> None:
    # Nxe4 (A, lands on B); the bishop on B could retake (landing on A), but the rook on A would
    # take it there: black does better to stop.
    assert value("k7/7|b/8/8/4n3/2N5/8/4R2K w - - 0 1", "c3e4") == N
    # A rook on B cannot retake on A's square e4: black wins the knight back.
    assert value("k7/7|b/8/8/4n3/2N5/8/4|R2K w - - 0 1", "c3e4") == 0
    # A bishop on A cannot retake the knight that landed on B.
    assert value("k7/7b/8/8/4n3/2N5/8/4R2K w - - 0 1", "c3e4") == N


def test_xrays_on_both_boards() -> None:
    # Rxe5 (A); black's rooks on B stand one behind the other, white's queen on A behind the rook.
    both = "7k/4|r3/4|r3/4n3/8/8/4R3/K3Q3 w - - 0 1"
    assert value(both, "e2e5") == N - R  # Qxr would lose the queen to the second rook
    # Without black's x-ray on B, the queen on A (an x-ray through e2) wins the rook.
    assert value("8/4|r2k/8/4n3/8/8/4R3/K3Q3 w - - 0 1", "e2e5") == N
    # Without white's x-ray on A, or with the queen on B, black's rook wins the exchange.
    assert value("8/4|r2k/8/4n3/8/8/4R3/K7 w - - 0 1", "e2e5") == N - R
    assert value("8/4|r2k/8/4n3/8/8/4R3/K3|Q3 w - - 0 1", "e2e5") == N - R
    # A black rook on A behind the first does not help black: black retakes from B only.
    assert value("4r3/4|r2k/8/4n3/8/8/4R3/K3Q3 w - - 0 1", "e2e5") == N


def test_king_captures_only_when_safe_on_both_boards() -> None:
    # Nxe4 (A), nxN from B lands on A e4, the king on A takes it when nothing else attacks e4.
    alone = "k7/8/5|n2/8/4pK2/2N5/8/8 w - - 0 1"
    assert value(alone, "c3e4") == P
    # A second black attacker on B: the king would land on e4 of B attacked there.
    assert value("k7/7|b/5|n2/8/4pK2/2N5/8/8 w - - 0 1", "c3e4") == P - N
    # A black rook on A attacks e4 on the king's own board: the king may not go there either.
    assert value("k3r3/8/5|n2/8/4pK2/2N5/8/8 w - - 0 1", "c3e4") == P - N


def test_quiet_moves_landing_en_prise() -> None:
    # Nc3-d5 lands on B; a black pawn on B at e6 takes it, one on A does not.
    assert value("k7/8/4|p3/8/8/2N5/8/7K w - - 0 1", "c3d5") == -N
    assert value("k7/8/4p3/8/8/2N5/8/7K w - - 0 1", "c3d5") == 0
    # The pawn on B takes it and lands on A, where the other knight retakes: N for p.
    assert value("k7/8/4|p3/8/8/2N1N3/8/7K w - - 0 1", "c3d5") == -N + P


def test_promotions() -> None:
    # bxa8=Q lands on B, where the bishop takes the queen: rook + queen - pawn - queen.
    assert value("r3k3/1P6/2|b5/8/8/8/8/4K3 w - - 0 1", "b7a8q") == R - P
    assert value("r3k3/1P6/2|b5/8/8/8/8/4K3 w - - 0 1", "b7a8n") == R - P
    assert value("r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7a8q") == R + Q - P
    # A black pawn on B recaptures on b1 and promotes: white loses the rook and a queen's worth.
    assert value("4k3/8/8/8/8/8/2|p5/Rn2K3 w - - 0 1", "a1b1") == N - R - (Q - P)


def test_see_ge_matches_see_on_random_positions() -> None:
    rng = random.Random(7)
    for pos in random_positions(150, 11, playable=True):
        for m in legal_moves(pos):
            exact = see(pos, m)
            for t in (*(exact + o for o in THRESHOLD_OFFSETS), rng.randrange(-1500, 1500)):
                assert see_ge(pos, m, t) == (exact >= t), (pos.fen(), m, t, exact)


# ------------------------------------------------------------------ against the brute force
@dataclass
class Tally:
    compared: int = 0
    skipped: int = 0  # a pin or check changed the legal captures somewhere in the tree
    recaptured: int = 0  # compared, and the opponent had a capture to make
    long: int = 0  # compared, with a capture sequence of 3 or more
    losing: int = 0  # compared, and the move loses material


def compare(positions: list[Position], seed: int) -> Tally:
    rng = random.Random(seed)
    tally = Tally()
    for pos in positions:
        moves = legal_moves(pos)
        caps = [m for m in moves if pos.squares[(m >> 6) & 63] or m >> 12]
        quiet = [m for m in moves if m not in caps]
        for m in caps + rng.sample(quiet, min(QUIET_SAMPLE, len(quiet))):
            ex = reference(pos, m)
            if not ex.regular:
                tally.skipped += 1
                continue
            expected = ex.memo[-1]
            assert see(pos, m) == expected, (pos.fen(), m)
            assert see_ge(pos, m, expected) and not see_ge(pos, m, expected + 1), (pos.fen(), m)
            tally.compared += 1
            tally.recaptured += ex.deepest >= 2
            tally.long += ex.deepest >= 3
            tally.losing += expected < 0
    return tally


def check_tally(tally: Tally, positions: int) -> None:
    """The comparison covered real exchanges, and few were skipped."""
    assert tally.compared >= 2 * positions
    assert tally.skipped <= tally.compared // 10
    assert tally.recaptured >= positions // 3
    assert tally.long >= positions // 30
    assert tally.losing >= positions // 10


def test_matches_brute_force() -> None:
    check_tally(compare(random_positions(FAST_POSITIONS, 2027, playable=True), 1), FAST_POSITIONS)


@pytest.mark.slow
def test_matches_brute_force_many() -> None:
    check_tally(compare(random_positions(SLOW_POSITIONS, 4049, playable=True), 2), SLOW_POSITIONS)
