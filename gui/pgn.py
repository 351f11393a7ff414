"""PGN in and out for the web board's ``Game``, through ``chess.pgn`` and ``AliceBoard``.

Reading takes a text of one or more games game by game, each with its own tags: a game
of another variant is passed over (never read as orthodox chess onto an Alice board), a
game without a ``Variant`` tag is taken as Alice, and the first Alice game is loaded,
variations and comments included, every move checked by the Alice rules. Numbers in
comments are bounded where they are read: a ``[%clk]`` beyond ``MAX_CLOCK`` (400 digits of
hours or seconds: not finite, or too large for JSON and PGN) and a ``[%eval #N]`` mate
beyond ``MAX_MATE`` moves are dropped, as python-chess drops ones it cannot read. Writing gives
the whole tree: the main line, variations in ``( ... )``, ``[%eval]`` for evaluated
positions, ``[%clk]`` for the clocks of a timed game, ``[%csl]``/``[%cal]`` for the arrows
and circles drawn (``gui.shapes``), the game's ``Date``, ``FEN`` with ``SetUp "1"`` only for
a game that does not start from the start position, and a standard ``Termination``
(``time forfeit`` after a flag). Reading takes the same annotations back.

>>> game, note = read_first_alice_game('[Variant "Chess960"]\\n\\n1. e4 *\\n\\n1. Nf3 (1. e4) Nf6 *')
>>> game.sans(), note
(['Nf3/B', 'Nf6/B'], 'game 2 loaded: game 1 is Chess960, not Alice chess')
"""

from __future__ import annotations

import io
import math
import re

import chess
import chess.engine
import chess.pgn

from engine.board import AliceBoard
from gui.clock import clock_text
from gui.game import PGN_EVENT, PGN_TERMINATIONS, Ending, Evaluation, Game, GameError, Node, checked_board
from gui.notation import explain
from gui.shapes import read_shapes, shapes_annotation
from search.score import MATE

MAX_GAMES_READ = 500  # games of other variants passed over before giving up
MAX_CLOCK = 10**7  # seconds of a [%clk] kept (16 weeks); a larger one is dropped
MAX_MATE = 1000  # moves of a [%eval #N] kept; a longer mate is dropped
_PLACEHOLDERS = ("?", "????.??.??", "*", "")  # python-chess's values of tags a PGN did not give
_DROPPED_TAGS = ("FEN", "SetUp", "Variant", "Result", "PlyCount")  # written anew on export
_ALIASES = {alias.lower() for alias in AliceBoard.aliases}
_EVAL = re.compile(r"\[%eval\s[^\]]*\]\s?")
_REASONS = re.compile(
    r"^(?:White resigned|Black resigned|checkmate|stalemate|bare kings|fifty-move rule|threefold repetition|draw agreed"
    r"|(?:White|Black) lost on time|(?:White|Black) ran out of time but (?:White|Black) has only its king)$"
)
_CLOCK = re.compile(r"\s?\[%clk\s[^\]]*\]\s?")
_SPACES = re.compile(r"[ \t]{2,}")


class _AliceGameBuilder(chess.pgn.GameBuilder):  # type: ignore[type-arg]
    """Builds a game only if it is Alice chess (a missing Variant tag means Alice); raises
    on the first error (python-chess would log it and go on)."""

    def end_headers(self) -> chess.pgn.SkipType | None:
        headers = self.game.headers
        variant = headers.get("Variant")
        if variant is not None and variant.strip().lower() not in _ALIASES:
            return chess.pgn.SKIP
        headers["Variant"] = "Alice"
        if "FEN" in headers:
            try:
                checked_board(headers["FEN"])  # its fields range-checked before python-chess reads it
            except GameError as error:
                raise GameError(f"bad PGN: the FEN tag: {error}") from None
        return None

    def parse_san(self, board: chess.Board, san: str) -> chess.Move:
        """A move of the text, or ``GameError`` saying where and why (in a player's words)."""
        try:
            move = board.parse_san(san)
        except ValueError:
            assert isinstance(board, AliceBoard)
            dots = "." if board.turn == chess.WHITE else "..."
            raise GameError(f"bad PGN, move {board.fullmove_number}{dots} {explain(board, san)}") from None
        if not move:
            raise GameError("bad PGN: null moves (--) cannot be played on the board")
        return move

    def handle_error(self, error: Exception) -> None:
        if isinstance(error, GameError):
            raise error
        raise GameError(f"bad PGN: {error}")


