"""engine.board.AliceBoard: python-chess's Board API on our rules, chess.pgn and chess.engine."""

from __future__ import annotations

import io
import random
import sys
from pathlib import Path

import chess
import chess.engine
import chess.pgn
import chess.variant
import pytest

import engine
from engine.board import PYTHON_CHESS_HOOKS, AliceBoard, to_chess_move, to_engine_move
from support.installed import CHILD_CWD, engine_command

ROOT = Path(__file__).resolve().parent.parent
SCRIPTED = str(ROOT / "tests" / "engines" / "scripted.py")

EARLY_MATES = [
    "e2e4 d7d5 f1e2 d5e4 e2b5",
    "e2e4 e7e5 d1h5 g8f6 h5e5",
    "d2d4 e7e6 d1d6 f8e7 d6e5 e8f8 c1h6",
]


def random_boards(games: int, seed: int, max_plies: int = 120) -> list[AliceBoard]:
    """Positions met along random games (each a board with its move stack)."""
    rng = random.Random(seed)
    boards = []
    for _ in range(games):
        board = AliceBoard()
        while not board.is_game_over() and board.ply() < max_plies:
            boards.append(board.copy())
            board.push(rng.choice(sorted(board.legal_moves, key=chess.Move.uci)))
        boards.append(board.copy())
    return boards


