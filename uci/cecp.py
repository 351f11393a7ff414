"""The CECP front end (XBoard/WinBoard protocol version 2): ``alice-engine xboard``.

Another text layer over the same objects as UCI: positions and move checking from
``engine`` (through ``uci.shared``), searches through ``search.thinker.Thinker``, with the
board shown to XBoard as one 16x8 board (``uci.xboard_board``). One handler per command
(``CecpEngine.HANDLERS``). Every state change happens on the main thread: input lines and
finished searches arrive through one queue (``CecpEngine.events``), so a search's answer
never races a command. Thinking lines are printed by the search thread, under the
thinker's lock like every other line.

Choices where the protocol is silent:

* A move XBoard sends that is not legal, or not in the form of this presentation, gets
  ``Illegal move (REASON): MOVE`` and changes nothing. A bad or unknown command gets
  ``Error (REASON): COMMAND`` and changes nothing; input is quoted back cut to 80
  characters. An error never contains the word "illegal": XBoard would take the last move
  back on it.
* A ``setboard`` FEN that is not a legal Alice position gets ``tellusererror Illegal
  position: REASON``; the previous position is kept, and moves and ``go`` are refused
  until the next ``new`` or good ``setboard`` (as the protocol suggests).
* When a move (ours or the opponent's) ends the game by rule and the engine is playing,
  it claims the result with the reason (``1-0 {White mates}``, ``1/2-1/2 {Draw by
  repetition}``...); XBoard cannot judge Alice chess itself. In force and analyze mode it
  claims nothing. ``go`` in a finished game claims the result instead of moving.
* ``d`` (not CECP) prints both boards, the FEN and the 16-wide FEN as ``#`` comment
  lines, which XBoard only writes to its debug log.
* Pondering (``hard``): after its move the engine thinks on the reply it expects; if that
  move comes, the search goes on with the clock (``ponderhit``), else it starts afresh.
  Thinking lines while pondering start with the expected move in parentheses.
* ``ping`` while the engine is thinking on its move is answered after the move.
* ``lift`` is answered with the legal moves of the lifted piece (``highlight``); a piece
  of the side not to move (a premove) gets no squares. Castling is entered by lifting the
  rook, as its first leg goes onto its king (see ``uci.xboard_board``).
* ``memory`` resizes the hash table, and ``cores N`` sets the number of search threads (the
  UCI option ``Threads``: helper processes, ``search.workers``), only when no search runs; ``sd`` and ``st``/``level``
  apply together; the clock of a side is ``time``/``otim`` when given, else the ``level``
  base time. Negative clocks count as 0.
"""

from __future__ import annotations

import queue
import re
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar, Final, TextIO, TypeVar

from engine import Move, Position
from search.helper import MAX_THREADS, WorkerStartError
from search.limits import Iteration, Limits, Result
from search.thinker import Thinker, ThinkerBusyError
from uci.display import diagram
from uci.protocol import DEFAULT_HASH_MB, DEFAULT_MOVE_OVERHEAD, ENGINE_NAME, MAX_HASH_MB, VARIANT
from uci.shared import (
    CommandError,
    Output,
    clip,
    clip_message,
    engine_version,
    position_from_fen,
    read_line,
    run_until_quit,
)
from uci.xboard_board import (
    EMPTY_HIGHLIGHT,
    Lift,
    XboardMoveError,
    fen_from_xboard,
    leg_highlight,
    lift_highlight,
    move_text,
    parse_move,
    pv_text,
    setup_lines,
    wide_fen,
)

WHITE: Final = 1
BLACK: Final = 0
DEFAULT_BASE_MS: Final = 5 * 60 * 1000  # a side's clock before any level/time command: 5 minutes
MATE_SCORE: Final = 100_000  # CECP: mate in N is 100000 + N, being mated in N is -100000 - N
POLL: Final = 0.5  # seconds the input loop waits for an event before checking again

# What a search is for (the mode it runs in).
THINK: Final = "think"
PONDER: Final = "ponder"
ANALYZE: Final = "analyze"

_MOVE_LIKE = re.compile(r"^[a-p][1-8][a-p][1-8]")
_BASE_RE = re.compile(r"^(\d+)(?::(\d{1,2}))?")  # minutes[:seconds], anything after ignored

