"""Build compact Alice FENs from a square map, for tests that set up positions."""

from __future__ import annotations


def compact_fen(cells: dict[int, str], side: str = "w", castling: str = "") -> str:
    """A compact FEN from ``{square: letter}``, a leading ``|`` putting the piece on board B."""
    rows = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for file in range(8):
            cell = cells.get(rank * 8 + file)
            if cell is None:
                empty += 1
                continue
            row += (str(empty) if empty else "") + cell
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return f"{'/'.join(rows)} {side} {castling or '-'} - 0 1"
