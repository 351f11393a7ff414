"""``-cluster``: the games of a match on a Dask distributed cluster (see docs/cluster.md).

The unit of work is a *game pair* (the games of one opening, colours swapped; a single game
when openings are not repeated), played start to finish by one task on one worker. Its result
comes back whole, with the id of the pair (its first game's number), so a pair cut off by a
worker that died is played again whole by Dask on another worker and counted once: nothing of
the cut-off attempt is kept. The task starts the pair's engines (each in its own process
group, as a local run does) or takes the ones the worker's previous pair of the same run left
(as a local worker keeps its engines from game to game; ``restart=on`` gets fresh ones), pins
them to one core of the worker where the system allows it (``os.sched_setaffinity``), and
kills them when the run cancels the task (a Dask ``Event`` the task watches) or when they
hang. Kept engines are quit at the end of the run (``release``), or by the worker itself once
they have been idle for ``KEEP_IDLE`` seconds (a run that was killed cannot say so).

Before any game, every worker reports each engine's ``id name`` and a digest of its program
(``engine_digest``); an engine missing on a worker, or different on two workers, stops the
run before play. ``distributed`` is imported only when a cluster run starts, so the runner
works without Dask installed.
"""

from __future__ import annotations

import dataclasses
import datetime
import hashlib
import importlib
import logging
import math
import os
import re
import shutil
import subprocess
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from .game import GameRecord, GameSettings, Referee
from .openings import Opening
from .schedule import Slot
from .tc import Limits, TimeControl
from .uci_process import EngineConfig, EngineError, UciProcess, unrunnable

LOCAL_PREFIX = "local:"
DEFAULT_TIMEOUT = 10.0  # seconds to reach the scheduler and find a worker
MAX_LOCAL_WORKERS = 256
INSTALL_HINT = "pip install 'alice-engine[cluster]' (or: pip install dask distributed)"
WATCH_INTERVAL = 0.5  # seconds between a task's looks at the stop event (a call to the scheduler)
SPEED_SECONDS = 0.2  # how long each speed measurement runs (best of SPEED_RUNS)
SPEED_RUNS = 3
MAX_RESUBMITS = 3  # a pair whose workers keep dying is given this many fresh tries
HASH_CHUNK = 1 << 20
DIGEST_TIMEOUT = 30.0  # seconds for an engine's interpreter to list its package files
KEEP_IDLE = 120.0  # seconds a worker keeps a run's idle engines before quitting them

# On a worker: the engines each run left there between pairs, by run (its stop event's name)
# and engine index, with the time they were last used.
_kept: dict[str, dict[int, tuple[UciProcess, float]]] = {}
_kept_lock = threading.Lock()
_checked: set[tuple[str, int]] = set()  # (run, engine) whose digest this worker has checked
_reaper: list[threading.Thread] = []


class ClusterError(RuntimeError):
    """The cluster cannot run this match (not installed, unreachable, engines differ)."""


@dataclass(frozen=True)
class ClusterSpec:
    """Where the games run: a scheduler address, or ``local_workers`` processes started here."""

    address: str
    local_workers: int = 0  # -cluster local:N
    timeout: float = DEFAULT_TIMEOUT
    tcscale: bool = False  # scale time controls by each worker's measured speed


