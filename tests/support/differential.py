"""The differential test's machinery against Fairy-Stockfish's alice rules (pyffish_alice).

Positions come from seeded random play, so a failure names the seed, the starting
FEN and the moves that reproduce it:

* games from the start position, played in bursts that favour captures, checks,
  castling and promotions (or plain random moves);
* random sparse endgames: kings plus up to six pieces (pawns often one step from
  promotion) on random squares and boards, validated by our FEN parser, then
  played on;
* random castling set-ups: kings and rooks on their home squares on random
  boards with every right the placement allows on one board, plus other pieces
  (rights whose king or rook is on board B are dropped when we read the FEN, so
  Fairy-Stockfish is given our FEN, with the rights that remain).

For every position we compare with Fairy-Stockfish: the set of legal moves (UCI), whether
the side to move is in check, our FEN against the FEN it computes for the move that led
here, and our FEN after *each* legal move against its FEN after that move. Our side alone:
``captures()`` is exactly the legal captures and promotions; the SAN of every legal move
parses back to the move, with and without the board suffix; one SAN per position (suffix
removed) equals Fairy-Stockfish's; the 16-wide form of the position reads back identically;
and positions without legal moves get the same result (mate or stalemate).

Fairy-Stockfish never decides repetitions here (its hash ignores boards): games stop
when our outcome() says so.

Each pyffish call costs about 1.5 ms (it rebuilds its position from the FEN), so
the per-move FEN comparison dominates the run time (the test files mark the seeds slow).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

import chess
import pyffish_alice as ff

from engine import FenError, Position, move_to_san, move_to_uci, parse_san
from engine.bits import COMPILED
from engine.tables import CASTLES
from fenbuild import compact_fen

V = "alice"
# Seeds 0..7 on the compiled build, each chunk POSITIONS_PER_CHUNK positions (2,000 in all); the
# pure build, the same rules source run by the interpreter, checks the first four (1,000):
# its half of CI's time is spent here, and tests/test_builds.py checks the two builds agree.
# The seeds are split over two test files (tests/test_differential.py, the first half, and
# tests/test_differential_second_half.py) so that pytest-xdist's --dist loadfile runs them on
# two workers at once: together they are among the longest test files of both builds.
CHUNKS = 8 if COMPILED else 4
FIRST_HALF = range(CHUNKS // 2)
SECOND_HALF = range(CHUNKS // 2, CHUNKS)
POSITIONS_PER_CHUNK = 250
GAME_SHARE = 0.5  # of each chunk: from the start position; the rest sparse/castling set-ups


@dataclass
class Trail:
    """How a position was reached: enough to reproduce a failure by hand."""

    seed: int
    source: str
    start_fen: str
    moves: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        return f"seed={self.seed} source={self.source} start={self.start_fen!r} moves={' '.join(self.moves)!r}"


@dataclass
class Tally:
    positions: int = 0
    moves: int = 0
    checks: int = 0
    mates: int = 0
    stalemates: int = 0
    castles: int = 0
    promotions: int = 0
    captures: int = 0
    sparse: int = 0
    setups: int = 0


# ------------------------------------------------------------------ position sources
def _free(cells: dict[int, str], letter: str, rng: random.Random) -> int:
    pawn = letter in "Pp"
    while True:
        s = rng.randrange(64)
        if s not in cells and not (pawn and chess.square_rank(s) in (0, 7)):
            return s


def random_sparse_fen(rng: random.Random) -> str:
    """Kings and up to six pieces on random squares and boards; pawns often on the 7th rank."""
    cells: dict[int, str] = {}
    for king in "Kk":
        cells[_free(cells, king, rng)] = ("|" if rng.random() < 0.5 else "") + king
    for _ in range(rng.randint(0, 6)):
        letter = rng.choice("PPNBRQppnbrq")
        if letter in "Pp" and rng.random() < 0.5:
            rank = 6 if letter == "P" else 1
            s = chess.square(rng.randrange(8), rank)
            if s in cells:
                continue
        else:
            s = _free(cells, letter, rng)
        cells[s] = ("|" if rng.random() < 0.5 else "") + letter
    return compact_fen(cells, rng.choice("wb"), "")


def random_castling_fen(rng: random.Random) -> str:
    """Kings and rooks at home on random boards, with every right the placement allows."""
    cells: dict[int, str] = {}
    for king, rook, rank in (("K", "R", 0), ("k", "r", 7)):
        board = "|" if rng.random() < 0.35 else ""
        cells[chess.square(4, rank)] = board + king
        for file in (0, 7):
            if rng.random() < 0.85:
                same = rng.random() < 0.85
                cells[chess.square(file, rank)] = (board if same else ("" if board else "|")) + rook
    for _ in range(rng.randint(0, 8)):
        letter = rng.choice("PPNBRQppnbrq")
        cells[_free(cells, letter, rng)] = ("|" if rng.random() < 0.5 else "") + letter
    rights = ""
    for bit, letter in ((1, "K"), (2, "Q"), (4, "k"), (8, "q")):
        kf, _, rf, _, _, _ = CASTLES[bit]
        k, r = cells.get(kf, ""), cells.get(rf, "")
        if k[-1:].lower() == "k" and r[-1:].lower() == "r" and k.startswith("|") == r.startswith("|"):
            if k[-1].isupper() == letter.isupper() == r[-1].isupper() and rng.random() < 0.9:
                rights += letter
    return compact_fen(cells, rng.choice("wb"), rights)


def valid_position(make: Callable[[random.Random], str], rng: random.Random) -> Position:
    """A random set-up FEN that our parser accepts (others are drawn again)."""
    for _ in range(1000):
        fen = make(rng)
        try:
            pos = Position(fen)
        except FenError:
            continue
        # Fairy-Stockfish's validator also refuses kings side by side, even on
        # different boards (legal in Alice; such positions arise in the games).
        if ff.validate_fen(fen, V) != ff.FEN_OK:
            continue
        return pos
    raise AssertionError("no valid random FEN in 1000 draws")


def _is_castle(pos: Position, m: int) -> bool:
    return pos.sq[m & 63] & 7 == chess.KING and abs(((m >> 6) & 63) - (m & 63)) == 2


def choose(pos: Position, moves: list[int], mode: str, rng: random.Random) -> int:
    """A move for the walk: plain random, or favouring checks / captures / castling / promotions."""
    if mode == "checks":
        checking = [m for m in moves if pos.gives_check(m)]
        if checking and rng.random() < 0.7:
            return rng.choice(checking)
    if mode != "random":
        special = [m for m in moves if _is_castle(pos, m) or m >> 12]
        if special and rng.random() < 0.8:
            return rng.choice(special)
        captures = [m for m in moves if pos.sq[(m >> 6) & 63]]
        if mode == "captures" and captures and rng.random() < 0.75:
            return rng.choice(captures)
    return rng.choice(moves)


# ------------------------------------------------------------------ the comparison
def sixteen_wide(pos: Position) -> str:
    rows = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for board in (0, 1):
            for file in range(8):
                p = pos.sq[rank * 8 + file]
                if p and p >> 4 == board:
                    letter = " pnbrqk"[p & 7]
                    row += (str(empty) if empty else "") + (letter.upper() if p & 8 else letter)
                    empty = 0
                else:
                    empty += 1
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + " " + pos.fen().split(" ", 1)[1]


def check_position(pos: Position, trail: Trail, parent: str | None, rng: random.Random, tally: Tally) -> list[int]:
    """Compare ``pos`` with Fairy-Stockfish; returns our legal moves."""
    fen = pos.fen()
    where = f"{trail}\n  fen={fen!r}"
    tally.positions += 1

    # Our FEN against Fairy-Stockfish's for the move that led here (or its reading of the set-up).
    if parent is None:
        assert ff.get_fen(V, fen, []) == fen, where
    else:
        theirs = ff.get_fen(V, parent, [trail.moves[-1]])
        assert fen == theirs, f"FEN after {trail.moves[-1]} differs: ours {fen!r}, Fairy-Stockfish {theirs!r}\n{where}"

    moves = pos.legal_moves()
    ucis = {move_to_uci(pos, m): m for m in moves}
    assert len(ucis) == len(moves), f"duplicate moves\n{where}"
    theirs_moves = set(ff.legal_moves(V, fen, []))
    ours_set = set(ucis)
    theirs_set = theirs_moves
    assert ours_set == theirs_set, (
        f"legal moves differ: only ours {sorted(ours_set - theirs_set)}, only Fairy-Stockfish "
        f"{sorted(theirs_set - ours_set)}\n{where}"
    )

    # The captures-only generator (for quiescence) is exactly the captures and promotions.
    tactical = sorted(m for m in moves if pos.sq[(m >> 6) & 63] or m >> 12)
    assert sorted(pos.captures()) == tactical, f"captures() differs\n{where}"

    in_check = pos.in_check()
    assert in_check == ff.gives_check(V, fen, []), f"in-check differs (ours {in_check})\n{where}"
    tally.checks += in_check

    # Our FEN after each legal move against Fairy-Stockfish's.
    for uci, m in ucis.items():
        pos.push(m)
        ours_after = pos.fen()
        pos.pop()
        theirs_after = ff.get_fen(V, fen, [uci])
        assert ours_after == theirs_after, f"FEN after {uci}: ours {ours_after!r}, Fairy-Stockfish {theirs_after!r}\n{where}"
        tally.moves += 1
        tally.castles += _is_castle(pos, m)
        tally.promotions += bool(m >> 12)
        tally.captures += bool(pos.sq[(m >> 6) & 63])
    assert pos.fen() == fen, where

    # SAN: every legal move round-trips; one is compared with Fairy-Stockfish's.
    for uci, m in ucis.items():
        san = move_to_san(pos, m)
        assert parse_san(pos, san) == m, f"SAN {san!r} of {uci} does not parse back\n{where}"
        plain = san.replace("/A", "").replace("/B", "")
        assert parse_san(pos, plain) == m, f"SAN {plain!r} of {uci} does not parse back\n{where}"
    if ucis:
        uci = rng.choice(sorted(ucis))
        plain = move_to_san(pos, ucis[uci]).replace("/A", "").replace("/B", "")
        assert plain == ff.get_san(V, fen, uci), f"SAN of {uci}: ours {plain!r}\n{where}"

    # The 16-wide form reads back to the same position.
    assert Position(sixteen_wide(pos)).fen() == fen, where

    # Game over by mate or stalemate: same verdict.
    if not moves:
        result = ff.game_result(V, fen, [])
        outcome = pos.outcome()
        assert outcome is not None, where
        if in_check:
            tally.mates += 1
            assert outcome.termination == "checkmate" and result < 0, where
        else:
            tally.stalemates += 1
            assert outcome.termination == "stalemate" and result == 0, where
    return moves


def run_chunk(seed: int) -> Tally:
    rng = random.Random(seed * 7919 + 17)
    tally = Tally()
    target = POSITIONS_PER_CHUNK
    game_target = int(target * GAME_SHARE)
    # Games from the start position, in bursts of one mode.
    while tally.positions < game_target:
        pos = Position()
        trail = Trail(seed, "game", pos.fen())
        walk_and_check(pos, trail, rng, tally, max_plies=rng.randint(60, 200), limit=game_target)
    # Set-ups: sparse endgames and castling positions.
    while tally.positions < target:
        sparse = rng.random() < 0.6
        pos = valid_position(random_sparse_fen if sparse else random_castling_fen, rng)
        tally.sparse += sparse
        tally.setups += 1
        trail = Trail(seed, "sparse" if sparse else "castling", pos.fen())
        walk_and_check(pos, trail, rng, tally, max_plies=rng.randint(0, 10 if sparse else 4), limit=target)
    return tally


def walk_and_check(pos: Position, trail: Trail, rng: random.Random, tally: Tally, max_plies: int, limit: int) -> None:
    """Play up to ``max_plies`` moves from ``pos`` in bursts of one mode, comparing every position
    reached with Fairy-Stockfish; stops at the game's end or when ``tally`` holds ``limit``."""
    parent: str | None = None
    mode = rng.choice(("random", "captures", "special", "checks"))
    for ply in range(max_plies + 1):
        moves = check_position(pos, trail, parent, rng, tally)
        if not moves or pos.outcome() is not None or ply == max_plies or tally.positions >= limit:
            return
        if rng.random() < 0.15:  # a new burst
            mode = rng.choice(("random", "captures", "special", "checks"))
        m = choose(pos, moves, mode, rng)
        uci = move_to_uci(pos, m)
        parent = pos.fen()
        trail.moves.append(uci)
        pos.push(m)


def check_chunk(seed: int) -> None:
    """Compare one seed's chunk with Fairy-Stockfish and check that its walk reached the cases
    worth comparing (captures, checks, castling, promotions, set-ups)."""
    tally = run_chunk(seed)
    print(f"seed {seed}: {tally}")  # shown with pytest -rP
    assert tally.positions == POSITIONS_PER_CHUNK
    # The walk must actually reach the interesting cases, or the test proves little.
    assert tally.captures > 50 and tally.checks > 3 and tally.castles > 0 and tally.promotions > 0, tally
    assert tally.setups > 5 and tally.sparse > 0, tally
