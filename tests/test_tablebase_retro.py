"""The tablebase generator without positions (``tablebase.retro``): its moves and un-moves
against ``engine.movegen`` on random entries of every 4-man ending, and its tables against the
first generator's (``support.tablebase_oracle``: a ``Position`` per index, stored edges), byte
for byte."""

from __future__ import annotations

import random

import pytest

from engine import movegen
from engine.position import Position
from engine.tables import BB_SQUARES, DIAG_RAYS, KNIGHT_ATTACKS, ORTHO_RAYS
from support import tablebase_oracle
from tablebase.ending import ending, endings_of
from tablebase.generate import generate, geometry
from tablebase.probe import position_at
from tablebase.retro import Scratch, decode, in_check, move_list, unmove_list

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


def _compare(names: list[str], reduced: bool = True) -> None:
    made: dict[str, bytes] = {}
    for name in names:
        new = generate(name, made.get, None, reduced)
        assert new == tablebase_oracle.generate(name, made.get, None, reduced), name
        made[name] = bytes(new)


def test_a_three_man_table_equals_the_first_generators() -> None:
    _compare(["KBK"])


@pytest.mark.slow
def test_every_three_man_table_equals_the_first_generators() -> None:
    _compare(["KQK", "KRK", "KBK", "KNK", "KPK"])


@pytest.mark.slow
def test_the_table_without_symmetries_equals_the_first_generators() -> None:
    _compare(["KNK"], reduced=False)
