"""The evaluation fitter (scripts/tune): the data step makes well-formed labelled rows, the fit
lowers the error and recovers weights from labels the evaluation itself made with those
weights changed. The fit patches search/evaluate.py's weights, so it needs the pure build."""

from __future__ import annotations

import csv
import math
import subprocess
import sys

import pytest

import search.evaluate as ev
from engine import Position
from support.installed import CHILD_CWD, ROOT
from tune import __main__ as tune_main
from tune import data, fit

FEW_OPENINGS = data.read_openings()[:20]
needs_pure = pytest.mark.skipif(
    not (ev.__file__ or "").endswith(".py"), reason="the fit patches the evaluation: pure build only"
)


def quiet_positions(count: int, seed: int) -> list[Position]:
    """Quiet positions from random walks (no engine moves: fast)."""
    return list(data.walk_positions(count, seed=seed, random_fraction=1.0, max_plies=30, openings=FEW_OPENINGS))


def test_data_step_rows_are_well_formed(tmp_path: object) -> None:
    """Few positions labelled by our own search: distinct legal FENs, quiet, integer scores,
    written and read back unchanged (CSV and EPD)."""
    positions = quiet_positions(6, seed=3)
    rows = data.make_rows(iter(positions), data.OwnLabeller(depth=2))
    assert len(rows) >= 5  # a mate score may drop one
    searcher = data.Searcher(hash_mb=1)
    for row in rows:
        pos = Position(row.fen)
        assert pos.fen() == row.fen and not pos.in_check() and pos.legal_moves()
        assert data.is_quiet(searcher, pos)
        assert isinstance(row.score, int) and abs(row.score) < 5000
    assert len({r.fen for r in rows}) == len(rows)
    for name in ("rows.csv", "rows.epd"):
        path = f"{tmp_path}/{name}"
        data.write_rows(path, rows)
        assert data.read_rows(path) == rows
    with open(f"{tmp_path}/rows.csv", encoding="utf-8") as f:
        assert next(csv.reader(f)) == ["fen", "score"]


def test_quiet_filter_drops_a_hanging_queen() -> None:
    """A queen that can be taken for nothing: quiescence is far above the static evaluation."""
    searcher = data.Searcher(hash_mb=1)
    hanging = Position("4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1")  # Rxd5 wins the queen
    assert not data.is_quiet(searcher, hanging)
    assert data.is_quiet(searcher, Position("4k3/8/8/8/8/8/8/3RK3 w - - 0 1"))


def test_uci_labeller_reads_a_reference_engine() -> None:
    """The UCI labeller on our own engine as the reference (`python -m uci`): the same score as
    our search in this process at the same depth."""
    pos = quiet_positions(1, seed=5)[0]
    reference = data.UciLabeller(f"{sys.executable} -m uci", depth=3)
    try:
        assert reference.label(pos) == data.OwnLabeller(depth=3).label(pos)
    finally:
        reference.close()


def test_results_are_targets_from_the_side_to_move() -> None:
    black_to_move = Position("4k3/8/8/8/8/8/8/3RK3 b - - 0 1")
    assert fit.target_of(data.Row("", result=1.0), black_to_move, fit.SCALE_K) == 0.0
    assert fit.target_of(data.Row("", score=0), black_to_move, fit.SCALE_K) == 0.5


def test_a_row_with_a_score_and_a_result_targets_a_blend() -> None:
    white_to_move = Position("4k3/8/8/8/8/8/8/3RK3 w - - 0 1")
    both = data.Row("", score=0, result=1.0)
    assert fit.target_of(both, white_to_move, fit.SCALE_K, result_weight=0.5) == 0.75
    assert fit.target_of(both, white_to_move, fit.SCALE_K, result_weight=1.0) == 1.0
    assert fit.target_of(both, white_to_move, fit.SCALE_K, result_weight=0.0) == 0.5


def test_the_scale_fitted_to_results_is_the_one_that_made_them() -> None:
    """Results drawn exactly from ``sigmoid(eval / 250)``: ``--k auto`` finds 250; score
    labels alone cannot fit a scale."""
    positions = quiet_positions(40, seed=23)
    rows = []
    for pos in positions:
        p = fit.sigmoid(ev.evaluate(pos) / 250.0)
        rows.append(data.Row(pos.fen(), score=0, result=p if pos.turn else 1.0 - p))
    assert len({ev.evaluate(pos) for pos in positions}) > 10
    assert fit.fitted_k(rows) == pytest.approx(250.0, abs=1.0)
    with pytest.raises(ValueError, match="result"):
        fit.fitted_k([data.Row(r.fen, score=0) for r in rows])


