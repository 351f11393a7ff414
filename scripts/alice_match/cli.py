"""``alice-match``: the command line (``USAGE`` lists the options) into a ``MatchConfig``.

The help text is a constant, not this docstring, so ``python -OO`` (no docstrings) keeps it.
"""

from __future__ import annotations

import contextlib
import math
import os
import re
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TextIO

from .cluster import ClusterSpec, parse_cluster
from .game import DrawAdjudication, GameSettings, ResignAdjudication
from .match import MatchConfig, SetupError, check_outputs, one_line, run_match
from .openings import DEFAULT_BOOK, OpeningBook, OpeningError, load_book
from .report import report_format
from .resume import ResumeError, read_text
from .schedule import KINDS, POLICIES
from .standings import FormatError, format_help, parse_format
from .stats import Sprt
from .tc import MAX_SECONDS, Limits, TcError, parse_count, parse_margin, parse_seconds, parse_tc, whole_number
from .uci_process import EngineConfig, unrunnable

USAGE = """alice-match: run Alice chess matches and tournaments between UCI engines, cutechess-cli style.

    alice-match -engine cmd=alice-engine name=alice option.Hash=32 \\
                -engine cmd="python -m alice_match.players greedy" name=greedy \\
                -each tc=10+0.1 -games 2 -rounds 50 -repeat -concurrency 2 \\
                -openings file=scripts/alice_match/openings.epd order=random \\
                -sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 -pgnout games.pgn

    alice-match -tournament round-robin -engine cmd=alice-engine name=alice \\
                -engine cmd="python -m alice_match.players greedy" name=greedy \\
                -engine cmd="python -m alice_match.players random" name=random \\
                -each nodes=500 -games 2 -repeat -openings file=default \\
                -pgnout t.pgn -report standings.md

Options (as in cutechess-cli where it has them):
  -engine KEY=VALUE...  one engine (give two or more): cmd=COMMAND (split like a shell unless
                        it is a file), name=NAME, arg=ARG (repeatable), dir=DIR,
                        option.NAME=VALUE, proto=uci, restart=on (new process every game) |
                        off | auto (default: restart only after a crash or kill), ponder
                        (think on the opponent's time), and any limit below
  -each KEY=VALUE...    settings for every engine (an -engine's own value wins)
      limits:           tc=[MOVES/]TIME[+INC] (seconds or m:ss, or inf), st=SECONDS,
                        nodes=N, depth=N, timemargin=MS
  -tournament TYPE      round-robin (default), gauntlet (the first engine, or the first
                        -seeds N, against the rest) or knockout (a seeded bracket)
  -variant alice        the only variant played
  -games N              games per encounter (default 1); -rounds N: the whole schedule N
                        times (not in a knockout)
  -repeat [N]           play each opening N times (default 2); a new encounter takes a new
                        opening
  -noswap               do not alternate colours between the games of a pair
  -reverse              the schedule with colours reversed
  -seeds N              gauntlet: engines playing the rest (default 1); knockout: engines
                        seeded in -engine order (default all; the rest drawn with -srand)
  -openings file=FILE [format=epd|pgn] [order=sequential|random] [start=N] [plies=N]
            [policy=default|encounter|round]
                        (default book: the bundled openings.epd with file=default)
  -pgnout FILE [min]    append games to FILE (min: no move comments)
  -epdout FILE          append each game's final position (FEN) to FILE
  -resume               continue the tournament of the -pgnout file (same options)
  -report FILE.md|FILE.html   standings and crosstable for a web site
  -concurrency N        games played at once (default 1)
  -wait MS              pause between games
  -sprt elo0=E0 elo1=E1 [alpha=A] [beta=B] [model=pentanomial|trinomial]
                        stop when the test decides (two engines); pentanomial (fishtest's, over
                        game pairs, logistic Elo) is the default with -repeat, else trinomial
                        (cutechess's, BayesElo)
  -draw movenumber=N movecount=N score=CP
  -resign movecount=N score=CP [twosided=true|false]
  -maxmoves N           draw after N full moves
  -tb DIR               adjudicate a position the endgame tables in DIR cover (alice-engine tb)
  -recover              restart an engine that crashed and continue
  -srand N              seed for order=random and the knockout draw
  -event NAME, -site NAME
  -ratinginterval N     standings every N games (default 10)
  -outcomeinterval N    each engine's outcome counts every N games and at the end
  -resultformat FORMAT  standings columns: default, short, per-color, ... or a list like
                        Rank,Name,Elo,Games (-resultformat help lists them)
  -debug                engine I/O (and the engines' stderr) on stderr
  -stalltimeout SECONDS how long an engine without a clock may think (default 60)
  -cluster ADDRESS|local:N [timeout=S] [tcscale=on]
                        play the games on a Dask cluster (pip install 'alice-engine[cluster]'):
                        a scheduler's address (tcp://host:8786) or N local worker processes;
                        timeout= to reach it (default 10 s); tcscale=on scales time controls
                        by each worker's measured speed (see docs/cluster.md)

Bad configuration (an unknown option, a bad value, a file that cannot be read or written, an
engine that cannot be started or does not complete its handshake before the first game) gets
one "alice-match: ..." line on stderr and exit status 2, before any game starts.
"""

