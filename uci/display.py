"""Text the UCI front end prints: ``info`` lines, the ``d`` diagram, the ``eval`` table.

Pure functions of positions and search reports; nothing here writes or keeps state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import chess

from engine import Move, Position, move_to_uci
from search.limits import Iteration

PIECE_LETTERS: Final = " pnbrqk"
BOARD_GAP: Final = "    "


def pv_to_uci(root: Position, pv: Sequence[Move]) -> list[str]:
    """The PV as plain UCI moves, cut at the first move that is not legal where it stands."""
    pos = root.copy()
    out: list[str] = []
    for m in pv:
        if m not in pos.legal_moves():
            break
        out.append(move_to_uci(pos, m))
        pos.push(m)
    return out


def info_line(root: Position, it: Iteration) -> str:
    """``info depth .. seldepth .. multipv .. score .. nodes .. nps .. time .. hashfull .. pv ..``."""
    score = f"mate {it.mate}" if it.mate is not None else f"cp {it.score}"
    nps = it.nodes * 1000 // max(1, it.time_ms)
    parts = [
        f"info depth {it.depth} seldepth {max(it.seldepth, it.depth)} multipv {it.multipv} score {score}",
        f"nodes {it.nodes} nps {nps} time {it.time_ms} hashfull {it.hashfull}",
    ]
    if it.tbhits is not None:
        parts.append(f"tbhits {it.tbhits}")
    pv = pv_to_uci(root, it.pv)
    if pv:
        parts.append("pv " + " ".join(pv))
    return " ".join(parts)


def _piece_letter(code: int) -> str:
    if not code:
        return " "
    letter = PIECE_LETTERS[code & 7]
    return letter.upper() if code & 8 else letter


def diagram(pos: Position) -> list[str]:
    """Boards A (left) and B (right) side by side, white at the bottom, then Fen/Key/Checkers."""
    border = " +" + "---+" * 8
    width = len(border) + 2  # a board row plus its rank digit

    def two(left: str, right: str) -> str:
        return (left.ljust(width) + BOARD_GAP + right).rstrip()

    lines = [two("Board A".center(width), "Board B".center(width)), two(border, border)]
    for rank in range(7, -1, -1):
        halves = []
        for board in (0, 1):
            cells = []
            for file in range(8):
                code = pos.sq[rank * 8 + file]
                cells.append(_piece_letter(code) if code and (code >> 4) == board else " ")
            halves.append(" | " + " | ".join(cells) + f" | {rank + 1}")
        lines.append(two(halves[0], halves[1]))
        lines.append(two(border, border))
    files = "   " + "   ".join("abcdefgh")
    lines.append(two(files, files))
    lines.append("")
    lines.append(f"Fen: {pos.fen()}")
    lines.append(f"Key: {pos.key & 0xFFFFFFFFFFFFFFFF:016X}")
    checkers = []
    mask = pos.checkers_mask()
    while mask:
        s = (mask & -mask).bit_length() - 1
        mask &= mask - 1
        checkers.append(" " + chess.SQUARE_NAMES[s] + "/" + "AB"[pos.sq[s] >> 4])
    lines.append("Checkers:" + "".join(checkers))
    return lines


def eval_table(terms: Sequence[tuple[str, int]], side_to_move_cp: int, white_to_move: bool) -> list[str]:
    """The ``eval`` output: one row per term (white's view, cp), then the final line."""
    width = max([len("Term")] + [len(name) for name, _ in terms])
    lines = [f"{'Term'.ljust(width)} | White (cp)", "-" * width + "-+-----------"]
    for name, cp in terms:
        lines.append(f"{name.ljust(width)} | {cp:+10d}")
    lines.append("")
    side = "white" if white_to_move else "black"
    white_cp = side_to_move_cp if white_to_move else -side_to_move_cp
    lines.append(f"Final evaluation: {white_cp:+d} cp (white side), {side_to_move_cp:+d} cp ({side} to move)")
    return lines
