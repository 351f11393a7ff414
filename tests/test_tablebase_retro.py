"""The tablebase generator without positions (``tablebase.retro``): its moves and un-moves
against ``engine.movegen`` on random entries of every 4-man ending, its tables against the
first generator's (``support.tablebase_oracle``: a ``Position`` per index, stored edges), byte
for byte, and each sampled value against its children's (moves from ``engine.movegen``), with
and without the symmetries."""

from __future__ import annotations

import os
import random
from collections.abc import Callable

import pytest

from engine import movegen
from engine.position import Position
from engine.tables import BB_SQUARES, DIAG_RAYS, KNIGHT_ATTACKS, ORTHO_RAYS
from support import tablebase_oracle
from tablebase.ending import ending, endings_of
from tablebase.fileformat import read_table
from tablebase.generate import generate, geometry
from tablebase.probe import placement, position_at
from tablebase.retro import Scratch, decode, in_check, move_list, unmove_list
from tablebase.values import DECIDED, DRAWN, ILLEGAL, value_of

PER_ENDING = 100  # random legal entries of each 4-man ending (3,000 in all)


def _opponent_in_check(pos: Position) -> bool:
    them = pos.turn ^ 1
    k = pos.king(them)
    occ = pos.occ_b if pos.squares[k] >> 4 else pos.occ_a
    return bool(movegen.attackers(pos, pos.turn, k, occ))


def _reach(d: int) -> list[int]:
    """Every square a piece can have come from to ``d`` (queen, knight, pawn steps on an empty
    board): a superset of the origins of a quiet move."""
    bb = DIAG_RAYS[d] | ORTHO_RAYS[d] | KNIGHT_ATTACKS[d]
    return [s for s in range(64) if bb & BB_SQUARES[s]]


def _engine_unmoves(name: str, slots: list[int], stm: int) -> set[int]:
    """The quiet legal moves (``from | to << 6``) of the side not to move that lead to the
    position, found by setting up every candidate predecessor and asking the engine."""
    e = ending(name, reduced=False)
    taken = {s & 63 for s in slots}
    found: set[int] = set()
    for j, code in enumerate(e.codes):
        if (code >> 3) & 1 == stm:
            continue
        d = slots[j] & 63
        for s in _reach(d):
            if s in taken or (code & 7 == 1 and s >> 3 in (0, 7)):
                continue
            before = slots[:]
            before[j] = s | (64 - (slots[j] & 64))
            pos = position_at(e, before, stm ^ 1)
            if not _opponent_in_check(pos) and s | d << 6 in movegen.legal_moves(pos):
                found.add(s | d << 6)
    return found


@pytest.mark.parametrize("name", endings_of(4))
def test_moves_and_unmoves_agree_with_the_engine(name: str) -> None:
    e = ending(name)
    geo = geometry(e)
    st = Scratch()
    rng = random.Random(name)
    legal = 0
    while legal < PER_ENDING:
        idx = rng.randrange(e.size)
        decoded = e.decode(idx)
        assert decode(geo, st, idx) == (decoded is not None)
        if decoded is None:
            continue
        slots, stm = decoded
        pos = position_at(e, slots, stm)
        assert in_check(geo, st, stm ^ 1) == _opponent_in_check(pos), pos.fen()
        if _opponent_in_check(pos):
            continue
        legal += 1
        assert in_check(geo, st, stm) == pos.in_check(), pos.fen()
        assert sorted(move_list(geo, st)) == sorted(movegen.legal_moves(pos)), pos.fen()
        unmoves = set()
        for m in unmove_list(geo, st):
            j = next(j for j, s in enumerate(slots) if s & 63 == m >> 6)
            before = slots[:]
            before[j] = (m & 63) | (64 - (slots[j] & 64))
            if not _opponent_in_check(position_at(e, before, stm ^ 1)):
                unmoves.add(m)
        assert unmoves == _engine_unmoves(name, slots, stm), pos.fen()


def _compare(names: list[str]) -> None:
    made: dict[str, bytes] = {}
    for name in names:
        new = generate(name, made.get)
        assert new == tablebase_oracle.generate(name, made.get), name
        made[name] = bytes(new)


def test_a_three_man_table_equals_the_first_generators() -> None:
    _compare(["KBK"])


@pytest.mark.slow
def test_every_three_man_table_equals_the_first_generators() -> None:
    _compare(["KQK", "KRK", "KBK", "KNK", "KPK"])


@pytest.mark.slow
def test_the_table_without_symmetries_follows_from_the_childrens() -> None:
    """KQK without any symmetry (every white-king square on both boards): 10,000 random legal
    entries are what their children make them, the children read in the same table. With a full
    table equal to the reduced one entry for entry (KNK, test_tablebase.py) and the reduced
    tables equal to the first generator's (above), this pins the full enumeration to the engine's
    rules without the first generator's four million Positions (minutes of CI)."""
    _check_children({"KQK": bytes(generate("KQK", lambda name: None, None, False))}, "KQK", 10_000, reduced=False)


def _from_children(pos: Position, child_value: Callable[[Position], int]) -> int:
    """The value a position must have given its children's (moves from ``engine.movegen``): a
    win in one more than the shortest lost child, else a draw if a child draws, else a loss in
    one more than the longest child; no move: mated (in check) or stalemate."""
    moves = movegen.legal_moves(pos)
    if not moves:
        return DECIDED if pos.in_check() else DRAWN
    kids = []
    for m in moves:
        pos.push(m)
        kids.append(child_value(pos))
        pos.pop()
    lost = [c - DECIDED for c in kids if c >= DECIDED and (c - DECIDED) % 2 == 0]
    if lost:
        return DECIDED + 1 + min(lost)
    if DRAWN in kids:
        return DRAWN
    return DECIDED + 1 + max(c - DECIDED for c in kids)


def _check_children(tables: dict[str, bytes], name: str, count: int, reduced: bool = True) -> None:
    """``count`` random legal entries of ``name``: each value is what its children make it
    (``reduced=False``: the table without symmetries, its children read in it too)."""
    e = ending(name, reduced)

    def child_value(pos: Position) -> int:
        value = value_of(tables.get, placement(pos), pos.turn, reduced)
        assert value is not None
        return value

    rng = random.Random(name)
    checked = 0
    while checked < count:
        idx = rng.randrange(e.size)
        if tables[name][idx] == ILLEGAL:
            continue
        decoded = e.decode(idx)
        assert decoded is not None
        pos = position_at(e, *decoded)
        assert tables[name][idx] == _from_children(pos, child_value), pos.fen()
        checked += 1


def _kqk(directory: str) -> dict[str, bytes]:
    return {"KQK": read_table(os.path.join(directory, "KQK.atb"), "KQK", ending("KQK").size)}


def test_values_follow_from_the_childrens(kqk_dir: str) -> None:
    """2,000 random KQK entries (the file the command line wrote)."""
    _check_children(_kqk(kqk_dir), "KQK", 2000)


@pytest.mark.slow
def test_pawn_values_follow_from_the_childrens(kqk_dir: str) -> None:
    """3,000 random KPK entries, generated here after KRK, KBK and KNK (its promotions are read
    in KQK .. KNK)."""
    tables = _kqk(kqk_dir)
    for name in ("KRK", "KBK", "KNK", "KPK"):
        tables[name] = bytes(generate(name, tables.get))
    _check_children(tables, "KPK", 3000)