OPTIONS_WITH_VALUES = {
    "-engine": None,
    "-each": None,
    "-tournament": 1,
    "-variant": 1,
    "-games": 1,
    "-rounds": 1,
    "-repeat": (0, 1),
    "-noswap": 0,
    "-reverse": 0,
    "-seeds": 1,
    "-openings": None,
    "-pgnout": (1, 2),
    "-epdout": 1,
    "-resume": 0,
    "-report": 1,
    "-concurrency": 1,
    "-wait": 1,
    "-sprt": None,
    "-draw": None,
    "-resign": None,
    "-maxmoves": 1,
    "-tb": 1,
    "-recover": 0,
    "-srand": 1,
    "-event": 1,
    "-site": 1,
    "-ratinginterval": 1,
    "-outcomeinterval": 1,
    "-resultformat": 1,
    "-debug": 0,
    "-stalltimeout": 1,
    "-cluster": (1, 3),
    "-help": 0,
    "--help": 0,
    "-h": 0,
}
ENGINE_KEYS = {"cmd", "name", "arg", "dir", "proto", "restart", "tc", "st", "nodes", "depth", "timemargin"}
ENGINE_FLAGS = {"ponder"}  # keys given without a value
OPENING_KEYS = {"file", "format", "order", "start", "plies", "policy"}
DEFAULT_REPEAT = 2  # -repeat without a number
# Options read as they are into MatchConfig fields of the same name.
PASSED_THROUGH = (
    "repeat", "pgnout", "pgn_min", "concurrency", "sprt", "recover", "event", "site", "rating_interval", "debug",
    "tournament", "swap", "reverse", "seeds", "epdout", "outcome_interval", "wait_ms", "result_format", "report",
    "resume", "cluster",
)  # fmt: skip
DEFAULT_STALL_TIMEOUT = 60.0  # seconds
MAX_CONCURRENCY = 256  # games at once on this machine (each has two engine processes)
STOP_SIGNALS = ("SIGTERM", "SIGHUP")  # signals that stop a match as Ctrl-C does


class UsageError(ValueError):
    """Bad command-line arguments."""