def parse_cluster(address: str, keys: dict[str, str]) -> ClusterSpec:
    """``-cluster ADDRESS|local:N [timeout=S] [tcscale=on|off]``; raises ``ValueError``.

    >>> parse_cluster("local:2", {})
    ClusterSpec(address='local:2', local_workers=2, timeout=10.0, tcscale=False)
    >>> parse_cluster("tcp://10.0.0.5:8786", {"tcscale": "on"}).tcscale
    True
    """
    unknown = set(keys) - {"timeout", "tcscale"}
    if unknown:
        raise ValueError(f"unknown key {min(unknown)!r} (timeout=S, tcscale=on|off)")
    workers = 0
    if address.startswith(LOCAL_PREFIX):
        count = address[len(LOCAL_PREFIX) :]
        if not (count.isascii() and count.isdigit()) or not 1 <= int(count) <= MAX_LOCAL_WORKERS:
            raise ValueError(f"{address}: expected local:N with N from 1 to {MAX_LOCAL_WORKERS}")
        workers = int(count)
    elif not address or address.startswith("-") or any(c.isspace() for c in address):
        raise ValueError(f"bad scheduler address {address!r}: expected tcp://HOST:PORT or local:N")
    try:
        timeout = float(keys.get("timeout", DEFAULT_TIMEOUT))
    except ValueError:
        raise ValueError(f"bad timeout {keys['timeout']!r}: expected seconds") from None
    if not (math.isfinite(timeout) and 0 < timeout <= 3600):
        raise ValueError(f"bad timeout {keys['timeout']!r}: expected seconds, more than 0 and at most 3600")
    scale = keys.get("tcscale", "off").lower()
    if scale not in ("on", "off", "true", "false"):
        raise ValueError(f"tcscale={keys['tcscale']}: expected on or off")
    return ClusterSpec(address, workers, timeout, scale in ("on", "true"))


# ------------------------------------------------------------------ what travels to the workers
@dataclass(frozen=True)
class GameTask:
    slot: Slot
    opening: Opening
    settings: GameSettings


@dataclass(frozen=True)
class PairTask:
    """One unit of work: its id (the first game's number), its games in order, and how to run them."""

    pair: int
    games: tuple[GameTask, ...]
    engines: dict[int, EngineConfig]
    recover: bool
    start_timeout: float
    stop_event: str  # the name of the Dask Event that cancels the run
    cores: dict[str, int] = field(default_factory=dict)  # worker address -> core to pin to
    scale: dict[str, float] = field(default_factory=dict)  # worker address -> time-control factor
    builds: dict[int, tuple[str, str]] = field(default_factory=dict)  # engine -> (id name, digest) checked


@dataclass
class PairResult:
    """The finished games of a pair, in order: ``(number, record, start time)``; ``error`` if
    an engine could not be started; ``cancelled`` if the run's stop event cut it off."""

    pair: int
    games: list[tuple[int, GameRecord, datetime.datetime]] = field(default_factory=list)
    error: str = ""
    cancelled: bool = False
    worker: str = ""
    engine_pids: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class EngineIdentity:
    """What a worker found for one engine: its ``id name`` and program digest, or the problem."""

    name: str = ""
    digest: str = ""
    problem: str = ""


@dataclass(frozen=True)
class WorkerReport:
    host: str
    cpus: int
    pinning: bool  # os.sched_setaffinity works there
    engines: tuple[EngineIdentity, ...]


# ------------------------------------------------------------------ on a worker
def engine_digest(config: EngineConfig) -> str:
    """SHA-256 over the engine's program: the executable, the first argument that names a file
    (the script an interpreter runs; later ones may be data) and, for a Python engine (``python
    -m PACKAGE``, or an entry-point script such as ``alice-engine``), every source and extension
    file of the package's installed distribution as that engine's own interpreter finds it; so
    two workers with different builds give different digests."""
    argv = config.argv()
    base = config.dir or os.getcwd()
    program = argv[0] if os.sep in argv[0] else shutil.which(argv[0]) or argv[0]
    program = os.path.join(base, program) if not os.path.isabs(program) else program
    files = [program]
    interpreter, packages = program, []
    for i, arg in enumerate(argv[1:], 1):
        if argv[i - 1] == "-m":
            packages.append(arg.split(".")[0])
            break
        path = os.path.join(base, arg)
        if os.path.isfile(path):
            files.append(path)
            break
    shebang, imported = _entry_point(program)
    if imported:
        interpreter, packages = shebang, imported
    digest = hashlib.sha256()
    for path in files:
        digest.update(b"file\0")
        _hash_file(digest, path)
    for path in _package_files(interpreter, packages, base) if packages else []:
        digest.update(os.path.basename(path).encode() + b"\0")
        _hash_file(digest, path)
    return digest.hexdigest()