RESULT_TEXT: Final = {
    "stalemate": "1/2-1/2 {Stalemate}",
    "threefold repetition": "1/2-1/2 {Draw by repetition}",
    "fifty-move rule": "1/2-1/2 {Draw by fifty-move rule}",
    "bare kings": "1/2-1/2 {Draw by bare kings}",
}


def feature_lines() -> list[str]:
    """The answer to ``protover 2``."""
    name = f"{ENGINE_NAME} {engine_version()}".replace('"', "'")
    return [
        f'feature myname="{name}" variants="{VARIANT}" usermove=1 setboard=1 ping=1 playother=1 '
        "highlight=1 sigint=0 sigterm=0 colors=0 analyze=1 memory=1 smp=1 time=1 nps=0 debug=1 reuse=1",
        "feature done=1",
    ]


def result_line(pos: Position) -> str | None:
    """The claim for a finished game (``1-0 {White mates}``), ``None`` if it goes on."""
    outcome = pos.outcome()
    if outcome is None:
        return None
    if outcome.termination == "checkmate":
        return "1-0 {White mates}" if outcome.winner else "0-1 {Black mates}"
    return RESULT_TEXT.get(outcome.termination, f"{outcome.result} {{{outcome.termination}}}")


def thinking_line(it: Iteration, pv: str) -> str:
    """CECP's ``ply score time nodes pv``: score in centipawns (mates as 100000 + N), time
    in centiseconds."""
    if it.mate is not None:
        score = MATE_SCORE + it.mate if it.mate > 0 else -MATE_SCORE + it.mate
    else:
        score = it.score
    return f"{it.depth} {score} {it.time_ms // 10} {it.nodes} {pv}".rstrip()


@dataclass(eq=False)
class Job:
    """One search: thinking on our move, pondering on the expected reply, or analysing."""

    kind: str
    root: Position
    prefix: str = ""  # printed before the PV (pondering: the expected move, in parentheses)
    expected: Move | None = None  # pondering: the opponent's move the root follows
    started: float = field(default_factory=time.perf_counter)
    last: Iteration | None = None


Handler = Callable[["CecpEngine", list[str]], bool | None]
Number = TypeVar("Number", int, float)


