"""The fitter's data set: quiet positions, each with a score from a search.

Positions (``walk_positions``): a game starts from an opening of the bundled book
(``scripts/alice_match/openings.epd``, drawn at random) and goes on for up to ``max_plies``
plies; each ply is a uniformly random legal move with probability ``random_fraction``, else
our engine's best move at ``play_nodes`` nodes (short self-play, so the games stay
chess-like). From ply ``min_plies`` on, each position is kept with probability ``sample``
if it is new and quiet (``is_quiet``): the side to move is not in check, the game is not
over, and quiescence search finds nothing better than the static evaluation by more than
``quiet_margin`` centipawns (no good capture, promotion or checking trick).

Labels, centipawns from the side to move (the evaluation's own view):

* ``OwnLabeller``: our search (``search.search.Searcher``) at a fixed depth or node count,
  in this process; the default, so a data set can be made without another engine;
* ``UciLabeller``: any UCI engine given as a command line (Fairy-Stockfish's ``alice``
  branch: ``--engine /path/to/fairy-stockfish``), set up as a GUI would (``UCI_Variant
  alice`` when offered, ``Threads 1``, ``Hash 16``), ``ucinewgame``, ``position fen`` with
  the compact Alice FEN (``|`` before a piece on board B, the form Fairy-Stockfish reads
  and prints) and ``go depth N`` or ``go nodes N``; the last ``info ... score cp`` counts.

Positions from played games (``game_rows``): the PGNs a match writes (``alice-match
-pgnout``, locally or on the cluster, against itself or a reference) are replayed, and each
position before a move is kept (with probability ``sample``, from ply ``min_plies`` on, new
and quiet as above) with two labels at once: the score the mover's search printed in the
move's comment (``+0.35/12``: centipawns from the side to move; positions before a mate score
are dropped) and the game's result. Labelling costs nothing: the games' own searches did it.
``player`` keeps only the positions where one named player moves (its own scores).

Mate scores are dropped (the fit is about the evaluation, not mates). A data set is a CSV
file (``fen,score``; a ``result`` column, 1 / 0.5 / 0 from White's view, may replace
``score``: then the fit targets game results, or stand beside it: then the fit blends the
two) or an EPD file (the four FEN fields, then ``hmvc``, ``fmvn``, ``ce`` the score and
``c9`` the result as in a PGN), both written and read here.
"""

from __future__ import annotations

import csv
import os
import random
import re
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Final, Protocol

from alice_match.uci_process import EngineConfig, UciProcess
from clock_stats import games
from engine import Position
from engine.notation import parse_uci
from search.limits import Iteration, Limits
from search.score import INF, MATE_BOUND
from search.search import Searcher

SCRIPTS: Final = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OPENINGS: Final = os.path.join(SCRIPTS, "alice_match", "openings.epd")  # the bundled book
SEED: Final = 2026  # the default seed of the walks
MIN_PLIES: Final = 4  # plies played from the opening before a position can be kept
MAX_PLIES: Final = 60  # plies a game goes on for at most
SAMPLE: Final = 0.25  # chance that a new quiet position of a game is kept
RANDOM_FRACTION: Final = 0.3  # share of random moves in the walks; the rest are our engine's
PLAY_NODES: Final = 200  # nodes of our engine's move in the walks
QUIET_MARGIN: Final = 30  # quiet: quiescence at most this many centipawns above the static evaluation
LABEL_DEPTH: Final = 4  # default label search: go depth N (ours and a reference's)
HASH_MB: Final = 16  # hash of the searches (ours and the reference's)
UCI_TIMEOUT: Final = 60.0  # seconds a reference engine may take to answer one command (a search too)
GAME_SAMPLE: Final = 1.0  # chance that a new quiet position of a played game is kept
RESULTS: Final = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}  # a PGN result from White's view
RESULT_TEXT: Final = {value: text for text, value in RESULTS.items()}  # EPD's c9 holds the PGN result
COMMENT_SCORE: Final = re.compile(r"^\s*([+-]?\d+\.\d+)/\d+")  # "+0.35/12 ...": pawns/depth


@dataclass
class Row:
    """One position of the data set: its FEN and its label (centipawns from the side to move,
    or a game result from White's view)."""

    fen: str
    score: int | None = None
    result: float | None = None


class Labeller(Protocol):
    """Scores a position: centipawns from the side to move, ``None`` for a mate score."""

    def label(self, pos: Position) -> int | None: ...

    def close(self) -> None: ...


# ---------------------------------------------------------------- positions
def read_openings(path: str = OPENINGS) -> list[str]:
    """The FENs of an EPD opening book (the four fields, ``hmvc`` and ``fmvn``)."""
    fens = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                fens.append(epd_fen(line))
    return fens


