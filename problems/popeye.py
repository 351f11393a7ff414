"""Popeye's input language, the part Alice problems use: ``begin``/``next``/``end``,
``author``, ``origin``, ``title``, ``remark``, ``pieces``, ``stipulation``, ``twin``,
``option``, ``condition alice``, ``protocol``. Keywords are case-insensitive and may be
shortened to any unique prefix of at least three letters (``stip``, ``cond``, ``vari``).

>>> problems = parse_problems("begin pieces white Ke1 AliceB Rh1 black ke8 stip #1 end")
>>> [p.error for p in problems], str(problems[0].stip), problems[0].squares[7] >> 4
([None], '#1', 1)

Each problem is read on its own: an error names the problem and what is wrong, and the
next problem is read as usual (``Problem.error``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Final

import chess

from engine.tables import KING, piece_code
from problems.stipulation import Stipulation, StipulationError, parse_stipulation

MIN_PREFIX: Final = 3  # shortest abbreviation of a keyword accepted
MAX_SOLUTIONS_OPTION: Final = 1_000_000  # largest 'option maxsolutions N' (and 'refutations N') accepted
KEYWORDS: Final = (
    "begin", "next", "end", "author", "origin", "title", "remark", "pieces", "stipulation", "twin",
    "option", "condition", "protocol",
)  # fmt: skip
OPTIONS: Final = ("try", "variation", "setplay", "nothreat", "maxsolutions", "refutations")
NUMBER_OPTIONS: Final = ("maxsolutions", "refutations")  # options followed by a number
TWIN_COMMANDS: Final = ("move", "exchange", "remove", "add", "stipulation", "continued")
TEXT_KEYWORDS: Final = ("author", "origin", "title", "remark")
PIECE_LETTERS: Final = {"p": 1, "s": 2, "b": 3, "r": 4, "q": 5, "k": 6}  # Popeye's English letters: S is the knight
_PIECE_RE: Final = re.compile(r"([a-z])((?:[a-h][1-8])+)")
_SQUARE_RE: Final = re.compile(r"[a-h][1-8]")


class ProblemInputError(ValueError):
    """Input outside the supported subset of Popeye's language; the message names it."""


@dataclass
class TwinSpec:
    """One ``twin``: its changes, applied to the previous twin if ``continued``, else to the diagram."""

    continued: bool
    changes: list[tuple[str, ...]]


@dataclass
class Problem:
    """One problem of an input file (``error`` set when it could not be read)."""

    number: int
    texts: list[tuple[str, str]] = field(default_factory=list)  # (author|origin|title|remark, text)
    squares: list[int] = field(default_factory=lambda: [0] * 64)
    stip: Stipulation | None = None
    options: dict[str, int] = field(default_factory=dict)  # option -> value (1, or the N of NUMBER_OPTIONS)
    twins: list[TwinSpec] = field(default_factory=list)
    error: str | None = None


@dataclass
class Token:
    word: str
    rest: str  # the rest of the line after the word
    line: int


def tokenize(text: str) -> list[Token]:
    """Words with the rest of their line (``title`` and friends take it) and line number."""
    tokens = []
    for number, line in enumerate(text.splitlines(), 1):
        for match in re.finditer(r"\S+", line):
            tokens.append(Token(match.group(), line[match.end() :].strip(), number))
    return tokens


def match_word(word: str, words: tuple[str, ...]) -> str | None:
    """The one word of ``words`` that ``word`` abbreviates (case-insensitive), else ``None``."""
    w = word.lower()
    if w in words:
        return w
    if len(w) < MIN_PREFIX:
        return None
    found = [k for k in words if k.startswith(w) or (w.startswith(k) and w.rstrip("s") == k)]
    return found[0] if len(found) == 1 else None


def is_keyword(token: Token) -> bool:
    return not _PIECE_RE.fullmatch(token.word.lower()) and match_word(token.word, KEYWORDS) is not None


class _Reader:
    """A cursor over the tokens of a file."""

    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = tokens
        self.i = 0

    def peek(self) -> Token | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self, what: str) -> Token:
        token = self.peek()
        if token is None:
            raise ProblemInputError(f"end of input where {what} was expected")
        self.i += 1
        return token

    def words_until_keyword(self) -> Iterator[Token]:
        while (token := self.peek()) is not None and not is_keyword(token):
            self.i += 1
            yield token

    def skip_problem(self) -> None:
        """Past the rest of a problem that failed: up to its ``next`` or ``end``."""
        while (token := self.peek()) is not None and match_word(token.word, KEYWORDS) not in ("next", "end"):
            self.i += 1


