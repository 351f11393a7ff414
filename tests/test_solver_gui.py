"""The web board's problem solver: ``POST /api/solve`` black-box (solutions, bad requests get
a 400 with one line saying why) and the page's Solve control in chromium."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from support.gui_helpers import Board, running_board, scripted
from support.system_tools import require_program

CAILLAUD = "8/8/8/2Q1|k3/8/2|R5/3|p4/K7 b - - 0 1"  # h#2, two solutions (Andernach 2025)
TIMEOUT_MS = 60_000  # a loaded 2-core machine: generous waits


@pytest.fixture(scope="module")
def board() -> Iterator[Board]:
    with running_board([scripted("first")]) as b:
        yield b


def test_solve_answers_the_solutions_as_uci_lines_and_popeye_text(board: Board) -> None:
    status, answer = board.post("/api/solve", {"fen": CAILLAUD, "stipulation": "h#2"})
    assert status == 200, answer
    solved = answer["solve"]
    assert sorted(solved["solutions"]) == [["e5e4", "c5e5", "d2d1b", "c3e3"], ["e5f4", "c5f5", "d2d1n", "c3f3"]]
    assert "  1.Ke5-f4A Qc5-f5B   2.d2-d1=SA Rc3-f3A #" in solved["lines"]
    assert solved["fen"] == CAILLAUD


def test_solve_turns_the_position_to_the_stipulations_first_mover(board: Board) -> None:
    status, answer = board.post("/api/solve", {"fen": CAILLAUD.replace(" b ", " w "), "stipulation": "h#2"})
    assert status == 200 and len(answer["solve"]["solutions"]) == 2


@pytest.mark.parametrize(
    "body, why",
    [
        ({"fen": CAILLAUD}, "needs 'fen' and 'stipulation'"),
        ({"fen": CAILLAUD, "stipulation": "x#2"}, "unsupported stipulation"),
        ({"fen": CAILLAUD, "stipulation": "#5"}, "at most 4 moves"),
        ({"fen": "8/8/8/8/8/8/8/K7 w - - 0 1", "stipulation": "#2"}, "missing black king"),
        ({"fen": CAILLAUD, "stipulation": "h#2", "options": ["frobnicate"]}, "option 'frobnicate'"),
        ({"fen": CAILLAUD, "stipulation": "h#2", "options": "vari"}, "'options' must be a list"),
    ],
)
def test_bad_solve_requests_get_a_400_that_says_why(board: Board, body: dict, why: str) -> None:
    status, answer = board.post("/api/solve", body)
    assert status == 400
    assert why in answer["error"]


def test_the_page_solves_the_position_shown(board: Board) -> None:
    from playwright.sync_api import expect, sync_playwright

    executable = require_program("/usr/bin/chromium", "chromium")
    board.ok("/api/new", {"mode": "analyse"})
    board.ok("/api/fen", {"fen": CAILLAUD})
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=executable, headless=True, args=["--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_page()
            page.set_default_timeout(TIMEOUT_MS)
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(board.url)
            page.fill("#solve-stip", "h#2")
            page.click("#solve")
            expect(page.locator("#solve-out")).to_contain_text("1.Ke5-e4A Qc5-e5B", timeout=TIMEOUT_MS)
            expect(page.locator("#solve-out")).to_contain_text("2 solutions")
            assert not errors, errors
        finally:
            browser.close()


def test_a_problem_past_the_node_limit_gets_a_400(board: Board, monkeypatch: pytest.MonkeyPatch) -> None:
    from gui import problems as gui_problems

    monkeypatch.setattr(gui_problems, "MAX_NODES", 100)
    status, answer = board.post("/api/solve", {"fen": CAILLAUD, "stipulation": "h#2"})
    assert status == 400
    assert answer["error"].startswith("gave up after 100 nodes")
