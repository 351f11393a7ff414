"""The web board in a real headless Chromium (Debian's /usr/bin/chromium, driven by Playwright).

A person's path through the page: click and drag a short game against this engine (a move
landing on board B, a promotion through the chooser, the engine's answers), type moves,
take back, finish a game, load a FEN, export the PGN and read it back with ``chess.pgn``,
see errors on the page, and run the analysis. Screenshots of the play and analysis views
go to ``tests/output/`` (git-ignored) for a human to look at.
"""

from __future__ import annotations

import io
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path

import chess
import chess.pgn
import pytest
from playwright.sync_api import BrowserContext, Page, ViewportSize, expect, sync_playwright

import engine.board  # noqa: F401 (registers the Alice variant for chess.pgn)
from engine.board import AliceBoard
from gui_helpers import ROOT, Board, alice, running_board

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
OUTPUT = ROOT / "tests" / "output"
VIEWPORT: ViewportSize = {"width": 1360, "height": 860}
TIMEOUT_MS = 60_000  # a loaded 2-core machine: generous waits, never fixed sleeps
FAST = "nodes:1000"  # the engine's strength choice in these tests: quick answers
expect.set_options(timeout=TIMEOUT_MS)

SAMPLE_GAME = """[Event "Sample"]
[White "alice-engine"]
[Black "alice-engine"]
[Variant "Alice"]

1. Nf3/B Nf6/B 2. d3/B Nc6/B 3. Nc3/B Ne4/A 4. Be3/B d6/B 5. Qd5/B c5/B 6. Qc4/A Nd4/A
7. Bxc5/A Nxc5/B 8. Qxd4/B Na4/A 9. Ne5/A Be6/B 10. Nd5/A Qc7/B 11. b3/B Qc5/A
12. c3/B h6/B 13. g3/B Qc1/B 14. Bg2/B Qg5/A 15. a3/B Rxh2/B 16. Bh3/A Rh5/A
17. Rxa4/B Qxe5/B 18. Qxe5/A Rxe5/B 19. Re4/A Rh5/A 20. Nxe7/B+ Kd8/B *
"""


@pytest.fixture(scope="module")
def board() -> Iterator[Board]:
    with running_board([alice()]) as b:
        yield b


@pytest.fixture(scope="module")
def browser() -> Iterator[BrowserContext]:
    with tempfile.TemporaryDirectory() as profile, sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS, viewport=VIEWPORT
        )
        yield context
        context.close()


@pytest.fixture
def page(browser: BrowserContext, board: Board) -> Iterator[Page]:
    page = browser.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(board.url)
    expect(page.locator("#boards .piece").first).to_be_visible()
    yield page
    page.close()
    assert not errors, errors  # no JavaScript error on the way


def square(page: Page, board: str, name: str):  # type: ignore[no-untyped-def]
    return page.locator(f'#board-{board} .square[data-square="{name}"]')


def piece_on(page: Page, board: str, name: str):  # type: ignore[no-untyped-def]
    return square(page, board, name).locator("img.piece")


def moves(page: Page):  # type: ignore[no-untyped-def]
    return page.locator("#movelist .move")


def click_move(page: Page, board: str, src: str, dst: str) -> None:
    square(page, board, src).click()
    expect(square(page, board, dst)).to_have_class(_has("dest"))
    square(page, board, dst).click()


def _has(cls: str) -> re.Pattern[str]:
    return re.compile(rf"\b{cls}\b")


def start_play(page: Page, side: str = "white") -> None:
    page.click('#modes button[data-mode="play"]')
    expect(page.locator("#setup-play")).to_be_visible()
    expect(page.locator(f'#opp-strength option[value="{FAST}"]')).to_have_count(1)
    page.select_option("#opp-strength", FAST)
    page.click(f'#side button[data-side="{side}"]')
    page.click("#new-game")
    expect(moves(page)).to_have_count(0 if side == "white" else 1)


def drag(page: Page, board: str, src: str, dst: str) -> None:
    a = square(page, board, src).bounding_box()
    b = square(page, board, dst).bounding_box()
    assert a and b
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=8)
    page.mouse.up()


def test_click_a_short_game_against_the_engine(page: Page, board: Board) -> None:
    start_play(page)
    # 1. e4 by clicks: the pawn lands on board B, the last move shows on both boards.
    click_move(page, "A", "e2", "e4")
    expect(piece_on(page, "B", "e4")).to_have_attribute("alt", "P")
    expect(piece_on(page, "A", "e2")).to_have_count(0)
    expect(moves(page)).to_have_count(2)  # the engine answered
    assert board.state()["moves"][0] == "e4/B"
    # 2. Nf3 by dragging.
    drag(page, "A", "g1", "f3")
    expect(piece_on(page, "B", "f3")).to_have_attribute("alt", "N")
    expect(moves(page)).to_have_count(4)
    last = board.state()["lastMove"]
    expect(square(page, last["fromBoard"], last["from"])).to_have_class(_has("last-from"))
    expect(square(page, last["toBoard"], last["to"])).to_have_class(_has("last-to"))
    # 3. A move typed in SAN.
    state = board.state()
    pos = AliceBoard(state["fen"])
    san = pos.san(pos.parse_uci(state["legal"][0]))
    page.fill("#move-input", san)
    page.press("#move-input", "Enter")
    expect(moves(page)).to_have_count(6)
    assert board.state()["moves"][4] == san
    # Take back: your move and the engine's.
    page.click("#takeback")
    expect(moves(page)).to_have_count(4)
    page.screenshot(path=str(OUTPUT / "board.png"))


