"""Solving one twin and writing what was found, as Popeye prints it (text) and as data
(``TwinResult.data``: the solutions as lists of UCI moves, for ``--json`` and the web board).

Direct and self play: the keys (``1.Qd7-e8B !``); with ``vari`` the threat (``threat:`` or
``zugzwang.``) and the defences that stop it, each with every continuation that still wins
(duals shown), to the end; with ``try`` the first moves that fail to a single reply
(``1.Sa8-c7A ?`` ... ``but`` ``1...Sd5*c7B !``); with ``set`` the play after a black first
move. Helpmates: every solution (``1.Bd5-b7B Rg2-e2B   2.Re7-a7B e6-e7B #``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Final

from engine.notation import move_to_uci
from engine.position import Position
from engine.tables import Move
from problems.notation import move_text
from problems.solver import MAX_REFUTATIONS, Line, Solver
from problems.stipulation import HELP, Stipulation

KEY_INDENT: Final = 3  # Popeye's indentation of a key; each level of play goes 7 or 8 further
BUT_INDENT: Final = 4  # ... of the "but" before a try's refutation


@dataclass
class TwinResult:
    """What solving one position found: ``lines`` of text, ``data`` for JSON."""

    lines: list[str] = field(default_factory=list)
    solutions: list[list[str]] = field(default_factory=list)
    tries: list[dict[str, Any]] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0

    def data(self) -> dict[str, Any]:
        return {
            "solutions": self.solutions,
            "tries": self.tries,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
        }


def attacker_indent(level: int) -> int:
    """Indentation of the attacker's ``level``-th move (1 = the key): 3, 10, 18, 26 ..."""
    return KEY_INDENT if level == 1 else 8 * level - 6


def defender_indent(level: int) -> int:
    """Indentation of the defender's ``level``-th move: 6, 14, 22 ..."""
    return attacker_indent(level) + (3 if level == 1 else 4)


def uci_line(pos: Position, line: Line) -> list[str]:
    """``line`` (legal from ``pos``) as UCI moves."""
    out = []
    for m in line:
        out.append(move_to_uci(pos, m))
        pos.push(m)
    for _ in line:
        pos.pop()
    return out


def help_text(pos: Position, line: Line) -> str:
    """A helpmate line: ``1.b w   2.b w #``, or ``1...w   2.b w #`` when white starts."""
    parts = []
    number = 1
    if pos.turn:  # white first: its move is numbered as the second half of move 1
        parts.append("1...")
    for i, m in enumerate(line):
        text = move_text(pos, m)
        pos.push(m)
        if pos.turn:  # black just moved: a new move number
            parts.append(("   " if parts else "") + f"{number}.{text}")
        else:
            parts.append((" " if i else "") + text)
            number += 1
    for _ in line:
        pos.pop()
    return "  " + "".join(parts)


