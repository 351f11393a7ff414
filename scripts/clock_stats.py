#!/usr/bin/env python3
"""How each engine spent its clock in a match: from the PGNs ``alice-match`` writes.

    python scripts/clock_stats.py games.pgn [more.pgn ...]

For every engine: games, moves, the average and longest time per move, the clock left
at the end of its games (average and lowest, replayed from the ``[TimeControl]`` tag and
the per-move times in the comments, ``0.123s`` or ``[%emt 0:00:00.123]``), the average left
at the end of the games it lost (time that could have gone into them), and the games it
lost on time. Games without a clocked ``TimeControl`` count for the move times only.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import chess.pgn

SECONDS = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)s\b")
EMT = re.compile(r"\[%emt (\d+):(\d+):(\d+(?:\.\d+)?)\]")
TIME_CONTROL = re.compile(r"^(?:(\d+)/)?(\d+(?:\.\d+)?)(?:\+(\d+(?:\.\d+)?))?$")


@dataclass
class Tally:
    """One engine's figures over all its games."""

    games: int = 0
    move_times: list[float] = field(default_factory=list)
    clock_left: list[float] = field(default_factory=list)
    left_when_lost: list[float] = field(default_factory=list)  # clock left at the end of its lost games
    time_losses: int = 0


def move_seconds(comment: str) -> float | None:
    """The thinking time in a move comment, or None if it has none."""
    emt = EMT.search(comment)
    if emt:
        hours, minutes, seconds = emt.groups()
        return int(hours) * 3600 + int(minutes) * 60 + float(seconds)
    plain = SECONDS.search(comment)
    return float(plain.group(1)) if plain else None


def time_control(tag: str) -> tuple[int | None, float, float] | None:
    """``(moves per period, seconds, increment)`` of a TimeControl tag like ``10+0.1`` or
    ``40/60+0.6``; None for ``-`` or anything without a clock."""
    match = TIME_CONTROL.match(tag.strip())
    if not match:
        return None
    moves, base, inc = match.groups()
    return (int(moves) if moves else None), float(base), float(inc or 0)


def games(paths: Sequence[str]) -> Iterator[chess.pgn.Game]:
    import engine.board  # noqa: F401  (registers the Alice variant for chess.pgn)

    for path in paths:
        with open(path, encoding="utf-8") as handle:
            while (game := chess.pgn.read_game(handle)) is not None:
                yield game


def tally(paths: Sequence[str]) -> dict[str, Tally]:
    """Per engine name, its move times and the clock it had left at the end of each game."""
    out: dict[str, Tally] = defaultdict(Tally)
    for game in games(paths):
        names = {True: game.headers.get("White", "?"), False: game.headers.get("Black", "?")}
        tc = time_control(game.headers.get("TimeControl", "-"))
        clocks = {True: tc[1], False: tc[1]} if tc else {}
        moves_made = {True: 0, False: 0}
        for color in (True, False):
            out[names[color]].games += 1
        board = game.board()
        for node in game.mainline():
            side = board.turn
            board = node.board()
            spent = move_seconds(node.comment)
            if spent is None:
                continue
            out[names[side]].move_times.append(spent)
            if tc:
                moves_made[side] += 1
                per_period, base, inc = tc
                clocks[side] += inc - spent
                if per_period and moves_made[side] % per_period == 0:
                    clocks[side] += base
        loser = {"1-0": False, "0-1": True}.get(game.headers.get("Result", "*"))
        if tc:
            for color in (True, False):
                out[names[color]].clock_left.append(clocks[color])
            if loser is not None:
                out[names[loser]].left_when_lost.append(clocks[loser])
        if loser is not None and "time" in game.headers.get("Termination", "").lower():
            out[names[loser]].time_losses += 1
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pgn", nargs="+", help="PGN files written by alice-match")
    args = parser.parse_args(argv)
    print(f"{'engine':<16} {'games':>5} {'moves':>6} {'avg move':>9} {'max move':>9} {'avg left':>9} "
          f"{'min left':>9} {'lost, left':>10} {'time losses':>11}")  # fmt: skip
    for name, t in sorted(tally(args.pgn).items()):
        avg = statistics.fmean(t.move_times) if t.move_times else 0.0
        longest = max(t.move_times, default=0.0)
        left = f"{statistics.fmean(t.clock_left):8.2f}s" if t.clock_left else f"{'-':>9}"
        low = f"{min(t.clock_left):8.2f}s" if t.clock_left else f"{'-':>9}"
        lost = f"{statistics.fmean(t.left_when_lost):9.2f}s" if t.left_when_lost else f"{'-':>10}"
        print(f"{name:<16} {t.games:>5} {len(t.move_times):>6} {avg:8.3f}s {longest:8.3f}s {left} {low} {lost} "
              f"{t.time_losses:>11}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
