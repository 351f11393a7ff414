"""A match between two engines: schedule, engine processes per worker, score, PGN, output.

Games are numbered from 1. Game ``i`` (0-based) gives White to the first engine when ``i``
is even and to the second when odd; with ``repeat`` the same opening is played ``repeat``
times in a row (so colours swap on it). Output lines follow cutechess-cli.
"""

from __future__ import annotations

import datetime
import math
import sys
import threading
from dataclasses import dataclass, field
from typing import TextIO


from .game import GameRecord, GameSettings, Referee
from .openings import Opening
from .pgn import build_game, game_text
from .stats import Elo, Sprt, SprtResult
from .tc import Limits
from .uci_process import EngineConfig, EngineError, UciProcess


@dataclass
class MatchConfig:
    engines: tuple[EngineConfig, EngineConfig]
    limits: tuple[Limits, Limits]  # per engine (not per colour)
    games: int = 1
    rounds: int = 1
    repeat: int = 1  # how many times each opening is played (2 with -repeat)
    openings: list[Opening] = field(default_factory=list)  # one per opening slot; empty: the start position
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

    @property
    def total_games(self) -> int:
        return self.games * self.rounds

    def openings_needed(self) -> int:
        return math.ceil(self.total_games / max(1, self.repeat))


@dataclass
class Score:
    """Results from the first engine's point of view, split by its colour."""

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
    """Runs a ``MatchConfig``; ``run()`` returns the exit status (0, or 1 if the match was aborted)."""

    def __init__(self, config: MatchConfig, out: TextIO | None = None, err: TextIO | None = None) -> None:
        self.config = config
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        self.score = Score()
        self.records: dict[int, GameRecord] = {}
        self.names = [c.name or "" for c in config.engines]
        self._lock = threading.Lock()
        self._next = 0
        self._finished = 0
        self._stop = threading.Event()
        self._aborted = False
        self._processes: list[UciProcess] = []
        self.sprt_result: SprtResult | None = None
        if config.pgnout:
            open(config.pgnout, "a", encoding="utf-8").close()  # fail early on a bad path

    # --------------------------------------------------------------- output
    def say(self, line: str) -> None:
        with self._lock:
            print(line, file=self.out, flush=True)

    def _debug(self, line: str) -> None:
        if self.config.debug:
            print(line, file=self.err, flush=True)

    # ------------------------------------------------------------ schedule
    def _take_game(self) -> int | None:
        with self._lock:
            if self._stop.is_set() or self._next >= self.config.total_games:
                return None
            number = self._next
            self._next += 1
            return number

    def opening_for(self, index: int) -> Opening:
        slot = index // max(1, self.config.repeat)
        if not self.config.openings:
            return Opening()
        return self.config.openings[slot % len(self.config.openings)]

    def white_engine(self, index: int) -> int:
        """Which engine (0 or 1) has White in game ``index``."""
        return index % 2

    # ------------------------------------------------------------- running
    def run(self) -> int:
        workers = [
            threading.Thread(target=self._worker, name=f"match-worker-{i}", daemon=True)
            for i in range(max(1, min(self.config.concurrency, self.config.total_games)))
        ]
        for worker in workers:
            worker.start()
        try:
            for worker in workers:
                while worker.is_alive():
                    worker.join(0.2)
        except KeyboardInterrupt:
            self._stop.set()
            self._aborted = True
            self.say("Interrupted: stopping the match")
            with self._lock:
                processes = list(self._processes)
            for process in processes:
                process.kill()
        self._final_report()
        return 1 if self._aborted else 0

    def _start_engine(self, which: int) -> UciProcess:
        config = self.config.engines[which]
        process = UciProcess(
            config, log=self._debug if self.config.debug else self._warn, show_stderr=self.config.debug
        )
        with self._lock:
            self._processes.append(process)
        process.start(self.config.start_timeout)
        with self._lock:
            if not self.names[which]:
                self.names[which] = process.name
        return process

    def _warn(self, line: str) -> None:
        if line.startswith("warning:"):
            print(line, file=self.err, flush=True)

    def _worker(self) -> None:
        processes: list[UciProcess | None] = [None, None]
        try:
            while True:
                index = self._take_game()
                if index is None:
                    return
                try:
                    for which in (0, 1):
                        proc = processes[which]
                        if proc is None or not proc.alive() or self.config.engines[which].restart:
                            if proc is not None:
                                proc.quit()
                            processes[which] = self._start_engine(which)
                except EngineError as error:
                    self.say(f"Error: {error}; stopping the match")
                    self._abort()
                    return
                white = self.white_engine(index)
                players = (processes[white], processes[1 - white])
                assert players[0] is not None and players[1] is not None
                self._play(index, white, (players[0], players[1]))
                for which in (0, 1):
                    proc = processes[which]
                    if proc is not None and not proc.alive():
                        proc.kill()  # reap it; a new one is started for the next game
        finally:
            for proc in processes:
                if proc is not None:
                    proc.quit()

    def _abort(self) -> None:
        self._aborted = True
        self._stop.set()

    def _play(self, index: int, white: int, players: tuple[UciProcess, UciProcess]) -> None:
        config = self.config
        number = index + 1
        white_name, black_name = self.names[white], self.names[1 - white]
        self.say(f"Started game {number} of {config.total_games} ({white_name} vs {black_name})")
        settings = config.settings or GameSettings(limits=config.limits)
        limits = (config.limits[white], config.limits[1 - white])
        settings = GameSettings(
            limits=limits,
            draw=settings.draw,
            resign=settings.resign,
            maxmoves=settings.maxmoves,
            stall_timeout=settings.stall_timeout,
            ready_timeout=settings.ready_timeout,
            stop_timeout=settings.stop_timeout,
        )
        started = datetime.datetime.now()
        opening = self.opening_for(index)
        record = Referee(players, settings, self._debug if config.debug else None).play(opening)
        headers = {
            "Event": config.event,
            "Site": config.site,
            "Date": started.strftime("%Y.%m.%d"),
            "Round": str(number),
            "White": white_name,
            "Black": black_name,
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
        comments = [""] * len(record.opening_moves) + (
            ["" for _ in record.comments] if config.pgn_min else record.comments
        )
        game = build_game(headers, record.start_fen, record.all_moves, comments, record.reason)
        crashed = [self.names[(white, 1 - white)[i]] for i in (0, 1) if record.disconnected[i]]
        with self._lock:
            self.records[number] = record
            self.score.add(white == 0, record.result)
            self._finished += 1
            finished = self._finished
            if config.pgnout:
                with open(config.pgnout, "a", encoding="utf-8") as handle:
                    handle.write(game_text(game, comments=not config.pgn_min))
            print(
                f"Finished game {number} ({white_name} vs {black_name}): {record.result} {{{record.reason}}}",
                file=self.out,
            )
            print("Score of " + self._score_text(), file=self.out, flush=True)
            if config.sprt is not None:
                self.sprt_result = config.sprt.status(self.score.wins, self.score.losses, self.score.draws)
                if self.sprt_result.decision:
                    self._stop.set()
            if config.rating_interval and finished % config.rating_interval == 0 and finished < config.total_games:
                print(self._details(), file=self.out, flush=True)
        for name in crashed:
            if config.recover:
                self.say(f"Engine {name} disconnected; restarting it (-recover)")
            else:
                self.say(f"Engine {name} disconnected; stopping the match (use -recover to continue)")
                self._abort()

    # ------------------------------------------------------------- reports
    def _score_text(self) -> str:
        s = self.score
        return score_line(self.names[0], self.names[1], s.wins, s.losses, s.draws)

    def _details(self) -> str:
        s = self.score
        a, _b = self.names
        lines = [
            f"...      {a} playing White: " + score_line("", "", *s.white).split(": ", 1)[1],
            f"...      {a} playing Black: " + score_line("", "", *s.black).split(": ", 1)[1],
            "...      White vs Black: " + score_line("", "", *s.white_side).split(": ", 1)[1],
            Elo(s.wins, s.losses, s.draws).summary(),
        ]
        if self.config.sprt is not None:
            result = self.sprt_result or self.config.sprt.status(s.wins, s.losses, s.draws)
            lines.append(result.summary())
        return "\n".join(lines)

    def _final_report(self) -> None:
        with self._lock:
            if self.score.games:
                print(self._details(), file=self.out)
            print("Finished match", file=self.out, flush=True)


def run_match(config: MatchConfig, out: TextIO | None = None, err: TextIO | None = None) -> tuple[int, Match]:
    """Run ``config``; the exit status and the ``Match`` (for its score and records)."""
    match = Match(config, out, err)
    return match.run(), match