class HelpRequested(Exception):
    """``-help`` or ``-resultformat help``: print ``text`` and exit 0."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


def split_options(argv: Sequence[str]) -> list[tuple[str, list[str]]]:
    """``[("-engine", ["cmd=x", "name=y"]), ("-games", ["4"]), ...]``; values run to the next option."""
    groups: list[tuple[str, list[str]]] = []
    for token in argv:
        if token in OPTIONS_WITH_VALUES:
            groups.append((token, []))
        elif token.startswith("-") and "=" not in token and not _is_number(token):
            raise UsageError(f"unknown option {token!r} (see -help)")
        elif not groups:
            raise UsageError(f"unexpected argument {token!r}: options start with '-'")
        else:
            groups[-1][1].append(token)
    for name, values in groups:
        want = OPTIONS_WITH_VALUES[name]
        if want is None:
            if not values:
                raise UsageError(f"{name} needs KEY=VALUE arguments")
        elif isinstance(want, tuple):
            if not want[0] <= len(values) <= want[1]:
                raise UsageError(f"{name} takes {want[0]} to {want[1]} values, got {values}")
        elif len(values) != want:
            raise UsageError(f"{name} takes {want} value{'s' if want != 1 else ''}, got {values}")
    return groups


def _is_number(token: str) -> bool:
    try:
        float(token)
    except ValueError:
        return False
    return True


def key_values(option: str, values: list[str], flags: set[str] | None = None) -> list[tuple[str, str]]:
    """``KEY=VALUE`` pairs; a bare word in ``flags`` (``ponder``) reads as ``ponder=true``."""
    pairs = []
    for value in values:
        if flags and value in flags:
            pairs.append((value, "true"))
            continue
        if "=" not in value:
            raise UsageError(f"{option}: expected KEY=VALUE, got {value!r}")
        key, _, val = value.partition("=")
        pairs.append((key, val))
    return pairs


@dataclass
class EngineSpec:
    """One ``-engine`` (or ``-each``) as given: its key/value pairs."""

    values: dict[str, str] = field(default_factory=dict)
    args: list[str] = field(default_factory=list)
    options: dict[str, str] = field(default_factory=dict)

    def add(self, option: str, pairs: list[tuple[str, str]]) -> None:
        for key, value in pairs:
            if key.startswith("option."):
                name = key[len("option.") :]
                if not name:
                    raise UsageError(f"{option}: empty option name in {key}={value}")
                self.options[name] = value
            elif key == "arg":
                self.args.append(value)
            elif key in ENGINE_KEYS or key in ENGINE_FLAGS:
                self.values[key] = value
            else:
                raise UsageError(f"{option}: unknown key {key!r}")


def build_limits(values: dict[str, str], who: str) -> Limits:
    try:
        tc = parse_tc(values["tc"]) if "tc" in values else None
        st = parse_seconds(values["st"], "st") if "st" in values else None
        nodes = parse_count(values["nodes"], "nodes") if "nodes" in values else None
        depth = parse_count(values["depth"], "depth") if "depth" in values else None
        margin = parse_margin(values.get("timemargin", "0"))
    except TcError as error:
        raise UsageError(f"{who}: {error}") from None
    if tc is not None and tc.infinite:
        if nodes is None and depth is None and st is None:
            raise UsageError(f"{who}: tc=inf needs nodes=, depth= or st= to end a search")
        tc = None
    if tc is None and st is None and nodes is None and depth is None:
        raise UsageError(f"{who}: no limit: give tc=, st=, nodes= or depth= (in -engine or -each)")
    return Limits(tc=tc, movetime_ms=st, nodes=nodes, depth=depth, margin_ms=margin)


def _int(option: str, text: str, minimum: int = 1, maximum: int | None = None) -> int:
    """``text`` as an integer from ``minimum`` to ``maximum``; ``UsageError`` if it is not (a
    number of thousands of digits too, which ``int`` would refuse with a traceback)."""
    negative = text.startswith("-")
    digits = text[1:] if negative or text.startswith("+") else text
    shown = one_line(text) if len(text) <= 40 else f"{one_line(text)[:40]}... ({len(text)} characters)"
    if not re.fullmatch(r"[0-9]+", digits):
        raise UsageError(f"{option}: expected an integer, got {shown!r}")
    value = -whole_number(digits) if negative else whole_number(digits)
    if value < minimum:
        raise UsageError(f"{option}: must be at least {minimum}, got {shown}")
    if maximum is not None and value > maximum:
        raise UsageError(f"{option}: must be at most {maximum}, got {shown}")
    return value


def _float(option: str, text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise UsageError(f"{option}: expected a number, got {text!r}") from None


def _bool(option: str, text: str) -> bool:
    if text.lower() in ("true", "on", "yes", "1"):
        return True
    if text.lower() in ("false", "off", "no", "0"):
        return False
    raise UsageError(f"{option}: expected true or false, got {text!r}")


@dataclass
class Options:
    """The command line as read, before it becomes a ``MatchConfig``."""

    each: EngineSpec = field(default_factory=EngineSpec)
    engines: list[EngineSpec] = field(default_factory=list)
    tournament: str = "round-robin"
    games: int | None = None
    rounds: int | None = None
    repeat: int = 1
    swap: bool = True
    reverse: bool = False
    seeds: int | None = None
    concurrency: int = 1
    wait_ms: int = 0
    openings: dict[str, str] | None = None
    pgnout: str | None = None
    pgn_min: bool = False
    epdout: str | None = None
    resume: bool = False
    report: str | None = None
    sprt: Sprt | None = None
    draw: DrawAdjudication | None = None
    resign: ResignAdjudication | None = None
    maxmoves: int | None = None
    tb: str | None = None
    recover: bool = False
    seed: int | None = None
    event: str = "?"
    site: str = "?"
    rating_interval: int = 10
    outcome_interval: int = 0
    result_format: list[str] = field(default_factory=lambda: parse_format("default"))
    debug: bool = False
    stall_timeout: float = DEFAULT_STALL_TIMEOUT
    cluster: ClusterSpec | None = None


# --------------------------------------------------------------------- one handler per option
def _engine(o: Options, option: str, values: list[str]) -> None:
    spec = EngineSpec()
    spec.add(option, key_values(option, values, ENGINE_FLAGS))
    o.engines.append(spec)


def _each(o: Options, option: str, values: list[str]) -> None:
    o.each.add(option, key_values(option, values, ENGINE_FLAGS))


def _tournament(o: Options, option: str, values: list[str]) -> None:
    if values[0] not in KINDS:
        raise UsageError(f"-tournament {values[0]}: expected one of {', '.join(KINDS)}")
    o.tournament = values[0]


def _variant(o: Options, option: str, values: list[str]) -> None:
    if values[0].lower() != "alice":
        raise UsageError(f"-variant {values[0]}: only alice is played")


def _openings(o: Options, option: str, values: list[str]) -> None:
    spec = dict(key_values(option, values))
    unknown = set(spec) - OPENING_KEYS
    if unknown:
        raise UsageError(f"-openings: unknown key {min(unknown)!r}")
    if "file" not in spec:
        raise UsageError("-openings needs file=FILE (file=default: the bundled book)")
    if spec.get("policy", "default") not in POLICIES:
        raise UsageError(f"-openings: bad policy {spec['policy']!r}: expected {', '.join(POLICIES)}")
    o.openings = spec


def _file_name(option: str, text: str) -> str:
    """A file name to write (``-pgnout``, ``-epdout``): not empty (an empty name would write nothing)."""
    if not text.strip():
        raise UsageError(f"{option}: the file name is empty")
    return text


def _pgnout(o: Options, option: str, values: list[str]) -> None:
    o.pgnout = _file_name(option, values[0])
    if len(values) == 2:
        if values[1] != "min":
            raise UsageError(f"-pgnout: expected 'min' after the file name, got {values[1]!r}")
        o.pgn_min = True


def _report(o: Options, option: str, values: list[str]) -> None:
    if report_format(values[0]) is None:
        raise UsageError(f"-report {values[0]}: the file name must end in .md or .html")
    o.report = values[0]


def _sprt(o: Options, option: str, values: list[str]) -> None:
    kv = dict(key_values(option, values))
    if not {"elo0", "elo1"} <= set(kv) or set(kv) - {"elo0", "elo1", "alpha", "beta", "model"}:
        raise UsageError("-sprt takes elo0=E0 elo1=E1 [alpha=A] [beta=B] [model=pentanomial|trinomial]")
    if kv.get("model", "pentanomial") not in ("pentanomial", "trinomial"):
        raise UsageError(f"-sprt: model={kv['model']}: expected pentanomial or trinomial")
    sprt = Sprt(
        _float(option, kv["elo0"]),
        _float(option, kv["elo1"]),
        _float(option, kv.get("alpha", "0.05")),
        _float(option, kv.get("beta", "0.05")),
        kv.get("model", ""),
    )
    finite = all(math.isfinite(x) and abs(x) < 1e4 for x in (sprt.elo0, sprt.elo1))
    if not (0 < sprt.alpha < 1 and 0 < sprt.beta < 1) or sprt.elo0 == sprt.elo1 or not finite:
        raise UsageError("-sprt: need 0 < alpha, beta < 1, elo0 != elo1, and Elo bounds within +-10000")
    o.sprt = sprt


def _draw(o: Options, option: str, values: list[str]) -> None:
    kv = dict(key_values(option, values))
    if set(kv) != {"movenumber", "movecount", "score"}:
        raise UsageError("-draw takes movenumber=N movecount=N score=CP")
    o.draw = DrawAdjudication(
        _int(option, kv["movenumber"], 0), _int(option, kv["movecount"]), _int(option, kv["score"], 0)
    )


def _tb(o: Options, option: str, values: list[str]) -> None:
    if not os.path.isdir(values[0]):
        raise UsageError(f"-tb: {values[0]} is not a directory")
    o.tb = os.path.abspath(values[0])


def _resign(o: Options, option: str, values: list[str]) -> None:
    kv = dict(key_values(option, values))
    if not {"movecount", "score"} <= set(kv) or set(kv) - {"movecount", "score", "twosided"}:
        raise UsageError("-resign takes movecount=N score=CP [twosided=true|false]")
    o.resign = ResignAdjudication(
        _int(option, kv["movecount"]), _int(option, kv["score"], 0), _bool(option, kv.get("twosided", "false"))
    )


def _result_format(o: Options, option: str, values: list[str]) -> None:
    if values[0] == "help":
        raise HelpRequested(format_help())
    try:
        o.result_format = parse_format(values[0])
    except FormatError as error:
        raise UsageError(f"-resultformat: {error}") from None


def _stall_timeout(o: Options, option: str, values: list[str]) -> None:
    o.stall_timeout = _float(option, values[0])
    if not 0 < o.stall_timeout < 1e9:
        raise UsageError("-stalltimeout must be a positive number of seconds")


def _concurrency(o: Options, option: str, values: list[str]) -> None:
    o.concurrency = _int(option, values[0])
    if o.concurrency > MAX_CONCURRENCY:
        raise UsageError(f"-concurrency {o.concurrency}: at most {MAX_CONCURRENCY} games at once")


def _cluster(o: Options, option: str, values: list[str]) -> None:
    try:
        o.cluster = parse_cluster(values[0], dict(key_values(option, values[1:])))
    except ValueError as error:
        raise UsageError(f"-cluster: {error}") from None


def _help(o: Options, option: str, values: list[str]) -> None:
    raise HelpRequested(USAGE.strip())


def _setter(attr: str, convert: Callable[[str, list[str]], object]) -> Callable[[Options, str, list[str]], None]:
    """A handler that stores ``convert(option, values)`` in ``Options.attr``."""

    def handler(o: Options, option: str, values: list[str]) -> None:
        setattr(o, attr, convert(option, values))

    return handler


def _count(minimum: int = 1, maximum: int | None = None) -> Callable[[str, list[str]], int]:
    return lambda option, values: _int(option, values[0], minimum, maximum)


HANDLERS: dict[str, Callable[[Options, str, list[str]], None]] = {
    "-engine": _engine,
    "-each": _each,
    "-tournament": _tournament,
    "-variant": _variant,
    "-games": _setter("games", _count()),
    "-rounds": _setter("rounds", _count()),
    "-repeat": _setter("repeat", lambda option, v: _int(option, v[0]) if v else DEFAULT_REPEAT),
    "-noswap": _setter("swap", lambda option, v: False),
    "-reverse": _setter("reverse", lambda option, v: True),
    "-seeds": _setter("seeds", _count(0)),
    "-concurrency": _concurrency,
    "-wait": _setter("wait_ms", _count(0, MAX_SECONDS * 1000)),
    "-openings": _openings,
    "-pgnout": _pgnout,
    "-epdout": _setter("epdout", lambda option, v: _file_name(option, v[0])),
    "-resume": _setter("resume", lambda option, v: True),
    "-report": _report,
    "-sprt": _sprt,
    "-draw": _draw,
    "-resign": _resign,
    "-maxmoves": _setter("maxmoves", _count()),
    "-tb": _tb,
    "-recover": _setter("recover", lambda option, v: True),
    "-srand": _setter("seed", _count(0)),
    "-event": _setter("event", lambda option, v: v[0]),
    "-site": _setter("site", lambda option, v: v[0]),
    "-ratinginterval": _setter("rating_interval", _count(0)),
    "-outcomeinterval": _setter("outcome_interval", _count(0)),
    "-resultformat": _result_format,
    "-debug": _setter("debug", lambda option, v: True),
    "-stalltimeout": _stall_timeout,
    "-cluster": _cluster,
    "-help": _help,
    "--help": _help,
    "-h": _help,
}


# --------------------------------------------------------------------- from options to a configuration
def read_options(argv: Sequence[str]) -> Options:
    """Every option through its handler; raises ``UsageError`` (or ``HelpRequested``)."""
    options = Options()
    for option, values in split_options(argv):
        HANDLERS[option](options, option, values)
    return options


def check_options(o: Options) -> None:
    """Rules between options: engine count and names, knockout rounds, SPRT, resume."""
    if len(o.engines) < 2:
        raise UsageError(f"at least two engines are needed: give -engine two or more times (got {len(o.engines)})")
    names: dict[str, int] = {}
    for i, spec in enumerate(o.engines, 1):
        name = spec.values.get("name")
        if name is not None and name in names:
            raise UsageError(f"engines {names[name]} and {i} are both named {name!r}: engine names must differ")
        if name is not None:
            names[name] = i
    if o.tournament == "knockout" and o.rounds is not None:
        raise UsageError("-rounds: a knockout has no rounds to repeat (use -games)")
    if o.sprt is not None and len(o.engines) != 2:
        raise UsageError("-sprt needs exactly two engines")
    if o.sprt is not None and o.sprt.model == "pentanomial" and not (o.repeat == 2 and o.swap):
        raise UsageError("-sprt model=pentanomial counts game pairs: give -repeat (each opening twice, colours swapped)")
    if o.resume and not o.pgnout:
        raise UsageError("-resume continues the games of -pgnout FILE: give -pgnout")


def build_engines(o: Options) -> tuple[list[EngineConfig], list[Limits]]:
    """Each engine's configuration and limits (its own values over ``-each``)."""
    configs, limits = [], []
    for i, spec in enumerate(o.engines, 1):
        merged = {**o.each.values, **spec.values}
        who = f"engine {i}"
        if "cmd" not in merged:
            raise UsageError(f"{who}: missing cmd=")
        if not merged["cmd"].strip():
            raise UsageError(f"{who}: cmd= is empty: give the engine's command")
        if merged.get("proto", "uci") != "uci":
            raise UsageError(f"{who}: only proto=uci is supported")
        restart = merged.get("restart", "auto")
        if restart not in ("on", "off", "auto"):
            raise UsageError(f"{who}: restart must be on, off or auto")
        configs.append(
            EngineConfig(
                cmd=merged["cmd"],
                name=merged.get("name"),
                args=spec.args or o.each.args,
                dir=merged.get("dir"),
                options={**o.each.options, **spec.options},
                restart=restart == "on",
                ponder="ponder" in merged,
            )
        )
        try:
            configs[-1].argv()
        except ValueError as error:  # shlex: an unclosed quotation
            raise UsageError(f"{who}: cmd={merged['cmd']}: {error}") from None
        limits.append(build_limits(merged, who))
    clocked = {lim.tc is not None for lim in limits}
    if len(clocked) > 1:
        both = "both" if len(limits) == 2 else "all"
        raise UsageError(f"either {both} engines play with a clock (tc=) or {'neither' if both == 'both' else 'none'}")
    return configs, limits