class Writer:
    """Solves one twin with ``options`` (try, variation, setplay, nothreat, maxsolutions,
    refutations: the most refutations a try may have, 1 by default)."""

    def __init__(self, pos: Position, stip: Stipulation, options: dict[str, int], node_limit: int = 0) -> None:
        self.pos = pos
        self.stip = stip
        self.options = options
        self.solver = Solver(pos, stip, node_limit)
        self.result = TwinResult()

    def solve(self) -> TwinResult:
        start = time.perf_counter()
        if self.stip.kind == HELP:
            self._help()
        else:
            self._direct()
        self.result.nodes = self.solver.nodes
        self.result.seconds = time.perf_counter() - start
        return self.result

    def out(self, indent: int, text: str) -> None:
        self.result.lines.append(" " * indent + text)

    # ------------------------------------------------------------ help play
    def _help(self) -> None:
        pos = self.pos
        limit = self.options.get("maxsolutions", 0)
        if "setplay" in self.options and self.stip.plies > 1 and not pos.in_check():
            pos.push_null()
            set_lines = self.solver.help_lines(self.stip.plies - 1) if self.stip.plies > 1 else ()
            self.out(0, "  set play:" if set_lines else "  no set play")
            for line in set_lines:
                self.result.lines.append(help_text(pos, line))
            pos.pop_null()
            self.out(0, "")
        for line in self.solver.help_solutions(limit):
            self.result.lines.append(help_text(pos, line))
            self.result.solutions.append(uci_line(pos, line))

    # ------------------------------------------------------------ direct and self play
    def _direct(self) -> None:
        pos = self.pos
        solver = self.solver
        n = self.stip.moves
        vari = "variation" in self.options
        limit = self.options.get("maxsolutions", 0)
        if "setplay" in self.options and n > 1 and not pos.in_check():
            self._set_play(n)
        for m in pos.legal_moves():
            pos.push(m)
            holds = solver.holds(n)
            pos.pop()
            if holds:
                if limit and len(self.result.solutions) >= limit:
                    continue
                self.result.solutions.append([move_to_uci(pos, m)])
                self._attacker_move(m, n, 1, " !", vari)
                self.out(0, "")
            elif "try" in self.options:
                refuting = solver.refutations(m, n)
                if 0 < len(refuting) <= self.options.get("refutations", MAX_REFUTATIONS):
                    self._try(m, n, refuting, vari)

    def _try(self, m: Move, n: int, refuting: list[Move], vari: bool) -> None:
        pos = self.pos
        self.result.tries.append(
            {"move": move_to_uci(pos, m), "refutations": [self._uci_after(m, r) for r in refuting]}
        )
        self._attacker_move(m, n, 1, " ?", vari)
        self.out(BUT_INDENT, "but")
        pos.push(m)
        for r in refuting:
            self.out(defender_indent(1), f"1...{move_text(pos, r)} !")
        pos.pop()
        self.out(0, "")

    def _uci_after(self, m: Move, r: Move) -> str:
        self.pos.push(m)
        try:
            return move_to_uci(self.pos, r)
        finally:
            self.pos.pop()

    def _set_play(self, n: int) -> None:
        """Black to move first: its moves after which white still wins in n - 1."""
        pos = self.pos
        pos.push_null()
        found = False
        for r in pos.legal_moves():
            pos.push(r)
            e = self._reply_length(n)
            if e:
                found = True
                pos.pop()
                self.out(defender_indent(1), f"1...{move_text(pos, r)}")
                pos.push(r)
                self._continuations(e, 2, True)
            pos.pop()
        pos.pop_null()
        self.out(0, "" if found else "  no set play")

    def _reply_length(self, d: int) -> int:
        """After a defender's reply, ``d`` attacker moves counted so far: how many more the
        attacker needs (1.. d - 1), 0 if it fails; -1 if the reply itself reached a selfmate."""
        if self.solver.self_play and self.solver.goal_reached():
            return -1
        return self.solver.shortest(d - 1) if d > 1 else 0

    def _continuations(self, e: int, level: int, vari: bool) -> None:
        """Attacker to move, winning within ``e``: every move that does, each with its play."""
        for w in self.solver.winning_moves(e):
            self._attacker_move(w, e, level, "", vari)

    def _attacker_move(self, m: Move, d: int, level: int, mark: str, vari: bool) -> None:
        """An attacker move (winning within ``d`` moves counted from it) and, with ``vari``,
        the defence after it."""
        pos = self.pos
        text = f"{level}.{move_text(pos, m)}{mark}"
        pos.push(m)
        try:
            if not vari or not pos.legal_moves():
                self.out(attacker_indent(level), text)
                return
            self._defence(text, d, level, vari)
        finally:
            pos.pop()

    def _threat(self, d: int) -> tuple[int, list[Move]]:
        """Defender to move, not in check: the attacker's shortest win within ``d - 1`` if
        the defender passed, and its moves; (0, []) when there is none."""
        if d <= 1 or "nothreat" in self.options:
            return 0, []
        pos = self.pos
        pos.push_null()
        try:
            t = self.solver.shortest(d - 1)
            return t, (self.solver.winning_moves(t) if t else [])
        finally:
            pos.pop_null()

    def _defence(self, text: str, d: int, level: int, vari: bool) -> None:
        """Defender to move after ``text``: the threat, then the defences that matter."""
        pos = self.pos
        t, threats = (0, []) if pos.in_check() else self._threat(d)
        if threats:
            self.out(attacker_indent(level), f"{text} threat:")
            pos.push_null()
            for w in threats:
                self._attacker_move(w, t, level + 1, "", vari)
            pos.pop_null()
        elif pos.in_check() or d <= 1 or "nothreat" in self.options:
            self.out(attacker_indent(level), text)
        else:
            self.out(attacker_indent(level), f"{text} zugzwang.")
        for r in pos.legal_moves():
            rtext = move_text(pos, r)
            pos.push(r)
            self._variation(rtext, d, level, t, threats)
            pos.pop()

    def _variation(self, rtext: str, d: int, level: int, t: int, threats: list[Move]) -> None:
        """After the defender's reply ``rtext``: shown when it stops a threat, with the wins."""
        e = self._reply_length(d)
        if e == 0:
            return  # a refutation: the caller shows it after "but"
        if e == -1:
            self.out(defender_indent(level), f"{level}...{rtext}")
            return
        if threats and e == t and all(self._still_wins(w, t) for w in threats):
            return  # the threat goes through: not a defence
        self.out(defender_indent(level), f"{level}...{rtext}")
        self._continuations(e, level + 1, True)

    def _still_wins(self, w: Move, t: int) -> bool:
        pos = self.pos
        if w not in pos.legal_moves():
            return False
        pos.push(w)
        try:
            return self.solver.holds(t)
        finally:
            pos.pop()
