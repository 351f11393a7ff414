"""What a table holds per position (one byte), and the value of any covered placement.

>>> describe(DECIDED + 3), describe(DECIDED), describe(DRAWN)
('win in 3 plies', 'loss in 0 plies', 'draw')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from tablebase.ending import Placement, ending, locate

ILLEGAL: Final = 0  # no such position (pieces clash, a pawn on rank 1/8, the side not to move in check)
DRAWN: Final = 1  # neither side can force mate
DECIDED: Final = 2  # DECIDED + n: mate in n plies, the side to move wins when n is odd
MAX_PLIES: Final = 252  # the longest distance a byte holds (255 is the generator's "not yet known")

# name -> the table's values (``None``: the table is not available); KK is always drawn.
TableSource = Callable[[str], "bytes | bytearray | None"]


def describe(value: int) -> str:
    """A value in words."""
    if value == ILLEGAL:
        return "illegal"
    if value == DRAWN:
        return "draw"
    plies = value - DECIDED
    return f"{'win' if plies % 2 else 'loss'} in {plies} plies"


def game_result(value: int, white_to_move: bool) -> str:
    """The result a covered position's value promises with best play (``-tb`` adjudication).

    >>> game_result(DRAWN, True), game_result(DECIDED + 1, True), game_result(DECIDED + 2, True)
    ('1/2-1/2', '1-0', '0-1')
    """
    if value == DRAWN:
        return "1/2-1/2"
    mover_wins = (value - DECIDED) % 2 == 1
    return "1-0" if mover_wins == white_to_move else "0-1"


def value_of(tables: TableSource, pieces: Placement, stm: int, reduced: bool = True) -> int | None:
    """The table value of a placement with ``stm`` to move (``None``: no table for it). Two
    bare kings are drawn (the rules' bare-kings draw). ``reduced=False``: ``tables`` hold the
    endings without symmetries."""
    if len(pieces) == 2:
        return DRAWN
    name, slots, table_stm = locate(pieces, stm)
    data = tables(name)
    if data is None:
        return None
    return data[ending(name, reduced).index(slots, table_stm)]