def test_k_on_the_command_line_is_centipawns_or_auto() -> None:
    assert tune_main.parse_args(["fit", "d.csv"]).k == fit.SCALE_K
    assert tune_main.parse_args(["fit", "d.csv", "--k", "120"]).k == 120.0
    assert tune_main.parse_args(["fit", "d.csv", "--k", "auto"]).k is None
    with pytest.raises(SystemExit):
        tune_main.parse_args(["fit", "d.csv", "--k", "big"])


GAME_FEN = "rnbqkbnr/ppp1pppp/8/3|p4/1|P6/2|N5/P1PPPPPP/R1BQKBNR b KQkq - 0 2"
GAME_MOVES = ["g8f6", "g1f3", "b8c6", "c1a3", "d8d3", "d1b1"]  # the moves of PLAYED below
PLAYED = f"""[Event "?"]
[White "a"]
[Black "b"]
[Result "0-1"]
[Variant "Alice"]
[FEN "{GAME_FEN}"]
[SetUp "1"]

2... Nf6/B {{ +1.00/12 0.433s }} 3. Nf3/B {{ -0.77/12 0.554s }} 3... Nc6/B
{{ +0.79/12 0.471s }} 4. Ba3/B {{ -0.63/12 0.345s }} 4... Qd3/B {{ +M5/11 0.65s }}
5. Qb1/B {{ -0.23/11 0.204s }} 0-1

[Event "?"]
[Result "*"]
[Variant "Alice"]
[FEN "{GAME_FEN}"]
[SetUp "1"]

2... Nf6/B {{ +1.00/12 0.433s }} *
"""


def test_played_games_give_rows_with_the_searched_score_and_the_result(tmp_path: object) -> None:
    """Every position before a move with a centipawn score is kept (sample 1, from ply 0) when
    quiet, with the mover's score and the game's result; the one before a mate score and the
    unfinished game give nothing; rows are not repeated."""
    path = f"{tmp_path}/games.pgn"
    with open(path, "w", encoding="utf-8") as f:
        f.write(PLAYED + "\n" + PLAYED)  # the same games twice: each position once
    pos, before = Position(GAME_FEN), []
    for move in GAME_MOVES:
        before.append(pos.fen())
        pos.push(data.parse_uci(pos, move))
    scored = {before[i]: s for i, s in enumerate([100, -77, 79, -63, None, -23]) if s is not None}
    rows = list(data.game_rows([path], min_plies=0, sample=1.0))
    searcher = data.Searcher(hash_mb=1)
    quiet = [fen for fen in scored if data.is_quiet(searcher, Position(fen))]
    assert [r.fen for r in rows] == quiet and len(quiet) >= 3
    assert all(r.score == scored[r.fen] and r.result == 0.0 for r in rows)
    assert [r.fen for r in data.game_rows([path], min_plies=2, sample=1.0)] == [f for f in quiet if f not in before[:2]]
    assert data.comment_score("+0.35/12 0.433s") == 35 and data.comment_score("+M5/11") is None
    black = [r.fen for r in data.game_rows([path], min_plies=0, sample=1.0, player="b")]  # "b" plays Black
    white = [r.fen for r in data.game_rows([path], min_plies=0, sample=1.0, player="a")]
    assert black == [f for f in quiet if f in before[0::2]] and white == [f for f in quiet if f in before[1::2]]
    assert black and white and not list(data.game_rows([path], min_plies=0, sample=1.0, player="c"))


def test_rows_with_both_labels_are_written_and_read_back(tmp_path: object) -> None:
    rows = [data.Row(GAME_FEN, 12, 1.0), data.Row(GAME_FEN, None, 0.5), data.Row(GAME_FEN, -30, None)]
    for name in ("both.csv", "both.epd"):
        path = f"{tmp_path}/{name}"
        data.write_rows(path, rows)
        assert data.read_rows(path) == rows
    with open(f"{tmp_path}/both.csv", encoding="utf-8") as f:
        assert next(csv.reader(f)) == ["fen", "score", "result"]
    with open(f"{tmp_path}/both.epd", encoding="utf-8") as f:
        assert 'ce 12; c9 "1-0";' in f.readline()


