"""The UCI protocol front end: parse a command line, call the search facade, print the answer.

One handler per command (``UciEngine.HANDLERS``). Input is read on the main thread; ``go``
hands the search to ``search.thinker.Thinker``, which runs it on its own thread and calls
back with each iteration and the final answer, so ``isready``, ``stop``, ``ponderhit`` and
``quit`` are answered at once. This module only turns text into calls and results into
text. Every line written to stdout goes through ``Output`` (flushed per line, under the
thinker's lock so search reports and command answers never interleave).

Choices where the protocol is silent:

* Any error (unknown command, bad FEN or move, bad option value, bad ``go`` argument,
  a command that cannot run during a search) prints exactly one
  ``info string error: ...`` line and changes nothing. An unexpected exception in a
  handler prints ``info string error: internal: ...`` (traceback on stderr only).
* ``go`` while a search is running is refused with an error line; the running search
  carries on (send ``stop`` first). This never prints an unexpected ``bestmove``.
* ``ucinewgame``, ``bench``, ``setoption name Hash`` and ``setoption name Clear Hash``
  are refused while searching (they touch the search's hash table); other options may
  be set at any time and apply from the next ``go``. ``position`` may be sent at any
  time (the search works on its own copy).
* Negative ``wtime``/``btime``/``winc``/``binc``/``movetime`` (GUIs in time trouble)
  are read as 0: the engine moves at once. ``depth``, ``nodes``, ``mate`` and
  ``movestogo`` must be positive integers; a ``depth`` beyond ``MAX_DEPTH`` is searched
  as ``MAX_DEPTH``, a ``nodes`` count beyond ``MAX_NODES`` as ``MAX_NODES`` (the search
  counts nodes in 64 bits: 2^63 and more would not fit).
* ``stop`` gives the search ``STOP_GRACE`` seconds to return (``search.thinker``); if it
  has not, the best move of the last reported iteration (else the first legal move) is
  played and the late result is discarded. ``quit`` does the same, then exits.
* ``go perft N``, ``bench`` and ``eval`` run on the main thread, as in Stockfish, so a
  scripted ``go perft`` always completes; input is read again when they are done.
* ``stop``/``ponderhit`` with nothing to stop are ignored, as in Stockfish; ``debug on|off``
  is accepted and has no effect; command words are case-insensitive.
* Exit status: 0 after ``quit`` or end of input, 130 after Ctrl-C; a closed stdout
  silences the engine (no traceback) until ``quit``/end of input.
"""

from __future__ import annotations

import sys
import traceback
from collections.abc import Callable
from typing import ClassVar, Final, TextIO

from engine import STARTING_FEN, Move, Position, divide, move_to_uci
from search.helper import MAX_THREADS, WorkerStartError
from search.limits import Limits, Result
from search.search import MAX_DEPTH, Searcher
from search.skill import ELO_MAX, ELO_MIN, SKILL_MAX, skill_from_options
from search.thinker import Thinker, ThinkerBusyError
from tablebase.fileformat import TableFileError
from tablebase.probe import Tablebases
from uci.display import diagram, eval_table, info_line
from uci.options import ButtonOption, CheckOption, ComboOption, OptionError, Options, SpinOption, StringOption, Value
from uci.shared import (
    CommandError,
    Output,
    check_move,
    clip_message,
    echo,
    engine_version,
    position_from_fen,
    read_line,
    run_until_quit,
)

ENGINE_NAME: Final = "Alice Engine"
ENGINE_AUTHOR: Final = "the alice-engine authors"

VARIANT: Final = "alice"
DEFAULT_HASH_MB: Final = 16
MAX_HASH_MB: Final = 1024
MAX_MULTIPV: Final = 256
DEFAULT_MOVE_OVERHEAD: Final = 30
MAX_MOVE_OVERHEAD: Final = 5000
MAX_NODES: Final = 10**18  # a node limit no search reaches (centuries); larger counts are searched as this
GO_INT_FIELDS: Final = ("wtime", "btime", "winc", "binc", "movestogo", "movetime", "depth", "nodes", "mate")
GO_CLAMPED_FIELDS: Final = ("wtime", "btime", "winc", "binc", "movetime")  # negative read as 0
GO_FLAGS: Final = ("infinite", "ponder")
GO_KEYWORDS: Final = GO_INT_FIELDS + GO_FLAGS + ("searchmoves",)


