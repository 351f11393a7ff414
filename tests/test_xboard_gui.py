"""A real XBoard (Debian's 4.9.1) under Xvfb plays Alice chess with the engine.

XBoard runs ``alice-engine xboard`` twice (first and second engine, in Two Machines
mode). Each runs behind ``tests/engines/xboard_opening.py``, an opening book: the first 80
plies are a fixed game that holds both castlings, king moves along a rank for both
colours, captures that land on the other board, pawn captures XBoard would take for en
passant, and a promotion; the engines then play on by themselves until ply 92, where the
book ends the game with a draw claim, or until an engine claims its end. The position XBoard saves
at the end (``-savePositionFile``) must equal, square for square, the position each
engine holds (``d``), and no move may have been refused on either side. A screenshot of
the board goes to ``tests/output/`` (git-ignored).

A second test plays moves with the mouse (X11's XTest extension, through ctypes): XBoard
sends ``lift``, the engine answers ``highlight``, a capture and castling are entered leg
by leg on the squares the engine marked, and XBoard sends each move in the form the
engine expects.

Needs ``xboard`` and ``Xvfb`` (Debian packages ``xboard``, ``xvfb``), ImageMagick's
``import`` and ``convert`` for the screenshots and ``libXtst`` (``libxtst6``) for the
clicks; without them the tests are skipped (failed when ``ALICE_REQUIRE_SYSTEM_TOOLS=1``,
as in CI). They take about 20 and 15 seconds.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import re
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import Position, parse_uci
from support.installed import CHILD_CWD, ROOT, engine_command
from support.system_tools import REQUIRE_ENV, SKIP_PREFIX, find_program, require_program, require_programs, required
from uci.xboard_board import fen_from_xboard, move_text, wide_fen

OUTPUT = Path(ROOT) / "tests" / "output"
WRAPPER = Path(ROOT) / "tests" / "engines" / "xboard_opening.py"
XBOARD_PATHS = ("/usr/games/xboard", "/usr/bin/xboard")  # Debian installs it under /usr/games
GAME_TIMEOUT = 300.0  # seconds for the whole game: its clocks need at most ~45 s, the rest is slack
# for a loaded machine, where the 80 relayed book plies once took past 120 s (a hang still fails)
END_PLY = 92  # the game is ended here (a claim of the opening book), unless it ends before

# tests/data/xboard_game.txt: 80 plies found by a seeded random search for a game with every
# case XBoard could get wrong: O-O-O by black at ply 12, O-O by white at 19, king moves along
# a rank (14, 21, 22, 56), pawn captures from the far half onto an occupied file (60, 63:
# XBoard's en-passant habit), a promotion (80), captures landing on the other board throughout.
BOOK_UCI = (Path(ROOT) / "tests" / "data" / "xboard_game.txt").read_text().split()


def xboard_path() -> str:
    return require_programs([(XBOARD_PATHS, "xboard")])[0]


def book_game() -> tuple[list[str], Position]:
    """The book in the engine's XBoard notation, and the position after it."""
    pos = Position()
    texts = []
    for uci in BOOK_UCI:
        move = parse_uci(pos, uci)
        texts.append(move_text(pos, move))
        pos.push(move)
    return texts, pos