def test_promotion_with_the_chooser(page: Page, board: Board) -> None:
    start_play(page)
    page.fill("#io-text", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    page.click("#load-fen")
    expect(piece_on(page, "A", "a7")).to_have_attribute("alt", "P")
    click_move(page, "A", "a7", "a8")
    expect(page.locator("#promotion")).to_be_visible()
    page.click('#promotion-choices button[data-promotion="n"]')
    expect(piece_on(page, "B", "a8")).to_have_attribute("alt", "N")
    expect(moves(page).first).to_have_text("a8=N/B")
    expect(moves(page)).to_have_count(2)  # and the engine's answer


def test_finish_a_game_by_clicks(page: Page) -> None:
    page.click('#modes button[data-mode="analyse"]')
    page.click("#ana-new")
    for src, dst in [("e2", "e4"), ("d7", "d5"), ("f1", "e2")]:
        click_move(page, "A", src, dst)
    click_move(page, "B", "d5", "e4")  # the pawn on board B takes there
    click_move(page, "B", "e2", "b5")  # Bb5/A#
    expect(page.locator("#status")).to_contain_text("1-0")
    expect(page.locator("#status")).to_contain_text("checkmate")
    expect(square(page, "A", "e8")).to_have_class(_has("check"))
    expect(page.locator("#movelist")).to_contain_text("Bb5/A#")


def test_load_fen_and_export_pgn(page: Page, board: Board) -> None:
    page.click('#modes button[data-mode="analyse"]')
    page.fill("#io-text", "4k11/16/16/16/12P3/16/16/4K11 w - - 0 1")  # 16-wide: a pawn on B
    page.click("#load-fen")
    expect(piece_on(page, "B", "e4")).to_have_attribute("alt", "P")
    expect(page.locator("#fen")).to_have_value("4k3/8/8/8/4|P3/8/8/4K3 w - - 0 1")
    for count, move in enumerate(["Kd2", "Kd8", "e5"], 1):
        page.fill("#move-input", move)
        page.press("#move-input", "Enter")
        expect(moves(page)).to_have_count(count)
    page.click("#export-pgn")
    expect(page.locator("#io-text")).to_have_value(re.compile(r'\[Variant "Alice"\]'))
    expect(page.locator("#download-pgn")).to_be_visible()
    game = chess.pgn.read_game(io.StringIO(page.locator("#io-text").input_value()))
    assert game is not None and not game.errors
    assert game.board().fen() == "4k3/8/8/8/4|P3/8/8/4K3 w - - 0 1"
    assert [game.board().san(m) for m in [next(iter(game.mainline_moves()))]] == ["Kd2/B"]
    assert len(list(game.mainline_moves())) == 3
    assert game.end().board().fen() == board.state()["fen"]


def test_bad_input_is_shown_and_changes_nothing(page: Page, board: Board) -> None:
    page.click('#modes button[data-mode="analyse"]')
    page.click("#ana-new")
    page.fill("#move-input", "e2e5")
    page.press("#move-input", "Enter")
    expect(page.locator("#message")).to_be_visible()
    expect(page.locator("#message")).to_contain_text("the pawn on e2 cannot move to e5")
    expect(piece_on(page, "A", "e2")).to_have_attribute("alt", "P")
    page.fill("#io-text", "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    page.click("#load-fen")
    expect(page.locator("#message")).to_contain_text("bad FEN")
    page.fill("#io-text", "1. e4 e5 2. Qxf7")
    page.click("#load-pgn")
    expect(page.locator("#message")).to_contain_text("no white queen can move to f7")
    assert board.state()["fen"] == chess.STARTING_FEN
    expect(page.locator("#board-A .piece")).to_have_count(32)


def test_analysis_view(page: Page, board: Board) -> None:
    page.click('#modes button[data-mode="analyse"]')
    expect(page.locator("#setup-analyse")).to_be_visible()
    page.fill("#io-text", SAMPLE_GAME)
    page.click("#load-pgn")
    expect(moves(page)).to_have_count(40)
    page.click("#review")
    board.wait_for(lambda s: all(e is not None for e in s["evals"]) and not s["reviewing"], timeout=180)
    expect(page.locator("#graph-note")).to_have_text("")  # the page has the evaluated game
    expect(page.locator("#graph polyline")).to_have_count(1)
    page.click("#nav-prev")
    page.keyboard.press("ArrowLeft")
    expect(moves(page).nth(37)).to_have_class(_has("current"))
    page.click('#multipv button[data-multipv="2"]')
    page.click("#analyse-toggle")
    expect(page.locator("#lines tr")).to_have_count(2)
    expect(page.locator("#lines tr").first.locator(".depth")).to_have_text(_has("d[4-9]|d[1-9][0-9]"))
    expect(page.locator("#evaltext")).not_to_have_text("")
    page.screenshot(path=str(OUTPUT / "analysis.png"))
    page.click("#analyse-toggle")  # stop
    expect(page.locator("#thinking")).to_have_text("")
    page.click("#flip")
    expect(page.locator("#board-A .square").first).to_have_attribute("data-square", "h1")


@pytest.fixture(scope="module", autouse=True)
def output_folder() -> Path:
    OUTPUT.mkdir(parents=True, exist_ok=True)
    return OUTPUT
