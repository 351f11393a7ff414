"""Tournament standings as cutechess-cli prints them, the crosstable and the outcome counts.

``-resultformat`` takes a named format (``default``, ``short``, ``per-color``, ...) or a
comma-separated list of column tokens (``Rank,Name,Elo,Error,Games,Score,DScore``), with
cutechess's tokens, headers and widths. Rows are sorted by score (points per game), engines
without a finished game last; ties keep the ``-engine`` order (cutechess lists the later
engine first). In a gauntlet the gauntlet engines come first, ranked from 0. Each engine's
Elo is its performance against the field: cutechess's ``Elo`` of its own wins, losses and
draws (``stats.Elo``).

Tokens cutechess accepts but prints nothing for (``LOS``, ``wElo``, ``wError``, ``wLOS``,
``bElo``, ``bError``, and ``wPoints``/``bPoints`` of the ``per-color`` format) are printed
here; an unknown token is an error, not silently dropped.

>>> s = Standings(["a", "b", "c"])
>>> s.add(0, 1, "1-0", "normal", "White mates")
>>> s.add(2, 0, "1/2-1/2", "normal", "Draw by stalemate")
>>> print(s.table_text(parse_format("small")))
Rank Name                        Games   Points
   1 a                               2      1.5
   2 c                               1      0.5
   3 b                               1      0.0
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from .game import ABANDONED, ADJUDICATION, ILLEGAL_MOVE, NORMAL, STALLED, TIME_FORFEIT
from .stats import Elo

NAME_WIDTH = 25  # cutechess's Name column
CROSS_CELL_WIDTH = 7  # at least this wide: "10.5/12"

NAMED_FORMATS = {
    "minimal": "Rank,Name",
    "small": "Rank,Name,Games,Points",
    "short": "Rank,Name,Elo,Games",
    "concise": "Rank,Name,Elo,Error,Games",
    "default": "Rank,Name,Elo,Error,Games,Score,DScore",
    "with-points": "Rank,Name,Elo,Error,Games,Points,Score,DScore",
    "wide": "Rank,Name,Elo,Error,Games,W,L,D,Points,Score,DScore",
    "wide2": "Rank,Name,Elo,Error,Games,W,L,D,Points,Score,DScore,wScore,bScore",
    "per-color": "Rank,Name,Elo,Error,Games,W,L,D,Points,wW,wL,wD,wPoints,bW,bL,bD,bPoints",
    "ordo": "Rank,Name,Elo,Points,Games,Score",
    "term": "Rank,Name,Elo,Error,Games,Score,Time,Illegal,Discon,Stall,WrClaim",
    "draws": "Rank,Name,Elo,Error,Games,W,L,D,Points,Score,DScore,DStale,DMater,DRepet,DMoves,DAdj,DAgree,OtherD",
    "wide3": "Rank,Name,TC,Elo,Error,Games,WLDStats,DrawStats,Terminations",
}
NAMED_GROUPS = {
    "WLDStats": "W,L,D,Points,Score,wW,wL,wD,wPoints,wScore,bW,bL,bD,bPoints,bScore",
    "DrawStats": "DScore,DStale,DMater,DRepet,DMoves,DAdj,DAgree,OtherD",
    "Terminations": "Time,Illegal,Discon,Stall,WrClaim",
}

# Outcome kinds (cutechess's per-player outcome counters), by the column token that shows them.
_DRAW_KINDS = (("stalemate", "DStale"), ("bare kings", "DMater"), ("repetition", "DRepet"), ("fifty", "DMoves"))
_FORFEIT_KINDS = {TIME_FORFEIT: "Time", ILLEGAL_MOVE: "Illegal", ABANDONED: "Discon", STALLED: "Stall"}


OUTCOME_TOKENS = (
    "Time", "Illegal", "Discon", "Stall", "WrClaim", "RegulL", "RegulW", "OtherW",
    "DStale", "DMater", "DRepet", "DMoves", "DCount", "DAdj", "DAgree", "OtherD",
)  # fmt: skip


@dataclass
class PlayerScore:
    """One engine's results: wins, losses and draws by colour, and its outcome counts."""

    name: str
    tc: str = ""
    white: list[int] = field(default_factory=lambda: [0, 0, 0])  # W, L, D with White
    black: list[int] = field(default_factory=lambda: [0, 0, 0])
    outcomes: Counter[str] = field(default_factory=Counter)  # "Win: White mates" -> count
    kinds: Counter[str] = field(default_factory=Counter)  # column token ("Time", "DStale", ...) -> count

    @property
    def wins(self) -> int:
        return self.white[0] + self.black[0]

    @property
    def losses(self) -> int:
        return self.white[1] + self.black[1]

    @property
    def draws(self) -> int:
        return self.white[2] + self.black[2]

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    @property
    def points(self) -> float:
        return self.wins + self.draws / 2

    def elo(self, side: list[int] | None = None) -> Elo:
        w, lo, d = side if side is not None else (self.wins, self.losses, self.draws)
        return Elo(w, lo, d)