def _hash_file(digest: Any, path: str) -> None:
    with open(path, "rb") as handle:
        while chunk := handle.read(HASH_CHUNK):
            digest.update(chunk)


def _entry_point(program: str) -> tuple[str, list[str]]:
    """The interpreter and imported packages of a Python console script (pip's wrappers say
    ``#!/venv/bin/python`` and ``from uci.__main__ import main``); ``("", [])`` otherwise."""
    try:
        with open(program, "rb") as handle:
            head = handle.read(4096).decode("utf-8", "replace")
    except OSError:
        return "", []
    first = head.split("\n", 1)[0]
    if not first.startswith("#!") or "python" not in first:
        return "", []
    words = first[2:].split()
    interpreter = words[-1] if words and words[0].endswith("env") else (words[0] if words else "")
    return interpreter, re.findall(r"^from ([A-Za-z_]\w*)", head, re.MULTILINE)


# Run by the engine's interpreter: the files of the given packages and of every other top-level
# package their distributions install (our "uci" brings "search" and "engine").
_LIST_FILES = """
import importlib.metadata as m, importlib.util as u, os, sys
names = set(sys.argv[1:])
owners = m.packages_distributions()
for name in list(names):
    for dist in owners.get(name, []):
        names.update(top for top, ds in owners.items() if dist in ds)
for name in sorted(names):
    try:
        spec = u.find_spec(name)
    except (ImportError, ValueError):
        continue
    if spec is None:
        continue
    for root in spec.submodule_search_locations or []:
        for folder, dirs, files in os.walk(root):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for f in sorted(files):
                if f.endswith((".py", ".so", ".pyd")):
                    print(os.path.join(folder, f))
    if not spec.submodule_search_locations and spec.origin and os.path.isfile(spec.origin):
        print(spec.origin)
"""


def _package_files(interpreter: str, packages: list[str], base: str) -> list[str]:
    """The package files as ``interpreter`` (run in the engine's folder) sees them."""
    try:
        done = subprocess.run(
            [interpreter, "-c", _LIST_FILES, *packages], cwd=base, capture_output=True, text=True,
            timeout=DIGEST_TIMEOUT, check=False,
        )  # fmt: skip
    except (OSError, subprocess.TimeoutExpired):
        return []
    return [line for line in done.stdout.splitlines() if os.path.isfile(line)]


def identify(engines: list[EngineConfig], timeout: float, run: str = "") -> WorkerReport:
    """Run on every worker before play: each engine started once for its ``id name``, and its
    digest; the processes stay on the worker for the run's first pair there (``run``)."""
    found = []
    started: dict[int, UciProcess] = {}
    for which, config in enumerate(engines):
        process = UciProcess(config)
        try:
            problem = unrunnable(config)
            if problem:
                raise EngineError(problem)
            digest = engine_digest(config)
            process.start(timeout)
            found.append(EngineIdentity(process.id_name or "", digest))
            started[which] = process
        except (EngineError, OSError) as error:
            found.append(EngineIdentity(problem=str(error)))
            process.kill()
    if run and len(started) == len(engines):
        _keep(run, started, dict(enumerate(engines)))
        with _kept_lock:
            _checked.update((run, which) for which in started)
    else:
        for process in started.values():
            process.quit()
    pinning = hasattr(os, "sched_setaffinity")
    return WorkerReport(os.uname().nodename, os.cpu_count() or 1, pinning, tuple(found))


def speed() -> float:
    """This worker's speed at a fixed interpreted workload (operations per second, best of
    three short runs): the ``tcscale`` factor of a worker is the reference's speed over its own."""
    best = 0.0
    for _ in range(SPEED_RUNS):
        count, value = 0, 1
        table: dict[int, int] = {}
        started = time.perf_counter()
        while (elapsed := time.perf_counter() - started) < SPEED_SECONDS:
            for i in range(1000):
                value = (value * 1103515245 + 12345) & 0x7FFFFFFF
                table[value & 1023] = i
            count += 1000
        best = max(best, count / elapsed)
    return best


