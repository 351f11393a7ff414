"""Continuation and capture history (``search.history``): the key tells the two boards apart,
a cutoff rewards the (previous move, move) pair and punishes the moves tried before it, values
stay bounded, ``clear`` forgets, the staged picker still gives exactly the legal moves in the
order of ``movepick.order_moves``, a search with the histories on plays legal moves, and history
pruning (``search.tree``) prunes only when switched on."""

from __future__ import annotations

import random
import threading

import pytest

import search.history as history_module
import search.movepick as movepick_module
import search.tree as tree_module
from engine.bits import COMPILED, i64_buffer
from engine.movegen import MAX_MOVES, legal_moves
from engine.notation import parse_uci
from engine.position import Position
from engine.tables import BOARD_BIT, COLOR_BIT
from search.bench import BENCH_FENS
from search.history import (
    CAPTURE_HISTORY_SIZE,
    CONT_HISTORY_MAX,
    CONT_NEUTRAL,
    CONT_SIZE,
    PIECE_TO_SIZE,
    USE_CAPTURE_HISTORY,
    USE_CONT_HISTORY,
    Heuristics,
    capture_index,
    cont_context,
    piece_to,
)
from search.limits import Limits
from search.movepick import MovePicker, order_moves
from search.search import Searcher
from support.walks import random_positions

# The histories are switched off (search.history's note): the pure build patches them on for
# these tests; the compiled build folds the switches, so there the module is skipped.
pytestmark = pytest.mark.skipif(
    COMPILED and not (USE_CONT_HISTORY and USE_CAPTURE_HISTORY),
    reason="the compiled build folds the switches (off); the pure build patches them on",
)


@pytest.fixture(autouse=True)
def histories_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """Continuation and capture history on (pure build: module constants are read at run time)."""
    for module in (history_module, movepick_module, tree_module):
        monkeypatch.setattr(module, "USE_CONT_HISTORY", 1)
        monkeypatch.setattr(module, "USE_CAPTURE_HISTORY", 1)


POSITIONS = 150  # random positions of seeded games for the picker test
NEUTRAL_SAMPLE = range(CONT_NEUTRAL, CONT_SIZE)  # the no-context sub-table: must stay zero


def play(moves: str, fen: str | None = None) -> Position:
    pos = Position(fen) if fen else Position()
    for u in moves.split():
        pos.push(parse_uci(pos, u))
    return pos


def quiets_of(pos: Position) -> list[int]:
    """The quiet moves of ``pos``, one per continuation index (two knights may reach one square)."""
    sq = pos.squares
    seen: set[int] = set()
    out = []
    for m in legal_moves(pos):
        pt = piece_to(sq[m & 63], (m >> 6) & 63)
        if not sq[(m >> 6) & 63] and not m >> 12 and pt not in seen:
            seen.add(pt)
            out.append(m)
    return out


def test_piece_to_is_a_bijection_onto_the_compact_range() -> None:
    codes = [t | c * COLOR_BIT | b * BOARD_BIT for t in range(1, 7) for c in (0, 1) for b in (0, 1)]
    indices = {piece_to(p, d) for p in codes for d in range(64)}
    assert indices == set(range(PIECE_TO_SIZE))


def test_the_same_from_to_on_the_other_board_is_another_key() -> None:
    # The white king's knight on board A, then (the same squares) on board B.
    on_a = Position()
    on_b = Position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKB|NR w KQkq - 0 1")
    m = parse_uci(on_a, "g1f3")
    assert m == parse_uci(on_b, "g1f3")
    assert piece_to(on_a.squares[m & 63], 21) != piece_to(on_b.squares[m & 63], 21)
    on_a.push(m)
    on_b.push(m)
    # As the previous move (the context one ply back) too.
    assert cont_context(on_a.stack, 1) != cont_context(on_b.stack, 1)
    assert CONT_NEUTRAL not in (cont_context(on_a.stack, 1), cont_context(on_b.stack, 1))
    # No move two plies back, and a null move, give the neutral context.
    assert cont_context(on_a.stack, 2) == CONT_NEUTRAL
    on_a.push_null()
    assert cont_context(on_a.stack, 1) == CONT_NEUTRAL
    assert cont_context(on_a.stack, 2) != CONT_NEUTRAL