def _points(wld: list[int]) -> float:
    return wld[0] + wld[2] / 2


def _num(x: float, places: int) -> str:
    return f"{x:.{places}f}"  # nan and inf as Qt prints them: "nan", "inf"


def _percent(elo: Elo) -> str:
    return f"{elo.mu * 100:.1f}%"


def _draw_percent(elo: Elo) -> str:
    return f"{elo.draw_ratio():.1f}%"


@dataclass(frozen=True)
class Column:
    """A standings column: header, width (negative: left-aligned) and the cell text."""

    header: str
    width: int
    cell: Callable[[int, PlayerScore], str]  # (rank, player) -> text

    def pad(self, text: str) -> str:
        return (text.ljust(-self.width) if self.width < 0 else text.rjust(self.width)) + " "


def _count(get: Callable[[PlayerScore], int], header: str) -> Column:
    return Column(header, 7, lambda _r, p: str(get(p)))


def _kind(token: str) -> Column:
    return Column(token, 7, lambda _r, p: str(p.kinds[token]))


COLUMNS: dict[str, Column] = {
    "Rank": Column("Rank", 4, lambda r, _p: str(r)),
    "Name": Column("Name", -NAME_WIDTH, lambda _r, p: p.name),
    "Games": _count(lambda p: p.games, "Games"),
    "W": _count(lambda p: p.wins, "Wins"),
    "L": _count(lambda p: p.losses, "Losses"),
    "D": _count(lambda p: p.draws, "Draws"),
    "wW": _count(lambda p: p.white[0], "WWins"),
    "wL": _count(lambda p: p.white[1], "WLoss."),
    "wD": _count(lambda p: p.white[2], "WDraws"),
    "bW": _count(lambda p: p.black[0], "BWins"),
    "bL": _count(lambda p: p.black[1], "BLoss."),
    "bD": _count(lambda p: p.black[2], "BDraws"),
    "Points": Column("Points", 8, lambda _r, p: _num(p.points, 1)),
    "wPoints": Column("WPoints", 8, lambda _r, p: _num(_points(p.white), 1)),
    "bPoints": Column("BPoints", 8, lambda _r, p: _num(_points(p.black), 1)),
    "Score": Column("Score", 7, lambda _r, p: _percent(p.elo())),
    "DScore": Column("Draw", 7, lambda _r, p: _draw_percent(p.elo())),
    "Elo": Column("Elo", 7, lambda _r, p: _num(p.elo().diff(), 0)),
    "Error": Column("+/-", 7, lambda _r, p: _num(p.elo().error_margin(), 0)),
    "LOS": Column("LOS", 7, lambda _r, p: _num(p.elo().los(), 1)),
    "wScore": Column("White", 7, lambda _r, p: _percent(p.elo(p.white))),
    "wDScore": Column("WDraw", 7, lambda _r, p: _draw_percent(p.elo(p.white))),
    "wElo": Column("WElo", 7, lambda _r, p: _num(p.elo(p.white).diff(), 0)),
    "wError": Column("W+/-", 7, lambda _r, p: _num(p.elo(p.white).error_margin(), 0)),
    "wLOS": Column("WLOS", 7, lambda _r, p: _num(p.elo(p.white).los(), 1)),
    "bScore": Column("Black", 7, lambda _r, p: _percent(p.elo(p.black))),
    "bDScore": Column("BDraw", 7, lambda _r, p: _draw_percent(p.elo(p.black))),
    "bElo": Column("BElo", 7, lambda _r, p: _num(p.elo(p.black).diff(), 0)),
    "bError": Column("B+/-", 7, lambda _r, p: _num(p.elo(p.black).error_margin(), 0)),
    "bLOS": Column("BLOS", 7, lambda _r, p: _num(p.elo(p.black).los(), 1)),
    **{token: _kind(token) for token in OUTCOME_TOKENS},
    "TC": Column("TC", 14, lambda _r, p: p.tc),
}


