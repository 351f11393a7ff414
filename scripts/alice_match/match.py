"""A match or a tournament: the schedule, engine processes per worker, scores, PGN, output.

Games are numbered from 1 in the order the schedule hands them out (``schedule``). Each
worker (``-concurrency``) keeps the processes of the engines of its last game and starts
the ones its next game needs. Output lines follow cutechess-cli:

- two engines: ``Started game``/``Finished game`` and a ``Score of A vs B`` line per game;
  every ``rating_interval`` games and at the end the colour split, the Elo difference with
  its error, LOS, DrawRatio (and the SPRT state).
- more engines: ``Started game``/``Finished game`` per game; every ``rating_interval`` games
  the standings (``-resultformat``); at the end the standings and a crosstable (a knockout
  prints its bracket first, as cutechess does). Each move's PGN comment carries its time
  as ``[%emt H:MM:SS.mmm]`` (two-engine matches keep cutechess's ``0.123s``).
- ``Finished match`` last.

The PGN is appended game by game (in the order games finish) and closed after each, so a
killed run loses only the games it was playing; ``-resume`` continues from it. A game cut
short by Ctrl-C (or SIGTERM, SIGHUP: ``cli.main`` makes them act as Ctrl-C) is neither
counted nor written, and every engine is killed. A game is counted only once it is in the
PGN: when ``-pgnout`` (or ``-epdout``) cannot be written (a full disk, a folder gone), one
``Error:`` line says so, the game goes to a file in the temporary folder instead (named in
that line), it is not counted, and the match stops (exit status 1; ``-resume`` plays it
again). Our own output failing (a closed pipe, a terminal gone) stops the match the same
way once the games in play have finished and been saved.

Before the first game every engine is started once and must complete its handshake (``uci``
... ``uciok``, options, ``isready`` ... ``readyok``): one that cannot be started, exits, or
does not answer in time is bad configuration (exit status 2, one ``alice-match:`` line);
those first processes then play the first games. An engine that fails to start later (a
restart after a crash) stops the match (an ``Error`` line, exit status 1).
"""

from __future__ import annotations

import dataclasses
import datetime
import os
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from typing import Any, TextIO

from .cluster import MAX_RESUBMITS, ClusterError, ClusterSession, ClusterSpec, GameTask, PairResult
from .game import GameRecord, GameSettings, Referee
from .openings import Opening
from .pgn import build_game, game_text
from .report import Page, write_report
from .resume import GAME_NUMBER_TAG, ResumeError, read_played, restore
from .schedule import DRAW, LOSS, WIN, Knockout, Schedule, Slot, bracket_text, make_schedule
from .standings import Standings, parse_format
from .stats import Elo, Pentanomial, Sprt, SprtResult
from .tc import Limits
from .uci_process import EngineConfig, EngineError, UciProcess

HALF_POINTS = {"1-0": WIN, "1/2-1/2": DRAW, "0-1": LOSS}  # White's, by result
CANCEL_TIMEOUT = 30.0  # seconds the cluster's pairs in play have to stop their engines
CONDITION_POLL = 0.5  # seconds a worker waiting for results (knockout) sleeps between checks


class SetupError(ValueError):
    """A tournament that cannot start (duplicate engine names, a PGN that cannot be resumed)."""


