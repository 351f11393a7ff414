"""Estimate what generating an ending costs, from the forward pass over a random sample of its
indices: legal positions, seconds per index, in-table moves per position, and from them the
whole ending's forward-pass time and the memory of its move lists (two 4-byte ints per move).

    python scripts/tb_estimate.py KQKR [SAMPLE]

The smaller tables a capture or promotion reaches must be in ``TB_DIR`` (default: tables/).
"""

from __future__ import annotations

import os
import random
import sys
import time

from engine.position import Position
from tablebase.ending import ending
from tablebase.fileformat import file_name, read_table
from tablebase.generate import Graph, _visit

DEFAULT_SAMPLE = 5000


def main(argv: list[str]) -> int:
    name = argv[0]
    sample = int(argv[1]) if len(argv) > 1 else DEFAULT_SAMPLE
    directory = os.environ.get("TB_DIR", "tables")
    e = ending(name)
    cache: dict[str, bytes] = {}

    def source(other: str) -> bytes:
        if other not in cache:
            cache[other] = read_table(os.path.join(directory, file_name(other)), other, ending(other).size)
        return cache[other]

    graph = Graph(bytearray(e.size))
    graph.moves_left = {}  # type: ignore[assignment]  # a dict: only the sampled indices
    rng = random.Random(1)
    indices = [rng.randrange(e.size) for _ in range(sample)]
    pos = Position(None)
    started = time.perf_counter()
    for idx in indices:
        _visit(pos, e, idx, source, graph)
    seconds = time.perf_counter() - started
    legal = sum(1 for idx in indices if graph.values[idx])
    edges = len(graph.edges_to)
    print(f"{name}: {e.size} indices, legal {legal / sample:.1%} of the sample")
    print(f"forward pass: {1e6 * seconds / sample:.0f} us per index -> {seconds / sample * e.size / 60:.0f} min")
    print(f"in-table moves: {edges / max(1, legal):.1f} per legal position -> {8 * edges / sample * e.size / 2**30:.1f} GiB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