def scaled(limits: Limits, factor: float) -> Limits:
    """``limits`` with the clock and the time per move multiplied by ``factor`` (nodes and depth stay)."""
    if factor == 1.0:
        return limits
    tc = limits.tc
    if tc is not None and not tc.infinite:
        tc = TimeControl(tc.moves, max(1, round(tc.base_ms * factor)), round(tc.inc_ms * factor))
    movetime = None if limits.movetime_ms is None else max(1, round(limits.movetime_ms * factor))
    return dataclasses.replace(limits, tc=tc, movetime_ms=movetime)


def play_pair(task: PairTask) -> PairResult:
    """A Dask task: play the pair's games in order on this worker and return them all."""
    d: Any = importlib.import_module("distributed")  # a worker has it: it runs this task

    address = d.get_worker().address
    result = PairResult(task.pair, worker=address)
    stop = d.Event(task.stop_event)
    if stop.is_set():
        result.cancelled = True
        return result
    processes = _take_kept(task.stop_event, task.engines)
    core = task.cores.get(address)
    if core is not None and hasattr(os, "sched_setaffinity"):
        # this thread (the engines it starts inherit it) and the engines it takes over
        for pid in (0, *(process.pid or 0 for process in processes.values())):
            try:
                os.sched_setaffinity(pid, {core})
            except OSError:
                pass
    done = threading.Event()
    cancelled = threading.Event()

    def watch() -> None:
        while not done.is_set():
            try:
                if stop.wait(WATCH_INTERVAL):
                    cancelled.set()
                    for process in list(processes.values()):
                        process.kill()  # the game in play ends at once (a disconnect): not kept
                    return
            except Exception:  # the scheduler went away: the worker is being shut down
                time.sleep(WATCH_INTERVAL)

    watcher = threading.Thread(target=watch, name=f"pair-{task.pair}-watch", daemon=True)
    watcher.start()
    factor = task.scale.get(address, 1.0)
    try:
        for game in task.games:
            slot = game.slot
            try:
                for which in (slot.white, slot.black):
                    process = processes.get(which)
                    if process is None or not process.alive() or task.engines[which].restart:
                        if process is not None:
                            process.quit()
                        processes[which] = _started(task.engines[which], task.start_timeout)
                        result.engine_pids.append(processes[which].pid or 0)
                        _check_build(task, which, processes[which], address)
            except EngineError as error:
                if cancelled.is_set():
                    break
                result.error = str(error)
                break
            limits = tuple(scaled(lim, factor) for lim in game.settings.limits)
            settings = dataclasses.replace(game.settings, limits=(limits[0], limits[1]))
            started = datetime.datetime.now()
            record = Referee((processes[slot.white], processes[slot.black]), settings).play(game.opening)
            if cancelled.is_set():
                break
            result.games.append((slot.number, record, started))
            if any(record.disconnected) and not task.recover:
                break  # the run stops after this game, as a local run does
    finally:
        done.set()
        watcher.join(2 * WATCH_INTERVAL + 1)
        if cancelled.is_set() or _is_set(stop):
            for process in processes.values():
                process.quit()
        else:
            _keep(task.stop_event, processes, task.engines)
    if cancelled.is_set():
        result.cancelled = True
        result.games = []
    return result


def _check_build(task: PairTask, which: int, process: UciProcess, address: str) -> None:
    """An engine started on a worker that joined after the check (or was restarted) must be
    the build the check found: its ``id name`` at every start, its digest once per run."""
    expected = task.builds.get(which)
    if expected is None:
        return
    name, digest = expected
    label = f"engine {which + 1} ({task.engines[which].name or task.engines[which].cmd})"
    if (process.id_name or "") != name:
        raise EngineError(f"{label} on worker {address} says id name {process.id_name!r}, not {name!r}")
    key = (task.stop_event, which)
    with _kept_lock:
        known = key in _checked
    if not known:
        if engine_digest(task.engines[which]) != digest:
            raise EngineError(f"{label} on worker {address} is another build than the one checked before play")
        with _kept_lock:
            _checked.add(key)


