"""Play one Alice game with pychess-bot against a stand-in for pychess.org, from challenge to result.

Run by ``tests/test_pychess_bot.py`` as a separate process whose working directory is a
pychess-bot checkout (pychess-bot replaces ``chess.Move`` at import, and reads its files
relative to that directory): its own ``lib/lichess_bot.py`` runs the bot and its own fake
server ``test_bot/lichess.py`` stands in for the site, extended here to send an Alice
challenge and an Alice game (the fake as published only sends a standard game). The opponent
plays uniformly random legal moves chosen with pyffish-alice, which also checks every move
the bot sends; the game ends as the site would end it (mate or stalemate by pyffish-alice,
else a move limit). The record is written as JSON to ``--record``::

    python pychess_bot_game.py --engine ENGINE --record game.json [--bot-color black]
        [--initial-fen FEN] [--seed N] [--clock-ms 30000] [--increment-ms 0] [--uci-options '{}']
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import sys
import threading
import time
from collections.abc import Iterator
from queue import Empty
from typing import Any

sys.path.insert(0, os.getcwd())  # run in a pychess-bot checkout: its lib/ and test_bot/
import test_bot.lichess as fake  # pychess-bot's fake server

VARIANT = "alice"
GAME_ID = "alicegam"
CHALLENGE_ID = GAME_ID  # on the site a challenge's id becomes its game's id
MAX_PLIES = 400  # then the stand-in ends the game (no Alice game with a random opponent lasts this long)
MOVE_WAIT_SECONDS = 120.0  # the longest the stand-in waits for the bot's move
ACCEPT_WAIT_SECONDS = 60.0  # the longest the event stream waits for the challenge to be accepted
OPPONENT = {"id": "tester", "name": "tester", "title": None, "rating": 1500, "online": True}
BOT = {"id": "b", "name": "b", "title": "BOT", "rating": 2000, "online": True}


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--engine", required=True, help="the UCI engine's executable")
    parser.add_argument("--record", required=True, help="where to write the game's JSON record")
    parser.add_argument("--bot-color", choices=("white", "black"), default="black")
    parser.add_argument("--initial-fen", default="startpos")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--clock-ms", type=int, default=30000)
    parser.add_argument("--increment-ms", type=int, default=0)
    parser.add_argument("--uci-options", default="{}", help="uci_options of config.yml, as JSON")
    return parser.parse_args(argv)


def challenge_event(args: argparse.Namespace) -> dict[str, Any]:
    """The ``challenge`` event a human's Alice challenge to the bot makes on the event stream."""
    seconds, increment = args.clock_ms // 1000, args.increment_ms // 1000
    return {
        "type": "challenge",
        "challenge": {
            "id": CHALLENGE_ID,
            "url": f"https://www.pychess.org/{CHALLENGE_ID}",
            "status": "created",
            "challenger": OPPONENT,
            "destUser": BOT,
            "variant": {"key": VARIANT, "name": "Alice", "short": "Alice"},
            "rated": False,
            "speed": "bullet",
            "timeControl": {"type": "clock", "limit": seconds, "increment": increment, "show": f"{seconds}+{increment}"},
            "color": "white" if args.bot_color == "black" else "black",  # the challenger's colour
            "finalColor": "white" if args.bot_color == "black" else "black",
            "perf": {"name": "Alice"},
            "initialFen": args.initial_fen,
        },
    }


def game_full(args: argparse.Namespace) -> dict[str, Any]:
    """The first line of the game stream."""
    white, black = (OPPONENT, BOT) if args.bot_color == "black" else (BOT, OPPONENT)
    return {
        "type": "gameFull",
        "id": GAME_ID,
        "variant": {"key": VARIANT, "name": "Alice", "short": "Alice"},
        "clock": {"initial": args.clock_ms, "increment": args.increment_ms},
        "speed": "bullet",
        "perf": {"name": "Alice"},
        "rated": False,
        "createdAt": int(time.time() * 1000),
        "white": white,
        "black": black,
        "initialFen": args.initial_fen,
        "state": game_state([], args.clock_ms, args.clock_ms, args.increment_ms, "started"),
    }


def game_state(moves: list[str], wtime: int, btime: int, inc: int, status: str, winner: str | None = None) -> dict[str, Any]:
    state: dict[str, Any] = {"type": "gameState", "moves": " ".join(moves), "wtime": wtime, "btime": btime,
                             "winc": inc, "binc": inc, "status": status}
    if winner:
        state["winner"] = winner
    return state


class AliceEventStream(fake.EventStream):  # type: ignore[misc, name-defined]
    """The event stream: an Alice challenge, then (once the bot accepts it) the game's start."""

    def __init__(self, sent_game: bool, args: argparse.Namespace, queues: dict[str, Any]) -> None:
        super().__init__(sent_game)
        self.args, self.queues = args, queues

    def iter_lines(self, *_: object, **__: object) -> Iterator[bytes]:
        if self.sent_game:
            yield b""
            time.sleep(1)
            return
        yield json.dumps(challenge_event(self.args)).encode()
        self.queues["accepted"].get(timeout=ACCEPT_WAIT_SECONDS)  # the bot accepted: the site starts the game
        yield json.dumps({"type": "gameStart", "game": {"id": GAME_ID, "source": "friend",
                                                         "compat": {"bot": True, "board": True}}}).encode()


class AliceGameStream(fake.GameStream):  # type: ignore[misc, name-defined]
    """The game stream: ``gameFull``, then each state the referee (``play_site``) puts."""

    def __init__(self, args: argparse.Namespace, queues: dict[str, Any]) -> None:
        self.args, self.queues = args, queues

    def iter_lines(self, *_: object, **__: object) -> Iterator[bytes]:
        yield json.dumps(game_full(self.args)).encode()
        while True:
            state = self.queues["states"].get()
            yield json.dumps(state).encode()
            if state["status"] != "started":
                return


