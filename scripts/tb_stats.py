"""The numbers of docs/endgames.md: per ending of a table directory, the positions won, drawn
and lost by the side to move (white to move, black to move), the longest mate and a position
of it (FEN with ``|`` marks), as a Markdown table.

    python scripts/tb_stats.py DIR [ENDING ...]

Counts are entries of the reduced tables (one per position up to the mirrors and the board
swap; a white king on a symmetry axis counts its mirror twins separately).
"""

from __future__ import annotations

import os
import sys

from tablebase.ending import ending
from tablebase.fileformat import file_name, read_table
from tablebase.probe import position_at
from tablebase.values import DECIDED, DRAWN


def fen_of(name: str, idx: int) -> str:
    decoded = ending(name).decode(idx)
    assert decoded is not None
    return position_at(ending(name), *decoded).fen()


def row(directory: str, name: str) -> str:
    e = ending(name)
    values = read_table(os.path.join(directory, file_name(name)), name, e.size)
    half = e.size // 2
    cells = []
    longest = DECIDED
    for stm, part in ((1, values[half:]), (0, values[:half])):
        counts = [part.count(bytes([v])) for v in range(256)]  # a C scan per value: seconds for 4 men
        won = sum(n for v, n in enumerate(counts) if v >= DECIDED and (v - DECIDED) % 2)
        lost = sum(n for v, n in enumerate(counts) if v >= DECIDED and not (v - DECIDED) % 2)
        cells.append(f"{won} / {counts[DRAWN]} / {lost}")
        longest = max([longest] + [v for v, n in enumerate(counts) if n and v >= DECIDED])
    example = values.index(longest)
    plies = longest - DECIDED
    return f"| {name} | {cells[0]} | {cells[1]} | {plies} | `{fen_of(name, example)}` |"


def main(argv: list[str]) -> int:
    directory, names = argv[0], argv[1:] or ["KQK", "KRK", "KBK", "KNK", "KPK"]
    print("| ending | white to move: won / drawn / lost | black to move: won / drawn / lost | longest (plies) | a position of it |")
    print("|---|---|---|---|---|")
    for name in names:
        print(row(directory, name))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