def _has_content(pgn: chess.pgn.Game) -> bool:
    """Moves, a position, or a real tag: not just junk between games."""
    return bool(pgn.variations or "FEN" in pgn.headers) or any(
        value not in _PLACEHOLDERS for key, value in pgn.headers.items() if key != "Variant"
    )


def read_first_alice_game(text: str) -> tuple[Game, str]:
    """The first Alice game of ``text`` and a note (empty, or which game was taken and why)."""
    if not text.strip():
        raise GameError("paste a PGN first")
    handle = io.StringIO(text)
    passed_over: list[str] = []
    for number in range(1, MAX_GAMES_READ + 1):
        try:
            pgn = chess.pgn.read_game(handle, Visitor=_AliceGameBuilder)
        except GameError as error:
            raise GameError(f"game {number}: {error}" if number > 1 else str(error)) from None
        except ValueError as error:
            raise GameError(f"bad PGN: {error}") from None
        if pgn is None:
            break
        if pgn.headers.get("Variant") != "Alice":
            passed_over.append(pgn.headers.get("Variant", "?"))
            continue
        if not _has_content(pgn):
            continue
        game = _to_game(pgn)
        note = ""
        if passed_over:
            games = ", ".join(f"game {i} is {v}" for i, v in enumerate(passed_over, 1))
            note = f"game {number} loaded: {games}, not Alice chess"
        return game, note
    if passed_over:
        raise GameError(f"no Alice chess game in the PGN (its games are {', '.join(sorted(set(passed_over)))})")
    raise GameError("no game found in the PGN")


def _evaluation(node: chess.pgn.GameNode) -> Evaluation | None:
    """The ``[%eval]`` of a node, if it holds one within bounds."""
    try:
        score = node.eval()
    except (ValueError, OverflowError):  # a mate of thousands of digits
        return None
    if score is None:
        return None
    white = score.white()
    mate = white.mate()
    if mate is not None:
        return Evaluation(MATE if mate > 0 else -MATE, mate) if abs(mate) <= MAX_MATE else None
    return Evaluation(white.score() or 0)


def _clock(node: chess.pgn.GameNode) -> float | None:
    """The ``[%clk]`` of a node in seconds, if it holds one from 0 to ``MAX_CLOCK``.

    >>> pgn = chess.pgn.read_game(io.StringIO("1. e4 {[%clk 1:02:03]} e5 {[%clk 9" + "9" * 400 + ":00:00]} *"))
    >>> [_clock(node) for node in pgn.mainline()]
    [3723.0, None]
    """
    try:
        seconds = node.clock()
    except (ValueError, OverflowError):  # hours of hundreds of digits: too large for a float
        return None
    if seconds is None or not (math.isfinite(seconds) and 0 <= seconds <= MAX_CLOCK):
        return None
    return seconds


def _label(node: Node) -> str:
    """``12. Nf3/B`` or ``12... Nf6/B``, for messages."""
    number = (node.ply + 1) // 2
    return f"{number}. {node.san}" if node.ply % 2 else f"{number}... {node.san}"


