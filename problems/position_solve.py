"""One position and a stipulation solved, for the web board (``gui``'s ``POST /api/solve``)
and ``alice-engine solve --fen``: the side to move is the stipulation's first mover, castling
rights are those whose king and rook stand at home on board A (as for a Popeye diagram).

>>> data = solve_position("8/8/8/2Q1|k3/8/2|R5/3|p4/K7 w - - 0 1", "h#2", max_moves=3)
>>> sorted(data["solutions"])[0], data["lines"][0].strip()[:2]
(['e5e4', 'c5e5', 'd2d1b', 'c3e3'], '1.')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.fen import FenError
from engine.position import Position
from problems.popeye import NUMBER_OPTIONS, OPTIONS, ProblemInputError, diagram_fen, match_word
from problems.report import Writer
from problems.stipulation import StipulationError, parse_stipulation


def options_of(words: Sequence[str]) -> dict[str, int]:
    """``["try", "vari", "maxsol=2"]`` as Popeye option names and values."""
    options: dict[str, int] = {}
    for word in words:
        name, _, value = word.partition("=")
        option = match_word(name, OPTIONS)
        if option is None or (option in NUMBER_OPTIONS) != value.isdigit():
            raise ProblemInputError(
                f"option {word!r} is not supported (try, vari, set, nothreat, maxsol=N, refutations=N)"
            )
        options[option] = int(value) if value else 1
    return options


def solve_position(
    fen: str, stip_text: str, words: Sequence[str] = (), max_moves: int = 0, node_limit: int = 0
) -> dict[str, Any]:
    """Solve; the answer has ``fen`` (as solved), ``stipulation``, ``solutions`` (UCI lists),
    ``tries``, ``lines`` (Popeye's text), ``nodes``, ``seconds``. Raises ``ProblemInputError``
    for a bad FEN, stipulation or option, or one longer than ``max_moves`` (0: no limit), and
    ``problems.solver.SolverLimitError`` past ``node_limit`` nodes (0: no limit)."""
    try:
        stip = parse_stipulation(stip_text)
        squares = list(Position(fen).squares)
        solved_fen = diagram_fen(squares, stip.first_mover)
        pos = Position(solved_fen)
    except (StipulationError, FenError) as error:
        raise ProblemInputError(str(error).removeprefix("board field: ")) from None
    if max_moves and stip.moves > max_moves:
        raise ProblemInputError(f"stipulation {stip}: at most {max_moves} moves are solved here")
    result = Writer(pos, stip, options_of(words), node_limit).solve()
    return {"fen": solved_fen, "stipulation": str(stip), "lines": result.lines, **result.data()}
