"""Singular extensions: the search of a position without its hash move (``excluded``) never
touches the transposition table, and with the extension switched on (the pure build can
patch the module's switch) the search extends, cuts and still plays legal moves."""

from __future__ import annotations

import threading

import pytest

import search.tree as tree_module
from engine.bits import COMPILED
from engine.position import Position
from search.bench import BENCH_FENS
from search.limits import Limits
from search.score import INF
from search.search import Searcher


def searched(fen: str, depth: int) -> tuple[Searcher, Position]:
    pos = Position(fen)
    searcher = Searcher(16)
    searcher.search(pos, Limits(depth=depth), threading.Event(), lambda it: None)
    return searcher, pos


@pytest.mark.parametrize("fen", BENCH_FENS[:4])
def test_the_excluded_search_never_overwrites_the_real_entry(fen: str) -> None:
    searcher, pos = searched(fen, 5)
    entry = searcher.tt.probe(pos.key)
    assert entry is not None and entry[0], "the search stored its best move"
    tree = searcher.tree
    for depth in (1, 3, 5):
        for window in (-INF + 1, -50, 0, 50, INF - 2):  # fail high, fail low or in between
            score = tree.negamax(pos, depth, window, window + 1, 1, False, False, entry[0])
            assert -INF < score < INF
            assert searcher.tt.probe(pos.key) == entry  # the position's own entry is untouched
    # The same searches without the exclusion do store for the position.
    tree.negamax(pos, 6, -INF, INF, 1, True, False)
    assert searcher.tt.probe(pos.key) != entry


def test_the_excluded_move_is_the_only_one_left_out() -> None:
    """A position whose only legal move is excluded: the search answers alpha (nothing to play,
    not a mate or a stalemate), so that move counts as singular."""
    pos = Position("7k/8/8/8/8/8/6q1/K7 w - - 0 1")  # the white king's only move is b1... or none
    legal = pos.legal_moves()
    if len(legal) != 1:
        pytest.skip(f"set-up has {len(legal)} legal moves")
    tree = Searcher(1).tree
    assert tree.negamax(pos, 3, -123, -122, 1, False, False, legal[0]) == -123


@pytest.mark.skipif(COMPILED, reason="the compiled build folds the switch; the pure build patches it")
def test_switched_on_it_extends_and_still_plays_legal_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tree_module, "USE_SINGULAR", 1)
    monkeypatch.setattr(tree_module, "SE_MIN_DEPTH", 4)
    extended = cuts = 0
    for fen in BENCH_FENS[:4]:
        pos = Position(fen)
        searcher = Searcher(16)
        result = searcher.search(pos, Limits(depth=6), threading.Event(), lambda it: None)
        assert result.best in pos.legal_moves()
        extended += searcher.tree.singular_extensions
        cuts += searcher.tree.multi_cuts
    assert extended > 0 and cuts > 0, (extended, cuts)
