"""One Alice game as the web board sees it: a tree of moves, the position on view, the result.

Pure (no threads, no I/O): ``gui.session`` owns one ``Game`` and replaces it with a changed
copy (``copy()`` first, change the copy, then swap it in), so a failed change leaves the
game as it was. Every rule, FEN, SAN and PGN question goes to ``AliceBoard`` (``engine/``)
and ``chess.pgn``; a change that cannot be made raises ``GameError``.

The moves form a tree of ``Node`` s (each the position after its move, with a stable
``id``): ``children[0]`` continues the main line, further children are variations. The
page sees one *line* at a time: the path from the root to the node on view
(``current``), continued by first children to its end. A move played where the next
move differs starts a variation beside it, so no move is ever dropped but by a take back.

>>> game = Game()
>>> game.play_text("e4")
'e4/B'
>>> game.play_text("d7d5/B")
'd5/B'
>>> game.fen()
'rnbqkbnr/ppp1pppp/8/3|p4/4|P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2'
>>> game.goto(1); game.play_text("e5")
'e5/B'
>>> game.sans(), [n.san for n in game.alternatives(game.line()[1])]
(['e4/B', 'e5/B'], ['d5/B'])
"""

from __future__ import annotations

import datetime
import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field

import chess
import chess.engine
import chess.pgn

from engine.board import STARTING_FEN, AliceBoard
from gui.notation import MoveTextError, parse_move

PGN_EVENT = "Alice chess in the browser"  # the Event tag of exported games
MAX_GAME_PLIES = 2000  # a longer line is refused (a sane page, a bounded state)
MAX_GAME_NODES = 5000  # moves in all the variations of a game together
MAX_FULLMOVE = 9999  # a FEN's move number above this is refused (its arithmetic must stay small)
MAX_HALFMOVE = 100  # plies without capture or pawn move: at 100 the game is already drawn
BOARD_CACHE = 16  # positions kept built (stepping through a long game rebuilds none)

# PGN's standard Termination values; every ending the web board knows is "normal".
PGN_TERMINATIONS = (
    "abandoned", "adjudication", "death", "emergency", "normal", "rules infraction", "time forfeit", "unterminated"
)

_node_ids = itertools.count(1)  # ids are unique across games: a search's key never matches a new game's


class GameError(ValueError):
    """A change that cannot be made (illegal move, bad FEN or PGN); the message is for the user."""


@dataclass(frozen=True)
class Ending:
    """How a game ended: ``result`` is ``1-0``, ``0-1`` or ``1/2-1/2``."""

    result: str
    reason: str


@dataclass(frozen=True)
class Evaluation:
    """An engine's score of a position, from White's view: ``cp`` (mates as ``±MATE``) and
    ``mate`` (moves to mate, ``0``: the side to move is mated; ``None``: no mate seen).
    ``known`` is false when the engine gave no score."""

    cp: int
    mate: int | None = None
    known: bool = True

    def text(self) -> str:
        """``+0.35``, ``#3``, ``#-2``, ``1-0`` (mated), ``?`` (no score).

        >>> Evaluation(35).text(), Evaluation(10_000, 3).text(), Evaluation(-10_000, 0).text()
        ('+0.35', '#3', '0-1')
        """
        if not self.known:
            return "?"
        if self.mate == 0:
            return "1-0" if self.cp > 0 else "0-1"
        if self.mate is not None:
            return f"#{self.mate}"
        return f"{self.cp / 100:+.2f}"

    def pov_score(self) -> chess.engine.PovScore | None:
        """For PGN's ``[%eval]`` (``None`` when there is nothing to write)."""
        if not self.known or self.mate == 0:
            return None
        score: chess.engine.Score = chess.engine.Mate(self.mate) if self.mate is not None else chess.engine.Cp(self.cp)
        return chess.engine.PovScore(score, chess.WHITE)


@dataclass(eq=False)
class Node:
    """A position of the game: the move that led to it (``None`` at the root), its SAN,
    what follows (``children[0]`` the main line), and what is known about it."""

    move: chess.Move | None
    san: str
    ply: int
    parent: Node | None
    id: int = field(default_factory=lambda: next(_node_ids))
    children: list[Node] = field(default_factory=list)
    ending: Ending | None = None  # the rules' verdict here, or a resignation or a result given
    evaluation: Evaluation | None = None
    comment: str = ""  # a loaded PGN's comment, written back on export


