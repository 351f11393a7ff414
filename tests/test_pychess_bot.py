"""Our engine as a pychess.org BOT, driven the way pychess-bot drives it (docs/pychess.md).

pychess-bot (a lichess-bot fork, not on PyPI) runs a UCI engine through python-chess with a
board of its own for Alice (``lib/variants.py``: a move list over pyffish-alice). So the
engine receives: ``setoption`` for the ``uci_options`` of its config.yml, ``ucinewgame``,
``position fen <the game's initial FEN as pyffish-alice writes it> moves <plain UCI moves>``,
``go movetime 10000`` for its first move, then ``go wtime .. btime .. winc .. binc ..`` (with
``ponder`` when it may think on the opponent's time, and ``position fen <FEN> moves <best>
<ponder>`` for that), ``stop``/``ponderhit``, ``isready`` and ``quit``.

* ``test_full_game_as_pychess_bot_drives_the_engine`` (always runs: python-chess and
  pyffish-alice only) plays whole games that way, from the standard start and from the
  Looking-glass start, against a random mover, every engine move checked by pyffish-alice.
* ``test_full_game_through_pychess_bot`` runs pychess-bot itself, from a checkout named by
  ``PYCHESS_BOT_DIR`` (skipped without one): its bot and its fake server, extended to an
  Alice challenge (``tests/support/pychess_bot_game.py``), from challenge to result.
  ``PYCHESS_BOT_PYTHON`` names an interpreter with pychess-bot's requirements, pyffish and
  pyffish-alice (default: this one).

Both record every line the engine receives (``tests/support/uci_log_relay.py``) and check it.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path

import chess
import chess.engine
import pyffish_alice as ff
import pytest

from support.installed import CHILD_CWD, TESTS, engine_command

V = "alice"
START_FEN = ff.start_fen(V)
LOOKING_GLASS_FEN = "|r|n|b|q|k|b|n|r/|p|p|p|p|p|p|p|p/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1"
RELAY = os.path.join(TESTS, "support", "uci_log_relay.py")
DRIVER = os.path.join(TESTS, "support", "pychess_bot_game.py")
CLOCK_MS = 10_000  # the game's clock for each side...
INCREMENT_MS = 100  # ...and increment
FIRST_MOVE_SECONDS = 0.5  # pychess-bot: 10 s (its first two plies use movetime, the site's clock starts later)
MOVE_OVERHEAD = 100  # the uci_options docs/pychess.md gives
MAX_PLIES = 300  # a game against a random mover ends long before (the test asserts a mate)
BOT_GAME_TIMEOUT = 600  # seconds for one game through pychess-bot
MOVE = re.compile(r"[a-h][1-8][a-h][1-8][qrbn]?")
GO_MOVETIME = re.compile(r"go movetime \d+")
GO_CLOCK = re.compile(r"go (ponder )?wtime \d+ btime \d+ winc \d+ binc \d+")


class PyffishMove:
    """A move as pychess-bot's board holds it: its UCI text."""

    def __init__(self, uci: str) -> None:
        self.text = uci

    def uci(self) -> str:
        return self.text

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PyffishMove) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)


class PyffishAliceBoard:
    """What pychess-bot hands python-chess for an Alice game (written for this test): an
    initial FEN and a move list, with every FEN computed by pyffish-alice. python-chess
    reads ``uci_variant``, ``chess960``, ``root()``, ``fen()``, ``move_stack``, ``turn``,
    ``copy()`` and ``push_uci()`` (to parse the engine's best move and PVs)."""

    uci_variant = V
    chess960 = False

    def __init__(self, initial_fen: str) -> None:
        self.initial_fen = initial_fen
        self.move_stack: list[PyffishMove] = []
        self.turn = initial_fen.split()[1] == "w"

    def moves(self) -> list[str]:
        return [move.uci() for move in self.move_stack]

    def fen(self, **_: object) -> str:
        return str(ff.get_fen(V, self.initial_fen, self.moves()))

    def root(self) -> PyffishAliceBoard:
        return PyffishAliceBoard(self.initial_fen)

    def copy(self, stack: bool = True) -> PyffishAliceBoard:
        if not stack:
            return PyffishAliceBoard(self.fen())
        board = PyffishAliceBoard(self.initial_fen)
        board.move_stack, board.turn = list(self.move_stack), self.turn
        return board

    def push(self, move: PyffishMove) -> None:
        self.move_stack.append(move)
        self.turn = not self.turn

    def push_uci(self, uci: str) -> PyffishMove:
        move = PyffishMove(uci)
        self.push(move)
        return move

    def parse_uci(self, uci: str) -> PyffishMove:
        return PyffishMove(uci)

    def pop(self) -> PyffishMove:
        self.turn = not self.turn
        return self.move_stack.pop()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PyffishAliceBoard) and (other.initial_fen, other.moves()) == (
            self.initial_fen, self.moves())