class CecpEngine:
    """The CECP state machine. ``execute(line)`` runs one command (False: quit);
    ``handle(event)`` one queued event; ``serve_cecp`` feeds both from stdin and the search."""

    def __init__(self, out: Output, thinker: Thinker | None = None) -> None:
        self.thinker = thinker if thinker is not None else Thinker(hash_mb=DEFAULT_HASH_MB)
        self.out = out
        out.lock = self.thinker.lock  # our answers and the search's reports never interleave
        self.events: queue.Queue[tuple[str, object]] = queue.Queue()
        self.pos = Position()
        self.bad_position: str | None = None  # why the last setboard was refused
        self.side: int | None = BLACK  # the colour the engine plays, None in force mode
        self.analyzing = False
        self.pondering = False  # hard / easy
        self.post = False
        self.depth: int | None = None  # sd
        self.moves_per_session = 0  # level MPS (0: the whole game)
        self.base_ms = DEFAULT_BASE_MS  # level BASE
        self.inc_ms = 0  # level INC
        self.move_time: int | None = None  # st, milliseconds
        self.own_ms: int | None = None  # time
        self.other_ms: int | None = None  # otim
        self.job: Job | None = None
        self.pongs: list[str] = []  # ping numbers to answer once our move is out
        self.lift = Lift()
        self.leg: str | None = None  # the cyan square a lifted piece was put on

    # ------------------------------------------------------------ dispatch
    def execute(self, line: str) -> bool:
        """Run one input line; never raises (except KeyboardInterrupt). False means quit."""
        tokens = line.split()
        if not tokens:
            return True
        command, args = tokens[0], tokens[1:]
        handler = self.HANDLERS.get(command)
        try:
            if handler is None:
                if _MOVE_LIKE.match(command) and not args:  # a move without "usermove" (protocol 1)
                    self._user_move(command)
                    return True
                raise CommandError("unknown command")
            return handler(self, args) is not False
        except CommandError as exc:
            self.error(str(exc), line)
        except ThinkerBusyError:
            self.error("command not legal now", line)
        except Exception as exc:
            traceback.print_exc(file=sys.stderr)
            self.error(f"internal error: {type(exc).__name__}: {exc}", line)
        return True

    def error(self, reason: str, line: str) -> None:
        """``Error (REASON): COMMAND``, the command cut to 80 characters. XBoard takes the
        last move back on any line containing "llegal", so an error never does."""
        text = f"Error ({clip_message(reason)}): {clip(line)}"
        self.out.send(text.replace("llegal", "l-legal"))

    def handle(self, event: tuple[str, object]) -> bool:
        """One queued event: an input line or a finished search. False means quit."""
        kind, payload = event
        if kind == "line":
            assert isinstance(payload, str)
            return self.execute(payload)
        if kind == "done":
            assert isinstance(payload, tuple)
            job, result = payload
            self._search_done(job, result)
        return True

    def drain(self, timeout: float = 0.0) -> None:
        """Handle queued events (waiting up to ``timeout`` seconds for the first)."""
        deadline = time.perf_counter() + timeout
        while True:
            try:
                event = self.events.get(timeout=max(0.0, deadline - time.perf_counter()))
            except queue.Empty:
                return
            self.handle(event)

    def shutdown(self) -> None:
        """Stop any search (its answer is dropped) and silence the output."""
        try:
            self._cancel(keep_analysis=False)
        finally:
            self.out.close()
            self.thinker.close()

    # ------------------------------------------------------------ handshake and settings
    def cmd_noop(self, args: list[str]) -> None:
        return None

    def cmd_protover(self, args: list[str]) -> None:
        self.out.send_lines(feature_lines())

    def cmd_variant(self, args: list[str]) -> None:
        if len(args) != 1 or args[0].lower() != VARIANT:
            raise CommandError(f"unsupported variant, only {VARIANT}")
        self.out.send_lines(setup_lines())

    def cmd_post(self, args: list[str]) -> None:
        self.post = True

    def cmd_nopost(self, args: list[str]) -> None:
        self.post = False

    def cmd_hard(self, args: list[str]) -> None:
        self.pondering = True

    def cmd_easy(self, args: list[str]) -> None:
        self.pondering = False
        if self.job is not None and self.job.kind == PONDER:
            self._cancel()

    def cmd_memory(self, args: list[str]) -> None:
        megabytes = _number_arg(args, "memory needs a size in MB", int)
        self.thinker.resize(max(1, min(MAX_HASH_MB, megabytes)))

    def cmd_cores(self, args: list[str]) -> None:
        cores = _number_arg(args, "cores needs a number of threads", int)
        try:
            self.thinker.set_threads(max(1, min(MAX_THREADS, cores)))
        except WorkerStartError as exc:
            raise CommandError(f"cores: {exc}; searching with 1 thread") from None

    def cmd_ping(self, args: list[str]) -> None:
        number = " ".join(args)
        if self.job is not None and self.job.kind == THINK:
            self.pongs.append(number)  # answered once our move is out
        else:
            self.out.send(f"pong {number}")

    def cmd_quit(self, args: list[str]) -> bool:
        return False

    # ------------------------------------------------------------ clocks
    def cmd_level(self, args: list[str]) -> None:
        message = "bad argument, expected level MPS BASE INC"
        base = _BASE_RE.match(args[1]) if len(args) == 3 else None
        if base is None or len(args[0]) > 6 or len(base.group(1)) > 6:
            raise CommandError(message)
        try:
            moves, increment = int(args[0]), float(args[2])
        except ValueError:
            raise CommandError(message) from None
        if moves < 0 or not 0 <= increment < 1e6:
            raise CommandError(message)
        self.moves_per_session = moves
        self.base_ms = (int(base.group(1)) * 60 + int(base.group(2) or 0)) * 1000
        self.inc_ms = int(increment * 1000)
        self.move_time = None

    def cmd_st(self, args: list[str]) -> None:
        seconds = _number_arg(args, "st needs seconds per move", float)
        if not 0 < seconds < 1e6:
            raise CommandError("st needs seconds per move")
        self.move_time = int(seconds * 1000)

    def cmd_sd(self, args: list[str]) -> None:
        depth = _number_arg(args, "sd needs a depth of at least 1", int)
        if depth < 1:
            raise CommandError("sd needs a depth of at least 1")
        self.depth = depth

    def cmd_time(self, args: list[str]) -> None:
        self.own_ms = max(0, _number_arg(args, "bad argument, centiseconds expected", int)) * 10

    def cmd_otim(self, args: list[str]) -> None:
        self.other_ms = max(0, _number_arg(args, "bad argument, centiseconds expected", int)) * 10

    # ------------------------------------------------------------ game
    def cmd_new(self, args: list[str]) -> None:
        self._cancel(keep_analysis=False)
        self._set_position(Position())
        self.side = BLACK
        self.depth = None
        self.own_ms = self.other_ms = None
        try:
            self.thinker.clear()
        except ThinkerBusyError:
            pass  # a search deaf to stop is still ending: the tables stay, the game is new
        self._analyse()

    def cmd_setboard(self, args: list[str]) -> None:
        fen = fen_from_xboard(" ".join(args))
        try:
            pos = position_from_fen(fen, "setboard")
        except CommandError as exc:
            self._cancel(keep_analysis=False)
            self.bad_position = str(exc)
            self.out.send(f"tellusererror Illegal position: {clip_message(str(exc))}")
            return
        self._cancel(keep_analysis=False)
        self._set_position(pos)
        self._analyse()

    def cmd_force(self, args: list[str]) -> None:
        self._cancel()
        self.side = None

    def cmd_go(self, args: list[str]) -> None:
        self._require_position()
        self._cancel(keep_analysis=False)
        self.analyzing = False
        self.side = self.pos.turn
        self._think_if_on_move()

    def cmd_playother(self, args: list[str]) -> None:
        self._require_position()
        self._cancel(keep_analysis=False)
        self.analyzing = False
        self.side = 1 - self.pos.turn

    def cmd_usermove(self, args: list[str]) -> None:
        if len(args) != 1:
            raise CommandError("bad argument, expected usermove MOVE")
        self._user_move(args[0])

    def cmd_move_now(self, args: list[str]) -> None:
        if self.job is not None and self.job.kind == THINK:
            self.thinker.stop()  # the answer comes through the queue and is played

    def cmd_undo(self, args: list[str]) -> None:
        self._take_back(1)

    def cmd_remove(self, args: list[str]) -> None:
        self._take_back(2)

    def cmd_result(self, args: list[str]) -> None:
        self._cancel(keep_analysis=False)
        self.side = None

    # ------------------------------------------------------------ analysis
    def cmd_analyze(self, args: list[str]) -> None:
        self._cancel(keep_analysis=False)
        self.analyzing = True
        self.side = None
        self._analyse()

    def cmd_exit(self, args: list[str]) -> None:
        if self.analyzing:
            self.analyzing = False
            self._cancel(keep_analysis=False)

    def cmd_status(self, args: list[str]) -> None:
        job = self.job
        if not self.analyzing or job is None:
            return
        elapsed = int((time.perf_counter() - job.started) * 100)
        last = job.last
        nodes, depth = (last.nodes, last.depth) if last is not None else (0, 0)
        self.out.send(f"stat01: {elapsed} {nodes} {depth} 0 {len(job.root.legal_moves())}")

    # ------------------------------------------------------------ extras
    def cmd_d(self, args: list[str]) -> None:
        """Both boards, the FEN and the key as ``#`` comment lines (XBoard only logs them),
        then the FEN as XBoard reads it."""
        lines = [*diagram(self.pos), f"XBoard FEN: {wide_fen(self.pos)}"]
        self.out.send_lines([f"# {line}".rstrip() for line in lines])

    # ------------------------------------------------------------ piece lifting (highlight=1)
    def cmd_lift(self, args: list[str]) -> None:
        square = args[0] if len(args) == 1 else ""
        if self.leg is not None and square == self.leg:  # the second leg of a capture or castling
            moves = self.lift.legs.get(square, [])
            self.leg = None
            self.out.send(f"highlight {leg_highlight(self.pos, moves)}")
            return
        self.leg = None
        if self.bad_position is not None:
            self.lift = Lift()
            self.out.send(f"highlight {EMPTY_HIGHLIGHT}")
            return
        colors, self.lift = lift_highlight(self.pos, square)
        self.out.send(f"highlight {colors}")

    def cmd_put(self, args: list[str]) -> None:
        square = args[0].rstrip(",") if len(args) == 1 else ""
        self.leg = square if square in self.lift.legs else None

    def cmd_hover(self, args: list[str]) -> None:
        return None  # no square is marked red, so XBoard has nothing to ask about

    # ------------------------------------------------------------ moves
    def _user_move(self, text: str) -> None:
        if self.bad_position is not None:
            self.out.send(f"Illegal move (no valid position, send setboard or new): {clip(text)}")
            return
        try:
            move = parse_move(self.pos, text)
        except XboardMoveError as exc:
            self.out.send(f"Illegal move ({exc}): {clip(text)}")
            return
        self.lift, self.leg = Lift(), None
        job = self.job
        if job is not None and job.kind == PONDER and job.expected == move:
            self.pos.push(move)  # the expected reply: the ponder search goes on with the clock
            job.kind = THINK
            job.prefix = ""
            self.thinker.ponderhit()
            return
        self._cancel()
        self.pos.push(move)
        if self.analyzing:
            self._analyse()
            return
        if self.side is None:
            return
        claim = result_line(self.pos)
        if claim is not None:
            self.out.send(claim)
        else:
            self._think_if_on_move()

    def _take_back(self, plies: int) -> None:
        if len(self.pos.move_stack) < plies or self.bad_position is not None:
            raise CommandError("command not legal now")
        self._cancel(keep_analysis=False)
        for _ in range(plies):
            self.pos.pop()
        self.lift, self.leg = Lift(), None
        self._analyse()

    def _set_position(self, pos: Position) -> None:
        self.pos = pos
        self.bad_position = None
        self.lift, self.leg = Lift(), None

    def _require_position(self) -> None:
        if self.bad_position is not None:
            raise CommandError("no valid position, send setboard or new")

    # ------------------------------------------------------------ searches
    def _think_if_on_move(self) -> None:
        if self.side is None or self.side != self.pos.turn:
            return
        claim = result_line(self.pos)
        if claim is not None:
            self.out.send(claim)
            return
        self._start(Job(THINK, self.pos.copy()), self._limits(self.pos))

    def _ponder(self, expected: Move) -> None:
        root = self.pos.copy()
        prefix = f"({pv_text(root, [expected])}) "
        root.push(expected)
        if result_line(root) is not None:
            return
        self._start(Job(PONDER, root, prefix=prefix, expected=expected), self._limits(root, ponder=True))

    def _analyse(self) -> None:
        """(Re)start the analysis of the current position, in analyze mode."""
        if not self.analyzing or self.bad_position is not None:
            return
        self._cancel(keep_analysis=False)
        self._start(Job(ANALYZE, self.pos.copy()), Limits(infinite=True, move_overhead=DEFAULT_MOVE_OVERHEAD))

    def _limits(self, root: Position, ponder: bool = False) -> Limits:
        limits = Limits(move_overhead=DEFAULT_MOVE_OVERHEAD, depth=self.depth, ponder=ponder)
        if self.move_time is not None:
            limits.movetime = self.move_time
            return limits
        own = self.own_ms if self.own_ms is not None else self.base_ms
        other = self.other_ms if self.other_ms is not None else self.base_ms
        limits.wtime, limits.btime = (own, other) if root.turn == WHITE else (other, own)
        limits.winc = limits.binc = self.inc_ms
        if self.moves_per_session:
            limits.movestogo = self.moves_per_session - (root.fullmove - 1) % self.moves_per_session
        return limits

    def _start(self, job: Job, limits: Limits) -> None:
        self.job = job
        try:
            self.thinker.go(
                job.root,
                limits,
                on_info=lambda it: self._info(job, it),
                on_done=lambda result: self.events.put(("done", (job, result))),
                on_error=lambda message: self.out.send(f"# error: {clip_message(message)}"),
            )
        except ThinkerBusyError:
            self.job = None
            raise

    def _info(self, job: Job, it: Iteration) -> None:
        """A finished iteration (search thread, under the thinker's lock)."""
        if job is not self.job or it.multipv > 1:
            return
        job.last = it
        if self.post or job.kind == ANALYZE:
            self.out.send(thinking_line(it, job.prefix + pv_text(job.root, it.pv)))

    def _search_done(self, job: Job, result: Result) -> None:
        if job is not self.job:
            return  # cancelled: its answer is not wanted
        self.job = None
        if job.kind != THINK:
            return
        if result.best is None:
            self.out.send(result_line(self.pos) or "resign")
        else:
            self.out.send(f"move {move_text(self.pos, result.best)}")
            self.pos.push(result.best)
            claim = result_line(self.pos)
            if claim is not None:
                self.out.send(claim)
            elif self.pondering and result.ponder is not None and self.side is not None:
                self._ponder(result.ponder)
        self._answer_pongs()

    def _cancel(self, keep_analysis: bool = True) -> None:
        """Stop the running search and drop its answer (an analysis stays with
        ``keep_analysis``)."""
        job = self.job
        if job is None or (keep_analysis and job.kind == ANALYZE):
            return
        self.job = None
        self.thinker.stop()
        self._answer_pongs()

    def _answer_pongs(self) -> None:
        pongs, self.pongs = self.pongs, []
        self.out.send_lines([f"pong {number}" for number in pongs])

    HANDLERS: ClassVar[dict[str, Handler]] = {
        "xboard": cmd_noop,
        "protover": cmd_protover,
        "accepted": cmd_noop,
        "rejected": cmd_noop,
        "new": cmd_new,
        "variant": cmd_variant,
        "force": cmd_force,
        "go": cmd_go,
        "playother": cmd_playother,
        "usermove": cmd_usermove,
        "?": cmd_move_now,
        "undo": cmd_undo,
        "remove": cmd_remove,
        "setboard": cmd_setboard,
        "level": cmd_level,
        "st": cmd_st,
        "sd": cmd_sd,
        "time": cmd_time,
        "otim": cmd_otim,
        "post": cmd_post,
        "nopost": cmd_nopost,
        "hard": cmd_hard,
        "easy": cmd_easy,
        "analyze": cmd_analyze,
        "exit": cmd_exit,
        ".": cmd_status,
        "memory": cmd_memory,
        "cores": cmd_cores,
        "result": cmd_result,
        "ping": cmd_ping,
        "quit": cmd_quit,
        "lift": cmd_lift,
        "put": cmd_put,
        "hover": cmd_hover,
        "random": cmd_noop,
        "computer": cmd_noop,
        "name": cmd_noop,
        "rating": cmd_noop,
        "draw": cmd_noop,
        "hint": cmd_noop,
        "d": cmd_d,
    }


def _number_arg(args: list[str], message: str, kind: Callable[[str], Number]) -> Number:
    """The one argument of a command as a number (``int`` or ``float``), else ``CommandError``."""
    if len(args) != 1:
        raise CommandError(message)
    try:
        return kind(args[0])
    except ValueError:
        raise CommandError(message) from None


def serve_cecp(engine: CecpEngine, stdin: TextIO | None = None) -> int:
    """Speak CECP until ``quit`` or end of input; the exit status (0, or 130 on Ctrl-C).
    A reader thread queues input lines; this thread handles them and finished searches."""
    stream = stdin if stdin is not None else sys.stdin

    def read() -> None:
        try:
            while stream is not None:
                line = read_line(stream)
                if line is None:
                    break
                engine.events.put(("line", line))
        finally:
            engine.events.put(("line", "quit"))

    def step() -> bool:
        try:
            event = engine.events.get(timeout=POLL)
        except queue.Empty:
            return True
        return engine.handle(event)

    threading.Thread(target=read, name="alice-input", daemon=True).start()
    return run_until_quit(step, engine.shutdown)


__all__ = ["CecpEngine", "feature_lines", "result_line", "serve_cecp", "thinking_line"]
