"""pychess.org's "Looking glass" start for Alice: Black's army starts on board B.

The site offers it as an alternative start of its ``alice`` variant (not a variant of its
own): a game from it is an ``alice`` game whose initial FEN is ``LOOKING_GLASS_FEN``, with
castling rights ``KQ`` only (Black's king and rooks are not at home on board A). That is
the FEN pyffish-alice, pychess-bot and pychess-external-engine hand to the engine. Here
our engine is checked against pyffish-alice over seeded random games from that start:
legal moves (castling included), the FEN after every move, and mate or stalemate.
"""

from __future__ import annotations

import random

import pyffish_alice as ff

from engine import Position, move_to_uci
from engine.movegen import is_castling

V = "alice"
# As the site sends it (its LOOKING_GLASS_ALICE_FEN and the "Looking glass" alternate start)
LOOKING_GLASS_FEN = "|r|n|b|q|k|b|n|r/|p|p|p|p|p|p|p|p/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1"
# Black's knight and bishop leave f8/g8 of board B (White's knight only shuffles)
CLEAR_BLACK_KINGSIDE = ["g1f3", "g8f6", "f3g1", "e7e6", "g1f3", "f8e7", "f3g1"]
GAMES = 12
MAX_PLIES = 50
CASTLE_SHARE = 0.7  # when castling is legal, how often the random walk castles
DEVELOP_SHARE = 0.5  # else how often it moves a piece off White's back rank (so castling becomes legal)
BACK_RANK = ("b1", "c1", "d1", "f1", "g1")


def _walk(seed: int) -> tuple[int, int]:
    """Play one seeded game from the start, comparing every position; returns (plies, castles)."""
    rng = random.Random(seed)
    pos = Position(LOOKING_GLASS_FEN)
    history: list[str] = []
    castles = 0
    for _ply in range(MAX_PLIES):
        where = f"seed {seed}, moves {' '.join(history)}"
        fen = pos.fen()
        legal = {move_to_uci(pos, m): m for m in pos.legal_moves()}
        ours, theirs = set(legal), set(ff.legal_moves(V, fen, []))
        assert ours == theirs, f"{where}: only ours {sorted(ours - theirs)}, only theirs {sorted(theirs - ours)}"
        castling = sorted(uci for uci, m in legal.items() if is_castling(pos, m))
        assert all(uci.startswith("e1") for uci in castling), f"{where}: Black has no castling right here"
        if not ours:  # mate or stalemate alike
            assert pos.in_check() == ff.gives_check(V, fen, []), where
            break
        if pos.outcome() is not None:
            break
        develop = sorted(uci for uci in ours if uci[:2] in BACK_RANK)
        if castling and rng.random() < CASTLE_SHARE:
            uci = rng.choice(castling)
        elif develop and rng.random() < DEVELOP_SHARE:
            uci = rng.choice(develop)
        else:
            uci = rng.choice(sorted(ours))
        castles += uci in castling
        pos.push(legal[uci])
        history.append(uci)
        assert pos.fen() == ff.get_fen(V, fen, [uci]), f"{where} {uci}"
    assert ff.get_fen(V, LOOKING_GLASS_FEN, history) == pos.fen(), f"seed {seed}: the whole game from the start"
    return len(history), castles


def test_looking_glass_start_reads_and_writes_as_the_site_sends_it() -> None:
    assert Position(LOOKING_GLASS_FEN).fen() == LOOKING_GLASS_FEN == ff.get_fen(V, LOOKING_GLASS_FEN, [])
    assert ff.validate_fen(LOOKING_GLASS_FEN, V) == ff.FEN_OK


def test_looking_glass_random_games_match_pyffish_alice() -> None:
    """Legal moves, check and FEN equal pyffish-alice's in every position of 12 random games."""
    results = [_walk(seed) for seed in range(GAMES)]
    assert sum(castles for _, castles in results) >= GAMES // 3, results  # castling was exercised
    assert sum(plies for plies, _ in results) > GAMES * 10, results


def test_looking_glass_black_cannot_castle_on_board_b() -> None:
    """With the site's rights (``KQ``) Black cannot castle even with f8 and g8 empty on both boards."""
    pos = Position(LOOKING_GLASS_FEN)
    for uci in CLEAR_BLACK_KINGSIDE:
        pos.push(next(m for m in pos.legal_moves() if move_to_uci(pos, m) == uci))
    assert pos.fen() == ff.get_fen(V, LOOKING_GLASS_FEN, CLEAR_BLACK_KINGSIDE)
    ours = {move_to_uci(pos, m) for m in pos.legal_moves()}
    assert ours == set(ff.legal_moves(V, LOOKING_GLASS_FEN, CLEAR_BLACK_KINGSIDE))
    assert "e8f8" in ours and "e8g8" not in ours


def test_rights_of_a_king_at_home_on_board_b_are_dropped() -> None:
    """A FEN the site never sends: the Looking-glass start with ``KQkq``.

    engine/fen.py keeps a right only for a king and rook at home on board A, so ``kq`` is
    dropped. pyffish-alice keeps them and then lets Black castle on board B (``e8g8`` after
    ``CLEAR_BLACK_KINGSIDE``). The rules document (king and rook at home "on the same
    board") reads like pyffish-alice; the difference is reported to the coordinator and
    pinned here until the rules decide it.
    """
    with_black_rights = LOOKING_GLASS_FEN.replace(" KQ ", " KQkq ")
    pos = Position(with_black_rights)
    assert pos.fen() == LOOKING_GLASS_FEN
    for uci in CLEAR_BLACK_KINGSIDE:
        pos.push(next(m for m in pos.legal_moves() if move_to_uci(pos, m) == uci))
    assert "e8g8" not in {move_to_uci(pos, m) for m in pos.legal_moves()}
    assert "e8g8" in ff.legal_moves(V, with_black_rights, CLEAR_BLACK_KINGSIDE)