def test_solve_matches_a_known_system() -> None:
    x = fit.solve([[4.0, 1.0], [1.0, 3.0]], [1.0, 2.0])
    assert x == pytest.approx([1 / 11, 7 / 11])


@needs_pure
def test_fit_recovers_changed_weights() -> None:
    """Labels made by the evaluation with some weights changed: the fit, started from the
    module's weights, finds the changed ones (to within 1: the evaluation rounds)."""
    positions = quiet_positions(120, seed=11)
    params = fit.params_of(["BISHOP_PAIR", "MOB_FREE", "THREAT_HANGING", "TEMPO"])
    with fit.Patched():
        truth = fit.weights_of(params)
        changed = {fit.Param("BISHOP_PAIR"): 20.0, fit.Param("MOB_FREE", 2): 16.0, fit.Param("TEMPO"): 40.0,
                   fit.Param("THREAT_HANGING", 2): 40.0}
        truth = [changed.get(p, w) for p, w in zip(params, truth)]
        fit.set_weights(params, truth)
        rows = [data.Row(pos.fen(), ev.evaluate(pos)) for pos in positions]
    with fit.Patched():
        result = fit.fit(rows, params)
    assert result.error_after < result.error_before / 100
    for p, got, want in zip(result.params, result.after, truth):
        if p not in result.unseen:
            assert got == pytest.approx(want, abs=1), p.label()
    assert fit.get_weight(fit.Param("BISHOP_PAIR")) != 20  # Patched put the module's weights back


@needs_pure
def test_fit_lowers_the_error_on_searched_labels() -> None:
    """Labels from our own search (depth 2): every weight fitted, the real error goes down, and
    the printed source lines hold the fitted values."""
    positions = quiet_positions(60, seed=17)
    labeller = data.OwnLabeller(depth=2)
    rows = [data.Row(pos.fen(), labeller.label(pos)) for pos in positions]
    rows = fit.usable([r for r in rows if r.score is not None])
    with fit.Patched():
        result = fit.fit(rows, rounds=1)
        lines = fit.source_lines(["TEMPO", "PIECE_VALUE"])
        tempo = fit.get_weight(fit.Param("TEMPO"))
    assert result.error_after < result.error_before
    assert not math.isnan(result.error_after)
    assert f"TEMPO: Final = {tempo}  # bonus for the side to move" in lines["search/evaluate.py"]
    assert lines["search/score.py"][0].startswith("PIECE_VALUE: Final = (0, ")


@pytest.mark.slow
def test_command_line_makes_and_fits_a_data_set(tmp_path: object) -> None:
    """`python scripts/tune data` then `fit`, as docs/tuning.md runs them."""
    out = f"{tmp_path}/data.csv"
    tune = f"{ROOT}/scripts/tune"
    made = subprocess.run(
        [sys.executable, tune, "data", "--out", out, "--positions", "30", "--depth", "2"],
        capture_output=True, text=True, cwd=CHILD_CWD, timeout=300, check=True,
    )
    assert "wrote" in made.stdout and len(data.read_rows(out)) >= 25
    if not (ev.__file__ or "").endswith(".py"):
        return
    fitted = subprocess.run(
        [sys.executable, tune, "fit", out, "--params", "TEMPO,BISHOP_PAIR"],
        capture_output=True, text=True, cwd=CHILD_CWD, timeout=300, check=True,
    )
    assert "error before" in fitted.stdout and "TEMPO: Final = " in fitted.stdout


def test_command_line_makes_a_data_set_from_games(tmp_path: object) -> None:
    """`python scripts/tune games` on a PGN, as docs/tuning.md runs it."""
    pgn, out = f"{tmp_path}/games.pgn", f"{tmp_path}/games.csv"
    with open(pgn, "w", encoding="utf-8") as f:
        f.write(PLAYED)
    made = subprocess.run(
        [sys.executable, f"{ROOT}/scripts/tune", "games", pgn, "--out", out, "--min-ply", "0"],
        capture_output=True, text=True, cwd=CHILD_CWD, timeout=120, check=True,
    )
    assert "wrote" in made.stdout
    assert data.read_rows(out) == list(data.game_rows([pgn], min_plies=0))