def epd_fen(line: str) -> str:
    """The full FEN of an EPD line: its four fields and its ``hmvc``/``fmvn`` opcodes."""
    fields = line.split()[:4]
    ops = epd_opcodes(line)
    return " ".join([*fields, ops.get("hmvc", "0"), ops.get("fmvn", "1")])


def epd_opcodes(line: str) -> dict[str, str]:
    """``{opcode: operand}`` of an EPD line (after the four FEN fields)."""
    rest = line.split(None, 4)[4] if len(line.split(None, 4)) > 4 else ""
    ops = {}
    for part in rest.split(";"):
        words = part.strip().split(None, 1)
        if len(words) == 2:
            ops[words[0]] = words[1].strip().strip('"')
    return ops


def static_and_quiescence(searcher: Searcher, pos: Position) -> tuple[int, int]:
    """The static evaluation of ``pos`` and its quiescence score (side to move)."""
    tree = searcher.tree
    tree.new_search()
    tree.clock.start(Limits(), bool(pos.turn), threading.Event(), None)
    return tree.evals.static(pos), tree.qsearch(pos, -INF, INF, 0, 0)


def is_quiet(searcher: Searcher, pos: Position, margin: int = QUIET_MARGIN) -> bool:
    """Not in check, not over, and quiescence no more than ``margin`` above the static evaluation."""
    if pos.in_check() or pos.outcome() is not None:
        return False
    static, quiet = static_and_quiescence(searcher, pos)
    return quiet - static <= margin


def best_move(searcher: Searcher, pos: Position, nodes: int) -> int | None:
    """Our engine's move at ``nodes`` nodes."""
    searcher.clear()
    return searcher.search(pos, Limits(nodes=nodes), threading.Event(), lambda _: None).best


def walk_positions(
    count: int,
    seed: int = SEED,
    min_plies: int = MIN_PLIES,
    max_plies: int = MAX_PLIES,
    sample: float = SAMPLE,
    random_fraction: float = RANDOM_FRACTION,
    play_nodes: int = PLAY_NODES,
    quiet_margin: int = QUIET_MARGIN,
    openings: Sequence[str] | None = None,
) -> Iterator[Position]:
    """``count`` distinct quiet positions from walks that start at the openings (module docstring)."""
    rng = random.Random(seed)
    book = list(openings) if openings is not None else read_openings()
    searcher = Searcher(hash_mb=1)
    seen: set[str] = set()
    found = 0
    while found < count:
        pos = Position(rng.choice(book))
        for ply in range(max_plies):
            moves = pos.legal_moves()
            if not moves:
                break
            engine_move = best_move(searcher, pos, play_nodes) if rng.random() >= random_fraction else None
            pos.push(engine_move if engine_move is not None else rng.choice(sorted(moves)))
            if ply + 1 < min_plies or rng.random() >= sample:
                continue
            key = " ".join(pos.fen().split()[:4])
            if key in seen or not is_quiet(searcher, pos, quiet_margin):
                continue
            seen.add(key)
            found += 1
            yield pos.copy()
            if found >= count:
                return


# ---------------------------------------------------------------- labels
class OwnLabeller:
    """Our search at ``go depth N`` (or ``go nodes N``), fresh tables for every position."""

    def __init__(self, depth: int | None = LABEL_DEPTH, nodes: int | None = None) -> None:
        self.limits = Limits(depth=depth, nodes=nodes)
        self.searcher = Searcher(hash_mb=HASH_MB)

    def label(self, pos: Position) -> int | None:
        lines: list[Iteration] = []
        self.searcher.clear()
        self.searcher.search(pos, self.limits, threading.Event(), lines.append)
        if not lines or lines[-1].mate is not None or abs(lines[-1].score) >= MATE_BOUND:
            return None
        return lines[-1].score

    def close(self) -> None:
        pass


class UciLabeller:
    """A reference UCI engine, started from a command line (module docstring), through the
    project's UCI client (``alice_match.uci_process``)."""

    def __init__(self, command: str, depth: int | None = LABEL_DEPTH, nodes: int | None = None) -> None:
        self.go_args = f"nodes {nodes}" if nodes is not None else f"depth {depth}"
        self.process = UciProcess(EngineConfig(cmd=command))
        self.process.start(UCI_TIMEOUT)  # UCI_Variant alice when offered
        self.process.set_if_offered("Threads", "1")
        self.process.set_if_offered("Hash", str(HASH_MB))

    def label(self, pos: Position) -> int | None:
        """The last ``info ... score cp`` of ``go depth N`` (or ``nodes N``); ``None`` for a mate score."""
        self.process.new_game(UCI_TIMEOUT)
        self.process.position(pos.fen(), [])
        return self.process.go(self.go_args, UCI_TIMEOUT).info.cp

    def close(self) -> None:
        self.process.quit()


