"""Forced-mate search for ``go mate N``: exact, shortest first, no pruning that can miss a mate.

    result = MateSearch(tree, clock).run(pos, root_moves, n, on_iteration)   # or searcher.mate_search()

``run`` returns a ``Result`` when it proves a mate in at most ``n`` moves, after reporting
one ``Iteration`` with ``mate`` set to the shortest length; it returns ``None`` when there
is no such mate or the limits ended the proof first: the ``clock``'s stop event, a share of its
node limit and of its hard time limit (``Clock.share``). The node count goes on from the
``tree``'s and is handed back to it. ``Searcher.search`` then finds the best line with the
normal search.

The proof is a depth-first AND/OR search (alpha-beta at a null window on the bound
"mate within d moves"), iterated over d = 1..n, so the first proof is the shortest:

* attacker nodes (``_attack``): one move must lead to a mate within ``d`` moves. With one
  move left only a checking move can mate, so only checks are tried; otherwise the hash
  move, the killer, checks, captures (most valuable victim first), then the rest;
* defender nodes (``_defend``): every legal move must lead to a proved attacker node.
  Checkmate proves the node; stalemate or the fifty-move rule refutes it. The hash move
  and the killer (the refutation that worked at a sibling) are tried first;
* mate-distance pruning is the bound itself: no node looks for a mate longer than the
  one that would still be the shortest (the iteration's d), and the table (``MateTable``)
  stores per position key (the board of every piece included) the smallest d proved and
  the largest d refuted: a proof within d' holds for every d >= d', a refutation within
  d' for every d <= d'.

No null move, futility, move-count pruning or reductions. Repetitions do not refute a
line: along the play of a shortest mate the distance to mate falls with every move, so
no position can occur twice; only a position already seen twice in the game before the
root could give the defender a third occurrence, and then such keys count as draws and
the table is not used (its entries would depend on the game history). Likewise, table
entries are used only where the fifty-move rule cannot strike before the mate.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from typing import Final

from engine.movegen import check_info, gives_check
from engine.position import UNDO_KEY, Position
from engine.tables import KING, Move
from search.clock import Clock, SearchStoppedError
from search.limits import Iteration, Result
from search.movepick import ORDER_VALUE
from search.score import MATE
from search.tree import Tree

# ---------------------------------------------------------------- tunables
MAX_MATE: Final = 100  # longest mate searched (moves); a larger ``go mate`` is searched to this
TIME_SHARE: Final = 0.9  # the proof may use this share of the hard time limit; the normal search gets the rest
NODE_SHARE: Final = 0.9  # ... and this share of a node limit
FALLBACK_DEPTH: Final = 5  # without a clock or limits, the normal search after a failed proof goes this deep
TABLE_MAX_SLOTS: Final = 1 << 21  # the proof table has a slot per word of the hash table, at most this many (32 MB)
ORDER_HASH: Final = 1 << 30  # attacker/defender ordering: the table's move first
ORDER_KILLER: Final = 1 << 29  # ... then the killer of this ply
ORDER_CHECK: Final = 1 << 20  # attacker: checks before captures before the rest
ORDER_CAPTURE: Final = 1 << 10  # captures (attacker and defender) by victim value
ORDER_KING: Final = 1 << 9  # defender: king moves after captures, before the rest
FIFTY: Final = 100  # halfmove clock of the fifty-move draw

# What the table knows of a node.
PROVED: Final = 1
REFUTED: Final = 0
UNKNOWN: Final = -1

# Table word: move | proved depth << 16 | refuted depth << 24 (0 = not known).
PROVED_SHIFT: Final = 16
REFUTED_SHIFT: Final = 24


class MateTable:
    """Proofs and refutations keyed by ``Position.key``, a fixed number of slots.

    >>> t = MateTable(1024)
    >>> t.store(99, 0x123, 2, True); t.store(99, 0, 1, False)
    >>> t.lookup(99) == (0x123, 2, 1)
    True
    """

    def __init__(self, slots: int) -> None:
        self.slots = max(1, slots)
        self.keys = array("Q", bytes(8 * self.slots))
        self.data = array("Q", bytes(8 * self.slots))

    def lookup(self, key: int) -> tuple[Move, int, int]:
        """``(move, smallest depth proved, largest depth refuted)``, zeros when unknown."""
        i = key % self.slots
        if self.keys[i] != key:
            return 0, 0, 0
        w = self.data[i]
        return w & 0xFFFF, (w >> PROVED_SHIFT) & 0xFF, (w >> REFUTED_SHIFT) & 0xFF

    def store(self, key: int, move: Move, depth: int, proved: bool) -> None:
        """Record that ``key`` is proved (or refuted) within ``depth`` moves; ``move`` did it."""
        i = key % self.slots
        w = self.data[i] if self.keys[i] == key else 0
        if proved:
            old = (w >> PROVED_SHIFT) & 0xFF
            if old and old <= depth:
                return
            w = (w & ~(0xFF << PROVED_SHIFT)) | depth << PROVED_SHIFT
        else:
            if ((w >> REFUTED_SHIFT) & 0xFF) >= depth:
                return
            w = (w & ~(0xFF << REFUTED_SHIFT)) | depth << REFUTED_SHIFT
        if move:
            w = (w & ~0xFFFF) | move
        self.keys[i] = key
        self.data[i] = w

    def hashfull(self) -> int:
        """Permille of the first 1000 slots in use."""
        n = min(1000, self.slots)
        data = self.data
        return sum(1 for i in range(n) if data[i]) * 1000 // n


class MateSearch:
    """One ``go mate`` proof on top of a search's ``tree`` (its node count and table size) and
    ``clock`` (its limits)."""

    def __init__(self, tree: Tree, clock: Clock) -> None:
        self.tree = tree
        self.parent_clock = clock
        self.clock = clock
        self.table = MateTable(min(tree.tt.bytes_used // 8, TABLE_MAX_SLOTS))
        self.pos = Position(None)
        self.nodes = 0
        self.seldepth = 0
        self.use_table = True
        self.draw_keys: set[int] = set()
        self.attack_killers: list[Move] = [0] * (2 * MAX_MATE + 2)
        self.defend_killers: list[Move] = [0] * (2 * MAX_MATE + 2)

    # ------------------------------------------------------------ entry point
    def run(
        self, pos: Position, root_moves: list[Move], n: int, on_iteration: Callable[[Iteration], None]
    ) -> Result | None:
        """Prove the shortest mate in at most ``n`` moves starting with one of ``root_moves``."""
        self.pos = pos
        self.nodes = self.tree.nodes
        self.clock = self.parent_clock.share(TIME_SHARE, NODE_SHARE, self.nodes)
        self._game_repetitions(pos)
        root_len = len(pos.stack)
        key: Move = 0
        length = 0
        try:
            for d in range(1, min(n, MAX_MATE) + 1):
                key = self._root(root_moves, d)
                if key:
                    length = d
                    break
        except SearchStoppedError:
            key = 0
            while len(pos.stack) > root_len:  # the tree was left mid-move
                pos.pop()
        if not key:
            self.tree.nodes = self.nodes
            self.parent_clock.check_at(self.nodes)  # the normal search checks its limits at once
            return None
        pv = self._pv(key, length)
        self.tree.nodes = self.nodes
        on_iteration(
            Iteration(
                depth=2 * length - 1,
                seldepth=max(self.seldepth, 2 * length - 1),
                multipv=1,
                score=MATE - (2 * length - 1),
                mate=length,
                nodes=self.nodes,
                time_ms=self.clock.search_ms(),
                pv=pv,
                hashfull=self.table.hashfull(),
            )
        )
        return Result(best=key, ponder=pv[1] if len(pv) > 1 else None)

    def _game_repetitions(self, pos: Position) -> None:
        """Keys seen twice since the last irreversible move: a third time is a draw."""
        stack = pos.stack
        count: dict[int, int] = {}
        for i in range(max(0, len(stack) - pos.halfmove), len(stack)):
            k = stack[i][UNDO_KEY]
            count[k] = count.get(k, 0) + 1
        self.draw_keys = {k for k, c in count.items() if c >= 2}
        self.use_table = not self.draw_keys

    # ------------------------------------------------------------ tree
    def _root(self, moves: list[Move], d: int) -> Move:
        """A root move that mates within ``d`` moves, or 0."""
        pos = self.pos
        self.nodes += 1
        for m in self._attack_order(pos, moves, d, 0, 0):
            pos.push(m)
            ok = self._defend(d - 1, 1)
            pos.pop()
            if ok:
                return m
        return 0

    def _attack_order(self, pos: Position, moves: list[Move], d: int, tt_move: Move, ply: int) -> list[Move]:
        """The attacker's candidates: only checks with one move left, else all, checks first."""
        info = check_info(pos)
        sq = pos.squares
        killer = self.attack_killers[ply]
        scored: list[tuple[int, Move]] = []
        for m in moves:
            check = gives_check(pos, m, info)
            if d == 1 and not check:
                continue
            if m == tt_move:
                s = ORDER_HASH
            elif m == killer:
                s = ORDER_KILLER
            else:
                s = ORDER_CHECK if check else 0
                victim = sq[(m >> 6) & 63]
                if victim or m >> 12:
                    s += ORDER_CAPTURE + ORDER_VALUE[victim & 7] * 16 + (m >> 12)
            scored.append((s, m))
        scored.sort(reverse=True)
        return [m for _, m in scored]

    def _defend_order(self, pos: Position, moves: list[Move], tt_move: Move, ply: int) -> list[Move]:
        """The defender's replies: hash move, killer, captures, king moves, the rest."""
        sq = pos.squares
        killer = self.defend_killers[ply]
        scored: list[tuple[int, Move]] = []
        for m in moves:
            if m == tt_move:
                s = ORDER_HASH
            elif m == killer:
                s = ORDER_KILLER
            else:
                victim = sq[(m >> 6) & 63]
                if victim:
                    s = ORDER_CAPTURE + ORDER_VALUE[victim & 7]
                elif sq[m & 63] & 7 == KING:
                    s = ORDER_KING
                else:
                    s = 0
            scored.append((s, m))
        scored.sort(reverse=True)
        return [m for _, m in scored]

    def _visit(self, ply: int) -> None:
        """Count a node, let the clock check the limits when due, note the depth reached."""
        self.nodes += 1
        if self.nodes >= self.clock.next_check:
            self.clock.check(self.nodes)
        if ply > self.seldepth:
            self.seldepth = ply

    def _probe(self, plies: int, d: int) -> tuple[int, Move, bool]:
        """What is known of the current node searched within ``d`` moves: ``(PROVED, REFUTED
        or UNKNOWN, the stored move, whether the table may be used here)``. The table is left
        alone where the fifty-move rule could strike within ``plies`` or repetitions count."""
        pos = self.pos
        if not self.use_table or pos.halfmove + plies >= FIFTY:
            return (REFUTED if pos.key in self.draw_keys else UNKNOWN), 0, False
        move, proved, refuted = self.table.lookup(pos.key)
        if proved and proved <= d:
            return PROVED, move, True
        if refuted >= d:
            return REFUTED, move, True
        return UNKNOWN, move, True

    def _attack(self, d: int, ply: int) -> bool:
        """Attacker to move: is there a mate within ``d`` (>= 1) moves?"""
        self._visit(ply)
        pos = self.pos
        if pos.halfmove >= FIFTY:
            return False
        known, tt_move, cached = self._probe(2 * d, d)
        if known != UNKNOWN:
            return known == PROVED
        key = pos.key
        moves = pos.legal_moves()
        for m in self._attack_order(pos, moves, d, tt_move, ply):
            pos.push(m)
            if d == 1:
                self.nodes += 1
                ok = not pos.legal_moves() and pos.in_check()  # in_check: only when there is no reply
            else:
                ok = self._defend(d - 1, ply + 1)
            pos.pop()
            if ok:
                self.attack_killers[ply] = m
                return self._settle(cached, key, m, d, True)
        return self._settle(cached, key, 0, d, False)

    def _defend(self, d: int, ply: int) -> bool:
        """Defender to move after the attacker's move: is it mated now, or within ``d`` more
        attacker moves whatever it plays?"""
        self._visit(ply)
        pos = self.pos
        moves = pos.legal_moves()
        if not moves:
            return pos.in_check()
        if d == 0 or pos.halfmove >= FIFTY:
            return False
        known, tt_move, cached = self._probe(2 * d + 1, d)
        if known != UNKNOWN:
            return known == PROVED
        key = pos.key
        for m in self._defend_order(pos, moves, tt_move, ply):
            pos.push(m)
            ok = self._attack(d, ply + 1)
            pos.pop()
            if not ok:
                self.defend_killers[ply] = m
                return self._settle(cached, key, m, d, False)
        return self._settle(cached, key, 0, d, True)

    def _settle(self, cached: bool, key: int, m: Move, d: int, proved: bool) -> bool:
        """The verdict on the node within ``d`` moves (``m`` the move that decided it), stored
        when the table may be used here."""
        if cached:
            self.table.store(key, m, d, proved)
        return proved

    # ------------------------------------------------------------ line
    def _distance(self, limit: int, ply: int) -> int:
        """Attacker to move: the length of its shortest mate (at most ``limit``), else 0."""
        for d in range(1, limit + 1):
            if self._attack(d, ply):
                return d
        return 0

    def _pv(self, key: Move, length: int) -> list[Move]:
        """The line of a proved mate: the shortest mate for the attacker, the longest
        resistance for the defender. Cut short (never wrong) if the limits strike."""
        pos = self.pos
        root_len = len(pos.stack)
        pv = [key]
        pos.push(key)
        left = length - 1  # attacker moves after the key
        try:
            while left > 0:
                replies = pos.legal_moves()
                if not replies:
                    break
                best_reply: Move = 0
                longest = 0
                for r in replies:
                    pos.push(r)
                    dist = self._distance(left, len(pv) + 1)
                    pos.pop()
                    if dist > longest:
                        longest, best_reply = dist, r
                if not best_reply:
                    break
                pos.push(best_reply)
                pv.append(best_reply)
                move: Move = 0
                for m in self._attack_order(pos, pos.legal_moves(), longest, 0, len(pv)):
                    pos.push(m)
                    ok = not pos.legal_moves() and pos.in_check() if longest == 1 else self._defend(longest - 1, len(pv) + 1)
                    pos.pop()
                    if ok:
                        move = m
                        break
                if not move:
                    break
                pos.push(move)
                pv.append(move)
                left = longest - 1
        except SearchStoppedError:
            pass
        while len(pos.stack) > root_len:
            pos.pop()
        return pv
