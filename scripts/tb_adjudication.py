#!/usr/bin/env python3
"""What endgame tables change in a match: from the PGNs of games played WITHOUT ``-tb``.

    python scripts/tb_adjudication.py --tb DIR games.pgn [more.pgn ...]

For every game it replays the moves and finds the first position the tables in ``DIR`` cover:
there ``alice-match -tb DIR`` would have ended the game (the same probe, ``Tablebases.probe``).
It prints, over all games: how many reach a covered position, the plies played against the
plies with ``-tb`` (the share of the match the tables would save), and how the players did from
the covered positions: the table's result against the game's, by the name of the side the
table says wins (a won position thrown away shows as a difference).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import chess.pgn

from clock_stats import games
from engine.notation import parse_uci
from engine.position import Position
from tablebase.fileformat import TableFileError
from tablebase.probe import Tablebases
from tablebase.values import game_result


@dataclass(frozen=True)
class Game:
    """One game as the tables see it."""

    plies: int  # plies played
    covered_at: int | None  # the ply of the first covered position (None: never covered)
    table_result: str | None  # "1-0", "0-1" or "1/2-1/2" there
    result: str  # the game's own result
    white: str
    black: str


def replay(game: chess.pgn.Game, tables: Tablebases) -> Game:
    """The plies of ``game`` and where the tables first cover it."""
    pos = Position(game.headers.get("FEN") or None)
    covered_at: int | None = None
    verdict: str | None = None
    moves = [node.move.uci() for node in game.mainline()]
    for ply in range(len(moves) + 1):
        value = tables.probe(pos)
        if value:
            covered_at, verdict = ply, game_result(value, bool(pos.turn))
            break
        if ply < len(moves):
            pos.push(parse_uci(pos, moves[ply]))
    headers = game.headers
    return Game(len(moves), covered_at, verdict, headers.get("Result", "*"), headers.get("White", "?"), headers.get("Black", "?"))


def summary(games: list[Game]) -> list[str]:
    """The report's lines."""
    covered = [g for g in games if g.covered_at is not None]
    played = sum(g.plies for g in games)
    with_tb = sum(g.covered_at if g.covered_at is not None else g.plies for g in games)
    lines = [
        f"games {len(games)}, reaching a covered position {len(covered)}",
        f"plies played {played}, with -tb {with_tb} (saved {played - with_tb}, "
        f"{100 * (played - with_tb) / max(1, played):.1f} %)",
    ]
    if covered:
        mean = sum(g.plies - (g.covered_at or 0) for g in covered) / len(covered)
        lines.append(f"covered games: {mean:.1f} plies played on after the first covered position")
    outcomes: Counter[tuple[str, str]] = Counter()
    for g in covered:
        if g.table_result == "1/2-1/2":
            side = "drawn by the table"
        else:
            winner = g.white if g.table_result == "1-0" else g.black
            side = f"won by the table for {winner}"
        outcomes[(side, "as the table" if g.result == g.table_result else f"game {g.result}")] += 1
    for (side, how), count in sorted(outcomes.items()):
        lines.append(f"  {side}: {count} {how}")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--tb", required=True, help="a directory of tables (alice-engine tb generate)")
    parser.add_argument("pgn", nargs="+")
    args = parser.parse_args(argv)
    errors: list[str] = []
    try:
        tables = Tablebases(args.tb, errors.append)
    except TableFileError as error:
        print(f"tb_adjudication: {error}", file=sys.stderr)
        return 2
    if not tables.names:
        print(f"tb_adjudication: no tables in {args.tb}", file=sys.stderr)
        return 2
    try:
        records = [replay(g, tables) for g in games(args.pgn)]
    except (OSError, ValueError) as error:
        print(f"tb_adjudication: {error}", file=sys.stderr)
        return 2
    for line in errors + summary(records):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
