"""Exact solving of Alice problems: direct (``#n``, ``=n``), help (``h#n``, ``h#n.5``,
``h=n``) and self (``s#n``) play, with a transposition table per solve.

    solver = Solver(pos, parse_stipulation("#2"))
    solver.keys()          # every first move that forces the goal within n moves
    solver.help_solutions()  # helpmates: every line, as lists of moves

Direct and self play are an AND/OR proof: ``wins(d)`` (attacker to move: can it force the
goal within ``d`` of its moves?) and ``holds(d)`` (defender to move after an attacker move:
does every reply lose within ``d`` more attacker moves?). The table stores, per position
key (every piece's board included), the smallest ``d`` proved and the largest refuted.
Helpmates enumerate every line of exactly the stipulated length; the table stores the
lines found below each (position, half-moves left), so transpositions are solved once.

The rules are the engine's (no en passant). Repetitions and the fifty-move rule do not
apply (problem convention: play starts from the diagram, the lines are short).
"""

from __future__ import annotations

from typing import Final

from engine.movegen import check_info, gives_check
from engine.position import Position
from engine.tables import Move
from problems.interrupts import let_python_run
from problems.stipulation import DIRECT, MATE, SELF, Stipulation

MAX_REFUTATIONS: Final = 1  # a try is a first move with at most this many refutations (Popeye's default)
INTERRUPT_MASK: Final = 4095  # every 4096 nodes the compiled solver lets Python run (Ctrl-C, other threads)
Line = tuple[Move, ...]


class SolverError(ValueError):
    """A stipulation this solver does not take (e.g. a helpmate given to ``keys``)."""


class SolverLimitError(Exception):
    """The node limit struck before the solution was complete (the position is left mid-line)."""


