"""``alice-match``: run Alice chess matches between two UCI engines, cutechess-cli style.

    alice-match -engine cmd=alice-engine name=alice option.Hash=32 \\
                -engine cmd="python -m alice_match.players greedy" name=greedy \\
                -each tc=10+0.1 -games 2 -rounds 50 -repeat -concurrency 2 \\
                -openings file=scripts/alice_match/openings.epd order=random \\
                -sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 -pgnout games.pgn

Options (as in cutechess-cli where it has them):
  -engine KEY=VALUE...  one engine (give two): cmd=COMMAND (split like a shell unless it is
                        a file), name=NAME, arg=ARG (repeatable), dir=DIR, option.NAME=VALUE,
                        proto=uci, restart=on (new process every game) | off | auto
                        (default: restart only after a crash or kill), and any limit below
  -each KEY=VALUE...    settings for both engines (an -engine's own value wins)
      limits:           tc=[MOVES/]TIME[+INC] (seconds or m:ss, or inf), st=SECONDS,
                        nodes=N, depth=N, timemargin=MS
  -variant alice        the only variant played
  -games N              games per round (default 1); -rounds N (default 1)
  -repeat [N]           play each opening N times (default 2), colours swapped
  -openings file=FILE [format=epd|pgn] [order=sequential|random] [start=N] [plies=N]
                        (default book: the bundled openings.epd with -openings default)
  -pgnout FILE [min]    append games to FILE (min: no move comments)
  -concurrency N        games played at once (default 1)
  -sprt elo0=E0 elo1=E1 alpha=A beta=B   stop when the test decides
  -draw movenumber=N movecount=N score=CP
  -resign movecount=N score=CP [twosided=true|false]
  -maxmoves N           draw after N full moves
  -recover              restart an engine that crashed and continue the match
  -srand N              seed for order=random
  -event NAME, -site NAME, -ratinginterval N (default 10)
  -debug                engine I/O (and the engines' stderr) on stderr
  -stalltimeout SECONDS how long an engine without a clock may think (default 60)
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from .game import DrawAdjudication, GameSettings, ResignAdjudication
from .match import MatchConfig, run_match
from .openings import DEFAULT_BOOK, OpeningBook, OpeningError, load_book
from .stats import Sprt
from .tc import Limits, TcError, parse_count, parse_seconds, parse_tc
from .uci_process import EngineConfig

OPTIONS_WITH_VALUES = {
    "-engine": None,
    "-each": None,
    "-variant": 1,
    "-games": 1,
    "-rounds": 1,
    "-repeat": (0, 1),
    "-openings": None,
    "-pgnout": (1, 2),
    "-concurrency": 1,
    "-sprt": None,
    "-draw": None,
    "-resign": None,
    "-maxmoves": 1,
    "-recover": 0,
    "-srand": 1,
    "-event": 1,
    "-site": 1,
    "-ratinginterval": 1,
    "-debug": 0,
    "-stalltimeout": 1,
    "-help": 0,
    "--help": 0,
    "-h": 0,
}
ENGINE_KEYS = {"cmd", "name", "arg", "dir", "proto", "restart", "tc", "st", "nodes", "depth", "timemargin"}


class UsageError(ValueError):
    """Bad command-line arguments."""


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


def key_values(option: str, values: list[str]) -> list[tuple[str, str]]:
    pairs = []
    for value in values:
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
            elif key in ENGINE_KEYS:
                self.values[key] = value
            else:
                raise UsageError(f"{option}: unknown key {key!r}")


def build_limits(values: dict[str, str], who: str) -> Limits:
    try:
        tc = parse_tc(values["tc"]) if "tc" in values else None
        st = parse_seconds(values["st"], "st") if "st" in values else None
        nodes = parse_count(values["nodes"], "nodes") if "nodes" in values else None
        depth = parse_count(values["depth"], "depth") if "depth" in values else None
        margin = int(values.get("timemargin", "0"))
    except TcError as error:
        raise UsageError(f"{who}: {error}") from None
    except ValueError:
        raise UsageError(f"{who}: bad timemargin {values.get('timemargin')!r}: expected milliseconds") from None
    if margin < 0:
        raise UsageError(f"{who}: timemargin must not be negative")
    if tc is not None and tc.infinite:
        if nodes is None and depth is None and st is None:
            raise UsageError(f"{who}: tc=inf needs nodes=, depth= or st= to end a search")
        tc = None
    if tc is None and st is None and nodes is None and depth is None:
        raise UsageError(f"{who}: no limit: give tc=, st=, nodes= or depth= (in -engine or -each)")
    return Limits(tc=tc, movetime_ms=st, nodes=nodes, depth=depth, margin_ms=margin)


def _int(option: str, text: str, minimum: int = 1) -> int:
    try:
        value = int(text)
    except ValueError:
        raise UsageError(f"{option}: expected an integer, got {text!r}") from None
    if value < minimum:
        raise UsageError(f"{option}: must be at least {minimum}, got {value}")
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


def parse_args(argv: Sequence[str]) -> tuple[MatchConfig, int]:
    """The match configuration and the random seed; raises ``UsageError``."""
    groups = split_options(argv)
    each = EngineSpec()
    engines: list[EngineSpec] = []
    games = rounds = None
    repeat = 1
    concurrency = 1
    openings_spec: dict[str, str] | None = None
    pgnout: str | None = None
    pgn_min = False
    sprt: Sprt | None = None
    draw: DrawAdjudication | None = None
    resign: ResignAdjudication | None = None
    maxmoves: int | None = None
    recover = False
    seed: int | None = None
    event, site = "?", "?"
    rating_interval = 10
    debug = False
    stall_timeout = 60.0
    for option, values in groups:
        if option in ("-help", "--help", "-h"):
            raise UsageError("help")
        if option == "-engine":
            spec = EngineSpec()
            spec.add(option, key_values(option, values))
            engines.append(spec)
        elif option == "-each":
            each.add(option, key_values(option, values))
        elif option == "-variant":
            if values[0].lower() != "alice":
                raise UsageError(f"-variant {values[0]}: only alice is played")
        elif option == "-games":
            games = _int(option, values[0])
        elif option == "-rounds":
            rounds = _int(option, values[0])
        elif option == "-repeat":
            repeat = _int(option, values[0]) if values else 2
        elif option == "-concurrency":
            concurrency = _int(option, values[0])
        elif option == "-openings":
            openings_spec = dict(key_values(option, values))
            unknown = set(openings_spec) - {"file", "format", "order", "start", "plies"}
            if unknown:
                raise UsageError(f"-openings: unknown key {min(unknown)!r}")
            if "file" not in openings_spec:
                raise UsageError("-openings needs file=FILE (file=default: the bundled book)")
        elif option == "-pgnout":
            pgnout = values[0]
            if len(values) == 2:
                if values[1] != "min":
                    raise UsageError(f"-pgnout: expected 'min' after the file name, got {values[1]!r}")
                pgn_min = True
        elif option == "-sprt":
            kv = dict(key_values(option, values))
            if not {"elo0", "elo1"} <= set(kv) or set(kv) - {"elo0", "elo1", "alpha", "beta"}:
                raise UsageError("-sprt takes elo0=E0 elo1=E1 [alpha=A] [beta=B]")
            sprt = Sprt(
                _float(option, kv["elo0"]),
                _float(option, kv["elo1"]),
                _float(option, kv.get("alpha", "0.05")),
                _float(option, kv.get("beta", "0.05")),
            )
            if not (0 < sprt.alpha < 1 and 0 < sprt.beta < 1) or sprt.elo0 == sprt.elo1:
                raise UsageError("-sprt: need 0 < alpha, beta < 1 and elo0 != elo1")
        elif option == "-draw":
            kv = dict(key_values(option, values))
            if set(kv) != {"movenumber", "movecount", "score"}:
                raise UsageError("-draw takes movenumber=N movecount=N score=CP")
            draw = DrawAdjudication(
                _int(option, kv["movenumber"], 0), _int(option, kv["movecount"]), _int(option, kv["score"], 0)
            )
        elif option == "-resign":
            kv = dict(key_values(option, values))
            if not {"movecount", "score"} <= set(kv) or set(kv) - {"movecount", "score", "twosided"}:
                raise UsageError("-resign takes movecount=N score=CP [twosided=true|false]")
            resign = ResignAdjudication(
                _int(option, kv["movecount"]),
                _int(option, kv["score"], 0),
                _bool(option, kv.get("twosided", "false")),
            )
        elif option == "-maxmoves":
            maxmoves = _int(option, values[0])
        elif option == "-recover":
            recover = True
        elif option == "-srand":
            seed = _int(option, values[0], 0)
        elif option == "-event":
            event = values[0]
        elif option == "-site":
            site = values[0]
        elif option == "-ratinginterval":
            rating_interval = _int(option, values[0], 0)
        elif option == "-debug":
            debug = True
        elif option == "-stalltimeout":
            stall_timeout = _float(option, values[0])
            if stall_timeout <= 0:
                raise UsageError("-stalltimeout must be positive")
    if len(engines) != 2:
        raise UsageError(f"give exactly two engines with -engine (got {len(engines)})")
    configs = []
    limits = []
    for i, spec in enumerate(engines, 1):
        merged = {**each.values, **spec.values}
        options = {**each.options, **spec.options}
        args = spec.args or each.args
        who = f"engine {i}"
        if "cmd" not in merged:
            raise UsageError(f"{who}: missing cmd=")
        if merged.get("proto", "uci") != "uci":
            raise UsageError(f"{who}: only proto=uci is supported")
        restart = merged.get("restart", "auto")
        if restart not in ("on", "off", "auto"):
            raise UsageError(f"{who}: restart must be on, off or auto")
        configs.append(
            EngineConfig(
                cmd=merged["cmd"],
                name=merged.get("name"),
                args=args,
                dir=merged.get("dir"),
                options=options,
                restart=restart == "on",
            )
        )
        limits.append(build_limits(merged, who))
    if (limits[0].tc is None) != (limits[1].tc is None):
        raise UsageError("either both engines play with a clock (tc=) or neither")
    if games is None and rounds is None:
        games, rounds = 1, 1
    games = games or 1
    rounds = rounds or 1
    if seed is None:
        seed = int(time.time() * 1000) % 2**31
    config = MatchConfig(
        engines=(configs[0], configs[1]),
        limits=(limits[0], limits[1]),
        games=games,
        rounds=rounds,
        repeat=repeat,
        pgnout=pgnout,
        pgn_min=pgn_min,
        concurrency=concurrency,
        sprt=sprt,
        settings=GameSettings(
            limits=(limits[0], limits[1]), draw=draw, resign=resign, maxmoves=maxmoves, stall_timeout=stall_timeout
        ),
        recover=recover,
        event=event,
        site=site,
        rating_interval=rating_interval,
        debug=debug,
    )
    if openings_spec is not None:
        path = openings_spec["file"]
        if path == "default":
            path = DEFAULT_BOOK
        if not os.path.exists(path):
            raise UsageError(f"-openings: no such file {path!r}")
        try:
            plies = _int("-openings plies", openings_spec["plies"]) if "plies" in openings_spec else None
            book = OpeningBook(
                load_book(path, openings_spec.get("format"), plies),
                order=openings_spec.get("order", "sequential"),
                start=_int("-openings start", openings_spec.get("start", "1")),
            )
        except OpeningError as error:
            raise UsageError(f"-openings: {error}") from None
        config.openings = book.sequence(config.openings_needed(), seed)
    return config, seed


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        print(__doc__.strip())
        return 2
    try:
        config, _ = parse_args(args)
    except UsageError as error:
        if str(error) == "help":
            print(__doc__.strip())
            return 0
        print(f"alice-match: {error}", file=sys.stderr)
        return 2
    status, _ = run_match(config)
    return status


if __name__ == "__main__":
    sys.exit(main())