def parse_problems(text: str) -> list[Problem]:
    """Every problem of a Popeye input ``text`` (errors included, one per problem)."""
    reader = _Reader(tokenize(text))
    first = reader.peek()
    if first is not None and match_word(first.word, KEYWORDS) == "begin":
        reader.i += 1
    problems: list[Problem] = []
    while reader.peek() is not None:
        problem = Problem(len(problems) + 1)
        problems.append(problem)
        try:
            ended = _parse_problem(reader, problem)
        except ProblemInputError as error:
            problem.error = f"problem {problem.number}: {error}"
            reader.skip_problem()
            token = reader.peek()
            ended = token is None or match_word(token.word, KEYWORDS) == "end"
            reader.i += 1
        if ended:
            break
    return [p for p in problems if p.error or p.stip or any(p.squares)]


def _parse_problem(reader: _Reader, problem: Problem) -> bool:
    """Read one problem up to and including its ``next`` (False) or ``end`` (True)."""
    while (token := reader.peek()) is not None:
        reader.i += 1
        keyword = match_word(token.word, KEYWORDS)
        if keyword is None:
            raise ProblemInputError(f"line {token.line}: unknown keyword {token.word!r}")
        if keyword in ("next", "end"):
            _check_complete(problem)
            return keyword == "end"
        _command(reader, problem, keyword, token)
    _check_complete(problem)
    return True


def _check_complete(problem: Problem) -> None:
    if problem.stip is None:
        raise ProblemInputError("no stipulation")
    if not any(problem.squares):
        raise ProblemInputError("no pieces")


def _command(reader: _Reader, problem: Problem, keyword: str, token: Token) -> None:
    """One top-level command of a problem."""
    if keyword in TEXT_KEYWORDS:
        problem.texts.append((keyword, token.rest))
        reader.i += len(token.rest.split())
    elif keyword == "begin":
        raise ProblemInputError(f"line {token.line}: 'begin' inside a problem (a missing 'next' or 'end'?)")
    elif keyword == "protocol":
        reader.take("a file name")  # Popeye copies its output there; we print to stdout only
    elif keyword == "pieces":
        for color, board, letter, square in parse_pieces(list(reader.words_until_keyword())):
            _place(problem.squares, color, board, letter, square)
    elif keyword == "stipulation":
        problem.stip = _stipulation(reader.take("a stipulation"))
    elif keyword == "option":
        _options(list(reader.words_until_keyword()), problem.options)
    elif keyword == "condition":
        for word in reader.words_until_keyword():
            if word.word.lower() != "alice":
                raise ProblemInputError(f"line {word.line}: condition {word.word!r} is not supported (only alice)")
    else:  # twin
        problem.twins.append(_twin(reader))


def _stipulation(token: Token) -> Stipulation:
    try:
        return parse_stipulation(token.word)
    except StipulationError as error:
        raise ProblemInputError(f"line {token.line}: {error}") from None


def parse_pieces(words: list[Token]) -> list[tuple[int, int, int, int]]:
    """``white Ke1 Qd1 AliceB Rh1 black ke8``: (colour, board, piece type, square) per piece.
    A colour word starts a group; ``AliceB`` (``AliceA``) puts the group's next pieces on
    board B (A)."""
    color: int | None = None
    board = 0
    placed = []
    for token in words:
        w = token.word.lower()
        if w in ("white", "black"):
            color, board = (1 if w == "white" else 0), 0
        elif w in ("alicea", "aliceb"):
            board = 1 if w == "aliceb" else 0
        elif (match := _PIECE_RE.fullmatch(w)) is not None and w not in ("white", "black"):
            letter, squares = match.groups()
            if color is None:
                raise ProblemInputError(f"line {token.line}: piece {token.word!r} before 'white' or 'black'")
            if letter not in PIECE_LETTERS:
                raise ProblemInputError(
                    f"line {token.line}: piece {letter.upper()!r} of {token.word!r} is not supported (K Q R B S P)"
                )
            for square in _SQUARE_RE.findall(squares):
                placed.append((color, board, PIECE_LETTERS[letter], chess.parse_square(square)))
        elif w == "neutral":
            raise ProblemInputError(f"line {token.line}: neutral pieces are not supported")
        else:
            raise ProblemInputError(f"line {token.line}: unknown piece or attribute {token.word!r}")
    return placed


def _place(squares: list[int], color: int, board: int, ptype: int, square: int) -> None:
    if squares[square]:
        raise ProblemInputError(f"square {chess.SQUARE_NAMES[square]} holds two pieces")
    squares[square] = piece_code(ptype, color, board)


def _options(words: list[Token], options: dict[str, int]) -> None:
    i = 0
    while i < len(words):
        token = words[i]
        option = match_word(token.word, OPTIONS)
        if option is None:
            raise ProblemInputError(f"line {token.line}: option {token.word!r} is not supported")
        value = 1
        if option in NUMBER_OPTIONS:
            i += 1
            if i >= len(words) or not words[i].word.isdigit() or not 1 <= int(words[i].word) <= MAX_SOLUTIONS_OPTION:
                raise ProblemInputError(f"line {token.line}: {option} needs a number 1..{MAX_SOLUTIONS_OPTION}")
            value = int(words[i].word)
        options[option] = value
        i += 1


