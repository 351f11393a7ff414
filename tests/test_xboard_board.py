"""The 16x8 presentation (``uci.xboard_board``) over many random positions, in-process.

Every legal move is written and read back; every lifted piece is highlighted with exactly
its legal moves, on the squares where they land (computed here independently, from the
rules' legal moves and the square arithmetic of the presentation); FENs go to XBoard's
form and back. About 3 seconds.
"""

from __future__ import annotations

import random
import re

import chess
import pytest

from engine import Move, Position
from uci.xboard_board import (
    EMPTY_HIGHLIGHT,
    XboardMoveError,
    fen_from_xboard,
    leg_highlight,
    lift_highlight,
    move_text,
    parse_move,
    pv_text,
    setup_lines,
    wide_fen,
)

FILES = "abcdefghijklmnop"


def name(coord: int, board: int) -> str:
    return FILES[chess.square_file(coord) + 8 * board] + str(chess.square_rank(coord) + 1)


def positions(count: int, seed: int) -> list[Position]:
    """Positions after random games (with a few castling and promotion set-ups mixed in)."""
    rng = random.Random(seed)
    starts = [
        None,
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R w KQkq - 0 1",
        "k2r4/4P3/8/8/8/8/8/K7 w - - 0 1",
    ]
    out = []
    while len(out) < count:
        start = rng.choice(starts)
        pos = Position() if start is None else Position(start)
        for _ in range(rng.randrange(0, 60)):
            moves = pos.legal_moves()
            if not moves:
                break
            pos.push(rng.choice(moves))
        out.append(pos)
    return out


def colors(text: str) -> dict[str, str]:
    out = {}
    rows = text.split("/")
    assert len(rows) == 8
    for row, cells in enumerate(rows):
        column, number = 0, ""
        for char in cells + " ":
            if char.isdigit():
                number += char
                continue
            column += int(number or 0)
            number = ""
            if char != " ":
                out[FILES[column] + str(8 - row)] = char
                column += 1
        assert column == 16, text
    return out


def is_castling(pos: Position, m: Move) -> bool:
    piece = pos.piece_at(m & 63)
    return piece is not None and piece[0] == chess.KING and abs(((m >> 6) & 63) - (m & 63)) == 2


@pytest.mark.parametrize("seed", range(3))
def test_every_legal_move_is_written_and_read_back(seed: int) -> None:
    seen = {"castling": 0, "capture": 0, "promotion": 0}
    for pos in positions(150, seed):
        for m in pos.legal_moves():
            text = move_text(pos, m)
            assert parse_move(pos, text) == m, (pos.fen(), text)
            legs = text.split(",")
            s, d = m & 63, (m >> 6) & 63
            piece = pos.piece_at(s)
            assert piece is not None
            board = piece[2]
            if is_castling(pos, m):
                # The rook's move onto its king, then the king square to the rook's landing square.
                rook_leg, king_leg = legs
                assert rook_leg[2:] == name(s, board) == king_leg[:2]
                assert king_leg[2:4][0] in FILES[8 * (1 - board) : 8 * (2 - board)]
                # XBoard relays it as the rook's move, then the king's.
                king_to = name(d, 1 - board)
                relayed = f"{rook_leg[:2]}{king_leg[2:]},{name(s, board)}{king_to}"
                assert parse_move(pos, relayed) == m
                seen["castling"] += 1
            elif pos.piece_at(d) is not None:
                seen["capture"] += 1
                assert legs[0] == name(s, board) + name(d, board)
                assert legs[1][:4] == name(d, board) + name(d, 1 - board)
            else:
                assert legs == [name(s, board) + name(d, 1 - board) + text[4:]]
            # The PV form joins the legs with '-': XBoard's own notation of multi-leg moves.
            assert pv_text(pos, [m]) == text.split(",")[0] + "".join("-" + leg[2:] for leg in legs[1:])
            seen["promotion"] += bool(m >> 12)
    assert all(seen.values()), seen