def advertised_options() -> dict[str, tuple[str, ...]]:
    """Our engine's ``option`` lines, by name: the words after ``type``."""
    with chess.engine.SimpleEngine.popen_uci(engine_command(), cwd=CHILD_CWD) as engine:
        return {name: (option.type, str(option.min), str(option.max)) for name, option in engine.options.items()}


def bot_uci_options() -> dict[str, int]:
    """The ``uci_options`` docs/pychess.md puts in config.yml, for the options the engine has.

    ``Threads`` only when the engine advertises it (2, or its maximum if lower).
    """
    options = advertised_options()
    chosen = {"Move Overhead": MOVE_OVERHEAD, "Hash": 16}
    if "Threads" in options:
        chosen["Threads"] = min(2, int(options["Threads"][2]))
    return chosen


def logged_engine(log: Path) -> list[str]:
    """A command that starts our engine and appends every line sent to it to ``log``."""
    return [sys.executable, RELAY, str(log), CHILD_CWD, *engine_command()]


def check_uci_log(lines: list[str], initial_fen: str, options: dict[str, int]) -> None:
    """What pychess-bot sent: our options, the game's FEN as pyffish-alice writes it, plain moves, clocks."""
    assert lines[0] == "uci"
    sent = {match.group(1) for line in lines if (match := re.fullmatch(r"setoption name (.+) value .*", line))}
    assert sent <= set(options) | {"Ponder", "MultiPV", "UCI_Variant"}, sent  # python-chess manages these
    positions = [line for line in lines if line.startswith("position ")]
    games = [line for line in positions if line.startswith(f"position fen {initial_fen}")]
    assert games, positions[:3]
    for line in positions:
        fen, _, moves = line.removeprefix("position fen ").partition(" moves ")
        assert ff.validate_fen(fen, V) == ff.FEN_OK and fen == ff.get_fen(V, fen, []), line
        assert all(MOVE.fullmatch(move) for move in moves.split()), line
        if fen != initial_fen:  # pondering: the position searched, then the best move and the expected reply
            assert len(moves.split()) == 2, line
    gos = [line for line in lines if line.startswith("go")]
    assert gos and all(GO_MOVETIME.fullmatch(go) or GO_CLOCK.fullmatch(go) for go in gos), gos
    assert GO_MOVETIME.fullmatch(gos[0]) and any(GO_CLOCK.fullmatch(go) for go in gos), gos
    assert lines[-1] == "quit"


def play_game(engine_white: bool, initial_fen: str, seed: int, log: Path) -> dict[str, object]:
    """One game, our engine against a random mover, as pychess-bot's engine wrapper plays it."""
    rng = random.Random(seed)
    options = bot_uci_options()
    board = PyffishAliceBoard(initial_fen)
    clocks = {True: CLOCK_MS, False: CLOCK_MS}
    result: dict[str, object] = {"winner": None, "status": "started"}
    with chess.engine.SimpleEngine.popen_uci(logged_engine(log), timeout=60) as engine:
        engine.configure(options)
        while True:
            legal = ff.legal_moves(V, initial_fen, board.moves())
            where = f"seed {seed}, moves {' '.join(board.moves())}"
            if not legal:
                mated = ff.gives_check(V, initial_fen, board.moves())
                result.update(status="mate" if mated else "stalemate", winner=(not board.turn) if mated else None)
                break
            if len(board.move_stack) >= MAX_PLIES:
                result["status"] = "ply limit"
                break
            if board.turn == engine_white:
                if len(board.move_stack) < 2:
                    limit = chess.engine.Limit(time=FIRST_MOVE_SECONDS)
                else:
                    limit = chess.engine.Limit(white_clock=clocks[True] / 1000, black_clock=clocks[False] / 1000,
                                               white_inc=INCREMENT_MS / 1000, black_inc=INCREMENT_MS / 1000)
                started = time.monotonic()
                ponder = len(board.move_stack) >= 2  # pychess-bot: no pondering before the clocks start
                played = engine.play(board, limit, info=chess.engine.INFO_ALL, ponder=ponder, game=seed)  # type: ignore[arg-type]
                if len(board.move_stack) >= 2:
                    clocks[board.turn] += INCREMENT_MS - int((time.monotonic() - started) * 1000)
                assert played.move is not None, where
                move = played.move.uci()
                assert move in legal, f"{where}: our engine played {move}, illegal for pyffish-alice"
                line = board.moves()
                for pv_move in played.info.get("pv", []):  # python-chess parsed the PV on our board
                    assert pv_move.uci() in ff.legal_moves(V, initial_fen, line), f"{where}: PV {played.info}"
                    line.append(pv_move.uci())
            else:
                move = rng.choice(sorted(legal))
            board.push_uci(move)
        engine.ping()  # as pychess-bot leaves a game
        engine.quit()
    result["plies"] = len(board.move_stack)
    result["clocks"] = clocks
    check_uci_log(log.read_text().splitlines(), initial_fen, options)
    return result


