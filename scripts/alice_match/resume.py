"""``-resume``: continue an interrupted match or tournament from its own PGN.

Every game alice-match writes carries ``[GameNumber "N"]``. Resuming reads the games back,
walks the schedule from game 1 (the schedule depends only on the settings and on results)
and checks that each game found is the one scheduled under its number (same engines,
colours and opening), feeding its result in. Numbers missing from the PGN (games that were
being played when the run stopped) are played again, under the same numbers; nothing in
the PGN is played twice. A last game cut off by a killed run (no result at the end of its
movetext) is removed from the file first.
"""

from __future__ import annotations

import io
import os
from dataclasses import dataclass

import chess.pgn

from engine import Position, parse_uci
from engine.position import STARTING_FEN

from .game import ABANDONED, ADJUDICATION, COLOR_NAMES, DRAW_TEXT, ILLEGAL_MOVE, NORMAL, STALLED, TIME_FORFEIT
from .openings import Opening
from .pgn import read_game, uci_moves
from .schedule import Schedule, Slot

RESULTS = ("1-0", "0-1", "1/2-1/2")
QUOTE_LIMIT = 80  # characters of a parse error quoted
GAME_NUMBER_TAG = "GameNumber"
_FORFEIT_TEXT = {
    TIME_FORFEIT: " loses on time",
    ILLEGAL_MOVE: " makes an illegal move",
    ABANDONED: " disconnects",
    STALLED: "'s connection stalls",
}


class ResumeError(ValueError):
    """A PGN that cannot be continued with these settings."""


@dataclass(frozen=True)
class PlayedGame:
    """A finished game as read back from the PGN."""

    number: int
    white: str
    black: str
    result: str
    termination: str
    reason: str  # "White mates", ... (from the last comment, else from the tags)
    start_fen: str
    moves: tuple[str, ...]  # plain UCI, opening included


def read_played(path: str) -> tuple[dict[int, PlayedGame], bool]:
    """The finished games of ``path`` by number, and whether a cut-off last game was removed."""
    if not os.path.exists(path):
        return {}, False
    text = read_text(path)
    stream = io.StringIO(text)
    entries: list[tuple[int, chess.pgn.Game]] = []
    while True:
        start = stream.tell()
        game = read_game(stream)
        if game is None:
            break
        entries.append((start, game))
    played: dict[int, PlayedGame] = {}
    for index, (start, game) in enumerate(entries, 1):
        complete = getattr(game, "terminated", False) and not game.errors and game.headers.get("Result") in RESULTS
        if not complete and index == len(entries):
            _truncate(path, len(text[:start].encode("utf-8")))
            return played, True
        if not complete:
            why = f" ({str(game.errors[0])[:QUOTE_LIMIT]})" if game.errors else ""
            raise ResumeError(f"{path}: game {index} is unfinished or unreadable{why}; cannot resume from this file")
        entry = _played_game(game, path, index)
        if entry.number in played:
            raise ResumeError(f"{path}: game number {entry.number} appears twice")
        played[entry.number] = entry
    return played, False


def read_text(path: str) -> str:
    """The PGN file as text; ``ResumeError`` if it cannot be read or is not UTF-8."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise ResumeError(f"{path}: cannot read: {error.strerror or error}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise ResumeError(
            f"{path} is not UTF-8 text (byte 0x{data[error.start]:02x} on line {line}): cannot resume from this file"
        ) from None


def _truncate(path: str, size: int) -> None:
    with open(path, "r+b") as handle:
        handle.truncate(size)


def _played_game(game: chess.pgn.Game, path: str, index: int) -> PlayedGame:
    headers = game.headers
    number_text = headers.get(GAME_NUMBER_TAG, "")
    if not number_text.isdigit() or int(number_text) < 1:
        raise ResumeError(
            f"{path}: game {index} has no [{GAME_NUMBER_TAG}] tag: it was not written by this alice-match, "
            "so the tournament cannot be resumed from this file"
        )
    start_fen, moves = uci_moves(game)
    end = game.end()
    comment = end.comment if end is not game else game.comment
    termination = headers.get("Termination", NORMAL)
    # The reason follows the last move's comment; without comments (-pgnout FILE min) it is rebuilt.
    reason = comment.split(", ")[-1].strip() if comment else ""
    if not reason:
        reason = reason_from_tags(headers["Result"], termination, start_fen, moves)
    return PlayedGame(
        int(number_text), headers["White"], headers["Black"], headers["Result"], termination, reason,
        start_fen, tuple(moves),
    )  # fmt: skip


def reason_from_tags(result: str, termination: str, start_fen: str, moves: list[str]) -> str:
    """The reason text of a game whose PGN has no comments (``-pgnout FILE min``)."""
    winner = {"1-0": "White", "0-1": "Black"}.get(result)
    loser = {"1-0": "Black", "0-1": "White"}.get(result)
    if termination == NORMAL:
        pos = Position(start_fen)
        for text in moves:
            pos.push(parse_uci(pos, text))
        outcome = pos.outcome()
        if outcome is None:
            return "?"
        if outcome.termination == "checkmate":
            return f"{COLOR_NAMES[bool(outcome.winner)]} mates"
        return DRAW_TEXT[outcome.termination]
    if termination == ADJUDICATION:
        return f"{winner} wins by adjudication" if winner else "Draw by adjudication"
    if termination in _FORFEIT_TEXT and loser:
        return loser + _FORFEIT_TEXT[termination]
    return termination or "?"


def restore(
    schedule: Schedule, names: list[str], openings: list[Opening], played: dict[int, PlayedGame], path: str
) -> tuple[list[tuple[Slot, PlayedGame]], list[Slot]]:
    """Walk ``schedule`` through the games of ``played``: the (slot, game) pairs found, in
    order, with their results fed to the schedule, and the slots to play again (missing)."""
    found: list[tuple[Slot, PlayedGame]] = []
    missing: list[Slot] = []
    last = max(played, default=0)
    while schedule.started < last:
        slot = schedule.next_slot()
        if slot is None:
            raise ResumeError(
                f"{path}: game {schedule.started + 1} and later are not games of this tournament "
                "(other engines, order or settings?)"
            )
        game = played.get(slot.number)
        if game is None:
            missing.append(slot)
            continue
        _check(slot, game, names, openings, path)
        schedule.finish(slot, {"1-0": 2, "1/2-1/2": 1, "0-1": 0}[game.result])
        found.append((slot, game))
    return found, missing


def _check(slot: Slot, game: PlayedGame, names: list[str], openings: list[Opening], path: str) -> None:
    expected = (names[slot.white], names[slot.black])
    if (game.white, game.black) != expected:
        raise ResumeError(
            f"{path}: game {slot.number} is {game.white} vs {game.black}, but this tournament schedules "
            f"{expected[0]} vs {expected[1]} (other engines, order or settings?)"
        )
    opening = openings[slot.opening % len(openings)] if openings else Opening(STARTING_FEN)
    if Position(game.start_fen).fen() != opening.fen or game.moves[: len(opening.moves)] != opening.moves:
        raise ResumeError(
            f"{path}: game {slot.number} did not start from the opening this tournament gives it "
            "(give the same -openings and -srand as the interrupted run)"
        )