def _depth_arg(command: str, text: str) -> int:
    """A depth argument: a positive integer, else a ``CommandError`` naming ``command``."""
    try:
        depth = int(text)
    except ValueError:
        raise CommandError(f"{command}: depth must be an integer, got {echo(text)}") from None
    if depth < 1:
        raise CommandError(f"{command}: depth must be at least 1, got {depth}")
    return depth


Handler = Callable[["UciEngine", list[str]], bool | None]


class UciEngine:
    """The UCI state machine. ``execute(line)`` returns False when the engine should exit."""

    def __init__(self, out: Output, thinker: Thinker | None = None) -> None:
        self.thinker = thinker if thinker is not None else Thinker(searcher=Searcher(hash_mb=DEFAULT_HASH_MB))
        self.out = out
        self.errors = 0  # error lines sent so far (a command run from the command line exits 2 after one)
        out.lock = self.thinker.lock  # our answers and the search's reports never interleave
        self.pos = Position()
        self.options = Options(
            [
                ComboOption("UCI_Variant", VARIANT, [VARIANT]),
                SpinOption("Hash", DEFAULT_HASH_MB, 1, MAX_HASH_MB, on_change=self._on_hash),
                SpinOption("Threads", 1, 1, MAX_THREADS, on_change=self._on_threads),
                ButtonOption("Clear Hash", on_change=self._on_clear_hash),
                SpinOption("MultiPV", 1, 1, MAX_MULTIPV),
                SpinOption("Move Overhead", DEFAULT_MOVE_OVERHEAD, 0, MAX_MOVE_OVERHEAD),
                CheckOption("Ponder", False),
                SpinOption("Skill Level", SKILL_MAX, 0, SKILL_MAX),
                CheckOption("UCI_LimitStrength", False),
                SpinOption("UCI_Elo", ELO_MAX, ELO_MIN, ELO_MAX),
                StringOption("AliceTablebasePath", "", on_change=self._on_tablebase_path),
            ]
        )

    # ------------------------------------------------------------ dispatch
    def execute(self, line: str) -> bool:
        """Run one input line; never raises (except KeyboardInterrupt). False means quit."""
        tokens = line.split()
        if not tokens:
            return True
        command, args = tokens[0].lower(), tokens[1:]
        handler = self.HANDLERS.get(command)
        try:
            if handler is None:
                raise CommandError(f"unknown command {echo(line)}")
            return handler(self, args) is not False
        except (CommandError, OptionError, ThinkerBusyError) as exc:
            self.error(str(exc))
        except Exception as exc:
            traceback.print_exc(file=sys.stderr)
            self.error(f"internal: {command}: {type(exc).__name__}: {exc}")
        return True

    def error(self, message: str) -> None:
        self.errors += 1
        self.out.send("info string error: " + clip_message(message))

    def shutdown(self) -> None:
        """Stop any search (printing its bestmove, as on ``stop``) and silence the output."""
        try:
            self.cmd_stop([])
        finally:
            self.out.close()
            self.thinker.close()

    # ------------------------------------------------------------ simple commands
    def cmd_uci(self, args: list[str]) -> None:
        lines = [f"id name {ENGINE_NAME} {engine_version()}", f"id author {ENGINE_AUTHOR}"]
        lines += [option.uci_line() for option in self.options]
        lines.append("uciok")
        self.out.send_lines(lines)

    def cmd_isready(self, args: list[str]) -> None:
        self.out.send("readyok")

    def cmd_debug(self, args: list[str]) -> None:
        if len(args) != 1 or args[0].lower() not in ("on", "off"):
            raise CommandError("debug: expected 'debug on' or 'debug off'")

    def cmd_quit(self, args: list[str]) -> bool:
        return False

    def cmd_ucinewgame(self, args: list[str]) -> None:
        self.thinker.require_idle("ucinewgame")
        self.thinker.clear()

    # ------------------------------------------------------------ setoption
    def cmd_setoption(self, args: list[str]) -> None:
        if not args or args[0].lower() != "name":
            raise CommandError("setoption: expected 'setoption name <name> [value <value>]'")
        lowered = [a.lower() for a in args]
        cut = lowered.index("value") if "value" in lowered else len(args)
        name = " ".join(args[1:cut])
        if not name:
            raise CommandError("setoption: missing option name")
        value = " ".join(args[cut + 1 :]) if cut < len(args) else None
        self.options.set(name, value)

    def _on_hash(self, value: Value) -> None:
        self.thinker.require_idle("setoption name Hash")
        assert isinstance(value, int)
        self.thinker.resize(value)

    def _on_threads(self, value: Value) -> None:
        self.thinker.require_idle("setoption name Threads")
        assert isinstance(value, int)
        try:
            self.thinker.set_threads(value)
        except WorkerStartError as exc:
            raise CommandError(f"setoption name Threads: {exc}; searching with 1 thread") from None

    def _on_clear_hash(self, value: Value) -> None:
        self.thinker.require_idle("setoption name Clear Hash")
        self.thinker.clear()

    def _on_tablebase_path(self, value: Value) -> None:
        """Use the directory's tables, read into memory from now on in a thread; empty: none."""
        self.thinker.require_idle("setoption name AliceTablebasePath")
        assert isinstance(value, str)
        tables = None
        if value:
            try:
                tables = Tablebases(value, report=lambda message: self.out.send("info string " + message))
            except TableFileError as error:
                raise OptionError(f"AliceTablebasePath: {error}") from None
            found = ", ".join(tables.names) or "none"
            self.out.send(f"info string tablebases in {echo(value)}: {found}")
            tables.preload()  # in a thread: no table is read later under the clock
        self.thinker.searcher.set_tablebases(tables)

    # ------------------------------------------------------------ position
    def cmd_position(self, args: list[str]) -> None:
        if not args:
            raise CommandError("position: expected 'position startpos|fen <FEN> [moves ...]'")
        kind = args[0].lower()
        if kind == "startpos":
            fen, rest = STARTING_FEN, args[1:]
        elif kind == "fen":
            lowered = [a.lower() for a in args]
            cut = lowered.index("moves") if "moves" in lowered else len(args)
            fen, rest = " ".join(args[1:cut]), args[cut:]
            if not fen:
                raise CommandError("position fen: missing FEN")
        else:
            raise CommandError(f"position: expected 'startpos' or 'fen', got {echo(args[0])}")
        if rest and rest[0].lower() != "moves":
            raise CommandError(f"position: expected 'moves', got {echo(rest[0])}")
        pos = position_from_fen(fen, "position")
        for number, text in enumerate(rest[1:], 1):
            pos.push(check_move(pos, text, f"position: move {number}"))
        self.pos = pos

    # ------------------------------------------------------------ go
    def cmd_go(self, args: list[str]) -> None:
        if args and args[0].lower() == "perft":
            self._go_perft(args[1:])
            return
        limits = self._parse_go(args)
        root = self.pos.copy()
        self.thinker.go(
            root,
            limits,
            on_info=lambda it: self.out.send(info_line(root, it)),
            on_done=lambda result: self.out.send(bestmove_line(root, result)),
            on_error=self.error,
        )

    def _parse_go(self, args: list[str]) -> Limits:
        limits = Limits(
            multipv=int(self.options["MultiPV"] or 1),
            move_overhead=int(self.options["Move Overhead"] or 0),
            skill=skill_from_options(
                bool(self.options["UCI_LimitStrength"]),
                int(self.options["UCI_Elo"] or 0),
                int(self.options["Skill Level"] or 0),
            ),
        )
        seen = set()
        i = 0
        while i < len(args):
            word = args[i].lower()
            if word in seen:
                raise CommandError(f"go: {word} given twice")
            seen.add(word)
            if word in GO_INT_FIELDS:
                if i + 1 >= len(args):
                    raise CommandError(f"go: {word} needs a value")
                try:
                    value = int(args[i + 1])
                except ValueError:
                    raise CommandError(f"go: {word} expects an integer, got {echo(args[i + 1])}") from None
                if word in GO_CLAMPED_FIELDS:
                    value = max(0, value)
                elif value < 1:
                    raise CommandError(f"go: {word} must be at least 1, got {value}")
                if word == "depth":
                    value = min(value, MAX_DEPTH)  # deeper iterations are not searched anyway
                elif word == "nodes":
                    value = min(value, MAX_NODES)  # the search's 64-bit counters hold it
                setattr(limits, word, value)
                i += 2
            elif word in GO_FLAGS:
                setattr(limits, word, True)
                i += 1
            elif word == "searchmoves":
                i += 1
                moves: list[Move] = []
                while i < len(args) and args[i].lower() not in GO_KEYWORDS:
                    move = check_move(self.pos, args[i], "go searchmoves")
                    if move not in moves:
                        moves.append(move)
                    i += 1
                if not moves:
                    raise CommandError("go: searchmoves needs at least one move")
                limits.searchmoves = moves
            else:
                raise CommandError(f"go: unknown argument {echo(args[i])}")
        return limits

    # ------------------------------------------------------------ go perft
    def _go_perft(self, args: list[str]) -> None:
        """Stockfish's divide format, computed on the main thread (like Stockfish, so that a
        scripted ``go perft`` always completes); input is read again when it is done."""
        if len(args) != 1:
            raise CommandError("go perft: expected one depth, e.g. 'go perft 3'")
        depth = _depth_arg("go perft", args[0])
        self.thinker.require_idle("go perft")
        total = 0
        for text, count in divide(self.pos.copy(), depth):
            total += count
            self.out.send(f"{text}: {count}")
        self.out.send_lines(["", f"Nodes searched: {total}", ""])

    # ------------------------------------------------------------ stop / ponderhit
    def cmd_stop(self, args: list[str]) -> None:
        self.thinker.stop()

    def cmd_ponderhit(self, args: list[str]) -> None:
        self.thinker.ponderhit()

    # ------------------------------------------------------------ extras
    def cmd_d(self, args: list[str]) -> None:
        self.out.send_lines(diagram(self.pos))

    def cmd_eval(self, args: list[str]) -> None:
        from search.evaluate import evaluate, terms

        self.out.send_lines(eval_table(terms(self.pos), evaluate(self.pos), bool(self.pos.turn)))

    def cmd_bench(self, args: list[str]) -> None:
        from search.bench import run_bench

        if len(args) > 1:
            raise CommandError("bench: expected 'bench [depth]'")
        depth: int | None = None
        if args:
            depth = _depth_arg("bench", args[0])
        self.thinker.require_idle("bench")
        nodes, ms = run_bench(depth=depth)  # fresh default-size tables: the count is deterministic
        nps = nodes * 1000 // max(1, ms)
        self.out.send_lines([f"Total time (ms): {ms}", f"Nodes searched: {nodes}", f"Nodes/second: {nps}"])

    HANDLERS: ClassVar[dict[str, Handler]] = {
        "uci": cmd_uci,
        "isready": cmd_isready,
        "debug": cmd_debug,
        "setoption": cmd_setoption,
        "ucinewgame": cmd_ucinewgame,
        "position": cmd_position,
        "go": cmd_go,
        "stop": cmd_stop,
        "ponderhit": cmd_ponderhit,
        "quit": cmd_quit,
        "d": cmd_d,
        "eval": cmd_eval,
        "bench": cmd_bench,
    }


def serve(engine: UciEngine, stdin: TextIO | None = None) -> int:
    """Read commands until ``quit`` or end of input; the exit status (0, or 130 on Ctrl-C).

    Input is read as bytes and decoded leniently, so stray non-UTF-8 bytes are just a
    bad command, and CR LF line ends are accepted.
    """
    stream = stdin if stdin is not None else sys.stdin
    if stream is None:  # started with stdin closed
        engine.shutdown()
        return 0

    def step() -> bool:
        line = read_line(stream)
        return line is not None and engine.execute(line)

    return run_until_quit(step, engine.shutdown)


def bestmove_line(root: Position, result: Result) -> str:
    """``bestmove e2e4 ponder e7e5``, or ``bestmove (none)`` when ``root`` has no legal move."""
    if result.best is None:
        return "bestmove (none)"
    text = f"bestmove {move_to_uci(root, result.best)}"
    if result.ponder is not None:
        after = root.copy()
        after.push(result.best)
        text += f" ponder {move_to_uci(after, result.ponder)}"
    return text


__all__ = ["CommandError", "Output", "UciEngine", "bestmove_line", "serve"]