class SafeOutput:
    """A text stream whose write errors are noted (``failed``), never raised: a closed pipe or
    a terminal gone must not leave engines running nor lose a game being saved."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.failed = False

    def write(self, text: str) -> int:
        if not self.failed:
            try:
                self.stream.write(text)
            except (OSError, ValueError):  # ValueError: the stream was closed
                self.failed = True
        return len(text)

    def flush(self) -> None:
        if not self.failed:
            try:
                self.stream.flush()
            except (OSError, ValueError):
                self.failed = True


def fallback_path(kind: str) -> str:
    """Where games (``pgn``) or positions (``epd``) that could not be written are kept instead."""
    return os.path.join(tempfile.gettempdir(), f"alice-match-{os.getpid()}-unsaved.{kind}")


def append_text(path: str, text: str) -> None:
    """Append ``text`` to ``path`` (created if need be) and close it; ``OSError`` if it cannot."""
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(text)


def save_elsewhere(kind: str, text: str) -> str:
    """Keep ``text`` in the fallback file; where it went, for the error line."""
    path = fallback_path(kind)
    try:
        append_text(path, text)
    except OSError as error:
        return f"it could not be kept in {path} either ({error.strerror or error}): it is lost"
    return f"it is kept in {path}"


@dataclass
class MatchConfig:
    engines: tuple[EngineConfig, ...]
    limits: tuple[Limits, ...]  # per engine (not per colour)
    games: int = 1  # per encounter
    rounds: int = 1
    repeat: int = 1  # how many times each opening is played (2 with -repeat)
    openings: list[Opening] = field(default_factory=list)  # by opening index (wrapping); empty: start position
    pgnout: str | None = None
    pgn_min: bool = False
    concurrency: int = 1
    sprt: Sprt | None = None
    settings: GameSettings | None = None  # adjudication and timeouts; limits filled per game
    recover: bool = False
    event: str = "?"
    site: str = "?"
    rating_interval: int = 10
    debug: bool = False
    start_timeout: float = 10.0
    tournament: str = "round-robin"
    swap: bool = True  # -noswap turns it off
    reverse: bool = False
    seeds: int | None = None
    opening_policy: str = "default"
    seed: int = 0  # -srand: random opening order, knockout draw of unseeded engines
    epdout: str | None = None
    outcome_interval: int = 0
    wait_ms: int = 0
    result_format: list[str] = field(default_factory=lambda: parse_format("default"))
    report: str | None = None
    resume: bool = False
    cluster: ClusterSpec | None = None  # -cluster: the games run on a Dask cluster

    def schedule(self) -> Schedule:
        """A fresh schedule for these settings."""
        return make_schedule(
            self.tournament, len(self.engines), self.games, self.rounds, repeat=self.repeat, swap=self.swap,
            reverse=self.reverse, policy=self.opening_policy, seeds=self.seeds, seed=self.seed,
        )  # fmt: skip

    @property
    def total_games(self) -> int:
        """Games scheduled (a knockout adds tie-break games as it goes)."""
        return self.schedule().final_count

    @property
    def two_engines(self) -> bool:
        return len(self.engines) == 2

    @property
    def paired(self) -> bool:
        """Games come in pairs (two engines, each opening played twice with colours swapped):
        games 2k-1 and 2k are pair k, counted in the pentanomial statistics."""
        return self.two_engines and self.repeat == 2 and self.swap

    @property
    def sprt_model(self) -> str:
        """``pentanomial`` (fishtest) when the games come in pairs, unless ``-sprt model=`` says."""
        if self.sprt is not None and self.sprt.model:
            return self.sprt.model
        return "pentanomial" if self.paired else "trinomial"


@dataclass
class Score:
    """Results from the first engine's point of view, split by its colour (two-engine output)."""

    wins: int = 0
    losses: int = 0
    draws: int = 0
    white: list[int] = field(default_factory=lambda: [0, 0, 0])  # first engine as White: W, L, D
    black: list[int] = field(default_factory=lambda: [0, 0, 0])
    white_side: list[int] = field(default_factory=lambda: [0, 0, 0])  # White vs Black: W, L, D

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    def add(self, first_is_white: bool, result: str) -> None:
        white_score = {"1-0": 0, "0-1": 1, "1/2-1/2": 2}[result]
        self.white_side[white_score] += 1
        first_score = white_score if first_is_white or white_score == 2 else 1 - white_score
        (self.white if first_is_white else self.black)[first_score] += 1
        if first_score == 0:
            self.wins += 1
        elif first_score == 1:
            self.losses += 1
        else:
            self.draws += 1


