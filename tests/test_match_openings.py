"""The bundled opening book and the EPD/PGN opening readers."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from alice_match.openings import (
    DEFAULT_BOOK,
    Opening,
    OpeningBook,
    OpeningError,
    load_book,
    parse_epd_line,
)
from engine import Position, move_to_san, parse_san, parse_uci
from engine.position import STARTING_FEN
from make_openings import candidates, san_line


def book_lines() -> list[str]:
    return [line for line in Path(DEFAULT_BOOK).read_text(encoding="utf-8").splitlines() if line.strip()]


def test_book_size_and_legality() -> None:
    lines = book_lines()
    assert 200 <= len(lines) <= 1000
    openings = load_book(DEFAULT_BOOK)
    assert len(openings) == len(lines)
    assert len({o.fen.split(" ")[0] + o.fen.split(" ")[1] for o in openings}) == len(openings)  # no duplicates
    for line, opening in zip(lines, openings):
        pos = Position(opening.fen)  # our rules accept the position
        assert pos.outcome() is None and not pos.in_check() and pos.legal_moves()
        # c0 holds the moves from the start position in SAN: they are legal and lead here.
        san = line.split('c0 "')[1].split('"')[0]
        replay = Position()
        plies = 0
        for token in san.split():
            if token.endswith("."):
                continue
            m = parse_san(replay, token)
            assert move_to_san(replay, m) == token  # written with its landing board
            replay.push(m)
            plies += 1
        assert 2 <= plies <= 4
        assert replay.fen() == opening.fen
        cp = int(line.split("ce ")[1].split(";")[0])
        assert abs(cp) <= 50


def test_book_is_the_generators_stream() -> None:
    # make_openings.py keeps stream candidates in order: the book is a subsequence of them.
    openings = load_book(DEFAULT_BOOK)
    wanted = iter(openings)
    current: Opening | None = next(wanted)
    for pos, moves in itertools.islice(candidates(), 5000):
        if current is not None and pos.fen() == current.fen:
            assert 'c0 "' + san_line(moves) + '"' in book_lines()[openings.index(current)]
            current = next(wanted, None)
            if current is None:
                break
    assert current is None, f"not produced by the generator: {current}"


def test_epd_lines() -> None:
    opening = parse_epd_line('4k11/16/16/16/12P3/16/16/4K11 b - - hmvc 3; fmvn 12; id "wide";')
    assert opening == Opening("4k3/8/8/8/4|P3/8/8/4K3 b - - 3 12", (), "wide")
    assert parse_epd_line("4k3/8/8/8/4|P3/8/8/4K3 b - - 5 9").fen == "4k3/8/8/8/4|P3/8/8/4K3 b - - 5 9"
    assert parse_epd_line("4k3/8/8/8/4|P3/8/8/4K3 b - -").fen == "4k3/8/8/8/4|P3/8/8/4K3 b - - 0 1"
    for bad in (
        "4k3/8/8 w - -",
        "4k3/8/8/8/4|P3/8/8/4K3 b - e3",
        "4k3/8/8/8/4|P3/8/8/4K3 b - - 12x;",
        '4k3/8/8/8/4|P3/8/8/4K3 b - - id "open;',
    ):
        with pytest.raises(OpeningError):
            parse_epd_line(bad)


def test_pgn_openings(tmp_path: Path) -> None:
    path = tmp_path / "book.pgn"
    path.write_text(
        '[Event "one"]\n[Variant "Alice"]\n\n1. e4/B d5/B 2. Be2/B *\n\n'
        '[Event "two"]\n[FEN "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"]\n[SetUp "1"]\n\n1. Ra7 Kd8 *\n\n'
        '[Event "three"]\n\n1. d4 e6 2. Qd6 Be7 *\n',
        encoding="utf-8",
    )
    openings = load_book(str(path))
    assert [o.moves for o in openings] == [("e2e4", "d7d5", "f1e2"), ("a1a7", "e8d8"), ("d2d4", "e7e6", "d1d6", "f8e7")]
    assert openings[0].fen == STARTING_FEN and openings[1].fen == "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"
    assert [o.name for o in openings] == ["one", "two", "three"]
    cut = load_book(str(path), "pgn", plies=2)
    assert [len(o.moves) for o in cut] == [2, 2, 2]
    pos = cut[2].position()
    assert pos.fen().startswith("rnbqkbnr/pppp1ppp/4|p3/8/3|P4")
    bad = tmp_path / "bad.pgn"
    bad.write_text("1. e4 e5 2. Ke2 Ke7 3. Kd3 Kd6 4. Ke4 *\n", encoding="utf-8")  # Ke4: e4 is occupied
    with pytest.raises(OpeningError):
        load_book(str(bad))
    chess_game = tmp_path / "crazy.pgn"
    chess_game.write_text('[Variant "Crazyhouse"]\n\n1. e4 *\n', encoding="utf-8")
    with pytest.raises(OpeningError):
        load_book(str(chess_game))


def test_book_order_start_and_seed() -> None:
    openings = [Opening(moves=(m,)) for m in ("e2e4", "d2d4", "c2c4", "g1f3")]
    sequential = OpeningBook(openings, start=3).sequence(6, seed=1)
    assert [o.moves[0] for o in sequential] == ["c2c4", "g1f3", "e2e4", "d2d4", "c2c4", "g1f3"]
    shuffled = OpeningBook(openings, order="random").sequence(4, seed=7)
    assert sorted(o.moves[0] for o in shuffled) == sorted(o.moves[0] for o in openings)
    assert OpeningBook(openings, order="random").sequence(4, seed=7) == shuffled  # same seed, same order
    orders = {tuple(o.moves[0] for o in OpeningBook(openings, order="random").sequence(4, seed=s)) for s in range(20)}
    assert len(orders) > 1
    with pytest.raises(OpeningError):
        OpeningBook(openings, order="backwards")
    with pytest.raises(OpeningError):
        OpeningBook([])


def test_opening_position() -> None:
    opening = Opening(moves=("e2e4", "d7d5"))
    pos = opening.position()
    assert pos.fen() == "rnbqkbnr/ppp1pppp/8/3|p4/4|P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    pos2 = Position()
    pos2.push(parse_uci(pos2, "e2e4"))
    assert Opening(pos2.fen()).position().fen() == pos2.fen()