def build_config(o: Options, engines: list[EngineConfig], limits: list[Limits], seed: int) -> MatchConfig:
    settings = GameSettings(
        limits=(limits[0], limits[1]), draw=o.draw, resign=o.resign, maxmoves=o.maxmoves, stall_timeout=o.stall_timeout,
        tb=o.tb,
    )
    return MatchConfig(
        engines=tuple(engines),
        limits=tuple(limits),
        games=o.games or 1,
        rounds=o.rounds or 1,
        settings=settings,
        opening_policy=(o.openings or {}).get("policy", "default"),
        seed=seed,
        **{name: getattr(o, name) for name in PASSED_THROUGH},
    )


def load_openings(spec: dict[str, str], config: MatchConfig) -> None:
    """Fill ``config.openings`` from ``-openings``: the book in playing order (shuffled with
    ``-srand`` for ``order=random``, from ``start=``); game ``n``'s opening index wraps around it."""
    path = spec["file"]
    if path == "default":
        path = DEFAULT_BOOK
    problem = unreadable(path)
    if problem:
        raise UsageError(f"-openings file={spec['file']}: {problem}")
    try:
        plies = _int("-openings plies", spec["plies"]) if "plies" in spec else None
        book = OpeningBook(
            load_book(path, spec.get("format"), plies),
            order=spec.get("order", "sequential"),
            start=_int("-openings start", spec.get("start", "1")),
        )
    except OpeningError as error:
        raise UsageError(f"-openings: {error}") from None
    config.openings = book.sequence(len(book.openings), config.seed)