def _is_set(event: Any) -> bool:
    """Whether the run's stop event is set (a scheduler that cannot be asked counts as set)."""
    try:
        return bool(event.is_set())
    except Exception:  # the scheduler is gone: the run is over
        return True


def _take_kept(run: str, engines: dict[int, EngineConfig]) -> dict[int, UciProcess]:
    """The live engines this run left on this worker, for the engines the pair needs."""
    with _kept_lock:
        kept = _kept.get(run, {})
        taken = {which: kept.pop(which)[0] for which in list(kept) if which in engines}
    for process in [p for p in taken.values() if not p.alive()]:
        process.quit()  # reaped (its group killed) before a new one starts
    return {which: process for which, process in taken.items() if process.alive()}


def _keep(run: str, processes: dict[int, UciProcess], engines: dict[int, EngineConfig]) -> None:
    """Leave the pair's live engines for the run's next pair on this worker (others are quit)."""
    now = time.monotonic()
    extra = []
    with _kept_lock:
        kept = _kept.setdefault(run, {})
        for which, process in processes.items():
            if process.alive() and not engines[which].restart and which not in kept:
                kept[which] = (process, now)
            else:
                extra.append(process)
        if not _reaper:
            _reaper.append(threading.Thread(target=_reap_idle, name="alice-match-reaper", daemon=True))
            _reaper[0].start()
    for process in extra:
        process.quit()


def _reap_idle() -> None:
    while True:
        time.sleep(KEEP_IDLE / 4)
        now = time.monotonic()
        idle = []
        with _kept_lock:
            for kept in _kept.values():
                for which, (process, used) in list(kept.items()):
                    if now - used > KEEP_IDLE:
                        idle.append(kept.pop(which)[0])
        for process in idle:
            process.quit()


def release(run: str) -> int:
    """Run on every worker at the end of a run: quit the engines it kept there; how many."""
    with _kept_lock:
        kept = _kept.pop(run, {})
    for process, _ in kept.values():
        process.quit()
    return len(kept)


def _started(config: EngineConfig, timeout: float) -> UciProcess:
    process = UciProcess(config)
    try:
        process.start(timeout)
    except EngineError:
        process.kill()
        raise
    return process