def test_a_cutoff_rewards_the_pair_and_punishes_the_moves_tried_before() -> None:
    pos = play("e2e4 d7d5 g1f3")
    heur = Heuristics()
    ch1 = cont_context(pos.stack, 1)
    ch2 = cont_context(pos.stack, 2)
    quiets = quiets_of(pos)
    cut, tried = quiets[0], quiets[1:4]
    buf = i64_buffer(MAX_MOVES)
    for i, q in enumerate(tried):
        buf[i] = q
    sq = pos.squares

    def entry(ch: int, m: int) -> int:
        return heur.cont[ch + piece_to(sq[m & 63], (m >> 6) & 63)]

    heur.reward(pos, cut, 2, 5, buf, len(tried), ch1, ch2)
    assert entry(ch1, cut) > 0 and entry(ch2, cut) > 0
    assert all(entry(ch1, q) < 0 and entry(ch2, q) < 0 for q in tried)
    assert all(entry(ch1, q) == 0 for q in quiets[4:])
    # Another previous move (another context) learned nothing.
    other = play("e2e4 d7d6 g1f3")
    assert cont_context(other.stack, 2) != ch2
    assert heur.cont[cont_context(other.stack, 2) + piece_to(sq[cut & 63], (cut >> 6) & 63)] == 0
    # The picker now orders the rewarded move before the punished ones, by the continuation
    # history alone (killers, countermove and butterfly history forgotten).
    heur.new_search()
    heur.countermoves = i64_buffer(4096)
    heur.history = i64_buffer(2 * 4096)
    picker = MovePicker()
    picker.start(pos, 0, 2, heur)
    order = []
    while m := picker.next(pos, heur):
        order.append(m)
    assert all(order.index(cut) < order.index(q) for q in tried)


def test_a_neutral_context_is_never_written() -> None:
    pos = play("e2e4")
    heur = Heuristics()
    quiets = quiets_of(pos)
    buf = i64_buffer(MAX_MOVES)
    buf[0] = quiets[1]
    heur.reward(pos, quiets[0], 1, 6, buf, 1, cont_context(pos.stack, 1), cont_context(pos.stack, 2))
    assert cont_context(pos.stack, 2) == CONT_NEUTRAL
    assert not any(heur.cont[i] for i in NEUTRAL_SAMPLE)
    assert heur.cont[cont_context(pos.stack, 1) + piece_to(pos.squares[quiets[0] & 63], (quiets[0] >> 6) & 63)] > 0


def test_capture_cutoff_rewards_the_capture_and_punishes_those_tried_before() -> None:
    pos = Position(BENCH_FENS[3])
    heur = Heuristics()
    sq = pos.squares
    caps = [m for m in legal_moves(pos) if sq[(m >> 6) & 63] or m >> 12]
    assert len(caps) >= 2 and capture_index(pos, caps[0]) != capture_index(pos, caps[1])
    buf = i64_buffer(MAX_MOVES)
    buf[0] = caps[1]
    heur.reward_capture(pos, caps[0], 6, buf, 1)
    assert heur.capture_history[capture_index(pos, caps[0])] > 0
    assert heur.capture_history[capture_index(pos, caps[1])] < 0
    # A quiet cutoff (move 0) only punishes.
    before = heur.capture_history[capture_index(pos, caps[1])]
    heur.reward_capture(pos, 0, 6, buf, 1)
    assert heur.capture_history[capture_index(pos, caps[0])] == 36  # depth 6: 6 * 6
    assert heur.capture_history[capture_index(pos, caps[1])] < before


def test_values_stay_bounded_after_many_updates() -> None:
    pos = play("e2e4 d7d5 g1f3 b8c6")
    heur = Heuristics()
    ch1 = cont_context(pos.stack, 1)
    ch2 = cont_context(pos.stack, 2)
    quiets = quiets_of(pos)
    buf = i64_buffer(MAX_MOVES)
    rng = random.Random(3)
    sq = pos.squares
    idx = [ch + piece_to(sq[m & 63], (m >> 6) & 63) for ch in (ch1, ch2) for m in quiets]
    for _ in range(600):
        rng.shuffle(quiets)
        n = rng.randrange(0, 6)
        for i in range(n):
            buf[i] = quiets[i + 1]
        heur.reward(pos, quiets[0], 2, rng.randrange(1, 30), buf, n, ch1, ch2)
    values = [heur.cont[i] for i in idx]
    assert all(-CONT_HISTORY_MAX <= v <= CONT_HISTORY_MAX for v in values)
    assert max(values) > CONT_HISTORY_MAX // 8 or min(values) < -CONT_HISTORY_MAX // 8  # it learned something
    # Always the same move at the largest bonus: converges to the bound, never past it.
    buf[0] = quiets[1]
    for _ in range(400):
        heur.reward(pos, quiets[0], 2, 40, buf, 1, ch1, ch2)
    top = heur.cont[ch1 + piece_to(sq[quiets[0] & 63], (quiets[0] >> 6) & 63)]
    bottom = heur.cont[ch1 + piece_to(sq[quiets[1] & 63], (quiets[1] >> 6) & 63)]
    assert CONT_HISTORY_MAX - 64 <= top <= CONT_HISTORY_MAX
    assert -CONT_HISTORY_MAX <= bottom <= -CONT_HISTORY_MAX + 64
    cap = capture_index(pos, quiets[0])  # any index will do for the bound
    for _ in range(400):
        heur.reward_capture(pos, quiets[0], 40, buf, 0)
    assert CONT_HISTORY_MAX - 64 <= heur.capture_history[cap] <= CONT_HISTORY_MAX