def unreadable(path: str) -> str | None:
    """Why ``path`` is no readable regular file (``None`` if it is one)."""
    if not os.path.exists(path):
        return "no such file"
    if os.path.isdir(path):
        return "is a folder, not a file"
    if not os.path.isfile(path):
        return "is not a regular file"
    if not os.access(path, os.R_OK):
        return "cannot be read (permission denied)"
    return None


def check_resume(config: MatchConfig) -> None:
    """``-resume``: the ``-pgnout`` file, if it exists, must be UTF-8 text (its games are read
    when the run starts)."""
    path = config.pgnout
    if not config.resume or path is None or not os.path.exists(path) or os.path.isdir(path):
        return
    try:
        read_text(path)
    except ResumeError as error:
        raise UsageError(f"-resume: {error}") from None


def parse_args(argv: Sequence[str]) -> tuple[MatchConfig, int]:
    """The match configuration and the random seed; raises ``UsageError`` (``HelpRequested``)."""
    options = read_options(argv)
    check_options(options)
    engines, limits = build_engines(options)
    seed = options.seed if options.seed is not None else int(time.time() * 1000) % 2**31
    config = build_config(options, engines, limits, seed)
    if options.openings is not None:
        load_openings(options.openings, config)
    return config, seed


def check_commands(config: MatchConfig) -> None:
    """Every engine's command must exist before any game starts (on this machine; on a
    cluster every worker checks its own)."""
    if config.cluster is not None:
        return  # commands and dir= name things on the workers: they check them
    for i, engine in enumerate(config.engines, 1):
        if engine.dir is not None and not os.path.isdir(engine.dir):
            raise UsageError(f"engine {i} ({engine.name or engine.cmd}): dir={engine.dir}: no such folder")
        problem = unrunnable(engine)
        if problem:
            raise UsageError(f"engine {i} ({engine.name or engine.cmd}): {problem}")


