"""cutechess with the project's Alice board (contrib/cutechess/, scripts/build-cutechess.sh).

Black-box over the binaries the build script makes: ``cutechess-cli`` and, beside it,
``test_chessboard`` (cutechess's own board unit tests, with the Alice cases the patch adds)
and ``test_alicemoves`` (a harness over cutechess's board: a FEN in, the legal moves, a SAN,
the FEN after moves or the result out).

* the Alice rows of cutechess's unit tests pass (perft of ../data/perft.epd to depth 4-5,
  SAN, FEN round trips, results);
* differential: in 2,400 positions reached by seeded random play (games from the start
  position, sparse endgames, castling set-ups: tests/test_differential.py's generators),
  cutechess's legal moves equal engine/'s and pyffish-alice's; cutechess's SAN of a random
  move, the FEN after it and the result of game-ending positions equal engine/'s;
* a short match alice-engine vs Fairy-Stockfish through ``cutechess-cli -variant alice``
  at a node limit: every game of the PGN replays legally under engine/ and ends as
  cutechess says; adjudication (-maxmoves, -draw, -resign) works;
* an engine playing a move legal on its board whose landing square is taken on the other
  board loses by illegal move; moves legal only in Alice chess are accepted.
* a game from a set-up position carries the compact FEN in its FEN tag, and cutechess reads
  its own PGN back (FEN tag and SAN) as an opening book.

The binaries: ``ALICE_CUTECHESS_CLI`` (else ./cutechess-build/build/cutechess-cli), and for
the match ``ALICE_FAIRY_STOCKFISH``; ``.ci/run`` builds both and sets them. Without them the
tests skip, naming the build command; with ``ALICE_REQUIRE_SYSTEM_TOOLS=1`` (CI) they fail.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import chess
import pyffish_alice as ff
import pytest

import support.system_tools as system_tools
from alice_match.pgn import read_game as read_alice_pgn
from alice_match.pgn import uci_moves
from engine import Position, move_to_san, move_to_uci, parse_san, parse_uci
from support.differential import choose, random_castling_fen, random_sparse_fen, valid_position
from support.installed import CHILD_CWD, ROOT, TESTS, engine_command

pytestmark = pytest.mark.slow

CLI_ENV = "ALICE_CUTECHESS_CLI"  # path of cutechess-cli built by scripts/build-cutechess.sh
FSF_ENV = "ALICE_FAIRY_STOCKFISH"  # path of Fairy-Stockfish (alice branch)
DEFAULT_CLI = Path(ROOT) / "cutechess-build" / "build" / "cutechess-cli"
SCRIPTED = os.path.join(TESTS, "engines", "scripted.py")
DIFF_SEEDS = 8  # seeded walks in the differential test
POSITIONS_PER_SEED = 300  # positions a seed compares (8 x 300 = 2,400)
MAX_WALK_PLIES = 120  # a walk from the start position or a set-up ends after this many plies
MATCH_NODES = 3000  # node limit of each engine in the match
MATCH_GAMES = 2  # games of the match (one with each colour)
MATCH_MAX_MOVES = 100  # moves after which cutechess adjudicates a match game a draw
TIMEOUT = 600  # seconds for any one cutechess-cli run


def _missing(what: str) -> None:
    """Skip (or fail under ``ALICE_REQUIRE_SYSTEM_TOOLS``) for a binary that was not built."""
    reason = f"{what}: build it with {what_builds(what)}"
    if system_tools.required():
        pytest.fail(f"{reason} ({system_tools.REQUIRE_ENV} is set)", pytrace=False)
    pytest.skip(reason)


def what_builds(what: str) -> str:
    """The command that builds ``what`` (and the variable that names it)."""
    if what.startswith("Fairy"):
        return f"scripts/build-fairy-stockfish.sh, then set {FSF_ENV} to its last line"
    return f"scripts/build-cutechess.sh (then set {CLI_ENV} to its last line, or keep ./cutechess-build)"


@pytest.fixture(scope="module")
def cli() -> Path:
    """cutechess-cli with the Alice board."""
    path = Path(os.environ.get(CLI_ENV) or DEFAULT_CLI)
    if not os.access(path, os.X_OK):
        _missing(f"cutechess-cli with the Alice board (not at {path})")
    return path


@pytest.fixture(scope="module")
def fairy_stockfish() -> str:
    """Fairy-Stockfish with the alice variant."""
    path = os.environ.get(FSF_ENV, "")
    if not path or not os.access(path, os.X_OK):
        _missing(f"Fairy-Stockfish alice (not at {path!r})")
    return path


class Harness:
    """cutechess's board over a pipe (``test_alicemoves``): one request a line, one answer."""

    def __init__(self, path: Path) -> None:
        self.proc = subprocess.Popen([str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, request: str) -> str:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(request + "\n")
        self.proc.stdin.flush()
        return self.proc.stdout.readline().strip()

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=10)