class Solver:
    """One problem: ``pos`` with the first mover to move and its ``stip``; ``node_limit`` (0:
    none) stops the solving with ``SolverLimitError``."""

    def __init__(self, pos: Position, stip: Stipulation, node_limit: int = 0) -> None:
        self.pos = pos
        self.stip = stip
        self.node_limit = node_limit
        self.mate = stip.goal == MATE
        self.self_play = stip.kind == SELF
        self.nodes = 0
        self.proved: dict[int, int] = {}
        self.refuted: dict[int, int] = {}
        self.help_table: dict[tuple[int, int], tuple[Line, ...]] = {}
        self.killers: dict[int, Move] = {}  # per d: the defence that last refuted an attacker move

    def count(self) -> None:
        """One more node; past the limit, give up."""
        self.nodes += 1
        if self.nodes & INTERRUPT_MASK == 0:
            let_python_run()
        if self.nodes > self.node_limit > 0:
            raise SolverLimitError(f"gave up after {self.node_limit} nodes")

    # ------------------------------------------------------------ goals
    def goal_reached(self) -> bool:
        """The side to move is mated (goal mate) or stalemated (goal stalemate)."""
        self.count()
        pos = self.pos
        if self.mate:
            return pos.in_check() and not pos.legal_moves()
        return not pos.legal_moves() and not pos.in_check()

    # ------------------------------------------------------------ direct and self play
    def wins(self, d: int) -> bool:
        """Attacker to move: it forces the goal within ``d`` (>= 1) of its moves."""
        pos = self.pos
        key = pos.key
        if self.proved.get(key, d + 1) <= d:
            return True
        if self.refuted.get(key, 0) >= d:
            return False
        for m in self.candidates(d):
            pos.push(m)
            ok = self.holds(d)
            pos.pop()
            if ok:
                self.proved[key] = d
                return True
        self.refuted[key] = d
        return False

    def candidates(self, d: int) -> list[Move]:
        """The attacker's moves worth trying with ``d`` moves left: in a direct mate in 1
        only checks; checks first otherwise."""
        pos = self.pos
        moves = pos.legal_moves()
        if self.self_play or not self.mate:
            return moves
        info = check_info(pos)
        checks = [m for m in moves if gives_check(pos, m, info)]
        if d == 1:
            return checks
        return checks + [m for m in moves if m not in checks]

    def holds(self, d: int) -> bool:
        """Defender to move after an attacker move, ``d`` attacker moves counted so far
        included: does the attacker reach the goal whatever the defender plays?"""
        self.count()
        pos = self.pos
        replies = pos.legal_moves()
        if not replies:  # direct play: mate or stalemate, whichever is the goal, wins
            return not self.self_play and pos.in_check() == self.mate
        if d == 1 and not self.self_play:
            return False
        killer = self.killers.get(d, 0)
        if killer in replies:  # the last refutation first: a failing move is dropped sooner
            replies.remove(killer)
            replies.insert(0, killer)
        for r in replies:
            pos.push(r)
            ok = self.reply_loses(d)
            pos.pop()
            if not ok:
                self.killers[d] = r
                return False
        return True

    def reply_loses(self, d: int) -> bool:
        """After the defender's reply: the attacker still gets there (selfmate: the reply
        reached the goal against the attacker, or it forces it in ``d - 1`` more)."""
        if self.self_play and self.goal_reached():
            return True
        return d > 1 and self.wins(d - 1)

    def shortest(self, limit: int) -> int:
        """Attacker to move: the smallest d <= ``limit`` it wins within, else 0."""
        for d in range(1, limit + 1):
            if self.wins(d):
                return d
        return 0

    def winning_moves(self, d: int) -> list[Move]:
        """Attacker to move: every move that forces the goal within ``d`` moves."""
        pos = self.pos
        found = []
        for m in pos.legal_moves():
            pos.push(m)
            if self.holds(d):
                found.append(m)
            pos.pop()
        return found

    def keys(self) -> list[Move]:
        """Every first move of a direct or self problem that forces the goal in n."""
        if self.stip.kind not in (DIRECT, SELF):
            raise SolverError(f"{self.stip} is not a direct or self problem")
        return self.winning_moves(self.stip.moves)

    def refutations(self, m: Move, d: int) -> list[Move]:
        """After the attacker's ``m`` with ``d`` moves counted: the defender's replies that
        escape (all of them when the move fails at once, e.g. it stalemates)."""
        pos = self.pos
        pos.push(m)
        try:
            if not self.self_play and self.goal_reached():
                return []
            refuting = []
            for r in pos.legal_moves():
                pos.push(r)
                if not self.reply_loses(d):
                    refuting.append(r)
                pos.pop()
            return refuting
        finally:
            pos.pop()

    # ------------------------------------------------------------ help play
    def help_lines(self, plies: int) -> tuple[Line, ...]:
        """Every line of exactly ``plies`` half-moves, from the side to move, after which
        the goal is reached; cached per (key, plies)."""
        pos = self.pos
        slot = (pos.key, plies)
        known = self.help_table.get(slot)
        if known is not None:
            return known
        self.count()
        moves = pos.legal_moves()
        if plies == 1 and self.mate:
            info = check_info(pos)
            moves = [m for m in moves if gives_check(pos, m, info)]
        found: list[Line] = []
        for m in moves:
            pos.push(m)
            if plies == 1:
                if self.goal_reached():
                    found.append((m,))
            else:
                found.extend((m, *rest) for rest in self.help_lines(plies - 1))
            pos.pop()
        result = tuple(found)
        self.help_table[slot] = result
        return result

    def help_solutions(self, limit: int = 0) -> list[Line]:
        """Every solution of a helpmate (or help-stalemate), at most ``limit`` (0: all),
        counted by first move: the search stops after the first move that reaches it."""
        plies = self.stip.plies
        if plies <= 0:
            return []
        pos = self.pos
        lines: list[Line] = []
        for m in pos.legal_moves():
            pos.push(m)
            if plies == 1:
                lines.extend([(m,)] if self.goal_reached() else [])
            else:
                lines.extend((m, *rest) for rest in self.help_lines(plies - 1))
            pos.pop()
            if limit and len(lines) >= limit:
                return lines[:limit]
        return lines
