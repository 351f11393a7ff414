"""Find and verify Alice positions with forced mates, for ``tests/data/mates.epd``.

    python scripts/find_mates.py scan --fsf FSF [--seed 1] [--games 200] [--setups 3000]
    python scripts/find_mates.py verify tests/data/mates.epd --fsf FSF
    python scripts/find_mates.py check --mate 2 [--seed 11] [--games 60] [--every 3] [--setups 400]

``scan`` collects candidates from seeded random games and random sparse set-ups (kings
and a few pieces on random squares and boards), keeps those where Fairy-Stockfish alice
(``go depth 6``) reports a mate in 1 to 3 for the side to move, and checks each with the
brute-force solver of ``scripts/mate_solver.py``: the shortest mate and every key. It prints
one EPD line per verified position with how its key is made (check, capture or quiet, and
whether the moving piece lands on the defending king's board). ``verify`` re-checks a file:
the stated length is the solver's shortest, the listed keys are exactly the solver's,
and Fairy-Stockfish's ``go mate N`` reports ``mate N`` with one of the keys. ``check``
compares the mate search of ``search/mate.py`` with the solver on sampled positions (every
``--every``-th position of the random games, and the set-ups): the same shortest mate within
``--mate`` moves, or none, and prints each difference.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections.abc import Iterator, Sequence

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "scripts")]

from bench_mate import read_epd  # noqa: E402
from engine.fen import FenError  # noqa: E402
from engine.notation import move_to_uci  # noqa: E402
from engine.position import Position  # noqa: E402
from fenbuild import compact_fen  # noqa: E402
from make_openings import SEARCH_TIMEOUT, START_TIMEOUT, Scorer  # noqa: E402
from mate_solver import mate_keys, shortest_mate  # noqa: E402
from search.limits import Iteration  # noqa: E402
from search.search import Searcher  # noqa: E402

# ---------------------------------------------------------------- tunables
SCAN_DEPTH = 6  # Fairy-Stockfish depth of the first filter (sees mates in 3)
MAX_PLIES = 80  # random games stop after this many plies
MAX_MATE = 3  # longest mate looked for
VERIFY_MOVETIME = 10000  # ms Fairy-Stockfish gets for ``go mate N`` in ``verify``
SETUP_PIECES = "QQRRBBNNP"  # pieces drawn for the attacker of a random set-up
SETUP_DEFENDERS = "RBNPP"  # ... and for the defender


class Fsf(Scorer):
    """Fairy-Stockfish alice over UCI (the project's client, through ``Scorer``):
    ``mate(fen, go)`` -> (mate in, best move)."""

    def __init__(self, command: Sequence[str], cwd: str | None = None) -> None:
        super().__init__(command, SCAN_DEPTH, cwd)

    def mate(self, fen: str, go: str) -> tuple[int | None, str]:
        """The last score's mate distance (``None`` for a centipawn score) and the best move
        of ``go`` (``go depth 6``, ``go mate 2 movetime 10000``) from ``fen``."""
        self.process.new_game(START_TIMEOUT)
        self.process.position(fen, [])
        result = self.process.go(go.removeprefix("go "), SEARCH_TIMEOUT)
        return result.info.mate, result.move


def random_games(rng: random.Random, games: int) -> Iterator[str]:
    """Every position of ``games`` random games from the start."""
    for _ in range(games):
        pos = Position()
        for _ in range(MAX_PLIES):
            moves = pos.legal_moves()
            if not moves or pos.halfmove >= 100:
                break
            yield pos.fen()
            pos.push(rng.choice(moves))


def random_setups(rng: random.Random, count: int) -> Iterator[str]:
    """Sparse positions: two kings, two or three attackers, up to two defenders."""
    made = 0
    while made < count:
        white = rng.random() < 0.5
        pieces = ["K", "k"]
        attackers = rng.sample(SETUP_PIECES, rng.randint(2, 3))
        defenders = rng.sample(SETUP_DEFENDERS, rng.randint(0, 2))
        pieces += [p if white else p.lower() for p in attackers]
        pieces += [p.lower() if white else p for p in defenders]
        squares = rng.sample(range(64), len(pieces))
        cells = {s: ("|" if rng.random() < 0.5 else "") + p for s, p in zip(squares, pieces)}
        fen = compact_fen(cells, "w" if white else "b")
        try:
            pos = Position(fen)
        except FenError:
            continue  # a pawn on the first or last rank
        pos.turn ^= 1
        attacked = pos.in_check()
        pos.turn ^= 1
        if attacked or not pos.legal_moves():
            continue
        made += 1
        yield fen


def sample(seed: int, games: int, every: int, setups: int) -> list[str]:
    """Every ``every``-th position of ``games`` random games, then ``setups`` random set-ups."""
    rng = random.Random(seed)
    fens = [f for i, f in enumerate(random_games(rng, games)) if i % every == 0]
    return fens + list(random_setups(rng, setups))


def compare(fens: list[str], n: int) -> Iterator[tuple[str, int | None, int | None]]:
    """``(fen, the solver's shortest mate, mate mode's)`` within ``n`` moves (``None``: no mate)."""
    for fen in fens:
        pos = Position(fen)
        its: list[Iteration] = []
        Searcher(1).mate_search().run(pos, pos.legal_moves(), n, its.append)
        yield fen, shortest_mate(pos, n), its[-1].mate if its else None


def key_kind(pos: Position, m: int) -> str:
    """``check``/``capture``/``quiet`` and ``transfer`` when the piece lands on the enemy king's board."""
    kinds = []
    if pos.gives_check(m):
        kinds.append("check")
    if pos.is_capture(m):
        kinds.append("capture")
    if not kinds:
        kinds.append("quiet")
    king_board = pos.sq[pos.king(pos.turn ^ 1)] >> 4
    if pos.sq[m & 63] >> 4 != king_board:
        kinds.append("transfer")
    return " ".join(kinds)


def epd_line(fen: str, n: int, keys: list[str], ident: str, comment: str) -> str:
    return f'{" ".join(fen.split()[:4])} dm {n}; key "{" ".join(keys)}"; id "{ident}"; c0 "{comment}";'


def scan(args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    fsf = Fsf([args.fsf])
    seen: set[str] = set()
    sources = [("game", random_games(rng, args.games)), ("setup", random_setups(rng, args.setups))]
    for source, fens in sources:
        for fen in fens:
            if fen in seen:
                continue
            seen.add(fen)
            mate, _ = fsf.mate(fen, f"go depth {SCAN_DEPTH}")
            if mate is None or not 1 <= mate <= MAX_MATE:
                continue
            pos = Position(fen)
            n = shortest_mate(pos, MAX_MATE)
            if n is None:
                print(f"# solver finds no mate in {MAX_MATE}, Fairy-Stockfish says {mate}: {fen}", flush=True)
                continue
            keys = mate_keys(pos, n)
            kinds = sorted({key_kind(pos, m) for m in keys})
            note = "" if n == mate else f", Fairy-Stockfish said {mate}"
            uci = [move_to_uci(pos, m) for m in keys]
            print(epd_line(fen, n, uci, source, " / ".join(kinds) + note), flush=True)
    fsf.close()


def verify(args: argparse.Namespace) -> None:
    fsf = Fsf([args.fsf])
    bad = 0
    for fen, n, keys, ident in read_epd(args.file):
        pos = Position(fen)
        shortest = shortest_mate(pos, n)
        solver_keys = sorted(move_to_uci(pos, m) for m in mate_keys(pos, n))
        mate, best = fsf.mate(fen, f"go mate {n} movetime {VERIFY_MOVETIME}")
        ok = shortest == n and solver_keys == sorted(keys) and mate == n and best in keys
        bad += not ok
        print(
            f"{ident:8} dm {n}: solver {shortest} keys {' '.join(solver_keys)}; "
            f"fsf mate {mate} {best}: {'ok' if ok else 'MISMATCH'}",
            flush=True,
        )
    fsf.close()
    sys.exit(1 if bad else 0)


def check(args: argparse.Namespace) -> None:
    counts: dict[int | None, int] = {}
    bad = 0
    for fen, expected, got in compare(sample(args.seed, args.games, args.every, args.setups), args.mate):
        counts[expected] = counts.get(expected, 0) + 1
        if got != expected:
            bad += 1
            print(f"DIFFERENT: solver {expected}, mate search {got}: {fen}", flush=True)
    answers = ", ".join(f"{'none' if k is None else f'mate in {k}'}: {v}" for k, v in sorted(counts.items(), key=str))
    print(f"{sum(counts.values())} positions ({answers}), {bad} differences")
    sys.exit(1 if bad else 0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    sc = sub.add_parser("scan", help="find candidates and print verified EPD lines")
    sc.add_argument("--fsf", required=True, help="Fairy-Stockfish binary")
    sc.add_argument("--seed", type=int, default=1)
    sc.add_argument("--games", type=int, default=200)
    sc.add_argument("--setups", type=int, default=3000)
    ve = sub.add_parser("verify", help="re-check an EPD file with the solver and Fairy-Stockfish")
    ve.add_argument("file")
    ve.add_argument("--fsf", required=True, help="Fairy-Stockfish binary")
    ch = sub.add_parser("check", help="compare the mate search with the solver on sampled positions")
    ch.add_argument("--mate", type=int, default=2)
    ch.add_argument("--seed", type=int, default=11)
    ch.add_argument("--games", type=int, default=60)
    ch.add_argument("--every", type=int, default=3)
    ch.add_argument("--setups", type=int, default=400)
    args = ap.parse_args()
    {"scan": scan, "verify": verify, "check": check}[args.cmd](args)


if __name__ == "__main__":
    main()