@pytest.mark.parametrize("seed", range(3))
def test_lift_highlights_exactly_the_legal_moves_where_they_land(seed: int) -> None:
    for pos in positions(150, seed + 10):
        legal = pos.legal_moves()
        for coord in range(64):
            piece = pos.piece_at(coord)
            for board in (0, 1):
                square = name(coord, board)
                shown, lift = lift_highlight(pos, square)
                if piece is None or piece[2] != board or piece[1] != bool(pos.turn):
                    assert shown == EMPTY_HIGHLIGHT and not lift.legs
                    continue
                want: dict[str, str] = {}
                second: dict[str, set[str]] = {}
                for m in legal:
                    s, d = m & 63, (m >> 6) & 63
                    if is_castling(pos, m):
                        rook = s + 3 if d > s else s - 4  # the rook beside the king's long or short side
                        if rook == coord:
                            want[name(s, board)] = "C"
                            rook_to = s + 1 if d > s else s - 1
                            second.setdefault(name(s, board), set()).add(name(rook_to, 1 - board))
                        continue
                    if s != coord:
                        continue
                    if pos.piece_at(d) is not None:
                        want[name(d, board)] = "C"
                        second.setdefault(name(d, board), set()).add(name(d, 1 - board))
                    else:
                        want[name(d, 1 - board)] = "M" if m >> 12 else "Y"
                assert colors(shown) == want, (pos.fen(), square)
                assert set(lift.legs) == set(second)
                for leg, landings in second.items():
                    assert set(colors(leg_highlight(pos, lift.legs[leg]))) == landings


@pytest.mark.parametrize("seed", range(2))
def test_fens_go_to_xboard_and_back(seed: int) -> None:
    for pos in positions(100, seed + 20):
        wide = wide_fen(pos)
        for row in wide.split()[0].split("/"):
            assert sum(int(n) if n else 1 for n, _ in re.findall(r"(\d+)|([A-Za-z])", row)) == 16, wide
        back = Position(fen_from_xboard(wide))
        assert back.fen() == pos.fen()


def test_setup_and_xboard_castling_fields() -> None:
    lines = setup_lines()
    assert lines[:2] == ["piece K& KiK", "piece R& RiO"]
    assert (
        lines[2]
        == "setup (PNBRQKpnbrqk) 16x8+0_berolina rnbqkbnr8/pppppppp8/16/16/16/16/PPPPPPPP8/RNBQKBNR8 w EHAeha - 0 1"
    )
    assert fen_from_xboard("r3k2r8/16/16/16/16/16/16/R3K2R8 w HEAhea - 0 1").split()[2] == "KQkq"
    assert fen_from_xboard("r3k2r8/16/16/16/16/16/16/R3K2R8 w HAhea - 0 1").split()[2] == "kq"  # white king moved
    assert fen_from_xboard("r3k2r8/16/16/16/16/16/16/R3K2R8 w KQ - 0 1").split()[2] == "KQ"
    assert fen_from_xboard("r3k2r8/16/16/16/16/16/16/R3K2R8 w - e3 0 1").split()[2:4] == ["-", "-"]


@pytest.mark.parametrize(
    ("fen", "text", "reason"),
    [
        (None, "e2e4", "the piece passes to the other board: m4"),
        (None, "m2e4", "no piece on m2"),
        (None, "a7i6", "not that side's turn"),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1o1", "castling is the rook's move onto its king, e.g. h1e1,e1n1"),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "h1p8", "a capture is two legs: h1h8,h8p8"),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "h1h8,h8h7", "a capture on h8 lands on p8"),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "h1e1,e1m1", "not a castling move"),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "h1n1,e1p1", "the king does not land there"),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "h1h8,p8h8", "the second leg must start where the first ended"),
        (None, "e2m4,m4e5,e5m6", "not a move of this board, e.g. e2m4 or e4d5,d5l5"),
        (None, "e2m4q,m4e5", "not a move of this board, e.g. e2m4 or e4d5,d5l5"),
    ],
)
def test_moves_xboard_must_not_get_applied_are_refused(fen: str | None, text: str, reason: str) -> None:
    pos = Position() if fen is None else Position(fen)
    with pytest.raises(XboardMoveError) as caught:
        parse_move(pos, text)
    assert str(caught.value) == reason