@pytest.fixture
def display(tmp_path: Path) -> Iterator[str]:
    """A private Xvfb display, ``:N`` (XBoard checked too: a missing one skips with both named)."""
    xvfb = require_programs([(("Xvfb",), "xvfb"), (XBOARD_PATHS, "xboard")])[0]
    read_end, write_end = os.pipe()
    proc = subprocess.Popen(
        [xvfb, "-displayfd", str(write_end), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
        pass_fds=(write_end,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write_end)
    with os.fdopen(read_end) as pipe:
        number = pipe.readline().strip()
    try:
        assert number.isdigit(), "Xvfb did not report its display"
        yield f":{number}"
    finally:
        proc.terminate()
        proc.wait(10)


def fresh_settings(folder: Path) -> list[str]:
    """XBoard's options to read no saved settings and save none (it would write the user's
    ``~/.xboardrc``, found through the password database, not ``HOME``)."""
    return ["-settingsFile", str(folder / "xboardrc"), "-saveSettingsOnExit", "false"]


def engine_line(book: Path, position_out: Path, end_ply: int) -> str:
    command = [
        sys.executable,
        str(WRAPPER),
        str(book),
        str(position_out),
        str(end_ply),
        "--",
        *engine_command(),
        "xboard",
    ]
    return " ".join(shlex.quote(word) for word in command)


def board_side_castling(fen: str) -> str:
    """An XBoard FEN's board, side to move and castling rights (the clocks may differ)."""
    return " ".join(fen_from_xboard(fen.strip()).split()[:3])


def screenshot(display_name: str, name: str) -> Path | None:
    """The screen, trimmed to the XBoard window, as ``tests/output/NAME``."""
    convert, grab = find_program("convert"), find_program("import")
    if grab is None or convert is None:
        return None
    OUTPUT.mkdir(parents=True, exist_ok=True)
    target = OUTPUT / name
    env = {**os.environ, "DISPLAY": display_name}
    subprocess.run([grab, "-window", "root", str(target)], env=env, check=True, timeout=30)
    subprocess.run([convert, str(target), "-trim", "+repage", str(target)], check=True, timeout=30)
    return target


def test_xboard_plays_a_game_and_its_board_matches_the_engines(tmp_path: Path, display: str) -> None:
    xboard = xboard_path()
    texts, after_book = book_game()
    assert after_book.outcome() is None
    book = tmp_path / "book.txt"
    book.write_text("\n".join(texts) + "\n")
    positions = [tmp_path / "first.fen", tmp_path / "second.fen"]
    saved, game, debug = tmp_path / "xboard.fen", tmp_path / "game.pgn", tmp_path / "xboard.debug"
    home = tmp_path / "home"
    home.mkdir()
    command = [
        xboard,
        *("-fcp", engine_line(book, positions[0], END_PLY), "-fd", CHILD_CWD),
        *("-scp", engine_line(book, positions[1], END_PLY), "-sd", CHILD_CWD),
        *("-variant", "alice", "-testLegality", "false", "-showTargetSquares", "true"),
        *("-mode", "TwoMachines", "-tc", "0:20", "-inc", "0.2"),
        *("-savePositionFile", str(saved), "-saveGameFile", str(game)),
        *("-debug", "-nameOfDebugFile", str(debug), "-popupExitMessage", "false"),
        *("-size", "Huge", "-coords", "-x", "0", "-y", "0", "-engineOutputUp", "false"),
        *fresh_settings(tmp_path),
    ]
    env = {**os.environ, "DISPLAY": display, "HOME": str(home)}
    proc = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + GAME_TIMEOUT
        while not (saved.exists() and saved.stat().st_size and all(p.exists() for p in positions)):
            assert proc.poll() is None, f"xboard exited early: {proc.stderr.read().decode(errors='replace')}"  # type: ignore[union-attr]
            assert time.monotonic() < deadline, "the game did not end in time"
            time.sleep(0.2)
        time.sleep(0.5)  # let the last lines reach the files and the window
        shot = screenshot(display, "xboard_game.png")
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(10)

    log = debug.read_text(errors="replace")
    from_engines = [line for line in log.splitlines() if re.match(r"^\d+ <(first|second)", line)]
    refused = [line for line in from_engines if re.search(r": (Illegal move|Error|tellusererror)", line)]
    assert refused == [], refused
    moves = re.findall(r"^\d+ <(?:first|second) ?: move (\S+)", log, re.MULTILINE)
    assert moves[: len(texts)] == texts  # the book went through XBoard as written
    assert len(moves) >= len(texts) + 4, f"the engines played only {len(moves) - len(texts)} moves after the book"

    xboard_fen = saved.read_text()
    for position in positions:
        assert board_side_castling(position.read_text()) == board_side_castling(xboard_fen)
    assert shot is None or shot.stat().st_size > 0
    pgn = game.read_text()
    assert '[Variant "alice"]' in pgn and "O-O" not in pgn  # castling is written as the rook's move
    print(f"final position (XBoard): {xboard_fen.strip()}; {len(moves)} plies; screenshot {shot}")


def test_book_holds_the_cases_xboard_could_get_wrong() -> None:
    """The fixed opening really holds what the XBoard test is meant to cover."""
    pos = Position()
    seen = set()
    for uci in BOOK_UCI:
        move = parse_uci(pos, uci)
        s, d = move & 63, (move >> 6) & 63
        piece = pos.piece_at(s)
        assert piece is not None
        kind, white, board = piece
        target = pos.piece_at(d)
        if kind == 6 and abs(d - s) == 2:
            seen.add(("O-O" if d > s else "O-O-O", white))
        elif kind == 6 and s >> 3 == d >> 3:
            seen.add(("king along a rank", white))
        if target is not None:
            seen.add("capture")
            behind = d - 8 if white else d + 8
            far_half = s >> 3 >= 4 if white else s >> 3 < 4
            occupied = pos.piece_at(behind)
            if kind == 1 and far_half and occupied is not None and occupied[2] != board:
                seen.add("pawn capture onto an occupied file")
        if move >> 12:
            seen.add("promotion")
        pos.push(move)
    assert {("O-O", True), ("O-O-O", False), ("king along a rank", True), ("king along a rank", False)} <= seen
    assert {"capture", "pawn capture onto an occupied file", "promotion"} <= seen
    assert wide_fen(pos).startswith("4bbnr8/16/1k11p2/")


# ---------------------------------------------------------------- moves entered with the mouse
CLICKS = "e2 m4 d7 l5 m4 l5 d5 g8 n6 g1 n3 a7 i6 f1 m2 b8 k6 h1 e1 n1".split()
SENT = ["e2m4", "d7l5", "m4l5,l5d5", "g8n6", "g1n3", "a7i6", "f1m2", "b8k6", "h1n1,e1o1"]  # as XBoard sends them
SQUARE, LEFT, BOTTOM = 48, 2, 385  # -size Huge: square size; board left edge and height from the window's bottom


class Mouse:
    """Clicks on an X display through the XTest extension."""

    def __init__(self, display_name: str) -> None:
        path = ctypes.util.find_library("Xtst")
        x11_path = ctypes.util.find_library("X11")
        if path is None or x11_path is None:  # the skip-or-fail rule of system_tools, for a library
            reason = f"{SKIP_PREFIX} libXtst.so.6: install it with `apt-get install libxtst6`"
            if required():
                pytest.fail(f"{reason} ({REQUIRE_ENV} is set)", pytrace=False)
            pytest.skip(reason)
        self.x11, self.xtst = ctypes.CDLL(x11_path), ctypes.CDLL(path)
        self.x11.XOpenDisplay.restype = ctypes.c_void_p
        self.x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
        self.x11.XFlush.argtypes = [ctypes.c_void_p]
        self.x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
        self.xtst.XTestFakeMotionEvent.argtypes = [
            ctypes.c_void_p,
            ctypes.c_int,
            ctypes.c_int,
            ctypes.c_int,
            ctypes.c_ulong,
        ]
        self.xtst.XTestFakeButtonEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, ctypes.c_ulong]
        self.dpy = self.x11.XOpenDisplay(display_name.encode())
        assert self.dpy, f"cannot open display {display_name}"

    def click(self, x: int, y: int) -> None:
        self.xtst.XTestFakeMotionEvent(self.dpy, -1, x, y, 0)
        self.x11.XFlush(self.dpy)
        time.sleep(0.15)
        for press in (1, 0):
            self.xtst.XTestFakeButtonEvent(self.dpy, 1, press, 0)
            self.x11.XFlush(self.dpy)
            time.sleep(0.1)
        time.sleep(0.3)

    def close(self) -> None:
        self.x11.XCloseDisplay(self.dpy)


def window_height(display_name: str) -> int:
    """The height of what the screen shows (XBoard's window at 0,0 on a black screen)."""
    shot = screenshot(display_name, "xboard_clicks_start.png")
    assert shot is not None, "ImageMagick is needed to find the board"
    identify = subprocess.run(
        [find_program("convert") or "convert", str(shot), "-format", "%h", "info:"],
        capture_output=True,
        text=True,
        check=True,
    )
    return int(identify.stdout.strip())


def test_moves_entered_with_the_mouse_follow_the_highlights(tmp_path: Path, display: str) -> None:
    xboard = xboard_path()
    if find_program("import") is None:
        require_program("import", "imagemagick")
    mouse = Mouse(display)
    debug, home = tmp_path / "xboard.debug", tmp_path / "home"
    home.mkdir()
    engine = " ".join(shlex.quote(word) for word in [*engine_command(), "xboard"])
    command = [
        xboard,
        *("-fcp", engine, "-fd", CHILD_CWD, "-variant", "alice", "-testLegality", "false"),
        *("-showTargetSquares", "true", "-mode", "EditGame", "-debug", "-nameOfDebugFile", str(debug)),
        *("-size", "Huge", "-coords", "-x", "0", "-y", "0", "-engineOutputUp", "false", "-popupExitMessage", "false"),
        *fresh_settings(tmp_path),
    ]
    env = {**os.environ, "DISPLAY": display, "HOME": str(home)}
    proc = subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    try:
        deadline = time.monotonic() + 30
        while "setup (" not in (debug.read_text(errors="replace") if debug.exists() else ""):
            assert proc.poll() is None and time.monotonic() < deadline, "XBoard did not set the board up"
            time.sleep(0.2)
        time.sleep(1.0)
        top = window_height(display) - BOTTOM
        for square in CLICKS:
            file, rank = "abcdefghijklmnop".index(square[0]), int(square[1])
            mouse.click(LEFT + SQUARE * file + SQUARE // 2, top + SQUARE * (8 - rank) + SQUARE // 2)
        time.sleep(1.0)
        shot = screenshot(display, "xboard_clicks.png")
    finally:
        mouse.close()
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(10)
    log = debug.read_text(errors="replace")
    sent = re.findall(r">first : usermove \d+ >first : (\S+)", log)
    assert sent == SENT, sent
    assert re.search(r"<first : highlight 16/16/16/4Y6C4/16/16/16/16$", log, re.MULTILINE)  # e5 quiet, l5 capture
    assert re.search(r"<first : highlight 16/16/16/16/16/16/16/4C8YY1$", log, re.MULTILINE)  # the rook: e1 castling
    assert not re.search(r"<first : (Illegal move|Error)", log)
    assert shot is None or shot.stat().st_size > 0