class FormatError(ValueError):
    """A ``-resultformat`` that names an unknown format or column."""


def parse_format(text: str) -> list[str]:
    """The column tokens of a named format or a comma-separated token list.

    >>> parse_format("short")
    ['Rank', 'Name', 'Elo', 'Games']
    """
    spec = NAMED_FORMATS.get(text.strip(), text)
    for group, members in NAMED_GROUPS.items():
        spec = spec.replace(group, members)
    columns = [t.strip() for t in spec.split(",") if t.strip()]
    unknown = [t for t in columns if t not in COLUMNS]
    if unknown or not columns:
        raise FormatError(
            f"unknown result format or column {unknown[0] if unknown else text!r}: "
            f"formats are {', '.join(NAMED_FORMATS)}; columns {','.join(COLUMNS)}"
        )
    return columns


def format_help() -> str:
    """What ``-resultformat help`` prints."""
    lines = ["Option -resultformat accepts a comma separated list of fields or one of these format names:", ""]
    lines += [f"{name}\n  {spec}" for name, spec in NAMED_FORMATS.items()]
    lines += ["", "Field tokens:", "  " + " ".join(COLUMNS), "", "Named shortcuts:"]
    lines += [f"{name}\n  {spec}" for name, spec in NAMED_GROUPS.items()]
    return "\n".join(lines)


def classify(result: str, termination: str, reason: str) -> tuple[str, str]:
    """The outcome kinds (column tokens) of a game for (White, Black), as cutechess counts them."""
    if result == "1/2-1/2":
        if termination == ADJUDICATION:
            return "DAdj", "DAdj"
        kind = next((token for text, token in _DRAW_KINDS if termination == NORMAL and text in reason), "OtherD")
        return kind, kind
    if termination in _FORFEIT_KINDS:
        winner, loser = "OtherW", _FORFEIT_KINDS[termination]
    else:
        winner, loser = "RegulW", "RegulL"
    return (winner, loser) if result == "1-0" else (loser, winner)