class AliceSite(fake.Lichess):  # type: ignore[misc, name-defined]
    """pychess-bot's fake server (``test_bot.lichess.Lichess``) with an Alice challenge and game.

    Module level and holding only picklable state: pychess-bot hands it to its game processes.
    """

    def __init__(self, args: argparse.Namespace, queues: dict[str, Any]) -> None:
        self.baseUrl = "https://www.pychess.org/"
        self.sent_game = False
        self.args, self.queues = args, queues

    def get_event_stream(self, *_: object) -> AliceEventStream:
        events = AliceEventStream(self.sent_game, self.args, self.queues)
        self.sent_game = True
        return events

    def get_game_stream(self, game_id: str) -> AliceGameStream:
        return AliceGameStream(self.args, self.queues)

    def accept_challenge(self, challenge_id: str) -> None:
        self.queues["log"].put(("accepted", challenge_id))
        self.queues["accepted"].put(challenge_id)

    def decline_challenge(self, challenge_id: str, reason: str = "generic") -> None:
        self.queues["log"].put(("declined", reason))

    def make_move(self, game_id: str, move: Any) -> None:
        self.queues["moves"].put(move.move.uci())

    def resign(self, game_id: str) -> None:
        self.queues["moves"].put("resign")

    def abort(self, game_id: str) -> None:
        self.queues["moves"].put("abort")


def play_site(args: argparse.Namespace, queues: dict[str, Any], record: dict[str, Any]) -> None:
    """The site's side of the game: relay moves, play the opponent, judge each bot move with pyffish-alice."""
    import pyffish_alice as rules

    fen = rules.start_fen(VARIANT) if args.initial_fen == "startpos" else args.initial_fen
    rng = random.Random(args.seed)
    moves: list[str] = []
    clocks = {"white": args.clock_ms, "black": args.clock_ms}
    inc = args.increment_ms
    white_to_move = fen.split()[1] == "w"
    record.update(fen=fen, moves=moves, bot_moves=[], status="started", winner=None, illegal=None)
    while True:
        mover = "white" if white_to_move else "black"
        legal = rules.legal_moves(VARIANT, fen, moves)
        if not legal:
            checked = rules.gives_check(VARIANT, fen, moves)
            record["status"], record["winner"] = ("mate", "black" if white_to_move else "white") if checked else ("stalemate", None)
            break
        if len(moves) >= MAX_PLIES:
            record["status"] = "draw-by-limit"
            break
        if mover == args.bot_color:
            started = time.monotonic()
            try:
                move = queues["moves"].get(timeout=MOVE_WAIT_SECONDS)
            except Empty:
                record["status"] = "no-move"
                break
            if move not in legal:
                record["illegal"] = move
                record["status"], record["winner"] = ("resign" if move == "resign" else "illegal"), (
                    "white" if args.bot_color == "black" else "black")
                break
            record["bot_moves"].append(move)
            if len(moves) >= 2:  # as on the site, the clock runs from each side's second move
                clocks[mover] -= int((time.monotonic() - started) * 1000)
                clocks[mover] += inc
        else:
            move = rng.choice(legal)
        moves.append(move)
        white_to_move = not white_to_move
        queues["states"].put(game_state(moves, clocks["white"], clocks["black"], inc, "started"))
    final = game_state(moves, clocks["white"], clocks["black"], inc,
                       record["status"] if record["status"] in ("mate", "stalemate", "resign") else "aborted",
                       record["winner"])
    queues["states"].put(final)


def bot_config(args: argparse.Namespace) -> dict[str, Any]:
    """``config.yml.default`` set up for Alice with our engine, as docs/pychess.md tells a user."""
    import yaml
    from lib import config

    with open("./config.yml.default") as file:
        raw = yaml.safe_load(file)
    raw["token"] = ""
    raw["url"] = "https://www.pychess.org/"
    raw["engine"]["dir"] = os.path.dirname(os.path.abspath(args.engine))
    raw["engine"]["name"] = os.path.basename(args.engine)
    raw["engine"]["uci_options"] = json.loads(args.uci_options)
    raw["challenge"]["variants"] = [VARIANT]
    raw["challenge"]["time_controls"] = ["bullet", "blitz", "rapid", "classical"]
    raw["challenge"]["accept_bot"] = True
    raw["pgn_directory"] = None
    config.insert_default_values(raw)
    return raw


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    multiprocessing.set_start_method("fork", force=True)  # pychess-bot's processes share our fake server's queues
    import logging

    from lib import config, lichess_bot

    lichess_bot.logging_configurer(logging.INFO, None, True)
    manager = multiprocessing.Manager()
    queues = {name: manager.Queue() for name in ("accepted", "states", "moves", "log")}
    site = AliceSite(args, queues)
    user_profile = site.get_profile()
    lichess_bot.disable_restart()
    record: dict[str, Any] = {"bot_color": args.bot_color}
    referee = threading.Thread(target=play_site, args=(args, queues, record), daemon=True)
    referee.start()
    lichess_bot.start(site, user_profile, config.Configuration(bot_config(args)), logging.INFO, None, True, one_game=True)
    referee.join(timeout=MOVE_WAIT_SECONDS)
    record["site_log"] = []
    while not queues["log"].empty():
        record["site_log"].append(list(queues["log"].get()))
    with open(args.record, "w") as file:
        json.dump(record, file, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