def perft(board: AliceBoard, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for move in list(board.legal_moves):
        board.push(move)
        total += perft(board, depth - 1)
        board.pop()
    return total


def test_class_attributes_and_start() -> None:
    board = AliceBoard()
    assert AliceBoard.uci_variant == "alice"
    assert AliceBoard.starting_fen == engine.STARTING_FEN
    assert board.fen() == engine.STARTING_FEN
    assert chess.variant.find_variant("Alice") is AliceBoard
    assert chess.variant.find_variant("alice") is AliceBoard
    assert board.is_valid()
    assert board.ep_square is None
    assert board.castling_rights == chess.BB_CORNERS


@pytest.mark.parametrize(("depth", "nodes"), [(1, 20), (2, 400), (3, 9384)])
def test_perft_through_the_python_chess_api(depth: int, nodes: int) -> None:
    assert perft(AliceBoard(), depth) == nodes


def test_legal_moves_are_the_engines() -> None:
    for board in random_boards(30, seed=1):
        pos = engine.Position(board.fen())
        want = sorted(to_chess_move(m).uci() for m in pos.legal_moves())
        assert sorted(m.uci() for m in board.legal_moves) == want, board.fen()
        assert board.legal_moves.count() == len(want)
        for move in board.legal_moves:
            assert board.is_legal(move) and move in board.legal_moves


def _reference_pseudo_legal(board: AliceBoard) -> set[str]:
    """Pseudo-legal moves via python-chess, one board at a time, then Alice's landing rule."""
    moves = set()
    for layer in (0, 1):
        single = chess.Board(None)
        for square, piece in board.piece_map().items():
            if board.board_at(square) == layer:
                single.set_piece_at(square, piece)
        single.turn = board.turn
        single.castling_rights = chess.BB_EMPTY
        other = chess.SquareSet(board.board_b if layer == 0 else board.occupied & ~board.board_b)
        for move in single.generate_pseudo_legal_moves():
            if move.to_square not in other:
                moves.add(move.uci())
    moves |= {m.uci() for m in board.generate_castling_moves()}
    return moves


def test_pseudo_legal_moves_per_board() -> None:
    for board in random_boards(25, seed=2):
        pseudo = {m.uci() for m in board.pseudo_legal_moves}
        assert pseudo == _reference_pseudo_legal(board), board.fen()
        legal = {m.uci() for m in board.legal_moves}
        assert legal <= pseudo
        for text in pseudo - legal:
            move = chess.Move.from_uci(text)
            assert board.is_pseudo_legal(move) and not board.is_legal(move)
            assert board.is_into_check(move)
            if board.piece_type_at(move.from_square) != chess.KING:
                board.push(move)  # pseudo-legal moves may be pushed
                assert board.was_into_check()
                board.pop()


def test_double_step_through_a_piece_on_the_other_board() -> None:
    # e3 holds a black knight on board B: the e2 pawn (board A) may still jump to e4.
    board = AliceBoard("rnbqkb1r/pppppppp/8/8/8/4|n3/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    assert board.is_legal(chess.Move.from_uci("e2e4"))
    assert not board.is_pseudo_legal(chess.Move.from_uci("e2e3"))


def test_push_pop_restores_everything() -> None:
    rng = random.Random(3)
    board = AliceBoard()
    history = []
    while not board.is_game_over() and board.ply() < 80:
        history.append((board.fen(), board.board_b, board._transposition_key()))
        board.push(rng.choice(list(board.legal_moves)))
    while board.move_stack:
        board.pop()
        assert (board.fen(), board.board_b, board._transposition_key()) == history.pop()
    assert board.fen() == engine.STARTING_FEN


def test_push_rejects_what_is_not_pseudo_legal() -> None:
    board = AliceBoard()
    with pytest.raises(chess.IllegalMoveError):
        board.push(chess.Move.from_uci("e2e5"))
    with pytest.raises(chess.IllegalMoveError):
        board.push(chess.Move.from_uci("e7e5"))  # not white's piece
    assert board.fen() == engine.STARTING_FEN and not board.move_stack


def test_null_move() -> None:
    board = AliceBoard()
    board.push(chess.Move.null())
    assert board.turn == chess.BLACK and board.move_stack == [chess.Move.null()]
    board.push_san("e5")
    assert board.pop() == chess.Move.from_uci("e7e5")
    assert board.pop() == chess.Move.null()
    assert board.fen() == engine.STARTING_FEN
    assert board.parse_uci("0000") == chess.Move.null()


def test_fen_forms() -> None:
    wide = "4k11/16/16/16/12P3/16/16/4K11 w - - 0 1"
    compact = "4k3/8/8/8/4|P3/8/8/4K3 w - - 0 1"
    board = AliceBoard(wide)
    assert board.fen() == compact
    assert board.board_fen() == "4k3/8/8/8/4|P3/8/8/4K3"
    assert board.board_at(chess.E4) == 1 and board.board_at(chess.E1) == 0 and board.board_at(chess.E5) is None
    assert board.board_b == chess.BB_E4
    assert board.piece_at(chess.E4) == chess.Piece(chess.PAWN, chess.WHITE)
    assert board.epd() == "4k3/8/8/8/4|P3/8/8/4K3 w - -"
    board.set_board_fen("4k3/8/8/8/8/8/8/|K7")
    assert board.fen() == "4k3/8/8/8/8/8/8/|K7 w - - 0 1"
    assert AliceBoard("4k3/8/8/8/4|P3/8/8/4K3").fen() == compact  # trailing fields default


@pytest.mark.parametrize(
    "fen",
    [
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",  # en passant square
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1",  # short rank
        "8/8/8/8/8/8/8/4K3 w - - 0 1",  # no black king
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
    ],
)
def test_bad_fen_raises_and_changes_nothing(fen: str) -> None:
    board = AliceBoard()
    board.push_san("e4")
    before = (board.fen(), list(board.move_stack))
    with pytest.raises(ValueError):
        board.set_fen(fen)
    assert (board.fen(), list(board.move_stack)) == before


def test_uci_and_san_with_suffixes() -> None:
    board = AliceBoard()
    move = board.parse_uci("e2e4/B")
    assert move == chess.Move.from_uci("e2e4")
    assert board.uci(move) == "e2e4"
    assert board.uci(move, suffix=True) == "e2e4/B"
    assert board.san(move) == "e4/B"
    assert board.lan(move) == "e2-e4/B"
    with pytest.raises(chess.IllegalMoveError):
        board.parse_uci("e2e4/A")  # wrong board
    with pytest.raises(chess.IllegalMoveError):
        board.parse_uci("e2e5")
    with pytest.raises(chess.InvalidMoveError):
        board.parse_uci("e2")
    assert board.push_uci("e2e4/b") == move
    assert board.parse_san("d5/B") == board.parse_san("d5") == chess.Move.from_uci("d7d5")
    with pytest.raises(chess.IllegalMoveError):
        board.parse_san("d5/A")
    with pytest.raises(chess.InvalidMoveError):
        board.parse_san("xyz")
    board.push_san("d5")
    assert board.variation_san([chess.Move.from_uci("f1e2"), chess.Move.from_uci("d5e4")]) == "2. Be2/B dxe4/A"


def test_ambiguous_san() -> None:
    board = AliceBoard("4k3/8/8/8/8/8/4K3/R6R w - - 0 1")
    with pytest.raises(chess.AmbiguousMoveError):
        board.parse_san("Rd1")
    assert board.parse_san("Rad1") == chess.Move.from_uci("a1d1")
    assert board.san(chess.Move.from_uci("h1d1")) == "Rhd1/B"


def test_castling_moves_and_san() -> None:
    board = AliceBoard("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    castles = {m.uci() for m in board.generate_castling_moves()}
    assert castles == {"e1g1", "e1c1"}
    assert board.san(chess.Move.from_uci("e1c1")) == "O-O-O/B"
    assert board.is_castling(chess.Move.from_uci("e1g1"))
    board.push_san("O-O")
    assert board.fen() == "r3k2r/8/8/8/8/8/8/R4|R|K1 b kq - 1 1"
    assert not board.has_castling_rights(chess.WHITE) and board.has_castling_rights(chess.BLACK)


@pytest.mark.parametrize("line", EARLY_MATES)
def test_early_mates(line: str) -> None:
    board = AliceBoard()
    moves = line.split()
    for text in moves[:-1]:
        board.push_uci(text)
        assert board.outcome() is None
    mating = board.parse_uci(moves[-1])
    assert board.san(mating).endswith("#")
    assert board.gives_check(mating)
    board.push(mating)
    assert board.is_check() and board.is_checkmate() and not board.is_stalemate()
    assert board.is_game_over()
    outcome = board.outcome()
    assert outcome is not None and outcome.termination == chess.Termination.CHECKMATE
    assert outcome.winner == (len(moves) % 2 == 1)
    assert board.result() == ("1-0" if len(moves) % 2 else "0-1")


def test_stalemate_and_bare_kings() -> None:
    stalemate = AliceBoard("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert stalemate.is_stalemate()
    outcome = stalemate.outcome()
    assert outcome is not None and outcome.termination == chess.Termination.STALEMATE and outcome.winner is None
    bare = AliceBoard("4k3/8/8/8/8/8/8/|K7 w - - 0 1")
    assert bare.is_insufficient_material()
    outcome = bare.outcome()
    assert outcome is not None and outcome.termination == chess.Termination.INSUFFICIENT_MATERIAL


def test_fifty_moves_is_automatic() -> None:
    board = AliceBoard("4k3/8/8/8/8/8/8/R3K3 w - - 99 80")
    assert board.outcome() is None
    board.push_san("Ra2")
    assert board.is_fifty_moves()
    outcome = board.outcome()  # no claim needed in Alice chess
    assert outcome is not None and outcome.termination == chess.Termination.FIFTY_MOVES


# King tours e1-e2-f1-e1 / e8-e7-f8-e8: after one tour (6 plies) each king stands on its
# start square again but on the other board; only after two tours is the position repeated.
TOUR = ["e1e2", "e8e7", "e2f1", "e7f8", "f1e1", "f8e8"]
TOUR_FEN = "r3k3/8/8/8/8/8/8/R3K3 w - - 0 1"


def test_repetition_is_layer_aware() -> None:
    board = AliceBoard(TOUR_FEN)
    plain = chess.Board(TOUR_FEN)
    for text in TOUR:
        board.push_uci(text)
        plain.push_uci(text)
    assert board.board_fen() == "r3|k3/8/8/8/8/8/8/R3|K3"
    assert plain.is_repetition(2)  # the merged view would call this a repetition
    assert not board.is_repetition(2)
    for text in TOUR * 3:
        board.push_uci(text)
    # Start position (kings on A) at plies 0, 12, 24: threefold after 24 plies.
    assert board.is_repetition(3)
    outcome = board.outcome()
    assert outcome is not None and outcome.termination == chess.Termination.THREEFOLD_REPETITION
    board.pop()
    assert not board.is_repetition(3)
    assert board.outcome() is None
    assert board.can_claim_threefold_repetition()  # f8e8 repeats for the third time
    board.pop()
    assert not board.can_claim_threefold_repetition()
    assert board != AliceBoard(TOUR_FEN)


def test_copy_and_root() -> None:
    board = AliceBoard()
    for text in ["e2e4", "d7d5", "f1e2", "d5e4"]:
        board.push_uci(text)
    assert board.root().fen() == engine.STARTING_FEN
    assert board.root().move_stack == []
    full = board.copy()
    assert full.move_stack == board.move_stack and full.fen() == board.fen()
    full.pop()
    assert len(board.move_stack) == 4  # independent
    part = board.copy(stack=2)
    assert part.move_stack == board.move_stack[-2:]
    assert part.root().fen() == "rnbqkbnr/ppp1pppp/8/3|p4/4|P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    bare = board.copy(stack=False)
    assert bare.move_stack == [] and bare.root().fen() == board.fen()
    assert board.copy() == board


def test_editing_keeps_the_rules_in_sync() -> None:
    board = AliceBoard()
    board.remove_piece_at(chess.H1)
    assert "K" not in board.castling_xfen() and "Q" in board.castling_xfen()
    assert board.castling_xfen() == "Qkq"
    board.set_piece_at(chess.E4, chess.Piece(chess.KNIGHT, chess.WHITE), board=1)
    assert board.board_at(chess.E4) == 1
    assert board.fen().startswith("rnbqkbnr/pppppppp/8/8/4|N3/8/PPPPPPPP/RNBQKBN1 w Qkq")
    assert board.is_legal(chess.Move.from_uci("e4f6"))  # moves on board B
    board.turn = chess.BLACK
    assert board.fen().split()[1] == "b" and board.is_legal(chess.Move.from_uci("e7e5"))
    mirrored = AliceBoard("4k3/8/8/8/4|P3/8/8/4K3 w - - 0 1").mirror()
    assert mirrored.fen() == "4k3/8/8/4|p3/8/8/8/4K3 b - - 0 1"
    with pytest.raises(ValueError):
        AliceBoard(chess960=True)


def test_python_chess_hooks_are_still_there() -> None:
    """Each private python-chess hook AliceBoard overrides still exists in the python-chess
    installed (a release that renames one would silently bypass the override)."""
    for name in PYTHON_CHESS_HOOKS:
        assert callable(getattr(chess.Board, name, None)), f"chess.Board.{name} is gone"
        assert name in AliceBoard.__dict__, f"AliceBoard does not override {name}"


def test_public_methods_left_to_python_chess_reach_the_rules() -> None:
    """The python-chess methods that call the hooks keep both boards and the rules in sync."""
    board = AliceBoard()
    board.push_uci("e2e4")
    board.set_piece_map(
        {chess.E1: chess.Piece(chess.KING, chess.WHITE), chess.E8: chess.Piece(chess.KING, chess.BLACK)}
    )
    assert board.move_stack == [] and board.fen() == "4k3/8/8/8/8/8/8/4K3 b - - 0 1"
    board.set_board_fen("4k3/8/8/8/4|P3/8/8/4K3")
    assert board.board_at(chess.E4) == 1 and board.legal_moves.count() == 5
    board.remove_piece_at(chess.E4)
    assert board.fen() == "4k3/8/8/8/8/8/8/4K3 b - - 0 1"
    with pytest.raises(ValueError, match="Chess960"):
        board.set_chess960_pos(518)
    assert board == AliceBoard("4k3/8/8/8/8/8/8/4K3 b - - 0 1")
    assert AliceBoard("4k3/8/8/8/|P7/8/8/4K3 w - - 0 1") != AliceBoard("4k3/8/8/8/P7/8/8/4K3 w - - 0 1")
    assert AliceBoard().san(chess.Move.from_uci("g1f3")) == "Nf3/B"


def test_attacks_follow_the_boards() -> None:
    # The white rook on a1 (A) and the black king on a8 (B): no check across boards.
    board = AliceBoard("|k7/8/8/8/8/8/8/R3K3 b - - 0 1")
    assert not board.is_check()
    assert board.attackers_mask(chess.WHITE, chess.A8) == 0
    assert board.attackers_mask(chess.WHITE, chess.A8, board=0) == chess.BB_A1
    assert board.attacks_mask(chess.A1) & chess.BB_A8
    checked = AliceBoard("k7/8/8/8/8/8/8/R3K3 b - - 0 1")
    assert checked.is_check() and checked.checkers_mask() == chess.BB_A1
    pinned = AliceBoard("k7/8/8/8/8/8/r7/R3K3 b - - 0 1")  # the a2 rook shields its king on A
    assert pinned.is_pinned(chess.BLACK, chess.A2)
    assert pinned.pin_mask(chess.BLACK, chess.A2) == chess.ray(chess.A8, chess.A1)
    assert not AliceBoard("k7/8/8/8/8/8/|r7/R3K3 b - - 0 1").is_pinned(chess.BLACK, chess.A2)


def test_pgn_round_trip() -> None:
    finals = [random_boards(1, seed=seed, max_plies=160)[-1] for seed in range(4, 8)]
    for i, board in enumerate([*finals, _mated_board()]):
        game = chess.pgn.Game.from_board(board)
        game.headers["Event"] = f"round trip {i}"
        text = str(game)
        assert '[Variant "Alice"]' in text
        assert "/B" in text or "/A" in text
        again = chess.pgn.read_game(io.StringIO(text))
        assert again is not None and not again.errors
        assert isinstance(again.board(), AliceBoard)
        assert list(again.mainline_moves()) == board.move_stack
        assert again.end().board().fen() == board.fen()
        assert str(again) == text


def _mated_board() -> AliceBoard:
    board = AliceBoard()
    for text in EARLY_MATES[0].split():
        board.push_uci(text)
    return board


def test_pgn_from_a_set_up_position() -> None:
    board = AliceBoard("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    board.push_san("O-O-O")
    board.push_san("O-O/B")
    game = chess.pgn.Game.from_board(board)
    text = str(game)
    assert '[FEN "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"]' in text and '[SetUp "1"]' in text
    assert "1. O-O-O/B O-O/B" in text
    again = chess.pgn.read_game(io.StringIO(text))
    assert again is not None and again.end().board().fen() == board.fen()


def test_engine_move_conversion() -> None:
    for text in ("e2e4", "e7e8q", "a2a1n"):
        move = chess.Move.from_uci(text)
        assert to_chess_move(to_engine_move(move)) == move
    assert to_engine_move(chess.Move.null()) == 0 and not to_chess_move(0)


def _scripted(*args: str) -> list[str]:
    return [sys.executable, SCRIPTED, *args]


def test_chess_engine_drives_a_scripted_engine_that_sends_suffixes() -> None:
    with chess.engine.SimpleEngine.popen_uci(_scripted("first", "--suffix"), timeout=20) as eng:
        board = AliceBoard()
        while not board.is_game_over() and board.ply() < 40:
            result = eng.play(board, chess.engine.Limit(nodes=1))
            assert result.move is not None and board.is_legal(result.move)
            board.push(result.move)
        info = eng.analyse(board, chess.engine.Limit(nodes=1)) if not board.is_game_over() else {}
        if info:
            assert info["pv"] and board.is_legal(info["pv"][0])


def test_chess_engine_sends_the_compact_root_fen_and_rejects_an_illegal_move() -> None:
    start = "rnbqkbnr/pppppppp/8/8/4|P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    with chess.engine.SimpleEngine.popen_uci(_scripted("illegal", "2"), timeout=20) as eng:
        board = AliceBoard(start)
        first = eng.play(board, chess.engine.Limit(nodes=1), game="g")
        assert first.move is not None and board.is_legal(first.move)
        board.push(first.move)
        board.push(next(iter(board.legal_moves)))
        with pytest.raises(chess.engine.EngineError):
            eng.play(board, chess.engine.Limit(nodes=1), game="g")


@pytest.mark.slow
def test_chess_engine_drives_alice_engine() -> None:
    with chess.engine.SimpleEngine.popen_uci(engine_command(), timeout=30, cwd=CHILD_CWD) as eng:
        assert eng.options["UCI_Variant"].var and "alice" in eng.options["UCI_Variant"].var
        board = AliceBoard()
        for _ in range(12):
            if board.is_game_over():
                break
            result = eng.play(board, chess.engine.Limit(nodes=300))
            assert result.move is not None and board.is_legal(result.move)
            board.push(result.move)
        info = eng.analyse(board, chess.engine.Limit(depth=2))
        assert "score" in info and board.is_legal(info["pv"][0])
