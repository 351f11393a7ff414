"""SPSA's games through alice-match: θ+ against θ-, a batch of game pairs per step.

Each engine is the pure Python engine (``python -m uci`` from this checkout by default), or
``--engine CMD`` (the ``alice-engine`` of a pure install or of a compiled tuning build,
``ALICE_ENGINE_TUNE=1 pip install .``), started as
``env ALICE_TUNE='NAME=VALUE,...' CMD``: ``search.tuning`` sets the constants at start-up,
no rebuild. The batch is one alice-match run in this process (``-games 2 -rounds PAIRS
-repeat``: each pair one opening, colours swapped; the openings drawn from the bundled book
with the step's seed), locally with ``-concurrency N`` or on a Dask cluster with ``-cluster
ADDRESS`` (docs/cluster.md: the engine command must run on every worker). The score of the
first engine (θ+) is the step's outcome.
"""

from __future__ import annotations

import io
import os
import shlex
import sys
from dataclasses import dataclass, field

from alice_match.cli import configure
from alice_match.match import run_match
from tune.spsa import Outcome, SpsaError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TUNE_ENV = "ALICE_TUNE"  # read by search.tuning in the engine
DEFAULT_ENGINE = f"{shlex.quote(sys.executable)} -m uci"  # this checkout's engine, pure Python
TAIL_LINES = 5  # lines of alice-match's output shown when a batch fails


class MatchFailedError(SpsaError):
    """alice-match refused the settings, or stopped before the batch was played (Ctrl-C, a dead engine)."""


@dataclass(frozen=True)
class MatchSettings:
    """How every batch is played (the same for the whole run)."""

    limit: str = "nodes=2000"  # the -each limit: tc=10+0.1, nodes=N, depth=N, st=S
    engine: str = DEFAULT_ENGINE
    engine_dir: str | None = ROOT  # the engines' working directory (the checkout for python -m uci)
    concurrency: int = 1
    cluster: str | None = None  # -cluster ADDRESS (local:N, tcp://host:8786)
    book: str = "default"  # -openings file=
    extra: tuple[str, ...] = field(default_factory=tuple)  # more alice-match options (adjudication)


def limit_arg(tc: str) -> str:
    """``--tc`` as alice-match's -each limit: ``10+0.1`` -> ``tc=10+0.1``; ``nodes=2000`` as it is."""
    return tc if "=" in tc else f"tc={tc}"


def tune_value(values: dict[str, float]) -> str:
    """``{"A": 1.5, "B": 2.0}`` -> ``"A=1.5,B=2"`` (what ALICE_TUNE holds)."""
    return ",".join(f"{name}={value:.10g}" for name, value in values.items())


def engine_command(engine: str, values: dict[str, float]) -> str:
    """The engine's command line with its values: ``env ALICE_TUNE='...' ENGINE``."""
    return f"env {shlex.quote(f'{TUNE_ENV}={tune_value(values)}')} {engine}"


def match_args(settings: MatchSettings, plus: dict[str, float], minus: dict[str, float], pairs: int, seed: int) -> list[str]:
    """alice-match's options for one batch: ``pairs`` game pairs of θ+ (first) against θ-."""
    args: list[str] = []
    for name, values in (("plus", plus), ("minus", minus)):
        args += ["-engine", f"cmd={engine_command(settings.engine, values)}", f"name={name}"]
        if settings.engine_dir:
            args.append(f"dir={settings.engine_dir}")
    args += ["-each", limit_arg(settings.limit)]
    args += ["-games", "2", "-rounds", str(pairs), "-repeat"]
    args += ["-openings", f"file={settings.book}", "order=random", "-srand", str(seed)]
    if settings.cluster:
        args += ["-cluster", settings.cluster]
    else:
        args += ["-concurrency", str(settings.concurrency)]
    return args + list(settings.extra)


def check_settings(settings: MatchSettings) -> None:
    """alice-match's own check of the settings (with neutral values), before the first step."""
    err = io.StringIO()
    config = configure(match_args(settings, {}, {}, 1, 1), io.StringIO(), err)
    if isinstance(config, int):
        raise MatchFailedError(err.getvalue().strip() or "alice-match refused the settings")


class AliceMatchRunner:
    """The tuner's GameRunner: one alice-match run per batch, in this process."""

    def __init__(self, settings: MatchSettings) -> None:
        self.settings = settings

    def __call__(self, plus: dict[str, float], minus: dict[str, float], pairs: int, seed: int) -> Outcome:
        out, err = io.StringIO(), io.StringIO()
        config = configure(match_args(self.settings, plus, minus, pairs, seed), out, err)
        if isinstance(config, int):
            raise MatchFailedError(err.getvalue().strip() or "alice-match refused the settings")
        status, match = run_match(config, out, err)
        if status != 0 and getattr(match, "_interrupted", False):
            raise KeyboardInterrupt  # Ctrl-C: alice-match stopped its engines; the step is not counted
        if status != 0:
            tail = (out.getvalue() + err.getvalue()).strip().splitlines()[-TAIL_LINES:]
            raise MatchFailedError(f"alice-match stopped (status {status}): " + " | ".join(tail))
        return Outcome(match.score.wins, match.score.losses, match.score.draws)