def make_rows(
    positions: Iterator[Position], labeller: Labeller, progress: Callable[[int], None] | None = None
) -> list[Row]:
    """A labelled row per position (mate scores dropped)."""
    rows = []
    for pos in positions:
        score = labeller.label(pos)
        if score is not None:
            rows.append(Row(pos.fen(), score))
            if progress is not None:
                progress(len(rows))
    return rows


# ---------------------------------------------------------------- played games
def comment_score(comment: str) -> int | None:
    """The centipawns of a move comment's score (``+0.35/12 0.2s``: the mover's view), or
    ``None`` for a mate score or none.

    >>> comment_score("+0.35/12 0.433s"), comment_score("-1.20/9"), comment_score("+M6/10 0.1s")
    (35, -120, None)
    """
    match = COMMENT_SCORE.match(comment)
    return round(float(match.group(1)) * 100) if match else None


def game_rows(
    paths: Sequence[str],
    seed: int = SEED,
    min_plies: int = MIN_PLIES,
    sample: float = GAME_SAMPLE,
    quiet_margin: int = QUIET_MARGIN,
    player: str | None = None,
) -> Iterator[Row]:
    """Rows from the games of PGN files, each with its searched score and the game's result
    (module docstring); games without a result (``*``) are skipped. With ``player``, only
    the positions where the player of that name (a ``White`` or ``Black`` header) is to move:
    the scores of one engine, in a match against another whose scale differs."""
    rng = random.Random(seed)
    searcher = Searcher(hash_mb=1)
    seen: set[str] = set()
    for game in games(paths):
        result = RESULTS.get(game.headers.get("Result", "*"))
        if result is None:
            continue
        pos = Position(game.headers.get("FEN") or None)
        for ply, node in enumerate(game.mainline()):
            score = comment_score(node.comment)
            mover = game.headers.get("White" if pos.turn else "Black")
            if ply >= min_plies and score is not None and player in (None, mover):
                fen = pos.fen()  # once, and only where a row may be kept
                key = " ".join(fen.split()[:4])
                if key not in seen and rng.random() < sample:
                    seen.add(key)
                    if is_quiet(searcher, pos, quiet_margin):
                        yield Row(fen, score, result)
            pos.push(parse_uci(pos, node.move.uci()))


# ---------------------------------------------------------------- files
def write_rows(path: str, rows: Sequence[Row]) -> None:
    """A CSV (``fen,score``, and ``result`` when a row has one) or, for a path ending in
    ``.epd``, an EPD file with ``ce`` (and ``c9``, the result)."""
    with_results = any(row.result is not None for row in rows)
    with open(path, "w", encoding="utf-8", newline="") as f:
        if path.endswith(".epd"):
            for row in rows:
                fields = row.fen.split()
                ops = [f"hmvc {fields[4]}", f"fmvn {fields[5]}"]
                ops += [f"ce {row.score}"] if row.score is not None else []
                ops += [f'c9 "{RESULT_TEXT[row.result]}"'] if row.result is not None else []
                f.write(f"{' '.join(fields[:4])} {'; '.join(ops)};\n")
            return
        writer = csv.writer(f)
        writer.writerow(["fen", "score", "result"] if with_results else ["fen", "score"])
        for row in rows:
            score = "" if row.score is None else row.score
            writer.writerow([row.fen, score, "" if row.result is None else row.result] if with_results else [row.fen, score])


def read_rows(path: str) -> list[Row]:
    """The rows of a CSV file (``fen`` with ``score``, ``result`` or both) or an EPD file
    (``ce``, ``c9`` or both)."""
    if path.endswith(".epd"):
        with open(path, encoding="utf-8") as f:
            return [_epd_row(line) for line in f if line.strip()]
    with open(path, encoding="utf-8", newline="") as f:
        return [_row(record["fen"], record.get("score"), record.get("result")) for record in csv.DictReader(f)]


def _epd_row(line: str) -> Row:
    """A row from an EPD line (``ce`` the score, ``c9`` the result as a PGN result)."""
    ops = epd_opcodes(line)
    result = ops.get("c9")
    return _row(epd_fen(line), ops.get("ce"), str(RESULTS[result]) if result else None)


def _row(fen: str, score: str | None, result: str | None) -> Row:
    """A row from its fields as read (an empty or missing field is no label)."""
    return Row(fen, int(score) if score else None, float(result) if result else None)