@pytest.fixture(scope="module")
def harness(cli: Path) -> Iterator[Harness]:
    path = cli.parent / "test_alicemoves"
    if not os.access(path, os.X_OK):
        _missing(f"the alicemoves harness (not at {path})")
    h = Harness(path)
    yield h
    h.close()


def test_cutechess_unit_tests_alice_rows(cli: Path) -> None:
    """cutechess's board tests: the Alice rows (perft to depth 4-5, SAN, FEN round trips, results)."""
    tests = cli.parent / "test_chessboard"
    rows = ["moveStrings", "sanStrings", "results"]
    rows += [f"perft:alice {name}" for name in ("startpos", "pos1", "pos2", "pos3", "pos4")]
    out = subprocess.run([str(tests), *rows], capture_output=True, text=True, timeout=TIMEOUT)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    alice = [line for line in out.stdout.splitlines() if line.startswith("PASS") and "(alice" in line]
    assert len(alice) == 5 + 5 + 7 + 6  # the perft, move-string, SAN and result rows the patch adds
    assert "FAIL" not in out.stdout


def _compare(h: Harness, pos: Position, rng: random.Random, where: str) -> list[int]:
    """cutechess vs engine/ (and pyffish-alice) in ``pos``; returns the legal moves."""
    fen = pos.fen()
    legal = pos.legal_moves()
    ours = sorted(move_to_uci(pos, m) for m in legal)
    assert h.ask(f"moves {fen}").split() == ours, where
    assert sorted(ff.legal_moves("alice", fen, [])) == ours, where
    outcome = pos.outcome()
    if outcome is not None and outcome.termination != "threefold repetition":  # the harness has no history
        assert h.ask(f"result {fen}") == outcome.result, where
        return []
    if legal:
        m = rng.choice(legal)
        uci = move_to_uci(pos, m)
        assert h.ask(f"san {fen} {uci}") == move_to_san(pos, m), where
        after = pos.copy()
        after.push(m)
        assert h.ask(f"fen {fen} {uci}") == after.fen(), where
    return legal


@pytest.mark.parametrize("seed", range(DIFF_SEEDS))
def test_legal_moves_equal_engine_and_pyffish(harness: Harness, seed: int) -> None:
    """Walks from the start position and from random set-ups: cutechess agrees everywhere."""
    rng = random.Random(seed)
    compared = 0
    while compared < POSITIONS_PER_SEED:
        kind = rng.choice(["start", "start", "sparse", "castling"])
        if kind == "start":
            pos = Position()
        else:
            pos = valid_position(random_sparse_fen if kind == "sparse" else random_castling_fen, rng)
        start, played = pos.fen(), list[str]()
        mode = rng.choice(["random", "captures", "checks"])
        for _ in range(MAX_WALK_PLIES):
            legal = _compare(harness, pos, rng, f"seed {seed}: {start} moves {' '.join(played)}")
            compared += 1
            if not legal or compared >= POSITIONS_PER_SEED:
                break
            m = choose(pos, legal, mode, rng)
            played.append(move_to_uci(pos, m))
            pos.push(m)