def ending_of(board: AliceBoard) -> Ending | None:
    """The rules' verdict on ``board`` (mate, stalemate, repetition, fifty moves, bare kings)."""
    outcome = board.outcome()
    if outcome is None:
        return None
    reasons = {
        chess.Termination.CHECKMATE: "checkmate",
        chess.Termination.STALEMATE: "stalemate",
        chess.Termination.INSUFFICIENT_MATERIAL: "bare kings",
        chess.Termination.FIFTY_MOVES: "fifty-move rule",
        chess.Termination.THREEFOLD_REPETITION: "threefold repetition",
    }
    return Ending(outcome.result(), reasons.get(outcome.termination, outcome.termination.name.lower()))


def checked_board(fen: str) -> AliceBoard:
    """The position of a compact or 16-wide FEN, its move number and halfmove clock range-checked.

    >>> checked_board("4k3/8/8/8/8/8/8/4K3 w - - 0 99999").fen()
    Traceback (most recent call last):
    ...
    gui.game.GameError: bad FEN: the move number must be 1 to 9999, not 99999
    """
    fields = fen.split()
    if not fields:
        raise GameError("paste a FEN first")
    if len(fields) > 6:
        raise GameError(f"bad FEN: it has {len(fields)} fields (at most 6: board, side, castling, '-', clocks)")
    for index, name, low, high in ((4, "halfmove clock", 0, MAX_HALFMOVE), (5, "move number", 1, MAX_FULLMOVE)):
        text = fields[index] if len(fields) > index else str(low)
        if not (text.isascii() and text.isdigit() and len(text) <= 6 and low <= int(text) <= high):
            raise GameError(f"bad FEN: the {name} must be {low} to {high}, not {text[:12]}")
    try:
        return AliceBoard(" ".join(fields))
    except ValueError as error:
        raise GameError(f"bad FEN: {error}") from None