def _to_game(pgn: chess.pgn.Game) -> Game:
    """Our tree from python-chess's, every move checked again by the Alice rules."""
    game = Game(pgn.board().fen())
    game.root.shapes, comment = read_shapes(pgn.comment)
    game.root.comment = _SPACES.sub(" ", _EVAL.sub(" ", comment)).strip()
    game.root.evaluation = _evaluation(pgn)
    stack: list[tuple[chess.pgn.GameNode, Node]] = [(pgn, game.root)]
    while stack:
        source, parent = stack.pop()
        for child in source.variations:
            game.current = parent
            try:
                game.play(child.move)
            except GameError as error:
                where = f"after {_label(parent)}" if parent.parent is not None else "at the start"
                raise GameError(f"bad PGN: {where}: {error}") from None
            node = game.current
            node.shapes, comment = read_shapes(child.comment)
            node.comment = _SPACES.sub(" ", _CLOCK.sub(" ", _EVAL.sub(" ", comment))).strip()
            node.evaluation = _evaluation(child)
            node.clock = _clock(child)
            stack.append((child, node))
    mainline = game.mainline()
    end = mainline[-1] if mainline else game.root
    result = pgn.headers.get("Result", "*")
    if end.ending is None and result in ("1-0", "0-1", "1/2-1/2"):
        termination = pgn.headers.get("Termination", "")
        if _REASONS.match(end.comment):
            reason = end.comment
        elif termination and termination.lower() not in PGN_TERMINATIONS:
            reason = termination
        else:
            reason = "result given in the PGN"
        time_forfeit = termination.lower() == "time forfeit"
        end.ending = Ending(result, reason, "time forfeit" if time_forfeit else "normal")
    game.current = end
    game.headers = {k: v for k, v in pgn.headers.items() if k not in _DROPPED_TAGS and v not in _PLACEHOLDERS}
    if game.headers.get("Termination", "").lower() not in PGN_TERMINATIONS:
        game.headers.pop("Termination", None)  # a reason in words: kept as the ending's reason
    return game


def _annotated(comment: str, shapes: tuple[str, ...]) -> str:
    """A comment with the position's arrows and circles annotated in front of it."""
    return f"{shapes_annotation(shapes)} {comment}".strip()


def write_pgn(game: Game, white: str, black: str) -> str:
    """The whole game as PGN text (see the module docstring)."""
    pgn = chess.pgn.Game()
    pgn.setup(game.root_board)  # python-chess writes a FEN tag for every variant game, even from the start
    if game.root_board.fen() == AliceBoard.starting_fen:
        del pgn.headers["FEN"]  # from the start position: no FEN (and no SetUp), as the PGN standard says
    else:
        pgn.headers["SetUp"] = "1"
    for tag in ("Event", "White", "Black", "Date"):
        del pgn.headers[tag]
    pgn.headers["Event"] = PGN_EVENT
    pgn.headers["Date"] = game.date.strftime("%Y.%m.%d")
    for key, value in game.headers.items():
        pgn.headers[key] = value
    pgn.headers.setdefault("White", white)  # a loaded game keeps its players
    pgn.headers.setdefault("Black", black)
    pgn.comment = _annotated(game.root.comment, game.root.shapes)
    if game.root.evaluation is not None and (score := game.root.evaluation.pov_score()) is not None:
        pgn.set_eval(score)  # the start position's, in the game comment
    stack: list[tuple[Node, chess.pgn.GameNode]] = [(game.root, pgn)]
    while stack:
        node, target = stack.pop()
        for child in node.children:
            assert child.move is not None
            written = target.add_variation(child.move, comment=_annotated(child.comment, child.shapes))
            score = child.evaluation.pov_score() if child.evaluation is not None else None
            if score is not None:
                written.set_eval(score)
            if child.clock is not None:
                written.comment = f"[%clk {clock_text(child.clock)}] {written.comment}".strip()
            stack.append((child, written))
    mainline = game.mainline()
    end = mainline[-1] if mainline else game.root
    ending = end.ending
    pgn.headers["Result"] = ending.result if ending else "*"
    if ending is not None:
        pgn.headers["Termination"] = ending.termination
        last = pgn.end()
        if ending.reason not in last.comment:
            last.comment = f"{last.comment} {ending.reason}".strip()
    return str(pgn) + "\n"
