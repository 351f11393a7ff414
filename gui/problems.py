"""``POST /api/solve``: the web board's problem solver, a thin layer over ``problems``.

The body is ``{"fen": text, "stipulation": "h#2", "options": ["try", "vari"]}``; the answer
has the solutions as UCI lines and Popeye's text (``problems.position_solve``). Problems of
at most ``MAX_MOVES`` moves are solved here, each request on its own server thread, and the
solver gives up after ``MAX_NODES`` nodes.
"""

from __future__ import annotations

from typing import Any, Final

from gui.session import ApiError
from problems.popeye import ProblemInputError
from problems.position_solve import solve_position
from problems.solver import SolverLimitError

MAX_MOVES: Final = 4  # longest stipulation the web board solves (moves): the page waits for the answer
MAX_NODES: Final = 500_000  # the solver gives up past this many nodes (a few seconds compiled)
MAX_OPTIONS: Final = 8  # most option words a request may carry


def solve_request(body: dict[str, Any]) -> dict[str, Any]:
    """The answer to one ``POST /api/solve``; a bad request raises ``ApiError`` (400)."""
    fen, stip, options = body.get("fen"), body.get("stipulation"), body.get("options", [])
    if not isinstance(fen, str) or not isinstance(stip, str):
        raise ApiError(400, "solve needs 'fen' and 'stipulation' (strings)")
    if not isinstance(options, list) or len(options) > MAX_OPTIONS or not all(isinstance(o, str) for o in options):
        raise ApiError(400, f"'options' must be a list of at most {MAX_OPTIONS} words")
    try:
        return {"solve": solve_position(fen, stip, options, max_moves=MAX_MOVES, node_limit=MAX_NODES)}
    except ProblemInputError as error:
        raise ApiError(400, str(error)) from None
    except SolverLimitError as error:
        raise ApiError(400, f"{error}: too hard for the web board, try alice-engine solve --fen") from None