def score_line(a: str, b: str, w: int, losses: int, d: int) -> str:
    """``Score of A vs B: 3 - 1 - 2  [0.667] 6``."""
    n = w + losses + d
    pct = (w + d / 2) / n if n else 0.0
    return f"{a} vs {b}: {w} - {losses} - {d}  [{pct:.3f}] {n}"


class Match:
    """Runs a ``MatchConfig``; ``run()`` returns the exit status (0; 1 if the match was
    aborted; 2 if it could not start: duplicate engine names, a PGN that cannot be resumed)."""

    def __init__(self, config: MatchConfig, out: TextIO | None = None, err: TextIO | None = None) -> None:
        self.config = config
        self.out = SafeOutput(out or sys.stdout)
        self.err = SafeOutput(err or sys.stderr)
        self.schedule = config.schedule()
        self.names = [c.name or "" for c in config.engines]
        self.score = Score()
        self.pentanomial = Pentanomial()  # finished game pairs (``config.paired``)
        self._half_pairs: dict[int, float] = {}  # pair index -> the first engine's score in its finished game
        self.standings = Standings(self.names, [lim.describe() for lim in config.limits], self.schedule.seed_count())
        self.records: dict[int, GameRecord] = {}
        self.resumed = 0  # games read back from the PGN (-resume)
        self._lock = threading.Lock()
        self._results = threading.Condition(self._lock)  # notified when a game finishes
        self._finished = 0
        self._replay: list[Slot] = []  # games to play again first (-resume)
        self._stop = threading.Event()
        self._aborted = False
        self._interrupted = False
        self._processes: list[UciProcess] = []
        self._idle: dict[int, UciProcess] = {}  # started before the first game, not yet taken by a worker
        self.cluster: ClusterSession | None = None  # -cluster
        self._carry: list[Slot] = []  # taken from the schedule, not yet in a pair (cluster)
        self.cancelled_pairs = 0  # pairs in play on the cluster when the run stopped (not counted)
        self.sprt_result: SprtResult | None = None

    # --------------------------------------------------------------- output
    def say(self, line: str) -> None:
        with self._lock:
            print(line, file=self.out, flush=True)

    def _debug(self, line: str) -> None:
        if self.config.debug:
            print(line, file=self.err, flush=True)

    def _warn(self, line: str) -> None:
        if line.startswith("warning:"):
            print(line, file=self.err, flush=True)

    # ------------------------------------------------------------- running
    def run(self) -> int:
        try:
            check_outputs(self.config)
            if self.config.cluster is not None:
                self._start_cluster(self.config.cluster)
            else:
                self._start_all()
            self._name_engines()
            if self.config.resume:
                self._resume()
        except (SetupError, ResumeError) as error:
            self._close()
            print(f"alice-match: {one_line(str(error))}", file=self.err, flush=True)
            return 2
        except KeyboardInterrupt:
            self._interrupt()
            self._close()
            return 1
        try:
            return self._play_on_cluster() if self.cluster is not None else self._play_all()
        finally:
            self._close()

    def _close(self) -> None:
        self._quit_idle()
        if self.cluster is not None:
            self.cluster.close()

    def _play_all(self) -> int:
        workers = [
            threading.Thread(target=self._worker, name=f"match-worker-{i}", daemon=True)
            for i in range(max(1, self.config.concurrency))
        ]
        for worker in workers:
            worker.start()
        try:
            for worker in workers:
                while worker.is_alive():
                    worker.join(0.2)
        except KeyboardInterrupt:
            self._interrupt()
        self._final_report()
        return 1 if self._aborted else 0

    def _interrupt(self) -> None:
        """Ctrl-C: stop, kill the engines; the games in progress are dropped (not counted)."""
        self._interrupted = True
        self._abort()
        self.say("Interrupted: stopping the match")
        with self._lock:
            processes = list(self._processes)
        for process in processes:
            process.kill()

    # ------------------------------------------------------------- on a cluster
    def _start_cluster(self, spec: ClusterSpec) -> None:
        """Connect, check every engine on every worker, name the unnamed ones, measure speeds."""
        try:
            self.cluster = ClusterSession(spec, self.say)
            names = self.cluster.check_engines(list(self.config.engines), self.config.start_timeout)
            if spec.tcscale:
                self.cluster.measure_speeds()
        except ClusterError as error:
            raise SetupError(str(error)) from None
        for which, name in enumerate(names):
            if not self.names[which]:
                self._set_name(which, name)

    def _take_pair(self) -> list[Slot] | None:
        """The next unit of work without waiting: two games on one opening between the same
        engines (a game pair), else one game; ``None`` if no game can start now."""
        with self._results:
            if self._stop.is_set():
                return None
            first = self._slot_now()
            if first is None:
                return None
            second = self._slot_now()
            if second is None:
                return [first]
            same = {first.white, first.black} == {second.white, second.black} and first.opening == second.opening
            if same:
                return [first, second]
            self._carry.append(second)
            return [first]

    def _slot_now(self) -> Slot | None:
        if self._carry:
            return self._carry.pop(0)
        if self._replay:
            return self._replay.pop(0)
        return self.schedule.next_slot()

    def _play_on_cluster(self) -> int:
        """Pairs go to the cluster (as many at a time as the workers have threads); results are
        recorded as they come (``as_completed``); an SPRT decision or an error cancels the rest."""
        cluster = self.cluster
        assert cluster is not None
        in_flight: dict[Any, list[Slot]] = {}
        tries: dict[int, int] = {}
        completed = cluster.completed()
        capacity = max(1, sum(cluster.workers.values()))

        def submit(pair: list[Slot]) -> None:
            games = [GameTask(slot, self.opening_for(slot), self._game_settings(slot)) for slot in pair]
            engines = {which: self.config.engines[which] for which in (pair[0].white, pair[0].black)}
            task = cluster.task(pair[0].number, games, engines, self.config.recover, self.config.start_timeout)
            future = cluster.submit(task)
            in_flight[future] = pair
            completed.add(future)

        def fill() -> None:
            while len(in_flight) < capacity and (pair := self._take_pair()) is not None:
                submit(pair)

        try:
            fill()
            while in_flight and not self._stop.is_set():
                future = next(completed)
                pair = in_flight.pop(future)
                try:
                    result = future.result()
                except Exception as error:  # the task failed: its workers kept dying, or a bug
                    number = pair[0].number
                    tries[number] = tries.get(number, 0) + 1
                    if type(error).__name__ == "KilledWorker" and tries[number] <= MAX_RESUBMITS:
                        submit(pair)  # played again whole; nothing of it was kept
                        continue
                    self.say(f"Error: pair {number}: {type(error).__name__}: {error}; stopping the match")
                    self._abort()
                    break
                self._take_result(pair, result)
                fill()
        except KeyboardInterrupt:
            self._interrupted = True
            self._abort()
            self.say("Interrupted: stopping the match")
        finally:
            self.cancelled_pairs = len(in_flight)
            cluster.cancel(list(in_flight), CANCEL_TIMEOUT)
        self._final_report()
        return 1 if self._aborted else 0

    def _take_result(self, pair: list[Slot], result: PairResult) -> None:
        """Record a pair's games in order, as a local run records them one by one."""
        if result.cancelled:
            return
        slots = {slot.number: slot for slot in pair}
        for number, record, started in result.games:
            slot = slots[number]
            with self._lock:
                self._started_line(slot)
                self._record(slot, record, started)
            self._after_game(slot, record)
        if result.error:
            self.say(f"Error: {result.error} (on worker {result.worker}); stopping the match")
            self._abort()

    def _abort(self) -> None:
        with self._results:
            self._abort_locked()

    def _abort_locked(self) -> None:
        """``_abort`` with the lock held."""
        self._aborted = True
        self._stop.set()
        self._results.notify_all()

    def _start_all(self) -> None:
        """Start every engine once (the handshake checks it); the first games use these processes."""
        for which, config in enumerate(self.config.engines):
            try:
                self._idle[which] = self._start_engine(which)
            except EngineError as error:
                raise SetupError(f"engine {which + 1} ({config.name or config.cmd}) cannot play: {error}") from None

    def _quit_idle(self) -> None:
        with self._lock:
            idle, self._idle = list(self._idle.values()), {}
        for process in idle:
            process.quit()

    def _name_engines(self) -> None:
        """Engines without ``name=`` are named by their ``id name`` (at their first start);
        the names must differ (the score line, the tables, the PGN and ``-resume`` tell the
        engines apart by name): two engines that name themselves alike need ``name=``."""
        seen: dict[str, int] = {}
        for i, name in enumerate(self.names):
            if name in seen:
                raise SetupError(f"engines {seen[name] + 1} and {i + 1} are both named {name!r}: give name=")
            seen[name] = i

    def _set_name(self, which: int, name: str) -> None:
        self.names[which] = name
        self.standings.rename(which, name)

    def _resume(self) -> None:
        """Read back the games of the PGN; the missing ones are played first, then the rest."""
        path = self.config.pgnout
        assert path is not None
        played, dropped = read_played(path)
        if dropped:
            self.say(f"Removed an unfinished game from the end of {path}")
        found, self._replay = restore(self.schedule, self.names, self.config.openings, played, path)
        for slot, game in found:
            self._count(slot, game.result, game.termination, game.reason)
        self.resumed = len(found)
        if found:
            self.say(f"Resumed {len(found)} games from {path}")
        self._check_sprt()

    def _start_engine(self, which: int) -> UciProcess:
        config = self.config.engines[which]
        process = UciProcess(
            config, log=self._debug if self.config.debug else self._warn, show_stderr=self.config.debug
        )
        with self._lock:
            self._processes.append(process)
        try:
            process.start(self.config.start_timeout)
        except EngineError:
            process.kill()
            raise
        with self._lock:
            if not self.names[which]:
                self._set_name(which, process.name)
        return process

    def _take_slot(self) -> Slot | None:
        """The next game to play; waits while a knockout needs results first; ``None`` when done."""
        with self._results:
            while not self._stop.is_set():
                if self._replay:
                    return self._replay.pop(0)
                slot = self.schedule.next_slot()
                if slot is not None:
                    return slot
                if not self.schedule.more_may_come():
                    return None
                self._results.wait(CONDITION_POLL)
            return None

    def _worker(self) -> None:
        processes: dict[int, UciProcess] = {}
        try:
            while True:
                slot = self._take_slot()
                if slot is None:
                    return
                if self.config.wait_ms and self._finished:
                    self._stop.wait(self.config.wait_ms / 1000)
                try:
                    self._engines_for(processes, (slot.white, slot.black))
                except EngineError as error:
                    self.say(f"Error: {error}; stopping the match")
                    self._abort()
                    return
                try:
                    self._play(slot, (processes[slot.white], processes[slot.black]))
                except Exception as error:  # a bug: stop rather than wait for this game forever
                    self.say(f"Error: internal: {type(error).__name__}: {error}; stopping the match")
                    self._abort()
                    raise
                for proc in processes.values():
                    if not proc.alive():
                        proc.kill()  # reap it; a new one is started for the next game
                if self.out.failed and not self._stop.is_set():
                    self._abort()  # nobody reads our output any more: stop after the games in play
        finally:
            for proc in processes.values():
                proc.quit()

    def _engines_for(self, processes: dict[int, UciProcess], needed: tuple[int, int]) -> None:
        """Quit the engines the next game does not need; (re)start the ones it does."""
        for which in [w for w in processes if w not in needed]:
            processes.pop(which).quit()
        for which in needed:
            proc = processes.get(which)
            if proc is None:
                with self._lock:
                    proc = self._idle.pop(which, None)
                if proc is not None and proc.alive():
                    processes[which] = proc
                    continue
            if proc is None or not proc.alive() or self.config.engines[which].restart:
                if proc is not None:
                    proc.quit()  # reaped (its whole process group killed) before the new one starts
                processes[which] = self._start_engine(which)

    def _game_settings(self, slot: Slot) -> GameSettings:
        limits = (self.config.limits[slot.white], self.config.limits[slot.black])
        if self.config.settings is None:
            return GameSettings(limits=limits)
        return dataclasses.replace(self.config.settings, limits=limits)

    def opening_for(self, slot: Slot) -> Opening:
        openings = self.config.openings
        return openings[slot.opening % len(openings)] if openings else Opening()

    def _play(self, slot: Slot, players: tuple[UciProcess, UciProcess]) -> None:
        with self._lock:
            self._started_line(slot)
        started = datetime.datetime.now()
        log = self._debug if self.config.debug else None
        record = Referee(players, self._game_settings(slot), log).play(self.opening_for(slot))
        if self._interrupted:
            return
        with self._lock:
            self._record(slot, record, started)
        self._after_game(slot, record)

    def _started_line(self, slot: Slot) -> None:
        """``Started game N of T (A vs B)`` (the lock is held)."""
        total = self.schedule.final_count
        white_name, black_name = self.names[slot.white], self.names[slot.black]
        print(f"Started game {slot.number} of {total} ({white_name} vs {black_name})", file=self.out, flush=True)

    def _after_game(self, slot: Slot, record: GameRecord) -> None:
        """An engine that disconnected is restarted (``-recover``) or stops the match."""
        crashed = [self.names[(slot.white, slot.black)[i]] for i in (0, 1) if record.disconnected[i]]
        for name in crashed:
            if self.config.recover:
                self.say(f"Engine {name} disconnected; restarting it (-recover)")
            else:
                self.say(f"Engine {name} disconnected; stopping the match (use -recover to continue)")
                self._abort()

    # ------------------------------------------------------------- results
    def _count(self, slot: Slot, result: str, termination: str, reason: str) -> None:
        """Add a finished game to the schedule, the standings and (two engines) the score."""
        self.standings.add(slot.white, slot.black, result, termination, reason)
        if self.config.two_engines:
            self.score.add(slot.white == 0, result)
        if self.config.paired:
            self._count_pair(slot, result)
        self._finished += 1

    def _count_pair(self, slot: Slot, result: str) -> None:
        """The pentanomial count: a pair is counted once both its games have finished."""
        white_points = HALF_POINTS[result] / 2
        first = white_points if slot.white == 0 else 1 - white_points
        pair = (slot.number - 1) // 2
        other = self._half_pairs.pop(pair, None)
        if other is None:
            self._half_pairs[pair] = first
        else:
            self.pentanomial = self.pentanomial.add(other, first)

    def _record(self, slot: Slot, record: GameRecord, started: datetime.datetime) -> None:
        """Save, count and announce a finished game (the lock is held). A game the PGN could
        not take is not counted: an ``Error:`` line, and the match stops."""
        config = self.config
        if not self._save(slot, record, started):
            self._abort_locked()
            return
        self.schedule.finish(slot, HALF_POINTS[record.result])
        self._count(slot, record.result, record.termination, record.reason)
        self.records[slot.number] = record
        if not self._save_position(slot, record):
            self._abort_locked()
        white_name, black_name = self.names[slot.white], self.names[slot.black]
        print(
            f"Finished game {slot.number} ({white_name} vs {black_name}): {record.result} {{{record.reason}}}",
            file=self.out,
        )
        if config.two_engines:
            print("Score of " + self._score_text(), file=self.out, flush=True)
            self._check_sprt()
        self._periodic_reports()
        self.out.flush()
        self._results.notify_all()

    def _check_sprt(self) -> None:
        if self.config.sprt is not None and self.score.games:
            self.sprt_result = self._sprt_status(self.config.sprt)
            if self.sprt_result.decision:
                self._stop.set()

    def _sprt_status(self, sprt: Sprt) -> SprtResult:
        if self.config.sprt_model == "pentanomial":
            return sprt.status_pentanomial(list(self.pentanomial.counts))
        s = self.score
        return sprt.status(s.wins, s.losses, s.draws)

    def _save(self, slot: Slot, record: GameRecord, started: datetime.datetime) -> bool:
        """Append the game to the PGN; ``False`` (the ``Error:`` line said where it went
        instead) if the file cannot be written."""
        config = self.config
        if not config.pgnout:
            return True
        comments = [""] * len(record.opening_moves) + (
            [""] * len(record.moves) if config.pgn_min else record.comments(emt=not config.two_engines)
        )
        game = build_game(
            self._headers(slot, record, started), record.start_fen, record.all_moves, comments, record.reason
        )
        text = game_text(game, comments=not config.pgn_min)
        try:
            append_text(config.pgnout, text)
        except OSError as error:
            kept = save_elsewhere("pgn", text)
            print(
                f"Error: cannot write game {slot.number} to {one_line(config.pgnout)} ({error.strerror or error}); "
                f"{kept}; the game is not counted; stopping the match",
                file=self.out,
                flush=True,
            )
            return False
        return True

    def _save_position(self, slot: Slot, record: GameRecord) -> bool:
        """Append the game's final position to the EPD file; ``False`` if it cannot be written."""
        config = self.config
        if not config.epdout:
            return True
        try:
            append_text(config.epdout, record.final_fen + "\n")
        except OSError as error:
            kept = save_elsewhere("epd", record.final_fen + "\n")
            print(
                f"Error: cannot write the final position of game {slot.number} to {one_line(config.epdout)} "
                f"({error.strerror or error}); {kept}; stopping the match",
                file=self.out,
                flush=True,
            )
            return False
        return True

    def _headers(self, slot: Slot, record: GameRecord, started: datetime.datetime) -> dict[str, str]:
        config = self.config
        limits = (config.limits[slot.white], config.limits[slot.black])
        headers = {
            "Event": config.event,
            "Site": config.site,
            "Date": started.strftime("%Y.%m.%d"),
            # a two-engine match numbers its games as rounds; a tournament its rounds
            "Round": str(slot.number if config.two_engines else slot.round),
            "White": self.names[slot.white],
            "Black": self.names[slot.black],
            "Result": record.result,
        }
        if limits[0].pgn_tag() == limits[1].pgn_tag():
            headers["TimeControl"] = limits[0].pgn_tag()
        else:
            headers["WhiteTimeControl"] = limits[0].pgn_tag()
            headers["BlackTimeControl"] = limits[1].pgn_tag()
        headers["PlyCount"] = str(len(record.all_moves))
        headers["Termination"] = record.termination
        headers["GameStartTime"] = started.isoformat(timespec="seconds")
        headers["GameDuration"] = str(datetime.timedelta(seconds=round(record.duration)))
        headers[GAME_NUMBER_TAG] = str(slot.number)
        return headers

    # ------------------------------------------------------------- reports
    def _periodic_reports(self) -> None:
        """Standings (or the two-engine details) and outcomes every so many games (lock held)."""
        config = self.config
        finished, total = self._finished, self.schedule.final_count
        if config.rating_interval and finished % config.rating_interval == 0 and finished < total:
            print(self._details() if config.two_engines else self._ranking() + "\n", file=self.out)
            self._write_report()
        if config.outcome_interval and finished % config.outcome_interval == 0 and finished < total:
            print("\n" + self.standings.outcomes_text(), file=self.out)

    def _score_text(self) -> str:
        s = self.score
        return score_line(self.names[0], self.names[1], s.wins, s.losses, s.draws)

    def _details(self) -> str:
        s = self.score
        a = self.names[0]
        lines = [
            f"...      {a} playing White: " + score_line("", "", *s.white).split(": ", 1)[1],
            f"...      {a} playing Black: " + score_line("", "", *s.black).split(": ", 1)[1],
            "...      White vs Black: " + score_line("", "", *s.white_side).split(": ", 1)[1],
            Elo(s.wins, s.losses, s.draws).summary(),
        ]
        if self.config.paired and self.pentanomial.pairs:
            lines.append(self.pentanomial.summary())
        if self.config.sprt is not None:
            result = self.sprt_result or self._sprt_status(self.config.sprt)
            lines.append(result.summary())
        return "\n".join(lines)

    def _ranking(self) -> str:
        """The standings table, after the bracket in a knockout (as cutechess prints it)."""
        table = self.standings.table_text(self.config.result_format)
        if isinstance(self.schedule, Knockout):
            return bracket_text(self.schedule, self.names) + "\n\n" + table
        return table

    def _final_report(self) -> None:
        with self._lock:
            if self.config.two_engines:
                if self.score.games:
                    print(self._details(), file=self.out)
            else:
                print(self._ranking() + "\n", file=self.out)
                print(self.standings.crosstable_text() + "\n", file=self.out)
            if self.config.outcome_interval:
                print("\n" + self.standings.outcomes_text(), file=self.out)
            self._write_report(final=True)
            print("Finished match", file=self.out, flush=True)

    def _write_report(self, final: bool = False) -> None:
        """Rewrite the ``-report`` page (lock held)."""
        config = self.config
        if not config.report:
            return
        state = "final" if final and not self._aborted else "stopped" if final else "in progress"
        kind = {"round-robin": "Round robin", "gauntlet": "Gauntlet", "knockout": "Knockout"}[config.tournament]
        status = (
            f"{kind}, {len(self.names)} engines, {self._finished} of {self.schedule.final_count} games played "
            f"({state}); updated {datetime.datetime.now().isoformat(sep=' ', timespec='seconds')}."
        )
        headers, rows = self.standings.table(config.result_format)
        cross_headers, cross_rows = self.standings.crosstable()
        bracket = bracket_text(self.schedule, self.names) if isinstance(self.schedule, Knockout) else ""
        title = config.event if config.event != "?" else "Tournament"
        page = Page(title, status, [("Standings", headers, rows), ("Crosstable", cross_headers, cross_rows)], bracket)
        try:
            write_report(config.report, page)
        except OSError as error:
            print(f"warning: cannot write the report {config.report}: {error}", file=self.err, flush=True)