class Game:
    """The move tree from a root position, the node on view, the PGN tags (see the module docstring)."""

    def __init__(self, fen: str = STARTING_FEN) -> None:
        board = checked_board(fen)
        self.root_board = board
        self.root = Node(None, "", 0, None, ending=ending_of(board))
        self.current = self.root
        self.nodes: dict[int, Node] = {self.root.id: self.root}
        self.headers: dict[str, str] = {}  # PGN tags of a loaded game, kept on export
        self.date = datetime.date.today()  # the Date tag of a game played here
        self._boards: dict[int, AliceBoard] = {}  # node id -> its position (a node's position never changes)

    # ------------------------------------------------------------ the tree
    def copy(self) -> Game:
        """A copy to change (same node ids, evaluations and tags); the original stays as it was."""
        other = Game.__new__(Game)
        other.root_board = self.root_board
        other.headers = dict(self.headers)
        other.date = self.date
        other._boards = dict(self._boards)
        other.nodes = {}
        stack: list[tuple[Node, Node | None]] = [(self.root, None)]
        while stack:
            node, parent = stack.pop()
            twin = Node(node.move, node.san, node.ply, parent, node.id, [], node.ending, node.evaluation, node.comment)
            other.nodes[twin.id] = twin
            if parent is None:
                other.root = twin
            else:
                parent.children.append(twin)
            stack.extend((child, twin) for child in reversed(node.children))
        other.current = other.nodes[self.current.id]
        return other

    def node(self, node_id: int) -> Node | None:
        return self.nodes.get(node_id)

    def path(self, node: Node) -> list[Node]:
        """The nodes from the first move to ``node`` (empty for the root)."""
        out = []
        while node.parent is not None:
            out.append(node)
            node = node.parent
        out.reverse()
        return out

    def line(self) -> list[Node]:
        """The line on view: the path to ``current``, then its main continuation."""
        out = self.path(self.current)
        node = self.current
        while node.children:
            node = node.children[0]
            out.append(node)
        return out

    def line_end(self) -> Node:
        node = self.current
        while node.children:
            node = node.children[0]
        return node

    def mainline(self) -> list[Node]:
        out, node = [], self.root
        while node.children:
            node = node.children[0]
            out.append(node)
        return out

    def alternatives(self, node: Node) -> list[Node]:
        """The other moves played from ``node``'s parent (its variations, or the main line)."""
        if node.parent is None:
            return []
        return [child for child in node.parent.children if child is not node]

    def walk(self) -> Iterator[Node]:
        """Every node, depth first, main line first."""
        stack = [self.root]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))

    # ------------------------------------------------------------ reading
    @property
    def cursor(self) -> int:
        """The ply on view."""
        return self.current.ply

    @property
    def plies(self) -> int:
        """The length of the line on view."""
        return self.line_end().ply

    @property
    def ending(self) -> Ending | None:
        """How the line on view ends, if it does."""
        return self.line_end().ending

    @property
    def turn(self) -> chess.Color:
        """The side to move in the position on view."""
        return self.root_board.turn ^ (self.current.ply % 2 == 1)

    def over(self) -> bool:
        return self.ending is not None

    def root_fen(self) -> str:
        return self.root_board.fen()

    def board_at(self, node: Node) -> AliceBoard:
        """A copy of the position at ``node`` (with the moves that led there, for repetitions)."""
        board = self._boards.get(node.id)
        if board is None:
            board = self.root_board.copy(stack=False)
            for step in self.path(node):
                assert step.move is not None
                board.push(step.move)
            if len(self._boards) >= BOARD_CACHE:
                self._boards.pop(next(iter(self._boards)))
            self._boards[node.id] = board
        return board.copy()

    def view(self, ply: int | None = None) -> AliceBoard:
        """A copy of the position after ``ply`` moves of the line on view (default: the ply on view)."""
        if ply is None:
            return self.board_at(self.current)
        return self.board_at(self._line_node(ply))

    def _line_node(self, ply: int) -> Node:
        if ply == 0:
            return self.root
        return self.line()[ply - 1]

    def fen(self) -> str:
        """The compact FEN of the position on view."""
        return self.view().fen()

    def sans(self) -> list[str]:
        """SAN of every move of the line on view, with ``/A`` ``/B``."""
        return [node.san for node in self.line()]

    # ------------------------------------------------------------ changing
    def goto(self, ply: int) -> None:
        """Show the position after ``ply`` moves of the line on view."""
        if not 0 <= ply <= self.plies:
            raise GameError(f"no such move: ply {ply} (the line has {self.plies})")
        self.current = self._line_node(ply)

    def goto_node(self, node_id: int) -> None:
        """Show the position at a node of any line (the line on view becomes its line)."""
        node = self.nodes.get(node_id)
        if node is None:
            raise GameError(f"no such position: {node_id}")
        self.current = node

    def play(self, move: chess.Move) -> str:
        """Play a legal ``move`` at the position on view; its SAN. When a different move
        followed, the new one starts a variation (the old moves stay)."""
        node = self.current
        if node.ending is not None:
            raise GameError(f"the game is over ({node.ending.result}, {node.ending.reason})")
        for child in node.children:
            if child.move == move:
                self.current = child
                return child.san
        board = self.board_at(node)
        if not move or not board.is_legal(move):
            raise GameError(f"{move.uci()} is not a legal move here")
        if node.ply >= MAX_GAME_PLIES:
            raise GameError(f"the game is too long (at most {MAX_GAME_PLIES} plies)")
        if len(self.nodes) >= MAX_GAME_NODES:
            raise GameError(f"too many moves in all the variations (at most {MAX_GAME_NODES})")
        san = board.san(move)
        board.push(move)
        child = Node(move, san, node.ply + 1, node, ending=ending_of(board))
        node.children.append(child)
        self.nodes[child.id] = child
        self._boards[child.id] = board
        self.current = child
        return san

    def play_text(self, text: str) -> str:
        """Play a move typed in UCI or SAN; its SAN."""
        if self.current.ending is not None:
            raise GameError(f"the game is over ({self.current.ending.result}, {self.current.ending.reason})")
        try:
            return self.play(parse_move(self.view(), text))
        except MoveTextError as error:
            raise GameError(str(error)) from None

    def take_back(self, plies: int) -> None:
        """Delete the last ``plies`` moves of the line on view (fewer if it is shorter); show its new end."""
        node = self.line_end()
        for _ in range(min(plies, node.ply)):
            parent = node.parent
            assert parent is not None
            parent.children.remove(node)
            for gone in self._subtree(node):
                del self.nodes[gone.id]
                self._boards.pop(gone.id, None)
            node = parent
        self.current = node
        if node.ending is not None and node.ending.reason.endswith("resigned"):
            node.ending = None

    def _subtree(self, node: Node) -> Iterator[Node]:
        stack = [node]
        while stack:
            n = stack.pop()
            yield n
            stack.extend(n.children)

    def resign(self, loser: chess.Color) -> None:
        """``loser`` resigns at the end of the line on view (which is then shown)."""
        end = self.line_end()
        if end.ending is not None:
            raise GameError("the game is already over")
        name = "White" if loser == chess.WHITE else "Black"
        end.ending = Ending("0-1" if loser == chess.WHITE else "1-0", f"{name} resigned")
        self.current = end

    # ------------------------------------------------------------ FEN and PGN
    @classmethod
    def from_fen(cls, fen: str) -> Game:
        """A new game from a compact or 16-wide FEN; ``GameError`` naming the problem."""
        return cls(" ".join(fen.split()))