class Standings:
    """Scores of every engine, and of every engine against every other (the crosstable)."""

    def __init__(self, names: list[str], tcs: list[str] | None = None, seed_count: int = 0) -> None:
        self.players = [PlayerScore(name, tc) for name, tc in zip(names, tcs or [""] * len(names))]
        self.seed_count = seed_count  # gauntlet engines, listed first
        self.cross: dict[tuple[int, int], list[int]] = {}  # (a, b) -> a's W, L, D against b

    def rename(self, index: int, name: str) -> None:
        self.players[index].name = name

    def add(self, white: int, black: int, result: str, termination: str, reason: str) -> None:
        """Count one finished game (``result`` ``1-0``, ``0-1`` or ``1/2-1/2``)."""
        slot = {"1-0": 0, "0-1": 1, "1/2-1/2": 2}[result]
        w, b = self.players[white], self.players[black]
        w.white[slot] += 1
        b.black[(1 - slot) if slot < 2 else 2] += 1
        self.cross.setdefault((white, black), [0, 0, 0])[slot] += 1
        self.cross.setdefault((black, white), [0, 0, 0])[(1 - slot) if slot < 2 else 2] += 1
        white_kind, black_kind = classify(result, termination, reason)
        w.kinds[white_kind] += 1
        b.kinds[black_kind] += 1
        if slot == 2:
            w.outcomes[reason] += 1
            b.outcomes[reason] += 1
        else:
            winner, loser = (w, b) if slot == 0 else (b, w)
            winner.outcomes["Win: " + reason] += 1
            loser.outcomes["Loss: " + reason] += 1

    @property
    def games(self) -> int:
        return sum(p.games for p in self.players) // 2

    def order(self) -> list[int]:
        """Engine indexes in standings order (gauntlet engines first, then by score)."""

        def key(i: int) -> float:
            player = self.players[i]
            if i < self.seed_count:
                return -1.0
            return 1.0 - player.points / player.games if player.games else 2.0

        return sorted(range(len(self.players)), key=key)

    def ranked(self) -> list[tuple[int, PlayerScore]]:
        """(rank, player) in standings order; ranks count from 0 in a gauntlet, else from 1."""
        first = 0 if self.seed_count else 1
        return [(first + n, self.players[i]) for n, i in enumerate(self.order())]

    def table(self, tokens: list[str]) -> tuple[list[str], list[list[str]]]:
        """Headers and cell texts (unpadded) of the standings in ``tokens`` columns."""
        columns = [COLUMNS[t] for t in tokens]
        return [c.header for c in columns], [[c.cell(rank, p) for c in columns] for rank, p in self.ranked()]

    def table_text(self, tokens: list[str]) -> str:
        """The standings as cutechess prints them: padded columns separated by a space
        (cutechess also ends each line with one)."""
        columns = [COLUMNS[t] for t in tokens]
        headers, rows = self.table(tokens)
        lines = ("".join(c.pad(text) for c, text in zip(columns, line)) for line in [headers, *rows])
        return "\n".join(line.rstrip() for line in lines)

    def crosstable(self) -> tuple[list[str], list[list[str]]]:
        """Headers and rows of the crosstable, engines in standings order: each cell the
        row engine's points against the column engine over their games (``1.5/2``)."""
        order = self.order()
        headers = ["Rank", "Name", *(str(n) for n in range(1, len(order) + 1)), "Points"]
        rows = []
        for rank, i in enumerate(order, 1):
            cells = []
            for j in order:
                wld = self.cross.get((i, j))
                cells.append("x" if i == j else "-" if wld is None else f"{_points(wld):g}/{sum(wld)}")
            player = self.players[i]
            rows.append([str(rank), player.name, *cells, f"{player.points:g}/{player.games}"])
        return headers, rows

    def crosstable_text(self) -> str:
        """The crosstable as text, under a title line."""
        headers, rows = self.crosstable()
        width = max(CROSS_CELL_WIDTH, *(len(cell) + 1 for row in rows for cell in row[2:]))
        lines = []
        for line in [headers, *rows]:
            text = line[0].rjust(4) + " " + line[1].ljust(NAME_WIDTH) + " "
            lines.append(text + "".join(cell.rjust(width) for cell in line[2:]))
        return "\n".join(["Crosstable (points of each row's engine against each column's):", *lines])

    def outcomes_text(self) -> str:
        """Each engine's outcome counts, as cutechess-cli's outcome list."""
        lines = []
        for player in self.players:
            lines.append(f"Player: {player.name}")
            lines += [f'   "{text}": {count}' for text, count in sorted(player.outcomes.items())]
        return "\n".join(lines)
