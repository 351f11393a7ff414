"""``python scripts/tune spsa ...``: the command line of the SPSA tuner (docs/tuning.md).

A new run reads the parameter file and makes fishtest's schedule for ``--games``; with
``--state FILE`` it is written there (atomically) after every step, and the same command
with an existing FILE continues that run (its schedule, θ and pairs played come from the
file; ``--params``, if given, must name the same constants). Ctrl-C stops after killing the
engines; the step in play is not counted. Errors: one ``tune spsa:`` line, exit 2.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import sys
from typing import Any

from search.tuning import TuneError, current_value, planned, source_path
from tune import spsa
from tune.spsa_games import DEFAULT_ENGINE, ROOT, AliceMatchRunner, MatchSettings, check_settings, limit_arg, tune_value

DEFAULT_GAMES = 2000  # games of a run when --games is not given (1000 pairs)
DEFAULT_LIMIT = "nodes=2000"  # -each limit when --tc is not given: fixed nodes, load-independent
EXIT_USAGE = 2  # bad parameter file, state file or match settings
EXIT_INTERRUPTED = 130  # Ctrl-C


def add_spsa_parser(sub: Any) -> None:
    """The ``spsa`` sub-command of ``python scripts/tune``."""
    tune = sub.add_parser("spsa", help="tune named constants by SPSA self-play (fishtest's schedule)")
    tune.add_argument("--params", help="parameter file: name,start,min,max,c_end,r_end per line")
    tune.add_argument("--games", type=int, default=DEFAULT_GAMES, help=f"games of the run (default {DEFAULT_GAMES})")
    tune.add_argument("--tc", default=DEFAULT_LIMIT, help="10+0.1, or nodes=N / depth=N / st=S (default nodes=2000)")
    tune.add_argument("--pairs", type=int, default=1, help="game pairs per step (default 1)")
    tune.add_argument("--concurrency", type=int, default=1, help="games at once, locally (default 1)")
    tune.add_argument("--cluster", help="play on Dask: local:N or tcp://HOST:8786 (docs/cluster.md)")
    tune.add_argument("--state", help="JSON state: written each step; an existing one is resumed")
    tune.add_argument("--seed", type=int, default=1, help="seed of the flips and openings (default 1)")
    tune.add_argument("--a-ratio", type=float, default=spsa.A_RATIO, help="A = this * games / 2 (0.1)")
    tune.add_argument("--alpha", type=float, default=spsa.ALPHA, help="decay of a_k (0.602)")
    tune.add_argument("--gamma", type=float, default=spsa.GAMMA, help="decay of c_k (0.101)")
    tune.add_argument("--engine", default=DEFAULT_ENGINE, help="engine command, pure or tuning build (default: this checkout)")
    tune.add_argument("--engine-dir", default=ROOT, help="the engines' working directory (default: the checkout)")
    tune.add_argument("--book", default="default", help="openings file for alice-match (default: the bundled book)")
    tune.add_argument("--match-args", default="", help="more alice-match options, e.g. adjudication")
    tune.add_argument("--steps", type=int, help="stop after this many steps (the run can be resumed)")
    tune.set_defaults(run=spsa_command)


def spsa_command(args: argparse.Namespace) -> int:
    """Start or resume a run, then play its steps."""
    try:
        state = _start(args)
        settings = _settings(args)
        check_settings(settings)
    except (spsa.SpsaError, TuneError, OSError) as error:
        print(f"tune spsa: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("tune spsa: interrupted before the first step", file=sys.stderr)
        return EXIT_INTERRUPTED
    try:
        spsa.run(state, AliceMatchRunner(settings), args.pairs, args.state, _say, args.steps)
    except KeyboardInterrupt:
        where = f"; {args.state} holds step {state.steps}: the same command continues" if args.state else ""
        print(f"tune spsa: interrupted{where}", file=sys.stderr)
        return EXIT_INTERRUPTED
    except spsa.SpsaError as error:
        print(f"tune spsa: {error}", file=sys.stderr)
        return 1
    _report(state, settings)
    return 0


def _say(line: str) -> None:
    print(line, flush=True)


def _start(args: argparse.Namespace) -> spsa.State:
    if args.pairs < 1 or args.concurrency < 1:
        raise spsa.SpsaError("--pairs and --concurrency must be at least 1")
    if args.state and os.path.exists(args.state):
        state = spsa.load_state(args.state)
        for p in state.params:
            current_value(p.name)  # the engine still has it: TuneError now, not a dead engine later
        if args.params:
            given = [p.name for p in _read_params(args.params)]
            if given != [p.name for p in state.params]:
                raise spsa.SpsaError(f"{args.params} names other constants than the run in {args.state}")
        print(f"resuming {args.state}: step {state.steps}, pairs {state.k}/{state.iterations}", flush=True)
        return state
    if not args.params:
        raise spsa.SpsaError("--params FILE is needed to start a run")
    state = spsa.new_state(_read_params(args.params), args.games, args.seed, args.a_ratio, args.alpha, args.gamma)
    for p in state.params:
        print(f"{p.name}: default {current_value(p.name):g}, start {p.start:g} in [{p.minimum:g}, {p.maximum:g}], "
              f"c {p.c:.4g} -> {p.c_end:g}, a {p.a:.4g}, A {state.big_a}, pairs {state.iterations}", flush=True)
    if args.state:
        spsa.save_state(args.state, state)
    return state


def _read_params(path: str) -> list[spsa.Param]:
    with open(path, encoding="utf-8") as f:
        params = spsa.parse_params(f.read(), path)
    for p in params:
        current_value(p.name)  # an unknown constant: TuneError now, not a dead engine later
    return params


def _settings(args: argparse.Namespace) -> MatchSettings:
    return MatchSettings(
        limit=args.tc,
        engine=args.engine,
        engine_dir=args.engine_dir or None,
        concurrency=args.concurrency,
        cluster=args.cluster,
        book=args.book,
        extra=tuple(shlex.split(args.match_args)),
    )


def _report(state: spsa.State, settings: MatchSettings) -> None:
    """The result: θ, and how to check it against the defaults before it lands."""
    values = {p.name: p.theta for p in state.params}
    head = "done" if state.done else "stopped (the same command with --state continues)"
    print(f"{head}: {state.steps} steps, {state.k}/{state.iterations} pairs, plus W-L-D {state.wins}-{state.losses}-{state.draws}")
    for p in state.params:
        print(f"  {p.name}: {current_value(p.name):g} -> {p.theta:.4g}")
    print(f"ALICE_TUNE='{tune_value(values)}'")
    for path, lines in source_lines(values).items():
        print(f"# {path}")
        for line in lines:
            print(line)
    where = f" dir={settings.engine_dir}" if settings.engine_dir else ""
    print("check it (SPRT) before it lands:  alice-match -engine cmd=\"env ALICE_TUNE='...' "
          f"{settings.engine}\" name=tuned{where} -engine cmd=\"{settings.engine}\" name=base{where} "
          f"-each {limit_arg(settings.limit)} -games 2 -rounds 5000 -repeat -openings file=default order=random "
          "-sprt elo0=0 elo1=5")


def source_lines(values: dict[str, float]) -> dict[str, list[str]]:
    """θ as the constants' source lines (ints rounded, tables whole, comments kept), by file."""
    out: dict[str, list[str]] = {}
    for base, value in planned(values).items():
        path = source_path(base)
        with open(path, encoding="utf-8") as f:
            match = re.search(rf"^{base}: (Final(?:\[[^=]*\])?) = [^#\n]*?(\s+#.*)?$", f.read(), re.MULTILINE)
        annotation, comment = (match.group(1), match.group(2) or "") if match else ("Final", "")
        relative = os.path.relpath(path, os.path.dirname(os.path.dirname(path)))
        out.setdefault(relative, []).append(f"{base}: {annotation} = {_tidy(value)!r}{comment}")
    return out


def _tidy(value: object) -> object:
    """Floats to 4 significant digits (SPSA's noise is far larger), in a table too."""
    if isinstance(value, float):
        return float(f"{value:.4g}")
    if isinstance(value, tuple):
        return tuple(_tidy(v) for v in value)
    return value