@pytest.mark.slow
@pytest.mark.parametrize(
    ("engine_white", "initial_fen", "seed"),
    [(False, START_FEN, 1), (True, LOOKING_GLASS_FEN, 2)],
    ids=["standard-start-engine-black", "looking-glass-engine-white"],
)
def test_full_game_as_pychess_bot_drives_the_engine(engine_white: bool, initial_fen: str, seed: int,
                                                   tmp_path: Path) -> None:
    result = play_game(engine_white, initial_fen, seed, tmp_path / "uci.log")
    assert result["status"] == "mate" and result["winner"] == engine_white, result
    clocks = result["clocks"]
    assert isinstance(clocks, dict) and clocks[engine_white] > 0, result  # never flagged


def bot_checkout() -> str:
    checkout = os.environ.get("PYCHESS_BOT_DIR", "")
    if not checkout:
        pytest.skip("PYCHESS_BOT_DIR names no pychess-bot checkout (docs/pychess.md: how to make one)")
    assert os.path.isfile(os.path.join(checkout, "lib", "lichess_bot.py")), f"{checkout}: not a pychess-bot checkout"
    assert os.path.isfile(os.path.join(checkout, "test_bot", "lichess.py")), f"{checkout}: no test_bot/lichess.py"
    return checkout


@pytest.mark.slow
@pytest.mark.parametrize(
    ("bot_color", "initial_fen", "seed"),
    [("black", "startpos", 1), ("white", LOOKING_GLASS_FEN, 7)],
    ids=["standard-start-bot-black", "looking-glass-bot-white"],
)
def test_full_game_through_pychess_bot(bot_color: str, initial_fen: str, seed: int, tmp_path: Path) -> None:
    checkout = bot_checkout()
    log, record = tmp_path / "uci.log", tmp_path / "game.json"
    wrapper = tmp_path / "alice-engine-logged"
    wrapper.write_text("#!/bin/sh\nexec " + " ".join(f"'{word}'" for word in logged_engine(log)) + "\n")
    wrapper.chmod(0o755)
    options = bot_uci_options()
    python = os.environ.get("PYCHESS_BOT_PYTHON", sys.executable)
    run = subprocess.run(
        [python, DRIVER, "--engine", str(wrapper), "--record", str(record), "--bot-color", bot_color,
         "--initial-fen", initial_fen, "--seed", str(seed), "--clock-ms", "20000", "--increment-ms", "1000",
         "--uci-options", json.dumps(options)],
        cwd=checkout, capture_output=True, text=True, timeout=BOT_GAME_TIMEOUT,
    )
    assert run.returncode == 0 and record.exists(), run.stdout[-3000:] + run.stderr[-3000:]
    game = json.loads(record.read_text())
    assert game["site_log"] == [["accepted", "alicegam"]], game  # the bot accepted the Alice challenge
    assert game["illegal"] is None, game
    assert game["status"] == "mate" and game["winner"] == bot_color, game
    fen = ff.start_fen(V) if initial_fen == "startpos" else initial_fen
    assert game["fen"] == fen
    for ply, move in enumerate(game["moves"]):  # the whole game, replayed by pyffish-alice
        assert move in ff.legal_moves(V, fen, game["moves"][:ply]), (ply, game)
    assert not ff.legal_moves(V, fen, game["moves"])
    assert game["bot_moves"] == game["moves"][(bot_color == "black")::2]
    check_uci_log(log.read_text().splitlines(), fen, options)
