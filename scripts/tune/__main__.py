"""``python scripts/tune data ...`` and ``python scripts/tune fit ...`` (see ``docs/tuning.md``).

    python scripts/tune data --out data.csv [--positions N] [--seed S] [--depth D | --nodes N]
                             [--engine CMD] [--plies MIN MAX] [--sample P] [--random-fraction F]
                             [--play-nodes N] [--quiet-margin CP]
    python scripts/tune games --out data.csv GAMES.pgn [...] [--sample P] [--seed S] [--min-ply N]
                              [--quiet-margin CP] [--player NAME]
    python scripts/tune fit data.csv [--params NAME,NAME] [--k K | --k auto] [--rounds R] [--result-weight W]
    python scripts/tune spsa --params FILE.csv [--games N] [--tc TC | --tc nodes=N] [--pairs P]
                             [--concurrency N | --cluster ADDRESS] [--state FILE.json] [--seed S]
                             [--a-ratio A] [--alpha X] [--gamma X] [--engine CMD] [--engine-dir DIR]
                             [--book FILE] [--match-args "ALICE-MATCH OPTIONS"]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence

if __package__ in (None, ""):  # run as `python scripts/tune`: the checkout and scripts/ first
    _scripts = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sys.path[:] = [p for p in sys.path if os.path.abspath(p) != os.path.join(_scripts, "tune")]
    sys.path[:0] = [os.path.dirname(_scripts), _scripts]

from tune import data, fit
from tune.spsa_command import add_spsa_parser


def data_command(args: argparse.Namespace) -> int:
    """Make a data set: walks, quiet positions, labels, one file."""
    start = time.perf_counter()
    depth = None if args.nodes is not None else args.depth
    labeller: data.Labeller = (
        data.UciLabeller(args.engine, depth, args.nodes)
        if args.engine
        else data.OwnLabeller(depth, args.nodes)
    )
    try:
        positions = data.walk_positions(
            args.positions,
            seed=args.seed,
            min_plies=args.plies[0],
            max_plies=args.plies[1],
            sample=args.sample,
            random_fraction=args.random_fraction,
            play_nodes=args.play_nodes,
            quiet_margin=args.quiet_margin,
        )
        rows = data.make_rows(positions, labeller, progress=_progress)
    finally:
        labeller.close()
    data.write_rows(args.out, rows)
    print(f"wrote {len(rows)} positions to {args.out} in {time.perf_counter() - start:.1f} s")
    return 0


def _progress(done: int) -> None:
    if done % 100 == 0:
        print(f"{done} positions", file=sys.stderr, flush=True)


def games_command(args: argparse.Namespace) -> int:
    """Make a data set from played games: quiet positions with their scores and results."""
    start = time.perf_counter()
    rows = []
    for row in data.game_rows(args.pgn, args.seed, args.min_ply, args.sample, args.quiet_margin, args.player):
        rows.append(row)
        _progress(len(rows))
    data.write_rows(args.out, rows)
    print(f"wrote {len(rows)} positions to {args.out} in {time.perf_counter() - start:.1f} s")
    return 0


def fit_command(args: argparse.Namespace) -> int:
    """Fit the weights to a data set and print them."""
    start = time.perf_counter()
    names = [n.strip() for n in args.params.split(",") if n.strip()] if args.params else None
    code = fit.main_fit(data.read_rows(args.file), names, args.k, args.rounds, args.result_weight)
    print(f"fitted in {time.perf_counter() - start:.1f} s")
    return code


def scale(text: str) -> float | None:
    """``--k``: centipawns, or ``auto`` (None: fitted to the data's results)."""
    if text == "auto":
        return None
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number or auto: {text!r}") from None


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python scripts/tune", description="The evaluation fitter.")
    sub = parser.add_subparsers(dest="command", required=True)
    make = sub.add_parser("data", help="make a data set of labelled quiet positions")
    make.add_argument("--out", required=True, help="CSV file (fen,score), or EPD for a name ending in .epd")
    make.add_argument("--positions", type=int, default=1000, help="how many positions (default 1000)")
    make.add_argument("--seed", type=int, default=data.SEED)
    make.add_argument("--engine", help="a reference UCI engine's command line (default: our own search)")
    make.add_argument("--depth", type=int, default=data.LABEL_DEPTH, help="label search: go depth N")
    make.add_argument("--nodes", type=int, help="label search: go nodes N instead of a depth")
    make.add_argument("--plies", type=int, nargs=2, default=[data.MIN_PLIES, data.MAX_PLIES], metavar=("MIN", "MAX"))
    make.add_argument("--sample", type=float, default=data.SAMPLE, help="chance a quiet position is kept")
    make.add_argument("--random-fraction", type=float, default=data.RANDOM_FRACTION, help="share of random moves")
    make.add_argument("--play-nodes", type=int, default=data.PLAY_NODES, help="nodes of our engine's walk moves")
    make.add_argument("--quiet-margin", type=int, default=data.QUIET_MARGIN, help="quiescence - static at most")
    make.set_defaults(run=data_command)
    played = sub.add_parser("games", help="make a data set from played games (PGN): scores and results")
    played.add_argument("pgn", nargs="+", help="PGN files, e.g. alice-match -pgnout")
    played.add_argument("--out", required=True, help="CSV file (fen,score,result), or EPD for a name ending in .epd")
    played.add_argument("--sample", type=float, default=data.GAME_SAMPLE, help="chance a quiet position is kept")
    played.add_argument("--seed", type=int, default=data.SEED)
    played.add_argument("--min-ply", type=int, default=data.MIN_PLIES, help="plies of a game skipped at its start")
    played.add_argument("--quiet-margin", type=int, default=data.QUIET_MARGIN, help="quiescence - static at most")
    played.add_argument("--player", help="only the positions where this player (PGN White/Black name) moves")
    played.set_defaults(run=games_command)
    refit = sub.add_parser("fit", help="fit the evaluation's weights to a data set")
    refit.add_argument("file", help="a CSV (fen with score, result or both) or EPD (ce, c9) data set")
    refit.add_argument("--params", help="comma-separated constants to fit (default: all of tune.fit.FITTED)")
    refit.add_argument(
        "--k", type=scale, default=fit.SCALE_K, help="sigmoid scale in centipawns, or auto: fitted to the results first"
    )
    refit.add_argument("--rounds", type=int, default=fit.ROUNDS, help="linearise-fit-round rounds")
    refit.add_argument(
        "--result-weight", type=float, default=fit.RESULT_WEIGHT, help="rows with a score and a result: the result's share"
    )
    refit.set_defaults(run=fit_command)
    add_spsa_parser(sub)
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    code: int = args.run(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
