"""The referee: one game between two UCI engines, under our rules (``engine.Position``).

Every move an engine sends is checked; an illegal move, a loss on time, a crash or a hang
ends the game against that engine. Clocks are kept here: the time of a move runs from
writing ``go`` to reading ``bestmove``. The game also ends on mate, stalemate, the fifty-move
rule, threefold repetition (boards included), bare kings, and by adjudication when asked.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import chess

from engine import MoveError, Position, move_to_uci, parse_uci
from engine.position import STARTING_FEN

from .openings import Opening
from .tc import Clock, Limits
from .uci_process import Disconnected, Stalled, UciProcess

COLOR_NAMES = {chess.WHITE: "White", chess.BLACK: "Black"}

# PGN Termination tag values (as cutechess-cli writes them).
NORMAL = "normal"
ADJUDICATION = "adjudication"
TIME_FORFEIT = "time forfeit"
ILLEGAL_MOVE = "illegal move"
ABANDONED = "abandoned"
STALLED = "stalled connection"

_DRAW_TEXT = {
    "stalemate": "Draw by stalemate",
    "fifty-move rule": "Draw by fifty moves rule",
    "threefold repetition": "Draw by 3-fold repetition",
    "bare kings": "Draw by bare kings",
}


@dataclass(frozen=True)
class DrawAdjudication:
    """``-draw movenumber=N movecount=N score=N``: both scores within ``score`` cp for
    ``movecount`` consecutive moves of each side, from full move ``movenumber`` on."""

    movenumber: int
    movecount: int
    score: int


@dataclass(frozen=True)
class ResignAdjudication:
    """``-resign movecount=N score=N [twosided=true]``: a side whose score stays at or below
    ``-score`` for ``movecount`` consecutive moves loses (two-sided: or whose opponent's
    score stays at or above ``score``)."""

    movecount: int
    score: int
    twosided: bool = False


@dataclass(frozen=True)
class GameSettings:
    limits: tuple[Limits, Limits]  # (white's, black's)
    draw: DrawAdjudication | None = None
    resign: ResignAdjudication | None = None
    maxmoves: int | None = None
    stall_timeout: float = 60.0  # seconds an engine may think when no clock bounds it
    ready_timeout: float = 10.0  # seconds for readyok
    stop_timeout: float = 1.0  # seconds to answer stop after a time forfeit before it is killed


@dataclass
class GameRecord:
    """A finished game: everything the PGN, the score table and the engine manager need."""

    start_fen: str
    opening_moves: list[int]
    moves: list[int] = field(default_factory=list)  # engine moves after the opening
    comments: list[str] = field(default_factory=list)
    result: str = "*"
    termination: str = ""
    reason: str = ""  # "White mates", "Black loses on time", ...
    disconnected: list[bool] = field(default_factory=lambda: [False, False])  # [white, black]: engine crashed
    killed: list[bool] = field(default_factory=lambda: [False, False])  # [white, black]: killed (it hung)
    clocks: dict[bool, list[int]] = field(default_factory=dict)
    duration: float = 0.0

    @property
    def all_moves(self) -> list[int]:
        return self.opening_moves + self.moves

    def score_for(self, color: bool) -> float | None:
        """1, 0.5 or 0 for ``color``; ``None`` if unfinished."""
        if self.result == "1/2-1/2":
            return 0.5
        if self.result == "1-0":
            return 1.0 if color else 0.0
        if self.result == "0-1":
            return 0.0 if color else 1.0
        return None


def _go_args(limits: Limits, clocks: dict[bool, Clock] | None, side: bool) -> tuple[str, float | None, bool]:
    """``go`` arguments, the seconds to wait for ``bestmove`` and whether running out is a time forfeit."""
    args: list[str] = []
    timeout: float | None = None
    timed = False
    if clocks is not None:
        white, black = clocks[chess.WHITE], clocks[chess.BLACK]
        args += [f"wtime {max(1, white.left_ms)}", f"btime {max(1, black.left_ms)}"]
        args += [f"winc {white.tc.inc_ms}", f"binc {black.tc.inc_ms}"]
        mtg = clocks[side].moves_to_go()
        if mtg is not None:
            args.append(f"movestogo {mtg}")
        timeout = (max(0, clocks[side].left_ms) + limits.margin_ms) / 1000.0
        timed = True
    if limits.movetime_ms is not None:
        args.append(f"movetime {limits.movetime_ms}")
        st_timeout = (limits.movetime_ms + limits.margin_ms) / 1000.0
        timeout = st_timeout if timeout is None else min(timeout, st_timeout)
        timed = True
    if limits.depth is not None:
        args.append(f"depth {limits.depth}")
    if limits.nodes is not None:
        args.append(f"nodes {limits.nodes}")
    return " ".join(args), timeout, timed


class Referee:
    """Plays one game; ``players`` is (white engine, black engine), already started."""

    def __init__(
        self, players: tuple[UciProcess, UciProcess], settings: GameSettings, log: Callable[[str], None] | None = None
    ) -> None:
        self.players = {chess.WHITE: players[0], chess.BLACK: players[1]}
        self.settings = settings
        self.log = log

    def play(self, opening: Opening) -> GameRecord:
        started = time.monotonic()
        pos = Position(opening.fen)
        opening_moves = []
        for text in opening.moves:
            m = parse_uci(pos, text)
            opening_moves.append(m)
            pos.push(m)
        record = GameRecord(start_fen=opening.fen, opening_moves=opening_moves)
        try:
            self._play(pos, opening, record)
        finally:
            record.duration = time.monotonic() - started
        return record

    def _end(self, record: GameRecord, result: str, termination: str, reason: str) -> None:
        record.result, record.termination, record.reason = result, termination, reason

    def _forfeit(self, record: GameRecord, loser: bool, termination: str, reason: str) -> None:
        """``loser`` loses; ``reason`` follows the colour name (``loses on time``, ``'s connection stalls``)."""
        sep = "" if reason.startswith("'") else " "
        self._end(record, "0-1" if loser else "1-0", termination, f"{COLOR_NAMES[loser]}{sep}{reason}")

    def _play(self, pos: Position, opening: Opening, record: GameRecord) -> None:
        s = self.settings
        white_limits, black_limits = s.limits
        limits = {chess.WHITE: white_limits, chess.BLACK: black_limits}
        clocks: dict[bool, Clock] | None = None
        if white_limits.has_clock() or black_limits.has_clock():
            if not (white_limits.has_clock() and black_limits.has_clock()):
                raise ValueError("either both players have a clock (tc=) or neither")
            assert white_limits.tc is not None and black_limits.tc is not None
            clocks = {chess.WHITE: Clock(white_limits.tc), chess.BLACK: Clock(black_limits.tc)}
            record.clocks = {c: clocks[c].history for c in (chess.WHITE, chess.BLACK)}
        for color in (chess.WHITE, chess.BLACK):
            try:
                self.players[color].new_game(s.ready_timeout)
            except Disconnected:
                record.disconnected[0 if color else 1] = True
                self._forfeit(record, color, ABANDONED, "disconnects")
                return
            except Stalled:
                self._kill(record, color)
                self._forfeit(record, color, STALLED, "'s connection stalls")
                return
        start_fen = None if opening.fen == STARTING_FEN else opening.fen
        sent_moves = list(opening.moves)
        resign_count = {chess.WHITE: 0, chess.BLACK: 0}
        resign_win_count = {chess.WHITE: 0, chess.BLACK: 0}
        draw_count = 0
        plies_played = len(record.opening_moves)
        while True:
            outcome = pos.outcome()
            if outcome is not None:
                if outcome.termination == "checkmate":
                    reason = f"{COLOR_NAMES[bool(outcome.winner)]} mates"
                else:
                    reason = _DRAW_TEXT[outcome.termination]
                self._end(record, outcome.result, NORMAL, reason)
                return
            if s.maxmoves is not None and plies_played >= 2 * s.maxmoves:
                self._end(record, "1/2-1/2", ADJUDICATION, "Draw by adjudication: maximum number of moves")
                return
            side = bool(pos.turn)
            player = self.players[side]
            go_args, timeout, timed = _go_args(limits[side], clocks, side)
            if timeout is None:
                timeout = s.stall_timeout
            try:
                player.position(start_fen, sent_moves)
                answer = player.go(go_args, timeout)
            except Disconnected:
                record.disconnected[0 if side else 1] = True
                self._forfeit(record, side, ABANDONED, "disconnects")
                return
            except Stalled:
                if not player.stop_search(s.stop_timeout):
                    self._kill(record, side)
                if timed:
                    self._forfeit(record, side, TIME_FORFEIT, "loses on time")
                else:
                    self._forfeit(record, side, STALLED, "'s connection stalls")
                return
            if clocks is not None and not clocks[side].spend(answer.elapsed_ms, limits[side].margin_ms):
                self._forfeit(record, side, TIME_FORFEIT, "loses on time")
                return
            movetime = limits[side].movetime_ms
            if movetime is not None and answer.elapsed_ms > movetime + limits[side].margin_ms:
                self._forfeit(record, side, TIME_FORFEIT, "loses on time")
                return
            try:
                m = parse_uci(pos, answer.move)
            except MoveError:
                self._forfeit(record, side, ILLEGAL_MOVE, f"makes an illegal move: {answer.move or '(none)'}")
                return
            comment = answer.info.pgn_text()
            comment = f"{comment} {answer.elapsed_ms / 1000:.3g}s".strip()
            record.moves.append(m)
            record.comments.append(comment)
            sent_moves.append(move_to_uci(pos, m))
            pos.push(m)
            plies_played += 1
            score = answer.info.score_cp()
            if s.draw is not None:
                # as cutechess: count consecutive near-zero scores from the start, adjudicate
                # once the game has reached full move ``movenumber``
                draw_count = draw_count + 1 if score is not None and abs(score) <= s.draw.score else 0
                if plies_played // 2 >= s.draw.movenumber and draw_count >= 2 * s.draw.movecount:
                    self._end(record, "1/2-1/2", ADJUDICATION, "Draw by adjudication")
                    return
            if s.resign is not None:
                losing = score is not None and score <= -s.resign.score
                winning = score is not None and score >= s.resign.score
                resign_count[side] = resign_count[side] + 1 if losing else 0
                resign_win_count[side] = resign_win_count[side] + 1 if winning else 0
                loser: bool | None = None
                if resign_count[side] >= s.resign.movecount:
                    loser = side
                elif s.resign.twosided and resign_win_count[side] >= s.resign.movecount:
                    loser = not side
                if loser is not None:
                    winner = not loser
                    result = "1-0" if winner else "0-1"
                    self._end(record, result, ADJUDICATION, f"{COLOR_NAMES[winner]} wins by adjudication")
                    return

    def _kill(self, record: GameRecord, color: bool) -> None:
        self.players[color].kill()
        record.killed[0 if color else 1] = True
