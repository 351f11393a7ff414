#!/usr/bin/env python3
"""A CECP engine that plays a fixed opening, then lets a real engine play: an opening book.

    xboard_opening.py BOOK POSITION_OUT END_PLY -- ENGINE COMMAND...

Runs ENGINE COMMAND (``alice-engine xboard``) and passes every line both ways, except
that while the game is inside BOOK (a file of moves in the engine's XBoard notation,
one per line) the moves of this side come from BOOK: each is first given to the real
engine (kept in force mode, so it checks it like any move) and then sent to XBoard as
``move X``. After the book the real engine gets ``go`` and plays on by itself, until the
game reaches END_PLY on our move: then the engine is put in force mode before it sees the
last move, and the game is ended with a draw claim (``1/2-1/2 {end of the test game}``),
so both engines and XBoard stop at the same position. When XBoard sends ``result`` the real
engine is asked for its position (``d``) and the line ``# XBoard FEN: ...`` is written to
POSITION_OUT. The XBoard test uses two of these to play a game that surely holds both
castlings, king moves and a promotion.
"""

from __future__ import annotations

import subprocess
import sys
import threading


def main(argv: list[str]) -> int:
    book_file, position_out, end_text, separator, *command = argv
    end_ply = int(end_text)
    assert separator == "--" and command, __doc__
    with open(book_file) as f:
        book = [line.strip() for line in f if line.strip()]
    engine = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    assert engine.stdin is not None and engine.stdout is not None
    lock = threading.Lock()

    def to_xboard(line: str) -> None:
        with lock:
            sys.stdout.write(line + "\n")
            sys.stdout.flush()

    def to_engine(line: str) -> None:
        engine.stdin.write(line + "\n")  # type: ignore[union-attr]
        engine.stdin.flush()  # type: ignore[union-attr]

    game = {"ply": 0}  # moves played in the game; the engine's own are counted by the pump

    def pump() -> None:
        for raw in engine.stdout:  # type: ignore[union-attr]
            line = raw.rstrip("\n")
            if line.startswith("# XBoard FEN: "):
                with open(position_out, "w") as out:
                    out.write(line[len("# XBoard FEN: ") :] + "\n")
            if line.startswith("move "):
                with lock:
                    game["ply"] += 1  # before XBoard sees the move and answers it
            to_xboard(line)

    threading.Thread(target=pump, daemon=True).start()
    side = 0  # the colour we play (1 white); "new" makes it black
    force = False  # XBoard's force mode
    engine_plays = False  # the real engine has had its "go" and answers moves itself

    def ply() -> int:
        with lock:
            return game["ply"]

    def ours(plies: int) -> bool:
        """It is our move after ``plies`` moves."""
        return plies % 2 == (0 if side == 1 else 1)

    def step() -> None:
        """If it is our move: a book move, the end of the test game, or the engine's turn."""
        nonlocal engine_plays
        played = ply()
        if engine_plays or force or not ours(played):
            return
        if played >= end_ply:
            to_xboard("1/2-1/2 {end of the test game}")
        elif played < len(book):
            move = book[played]
            to_engine(f"usermove {move}")
            with lock:
                game["ply"] += 1
            to_xboard(f"move {move}")
        else:
            engine_plays = True
            to_engine("go")

    for raw in sys.stdin:
        line = raw.strip()
        words = line.split()
        command_word = words[0] if words else ""
        if command_word == "new":
            to_engine(line)
            to_engine("force")
            with lock:
                game["ply"] = 0
            side, force, engine_plays = 0, False, False
        elif command_word == "force":
            force = True
            to_engine(line)
        elif command_word == "go":
            force = False
            side = 1 if ply() % 2 == 0 else 0
            if engine_plays:
                to_engine(line)
            step()
        elif command_word == "usermove":
            played = ply() + 1
            if engine_plays and played >= end_ply and ours(played):
                to_engine("force")  # the engine must not answer the game's last move
                engine_plays = False
            to_engine(line)
            with lock:
                game["ply"] += 1
            step()
        elif command_word == "result":
            to_engine(line)
            to_engine("d")
        else:
            to_engine(line)
            if command_word == "quit":
                break
    try:
        engine.stdin.close()
    except OSError:
        pass
    engine.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