def one_line(text: str) -> str:
    """``text`` with every unprintable character escaped (``\\n``, ``\\x85``, ...): an error
    line that quotes a user's value stays one line on any terminal.

    >>> one_line("-report a\\nb\\x85.txt")
    '-report a\\\\nb\\\\x85.txt'
    """
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def check_outputs(config: MatchConfig) -> None:
    """The files the run writes (``-pgnout``, ``-epdout``, ``-report``) can be written: no
    folder, no missing folder, no read-only file; nothing is created here."""
    outputs = (("-pgnout", config.pgnout), ("-epdout", config.epdout), ("-report", config.report))
    for option, path in outputs:
        if path:
            problem = unwritable(path)
            if problem:
                raise SetupError(f"{option} {path}: {problem}")


def unwritable(path: str) -> str | None:
    """Why a file cannot be appended to or created at ``path`` (``None`` if it can)."""
    if path.endswith(("/", os.sep)) or os.path.isdir(path):
        return "is a folder, not a file"
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        return f"no such folder {os.path.dirname(path) or folder!r}"
    if os.path.exists(path):
        if not os.access(path, os.W_OK):
            return "cannot be written (permission denied)"
    elif not os.access(folder, os.W_OK | os.X_OK):
        return "cannot be created (permission denied)"
    return None


def run_match(config: MatchConfig, out: TextIO | None = None, err: TextIO | None = None) -> tuple[int, Match]:
    """Run ``config``; the exit status and the ``Match`` (for its score and records)."""
    match = Match(config, out, err)
    return match.run(), match