def run_cli(cli: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """cutechess-cli ``-variant alice`` with ``args``; the run must succeed."""
    out = subprocess.run(
        [str(cli), "-variant", "alice", *args], capture_output=True, text=True, timeout=TIMEOUT, cwd=CHILD_CWD
    )
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    return out


def engine_args(name: str, command: list[str]) -> list[str]:
    """``-engine name=.. cmd=.. arg=..`` for a command line (cutechess wants a full path)."""
    return ["-engine", f"name={name}", f"cmd={command[0]}", *(f"arg={a}" for a in command[1:])]


def scripted(*args: str) -> list[str]:
    return [sys.executable, SCRIPTED, *args]


@dataclass
class PgnRecord:
    """One game of a PGN as cutechess writes it."""

    tags: dict[str, str]
    sans: list[str]
    last_comment: str  # the comment after the last move: the end reason, after any evaluation


def read_pgn(path: Path) -> list[PgnRecord]:
    """The games of a PGN: their tags, SAN moves and last comment."""
    games = []
    for block in re.split(r"\n(?=\[Event )", path.read_text()):
        if not block.strip():
            continue
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', block, flags=re.M))
        movetext = block[block.rindex("]") + 1 :]
        comments = re.findall(r"\{([^}]*)\}", movetext)
        tokens = re.sub(r"\{[^}]*\}", " ", movetext).split()
        sans = [t for t in tokens if not re.fullmatch(r"\d+\.+|1-0|0-1|1/2-1/2|\*", t)]
        games.append(PgnRecord(tags, sans, comments[-1] if comments else ""))
    return games


def replay(game: PgnRecord) -> Position:
    """The game's moves played under engine/ (each must be legal); the final position."""
    pos = Position(game.tags["FEN"]) if "FEN" in game.tags else Position()
    for san in game.sans:
        m = parse_san(pos, san)
        assert move_to_san(pos, m) == san  # cutechess writes engine/'s SAN, board suffix included
        pos.push(m)
    return pos


def test_match_against_fairy_stockfish(cli: Path, fairy_stockfish: str, tmp_path: Path) -> None:
    """alice-engine vs Fairy-Stockfish at a node limit: legal games that end as cutechess says."""
    pgn = tmp_path / "match.pgn"
    run_cli(
        cli,
        *engine_args("alice-engine", engine_command()),
        *engine_args("fairy-stockfish", [fairy_stockfish]),
        "-each", "proto=uci", "tc=inf", f"nodes={MATCH_NODES}",
        "-games", str(MATCH_GAMES), "-maxmoves", str(MATCH_MAX_MOVES), "-pgnout", str(pgn),
    )  # fmt: skip
    games = read_pgn(pgn)
    assert len(games) == MATCH_GAMES
    with pgn.open() as handle:  # the project's PGN reader (alice-match's) takes cutechess's PGN too
        for game in games:
            read = read_alice_pgn(handle)
            assert read is not None and len(uci_moves(read)[1]) == len(game.sans)
    for game in games:
        tags = game.tags
        assert tags["Variant"].lower() == "alice"
        pos = replay(game)
        outcome = pos.outcome()
        if tags.get("Termination") == "adjudication":
            assert tags["Result"] == "1/2-1/2" and outcome is None
        else:
            assert outcome is not None, f"game ended without an outcome: {tags}"
            assert outcome.result == tags["Result"]
            assert game.last_comment.split(", ")[-1] in ADJUDICATOR_WORDS[outcome.termination]


# The words cutechess's AliceBoard::result() ends a game with, for engine/'s terminations.
ADJUDICATOR_WORDS = {
    "checkmate": ("White mates", "Black mates"),
    "stalemate": ("Draw by stalemate",),
    "bare kings": ("Draw by bare kings",),
    "fifty-move rule": ("Draw by fifty moves rule",),
    "threefold repetition": ("Draw by 3-fold repetition",),
}


@pytest.mark.parametrize(
    ("adjudication", "engine_flags", "result", "comment"),
    [
        (["-maxmoves", "3"], [], "1/2-1/2", "Draw by adjudication: maximal game length"),
        (["-draw", "movenumber=2", "movecount=2", "score=5"], ["--score", "0"], "1/2-1/2", "Draw by adjudication"),
        (["-resign", "movecount=2", "score=300"], ["--score", "-900"], "0-1", "Black wins by adjudication"),
    ],
)
def test_adjudication(cli: Path, tmp_path: Path, adjudication: list[str], engine_flags: list[str], result: str, comment: str) -> None:
    """-maxmoves, -draw and -resign end Alice games as they end orthodox ones."""
    pgn = tmp_path / "adjudicated.pgn"
    run_cli(
        cli,
        *engine_args("white", scripted("random", "1", *engine_flags)),
        *engine_args("black", scripted("random", "2", "--score", "0")),
        "-each", "proto=uci", "tc=inf", "-games", "1", *adjudication, "-pgnout", str(pgn),
    )  # fmt: skip
    (game,) = read_pgn(pgn)
    replay(game)
    tags = game.tags
    assert tags["Result"] == result
    assert comment in game.last_comment


def test_landing_square_taken_on_the_other_board_loses(cli: Path, tmp_path: Path) -> None:
    """Qd1-f3 is a queen move on board A, but f3 is taken on board B: illegal, White loses."""
    white, black = ["e2e4", "g1f3", "d1f3"], ["e7e5", "b8c6"]
    pos = Position()
    for uci in [w for pair in zip(white, black) for w in pair]:
        pos.push(parse_uci(pos, uci))
    queen, knight = pos.piece_at(chess.D1), pos.piece_at(chess.F3)
    assert queen is not None and knight is not None
    assert pos.board_of(chess.D1) == 0 and pos.board_of(chess.F3) == 1  # queen on A, knight on B
    assert chess.Board("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").is_legal(chess.Move.from_uci("d1f3"))  # on its board
    pgn = tmp_path / "illegal.pgn"
    run_cli(
        cli,
        *engine_args("white", scripted("list", ",".join(white))),
        *engine_args("black", scripted("list", ",".join(black))),
        "-each", "proto=uci", "tc=inf", "-games", "1", "-pgnout", str(pgn),
    )  # fmt: skip
    (game,) = read_pgn(pgn)
    tags = game.tags
    assert tags["Result"] == "0-1" and tags["Termination"] == "illegal move"
    assert game.last_comment == "White makes an illegal move: d1f3"
    assert game.sans == ["e4/B", "e5/B", "Nf3/B", "Nc6/B"]


def test_moves_legal_only_in_alice_are_accepted(cli: Path, tmp_path: Path) -> None:
    """1.a3 Nf6 2.Ra1-a5 (through a3, taken on the other board only): cutechess plays it."""
    white = ["a2a3", "a1a5"]
    orthodox = chess.Board()
    orthodox.push_uci("a2a3")
    orthodox.push_uci("g8f6")
    assert not orthodox.is_legal(chess.Move.from_uci("a1a5"))  # never legal in orthodox chess
    pgn = tmp_path / "alice-only.pgn"
    run_cli(
        cli,
        *engine_args("white", scripted("list", ",".join(white))),
        *engine_args("black", scripted("list", "g8f6")),
        "-each", "proto=uci", "tc=inf", "-games", "1", "-maxmoves", "3", "-pgnout", str(pgn),
    )  # fmt: skip
    (game,) = read_pgn(pgn)
    replay(game)
    tags = game.tags
    assert tags["Termination"] == "adjudication" and tags["Result"] == "1/2-1/2"
    assert game.sans[:3] == ["a3/B", "Nf6/B", "Ra5/B"]


SET_UP_FEN = "r1bqkb1r/pppp1ppp/2|n2|n2/4|p3/2|B1|P3/5|N2/PPPP1PPP/RNBQ1|R|K1 b kq - 5 4"  # perft.epd's third


def test_fen_tag_and_san_read_back_by_cutechess(cli: Path, tmp_path: Path) -> None:
    """A game from a set-up position (EPD opening) gets the compact FEN in its FEN tag; cutechess
    reads that PGN back as an opening book (FEN tag and SAN) and replays its first moves."""
    epd, first, second = tmp_path / "start.epd", tmp_path / "first.pgn", tmp_path / "second.pgn"
    epd.write_text(SET_UP_FEN + "\n")
    players = [*engine_args("white", scripted("random", "3")), *engine_args("black", scripted("random", "4"))]
    run_cli(cli, *players, "-each", "proto=uci", "tc=inf", "-games", "1", "-maxmoves", "4",
            "-openings", f"file={epd}", "format=epd", "-pgnout", str(first))  # fmt: skip
    (game,) = read_pgn(first)
    # EPD has no move counters: cutechess starts them at 0 and 1
    assert game.tags["FEN"] == " ".join([*SET_UP_FEN.split()[:4], "0", "1"]) and game.tags["SetUp"] == "1"
    replay(game)
    run_cli(cli, *players, "-each", "proto=uci", "tc=inf", "-games", "1", "-maxmoves", "6",
            "-openings", f"file={first}", "format=pgn", "plies=4", "-pgnout", str(second))  # fmt: skip
    (again,) = read_pgn(second)
    assert again.tags["FEN"] == game.tags["FEN"]
    assert again.sans[:4] == game.sans[:4]
    replay(again)