def _square(reader: _Reader) -> str:
    token = reader.take("a square")
    if not _SQUARE_RE.fullmatch(token.word.lower()):
        raise ProblemInputError(f"line {token.line}: {token.word!r} is not a square")
    return token.word.lower()


def _twin(reader: _Reader) -> TwinSpec:
    """The changes of one ``twin``, up to the next keyword."""
    twin = TwinSpec(False, [])
    while (token := reader.peek()) is not None:
        command = match_word(token.word, TWIN_COMMANDS)
        if command is None:
            if is_keyword(token):
                break
            raise ProblemInputError(f"line {token.line}: twin command {token.word!r} is not supported")
        reader.i += 1
        if command == "continued":
            twin.continued = True
        elif command in ("move", "exchange"):
            twin.changes.append((command, _square(reader), _square(reader)))
        elif command == "remove":
            twin.changes.append((command, _square(reader)))
        elif command == "stipulation":
            twin.changes.append((command, str(_stipulation(reader.take("a stipulation")))))
        else:
            twin.changes.append(_twin_add(reader, token))
    if not twin.changes:
        raise ProblemInputError("a twin without changes")
    return twin


def _twin_add(reader: _Reader, token: Token) -> tuple[str, ...]:
    """``add white [AliceB] Qd1`` (one or more pieces of one colour)."""
    words = [reader.take("a colour")]
    while (nxt := reader.peek()) is not None and not is_keyword(nxt) and match_word(nxt.word, TWIN_COMMANDS) is None:
        words.append(nxt)
        reader.i += 1
        if _PIECE_RE.fullmatch(nxt.word.lower()) and nxt.word.lower() not in ("white", "black"):
            break
    placed = parse_pieces(words)
    if not placed:
        raise ProblemInputError(f"line {token.line}: 'add' without a piece")
    return ("add", *(f"{c}{b}{t}{s}" for c, b, t, s in placed))


def apply_twin(squares: list[int], stip: Stipulation, twin: TwinSpec) -> tuple[list[int], Stipulation, str]:
    """The diagram after ``twin``'s changes, its stipulation, and Popeye's description of it."""
    squares = list(squares)
    parts = []
    for change in twin.changes:
        if change[0] == "stipulation":
            stip = parse_stipulation(change[1])
            parts.append(f"stipulation {stip}")
            continue
        parts.append(_apply_change(squares, change))
    return squares, stip, "  ".join(parts)


def piece_name(code: int) -> str:
    """``wKh1`` style, without the square: colour letter and piece letter."""
    return ("w" if code & 8 else "b") + " PSBRQK"[code & 7]


def _apply_change(squares: list[int], change: tuple[str, ...]) -> str:
    command = change[0]
    if command == "add":
        text = []
        for spec in change[1:]:
            color, board, ptype, square = int(spec[0]), int(spec[1]), int(spec[2]), int(spec[3:])
            _place(squares, color, board, ptype, square)
            text.append(f"+{piece_name(squares[square])}{chess.SQUARE_NAMES[square]}{'B' if board else ''}")
        return " ".join(text)
    a = chess.parse_square(change[1])
    if not squares[a]:
        raise ProblemInputError(f"twin {command}: no piece on {change[1]}")
    name = f"{piece_name(squares[a])}{change[1]}"
    if command == "remove":
        squares[a] = 0
        return f"-{name}"
    b = chess.parse_square(change[2])
    if command == "move":
        if squares[b]:
            raise ProblemInputError(f"twin move: {change[2]} is occupied")
        squares[a], squares[b] = 0, squares[a]
        return f"{name}-->{change[2]}"
    if not squares[b]:
        raise ProblemInputError(f"twin exchange: no piece on {change[2]}")
    other = f"{piece_name(squares[b])}{change[2]}"
    squares[a], squares[b] = squares[b], squares[a]
    return f"{name}<-->{other}"


def has_kings(squares: list[int]) -> bool:
    return sum(1 for p in squares if p and p & 7 == KING) == 2


def diagram_fen(squares: list[int], turn: int) -> str:
    """The compact FEN of a diagram with ``turn`` to move and every castling right whose
    king and rook stand at home on board A (Popeye's assumption)."""
    from engine.fen import PIECE_LETTERS as FEN_LETTERS
    from engine.fen import valid_castling
    from engine.tables import CASTLING_LETTERS

    rows = []
    for rank in range(7, -1, -1):
        row = ""
        for file in range(8):
            p = squares[rank * 8 + file]
            letter = FEN_LETTERS[p & 7]
            row += ("|" if p >> 4 else "") + (letter.upper() if p & 8 else letter) if p else "1"
        rows.append(re.sub(r"1+", lambda run: str(len(run.group())), row))
    rights = valid_castling(squares, 15)
    castling = "".join(letter for bit, letter in CASTLING_LETTERS if rights & bit) or "-"
    return f"{'/'.join(rows)} {'w' if turn else 'b'} {castling} - 0 1"
