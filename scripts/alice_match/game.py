"""The referee: one game between two UCI engines, under our rules (``engine.Position``).

Every move an engine sends is checked; an illegal move, malformed output (``bestmovefoo``),
a loss on time, a crash or a hang ends the game against that engine. Clocks are kept here: the time of a move runs from
writing ``go`` to reading ``bestmove``. The game also ends on mate, stalemate, the fifty-move
rule, threefold repetition (boards included), bare kings, and by adjudication when asked.

Pondering (an engine started with ``ponder`` that offers the ``Ponder`` option), as
cutechess-cli does it: after ``bestmove X ponder Y`` the engine gets ``position ... X Y`` and
``go ponder`` with the clocks while its opponent thinks. If the opponent plays Y it gets
``ponderhit`` and its clock runs from then on; otherwise ``stop`` (that bestmove is
discarded) and a normal ``position`` + ``go``. Time spent pondering is never charged.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import chess

from engine import MoveError, Position, move_to_uci, parse_uci
from engine.position import STARTING_FEN
from tablebase.fileformat import TableFileError
from tablebase.probe import Tablebases
from tablebase.values import game_result

from .openings import Opening
from .tc import Clock, Limits
from .uci_process import Disconnected, MalformedOutputError, SearchResult, Stalled, UciProcess

COLOR_NAMES = {chess.WHITE: "White", chess.BLACK: "Black"}

# PGN Termination tag values (as cutechess-cli writes them).
NORMAL = "normal"
ADJUDICATION = "adjudication"
TIME_FORFEIT = "time forfeit"
ILLEGAL_MOVE = "illegal move"
ABANDONED = "abandoned"
STALLED = "stalled connection"

DRAW_TEXT = {
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
    tb: str | None = None  # -tb: a directory of endgame tables that adjudicate the positions they cover
    stall_timeout: float = 60.0  # seconds an engine may think when no clock bounds it
    ready_timeout: float = 10.0  # seconds for readyok
    stop_timeout: float = 1.0  # seconds to answer stop after a time forfeit before it is killed


@dataclass
class GameRecord:
    """A finished game: everything the PGN, the score table and the engine manager need."""

    start_fen: str
    opening_moves: list[int]
    moves: list[int] = field(default_factory=list)  # engine moves after the opening
    infos: list[str] = field(default_factory=list)  # per engine move: "+0.35/12" (or "")
    times_ms: list[int] = field(default_factory=list)  # per engine move: thinking time
    result: str = "*"
    termination: str = ""
    reason: str = ""  # "White mates", "Black loses on time", ...
    disconnected: list[bool] = field(default_factory=lambda: [False, False])  # [white, black]: engine crashed
    killed: list[bool] = field(default_factory=lambda: [False, False])  # [white, black]: killed (it hung)
    clocks: dict[bool, list[int]] = field(default_factory=dict)
    duration: float = 0.0
    final_fen: str = ""
    ponderhits: int = 0  # moves answered after a ponderhit

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

    def comments(self, emt: bool = False) -> list[str]:
        """Move comments: ``+0.35/12 0.123s`` (cutechess), or ``+0.35/12 [%emt 0:00:00.123]``."""
        return [
            f"{info} {emt_command(ms) if emt else f'{ms / 1000:.3g}s'}".strip()
            for info, ms in zip(self.infos, self.times_ms)
        ]


def emt_command(ms: int) -> str:
    """The PGN elapsed-move-time command: ``[%emt 0:01:02.345]``.

    >>> emt_command(62345)
    '[%emt 0:01:02.345]'
    """
    seconds, millis = divmod(ms, 1000)
    minutes, seconds = divmod(seconds, 60)
    hours, minutes = divmod(minutes, 60)
    return f"[%emt {hours}:{minutes:02d}:{seconds:02d}.{millis:03d}]"


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
            _Game(self, pos, opening, record).run()
        finally:
            record.duration = time.monotonic() - started
            record.final_fen = pos.fen()
        return record


def _tables(directory: str | None, log: Callable[[str], None] | None) -> Tablebases | None:
    """The ``-tb`` tables of one game (read on first use; an unusable file is logged once)."""
    if directory is None:
        return None
    try:
        return Tablebases(directory, log)
    except TableFileError as error:
        if log is not None:
            log(f"-tb: {error}")
        return None


class _Game:
    """The state of one game in play: position, clocks, adjudication counters, ponder moves."""

    def __init__(self, referee: Referee, pos: Position, opening: Opening, record: GameRecord) -> None:
        self.players = referee.players
        self.settings = s = referee.settings
        self.pos = pos
        self.record = record
        self.limits = {chess.WHITE: s.limits[0], chess.BLACK: s.limits[1]}
        self.clocks = self._make_clocks()
        self.start_fen = None if opening.fen == STARTING_FEN else opening.fen
        self.sent_moves = list(opening.moves)  # plain UCI, as sent in ``position``
        self.resign_count = {chess.WHITE: 0, chess.BLACK: 0}
        self.resign_win_count = {chess.WHITE: 0, chess.BLACK: 0}
        self.draw_count = 0
        self.expected: dict[bool, int | None] = {chess.WHITE: None, chess.BLACK: None}  # ponder moves
        self.tables = _tables(s.tb, referee.log)

    def _make_clocks(self) -> dict[bool, Clock] | None:
        white, black = self.limits[chess.WHITE], self.limits[chess.BLACK]
        if not (white.has_clock() or black.has_clock()):
            return None
        if not (white.has_clock() and black.has_clock()):
            raise ValueError("either both players have a clock (tc=) or neither")
        assert white.tc is not None and black.tc is not None
        clocks = {chess.WHITE: Clock(white.tc), chess.BLACK: Clock(black.tc)}
        self.record.clocks = {c: clocks[c].history for c in (chess.WHITE, chess.BLACK)}
        return clocks

    # ------------------------------------------------------------------ the game
    def run(self) -> None:
        """Play to the end: start both engines on a new game, then move after move."""
        if not self._new_game():
            return
        try:
            while not self._over():
                side = bool(self.pos.turn)
                answer = self._think(side)
                if answer is None or not self._in_time(side, answer):
                    return
                if not self._play_move(side, answer):
                    return
                if self._adjudicated(side, answer.info.score_cp()):
                    return
                self._start_pondering(side, answer)
        finally:
            self._stop_pondering()

    def _new_game(self) -> bool:
        """``ucinewgame`` + ``isready`` to both; a side that fails loses."""
        for color in (chess.WHITE, chess.BLACK):
            try:
                self.players[color].new_game(self.settings.ready_timeout)
            except Disconnected:
                self._disconnected(color)
                return False
            except Stalled:
                self._kill(color)
                self._forfeit(color, STALLED, "'s connection stalls")
                return False
            except MalformedOutputError as error:
                self._malformed(color, error)
                return False
        return True

    def _over(self) -> bool:
        """Mate, a rule draw or the move limit ends the game."""
        outcome = self.pos.outcome()
        if outcome is not None:
            if outcome.termination == "checkmate":
                reason = f"{COLOR_NAMES[bool(outcome.winner)]} mates"
            else:
                reason = DRAW_TEXT[outcome.termination]
            self._end(outcome.result, NORMAL, reason)
            return True
        if self.tables is not None and self._tablebase_adjudicated(self.tables):
            return True
        plies = len(self.record.all_moves)
        if self.settings.maxmoves is not None and plies >= 2 * self.settings.maxmoves:
            self._end("1/2-1/2", ADJUDICATION, "Draw by adjudication: maximum number of moves")
            return True
        return False

    def _tablebase_adjudicated(self, tables: Tablebases) -> bool:
        """``-tb``: a position a table covers ends the game with the table's result."""
        value = tables.probe(self.pos)
        if not value:
            return False
        result = game_result(value, bool(self.pos.turn))
        if result == "1/2-1/2":
            self._end(result, ADJUDICATION, "Draw by tablebase adjudication")
        else:
            self._end(result, ADJUDICATION, f"{COLOR_NAMES[result == '1-0']} wins by tablebase adjudication")
        return True

    def _think(self, side: bool) -> SearchResult | None:
        """The engine's answer for ``side`` to move (after a ponderhit if it guessed our
        last move), or ``None`` when it has lost by disconnecting or stalling."""
        player = self.players[side]
        go_args, timeout, timed = _go_args(self.limits[side], self.clocks, side)
        if timeout is None:
            timeout = self.settings.stall_timeout
        try:
            if player.pondering:
                if self.expected[side] == self.record.all_moves[-1]:
                    self.record.ponderhits += 1
                    return player.ponderhit(timeout)
                if not player.stop_search(self.settings.stop_timeout):
                    if not player.alive():
                        self._disconnected(side)
                    else:
                        self._kill(side)
                        self._forfeit(side, STALLED, "'s connection stalls")
                    return None
            player.position(self.start_fen, self.sent_moves)
            return player.go(go_args, timeout)
        except Disconnected:
            self._disconnected(side)
        except MalformedOutputError as error:
            self._malformed(side, error)
        except Stalled:
            if not player.stop_search(self.settings.stop_timeout):
                self._kill(side)
            if timed:
                self._forfeit(side, TIME_FORFEIT, "loses on time")
            else:
                self._forfeit(side, STALLED, "'s connection stalls")
        return None

    def _in_time(self, side: bool, answer: SearchResult) -> bool:
        """Charge the clock; a flag fall (or a ``st=`` overrun) loses on time."""
        limits = self.limits[side]
        if self.clocks is not None and not self.clocks[side].spend(answer.elapsed_ms, limits.margin_ms):
            self._forfeit(side, TIME_FORFEIT, "loses on time")
            return False
        if limits.movetime_ms is not None and answer.elapsed_ms > limits.movetime_ms + limits.margin_ms:
            self._forfeit(side, TIME_FORFEIT, "loses on time")
            return False
        return True

    def _play_move(self, side: bool, answer: SearchResult) -> bool:
        """Check the move and make it; an illegal move loses."""
        try:
            m = parse_uci(self.pos, answer.move)
        except MoveError:
            self._forfeit(side, ILLEGAL_MOVE, f"makes an illegal move: {answer.move or '(none)'}")
            return False
        self.record.moves.append(m)
        self.record.infos.append(answer.info.pgn_text())
        self.record.times_ms.append(answer.elapsed_ms)
        self.sent_moves.append(move_to_uci(self.pos, m))
        self.pos.push(m)
        return True

    def _adjudicated(self, side: bool, score: int | None) -> bool:
        """``-draw`` and ``-resign`` adjudication after ``side``'s move reported ``score``."""
        s = self.settings
        if s.draw is not None:
            # as cutechess: count consecutive near-zero scores from the start, adjudicate
            # once the game has reached full move ``movenumber``
            self.draw_count = self.draw_count + 1 if score is not None and abs(score) <= s.draw.score else 0
            plies = len(self.record.all_moves)
            if plies // 2 >= s.draw.movenumber and self.draw_count >= 2 * s.draw.movecount:
                self._end("1/2-1/2", ADJUDICATION, "Draw by adjudication")
                return True
        if s.resign is not None:
            losing = score is not None and score <= -s.resign.score
            winning = score is not None and score >= s.resign.score
            self.resign_count[side] = self.resign_count[side] + 1 if losing else 0
            self.resign_win_count[side] = self.resign_win_count[side] + 1 if winning else 0
            loser: bool | None = None
            if self.resign_count[side] >= s.resign.movecount:
                loser = side
            elif s.resign.twosided and self.resign_win_count[side] >= s.resign.movecount:
                loser = not side
            if loser is not None:
                winner = not loser
                self._end("1-0" if winner else "0-1", ADJUDICATION, f"{COLOR_NAMES[winner]} wins by adjudication")
                return True
        return False

    # ------------------------------------------------------------------ pondering
    def _start_pondering(self, side: bool, answer: SearchResult) -> None:
        """After ``side``'s move, let it think on the reply it expects (``go ponder``)."""
        player = self.players[side]
        if not player.can_ponder or answer.ponder is None or self.pos.outcome() is not None:
            return
        try:
            expected = parse_uci(self.pos, answer.ponder)
        except MoveError:
            return  # a ponder move that is not legal here: no pondering, no penalty
        go_args, _, _ = _go_args(self.limits[side], self.clocks, side)
        try:
            player.position(self.start_fen, [*self.sent_moves, move_to_uci(self.pos, expected)])
            player.go_ponder(go_args)
        except Disconnected:
            return  # found out at its next move
        self.expected[side] = expected

    def _stop_pondering(self) -> None:
        """At the end of the game, stop any engine still pondering (its bestmove is discarded)."""
        for color in (chess.WHITE, chess.BLACK):
            player = self.players[color]
            if player.pondering and not player.stop_search(self.settings.stop_timeout) and player.alive():
                self._kill(color)

    # ------------------------------------------------------------------ endings
    def _end(self, result: str, termination: str, reason: str) -> None:
        self.record.result, self.record.termination, self.record.reason = result, termination, reason

    def _forfeit(self, loser: bool, termination: str, reason: str) -> None:
        """``loser`` loses; ``reason`` follows the colour name (``loses on time``, ``'s connection stalls``)."""
        sep = "" if reason.startswith("'") else " "
        self._end("0-1" if loser else "1-0", termination, f"{COLOR_NAMES[loser]}{sep}{reason}")

    def _malformed(self, color: bool, error: MalformedOutputError) -> None:
        """A line that breaks the protocol loses; the engine, in a state we cannot know, is ended."""
        self._kill(color)
        self._forfeit(color, ILLEGAL_MOVE, f"sends malformed output: {error.line}")

    def _disconnected(self, color: bool) -> None:
        self.record.disconnected[0 if color else 1] = True
        self._forfeit(color, ABANDONED, "disconnects")

    def _kill(self, color: bool) -> None:
        self.players[color].kill()
        self.record.killed[0 if color else 1] = True