# ------------------------------------------------------------------ on the machine running alice-match
class ClusterSession:
    """A connection to the cluster (or a ``LocalCluster`` started for the run), the engine
    check, and the submission of pairs; ``close()`` ends what it started."""

    def __init__(self, spec: ClusterSpec, say: Callable[[str], None]) -> None:
        self.spec = spec
        self.say = say
        try:
            self.distributed: Any = importlib.import_module("distributed")
        except ImportError:
            raise ClusterError(f"-cluster needs Dask: {INSTALL_HINT}") from None
        self.local: Any = None
        self.client: Any = None
        self.stop_event = f"alice-match-stop-{os.getpid()}-{time.time_ns()}"
        self.cores: dict[str, int] = {}
        self.scale: dict[str, float] = {}
        self.builds: dict[int, tuple[str, str]] = {}
        self._connect()

    def _connect(self) -> None:
        d = self.distributed
        try:
            if self.spec.local_workers:
                self.local = d.LocalCluster(
                    n_workers=self.spec.local_workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                    dashboard_address="127.0.0.1:0", silence_logs=logging.ERROR,
                )  # fmt: skip
                self.client = d.Client(self.local, timeout=self.spec.timeout)
            else:
                self.client = d.Client(self.spec.address, timeout=self.spec.timeout)
            self.client.wait_for_workers(1, timeout=self.spec.timeout)
        except (OSError, TimeoutError, ValueError, TypeError) as error:
            self.close()
            where = f"the Dask scheduler at {self.spec.address}"
            if isinstance(error, TimeoutError) and self.client is not None:
                raise ClusterError(f"{where} has no worker (waited {self.spec.timeout:g} s)") from None
            raise ClusterError(f"cannot reach {where}: {error or type(error).__name__}") from None
        self.stop = d.Event(self.stop_event, client=self.client)

    @property
    def workers(self) -> dict[str, int]:
        """Worker address -> threads (games it plays at once)."""
        return dict(self.client.nthreads())

    def check_engines(self, engines: list[EngineConfig], timeout: float) -> list[str]:
        """Every worker's report on every engine; their ``id name``s (the same on all workers),
        or ``ClusterError`` before any game: missing on a worker, or different builds."""
        reports: dict[str, WorkerReport] = self.client.run(identify, engines, timeout, self.stop_event)
        names = []
        self.builds = {}
        for which, config in enumerate(engines):
            label = f"engine {which + 1} ({config.name or config.cmd})"
            seen: dict[tuple[str, str], list[str]] = {}
            for address, report in sorted(reports.items()):
                found = report.engines[which]
                if found.problem:
                    raise ClusterError(f"{label} cannot play on worker {address}: {found.problem}")
                seen.setdefault((found.name, found.digest), []).append(address)
            if len(seen) > 1:
                builds = "; ".join(
                    f"{', '.join(addresses)}: id name {name!r}, sha256 {digest[:12]}"
                    for (name, digest), addresses in seen.items()
                )
                raise ClusterError(f"{label} differs between workers ({builds}): install the same build on every worker")
            names.append(next(iter(seen))[0])
            self.builds[which] = next(iter(seen))
        self._place(reports)
        return names

    def _place(self, reports: dict[str, WorkerReport]) -> None:
        """One core per game: the workers of a machine take its cores in address order."""
        by_host: dict[str, list[str]] = {}
        for address, report in sorted(reports.items()):
            by_host.setdefault(report.host, []).append(address)
        for addresses in by_host.values():
            for index, address in enumerate(addresses):
                report = reports[address]
                if report.pinning and len(addresses) <= report.cpus:
                    self.cores[address] = index

    def measure_speeds(self) -> None:
        """``tcscale=on``: each worker's time-control factor (this machine's speed over the
        worker's), printed once."""
        here = speed()
        speeds: dict[str, float] = self.client.run(speed)
        for address, worker_speed in sorted(speeds.items()):
            factor = here / worker_speed if worker_speed > 0 else 1.0
            self.scale[address] = factor
            self.say(
                f"Time control on worker {address} scaled by {factor:.2f} (tcscale=on: speed "
                f"{worker_speed / 1e6:.2f} M op/s against {here / 1e6:.2f} M op/s here)"
            )

    def submit(self, task: PairTask) -> Any:
        return self.client.submit(play_pair, task, pure=False, key=f"pair-{task.pair}-{time.time_ns()}")

    def task(
        self, pair: int, games: Iterable[GameTask], engines: dict[int, EngineConfig], recover: bool,
        start_timeout: float,
    ) -> PairTask:  # fmt: skip
        return PairTask(
            pair, tuple(games), engines, recover, start_timeout, self.stop_event, self.cores, self.scale,
            {which: self.builds[which] for which in engines if which in self.builds},
        )  # fmt: skip

    def completed(self) -> Any:
        """A Dask ``as_completed`` to add futures to and iterate as they finish."""
        return self.distributed.as_completed(with_results=False)

    def cancel(self, futures: list[Any], timeout: float) -> None:
        """Stop the run's pairs: the tasks in play kill their engines and return, the queued
        ones return at once; wait (``timeout``) until every one has, so no engine is left."""
        try:
            self.stop.set()
            if futures:
                self.distributed.wait(futures, timeout=timeout)
        except (OSError, TimeoutError):
            pass

    def close(self) -> None:
        if self.client is not None:
            try:
                self.client.run(release, self.stop_event)
            except Exception:  # best effort: idle engines are quit by the workers themselves
                pass
        for thing in (self.client, self.local):
            if thing is not None:
                try:
                    thing.close()
                except Exception:  # closing is best effort: the scheduler may be gone already
                    pass
        self.client = self.local = None