def check_files(config: MatchConfig) -> None:
    """Every file the run reads or writes, before any engine starts."""
    try:
        check_outputs(config)
    except SetupError as error:
        raise UsageError(str(error)) from None
    check_resume(config)


def prepare(argv: Sequence[str]) -> MatchConfig:
    """The checked configuration of a command line; raises ``UsageError`` (or ``HelpRequested``)."""
    config, _ = parse_args(argv)
    check_commands(config)
    check_files(config)
    return config


def configure(args: Sequence[str], out: TextIO | None = None, err: TextIO | None = None) -> MatchConfig | int:
    """The checked configuration of ``args``, or the exit status once the help (0, on ``out``)
    or the one ``alice-match:`` error line (2, on ``err``) is printed."""
    out = out or sys.stdout
    err = err or sys.stderr
    if not args:
        print(USAGE.strip(), file=out)
        return 2
    try:
        return prepare(args)
    except HelpRequested as request:
        print(request.text, file=out)
        return 0
    except UsageError as error:
        print(f"alice-match: {one_line(str(error))}", file=err)
        return 2


def _interrupt(signum: int, frame: object) -> None:
    """SIGTERM or SIGHUP: stop as on Ctrl-C (the engines are killed, the games in play dropped);
    a second one while stopping is ignored, so the engines are surely killed."""
    for name in STOP_SIGNALS:
        signal.signal(getattr(signal, name), signal.SIG_IGN)
    raise KeyboardInterrupt


@contextlib.contextmanager
def stop_signals_as_ctrl_c() -> Iterator[None]:
    """While the match runs, SIGTERM and SIGHUP act as Ctrl-C (SIGINT); the previous handlers
    come back after. Only the main thread can set handlers: elsewhere nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    numbers = [getattr(signal, name) for name in STOP_SIGNALS if hasattr(signal, name)]
    before = {number: signal.signal(number, _interrupt) for number in numbers}
    try:
        yield
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)


def main(argv: Sequence[str] | None = None) -> int:
    with stop_signals_as_ctrl_c():
        try:
            config = configure(list(sys.argv[1:] if argv is None else argv))
            if isinstance(config, int):
                return config
            if not config.two_engines and config.games % config.repeat:
                print(f"warning: {config.repeat} opening repetitions vs {config.games} games per encounter", file=sys.stderr)
            status, _ = run_match(config)
        except KeyboardInterrupt:  # while reading the options (a match stops its own engines first)
            print("alice-match: interrupted", file=sys.stderr)
            return 1
    return status


if __name__ == "__main__":
    sys.exit(main())