def test_clear_forgets_the_histories() -> None:
    searcher = Searcher(1)
    searcher.search(Position(BENCH_FENS[2]), Limits(depth=4), threading.Event(), lambda it: None)
    heur = searcher.tree.heuristics
    assert len(heur.cont) == CONT_SIZE and len(heur.capture_history) == CAPTURE_HISTORY_SIZE
    if history_module.USE_CONT_HISTORY:
        assert any(heur.cont)
        assert not any(heur.cont[i] for i in NEUTRAL_SAMPLE)
    if history_module.USE_CAPTURE_HISTORY:
        assert any(heur.capture_history)
    heur.clear()
    assert not any(heur.cont)
    assert not any(heur.capture_history)


@pytest.fixture(scope="module")
def positions() -> list[Position]:
    return random_positions(POSITIONS, 23)


def test_picker_with_histories_gives_the_legal_moves_in_the_order_of_order(positions: list[Position]) -> None:
    rng = random.Random(11)
    ply = 2
    heur = Heuristics()
    for pos in positions:
        legal = legal_moves(pos)
        sq = pos.squares
        ch1 = cont_context(pos.stack, 1)
        ch2 = cont_context(pos.stack, 2)
        for m in legal:
            pt = piece_to(sq[m & 63], (m >> 6) & 63)
            for ch in (ch1, ch2):
                if ch != CONT_NEUTRAL:
                    heur.cont[ch + pt] = rng.randrange(-CONT_HISTORY_MAX, CONT_HISTORY_MAX + 1)
            if sq[(m >> 6) & 63] or m >> 12:
                heur.capture_history[capture_index(pos, m)] = rng.randrange(-CONT_HISTORY_MAX, CONT_HISTORY_MAX + 1)
        for i in range(len(heur.history)):
            heur.history[i] = rng.randrange(-400, 400)
        candidates = [*legal, 0]
        heur.killers[2 * ply] = rng.choice(candidates)
        heur.killers[2 * ply + 1] = rng.choice(candidates)
        tt = rng.choice(candidates)
        picker = MovePicker()
        picker.start(pos, tt, ply, heur)
        moves = []
        while m := picker.next(pos, heur):
            moves.append(m)
        assert sorted(moves) == sorted(legal), pos.fen()
        if tt in legal:
            expected = [tt, *order_moves(pos, [m for m in legal if m != tt], 0, ply, heur)]
        else:
            expected = order_moves(pos, legal, 0, ply, heur)
        assert moves == expected, pos.fen()


@pytest.mark.parametrize("fen", BENCH_FENS[:6])
def test_a_search_with_the_histories_plays_a_legal_move(fen: str) -> None:
    assert history_module.USE_CONT_HISTORY and tree_module.USE_CAPTURE_HISTORY
    searcher = Searcher(1)
    pos = play("", fen)
    for _ in range(2):  # the second search starts from the histories the first one left
        result = searcher.search(pos, Limits(depth=4), threading.Event(), lambda it: None)
        assert result.best in legal_moves(pos)


def game_prunes(plies: int, nodes: int) -> int:
    """History prunes of one searcher playing ``plies`` moves of a game from the start (the
    histories carry over from move to move, as in a game), every move legal."""
    searcher = Searcher(4)
    pos = Position()
    for _ in range(plies):
        result = searcher.search(pos, Limits(nodes=nodes), threading.Event(), lambda it: None)
        assert result.best in legal_moves(pos)
        pos.push(result.best)
    return searcher.tree.history_prunes


@pytest.mark.skipif(COMPILED, reason="the compiled build folds the constants; the pure build patches them")
def test_history_pruning_prunes_only_when_switched_on(monkeypatch: pytest.MonkeyPatch) -> None:
    # A small margin, as the tables of a short search hold small values (search.tree's note).
    monkeypatch.setattr(tree_module, "HISTORY_PRUNE_MARGIN", 2)
    assert game_prunes(8, 3000) > 0
    monkeypatch.setattr(tree_module, "USE_HISTORY_PRUNING", 0)
    assert game_prunes(8, 3000) == 0
