"""The web board in a real headless Chromium (Debian's /usr/bin/chromium, driven by Playwright).

A person's path through the page: click and drag a short game against this engine (a move
landing on board B, a promotion through the chooser, the engine's answers), type moves,
take back, finish a game, load a FEN, export the PGN and read it back with ``chess.pgn``,
see errors on the page, run the analysis; and the bugs a new user met (issue 22): the check
marker, phones (360-420 px wide, tap-tap moves), the evaluation bar's label, the graph's
unknown plies, move wording, the engine panel, hidden lines in Play, resign confirmation,
Watch mode, variations. Screenshots at 1400, 900 and 390 px wide go to ``tests/output/``
(git-ignored) for a human to look at. Skipped, naming the package, without Chromium
(``tests/support/system_tools.py``); nothing here downloads a browser.
"""

from __future__ import annotations

import datetime
import io
import re
from collections.abc import Iterator
from pathlib import Path

import chess
import chess.pgn
import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, Route, ViewportSize, expect, sync_playwright

import engine.board  # noqa: F401 (registers the Alice variant for chess.pgn)
from engine.board import AliceBoard
from support.gui_helpers import ROOT, Board, alice, running_board, scripted
from support.system_tools import require_program

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
def chromium() -> Iterator[Browser]:
    executable = require_program("/usr/bin/chromium", "chromium")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_FLAGS)
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def browser(chromium: Browser) -> Iterator[BrowserContext]:
    context = chromium.new_context(viewport=VIEWPORT)
    yield context
    context.close()


def open_page(context: BrowserContext, board: Board) -> tuple[Page, list[str]]:
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(board.url)
    page.evaluate("localStorage.clear()")  # every test starts from the default preferences
    page.reload()
    expect(page.locator("#boards .piece").first).to_be_visible()
    return page, errors


@pytest.fixture
def page(browser: BrowserContext, board: Board) -> Iterator[Page]:
    page, errors = open_page(browser, board)
    yield page
    page.close()
    assert not errors, errors  # no JavaScript error on the way


@pytest.fixture
def phone(chromium: Browser, board: Board, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A touch screen ``request.param`` px wide (default 420)."""
    width = getattr(request, "param", 420)
    context = chromium.new_context(viewport={"width": width, "height": 900}, has_touch=True, is_mobile=True)
    page, errors = open_page(context, board)
    yield page
    context.close()
    assert not errors, errors


def square(page: Page, board: str, name: str):  # type: ignore[no-untyped-def]
    return page.locator(f'#board-{board} .square[data-square="{name}"]')


def piece_on(page: Page, board: str, name: str):  # type: ignore[no-untyped-def]
    return square(page, board, name).locator("img.piece")


def moves(page: Page):  # type: ignore[no-untyped-def]
    return page.locator("#movelist .move")


def click_move(page: Page, board: str, src: str, dst: str) -> None:
    expect(square(page, board, src)).to_have_class(_has("movable"))  # the page has the position to move in
    square(page, board, src).click()
    expect(square(page, board, dst)).to_have_class(_has("dest"))
    square(page, board, dst).click()


def _has(cls: str) -> re.Pattern[str]:
    return re.compile(rf"\b{cls}\b")


def start_play(page: Page, side: str = "white", strength: str = FAST) -> None:
    page.click('#modes button[data-mode="play"]')
    expect(page.locator("#setup-play")).to_be_visible()
    expect(page.locator(f'#opp-strength option[value="{strength}"]')).to_have_count(1)
    page.select_option("#opp-strength", strength)
    page.click(f'#side button[data-side="{side}"]')
    page.click("#new-game")
    expect(moves(page)).to_have_count(0 if side == "white" else 1)


def test_the_old_position_takes_no_move_while_a_new_game_comes(page: Page) -> None:
    """A tap between "New game" and its answer would be lost when the new game replaced the
    board (or played in the old game): until the answer the boards take no move."""
    page.click('#modes button[data-mode="analyse"]')
    page.click("#ana-new")
    click_move(page, "A", "e2", "e4")
    expect(moves(page)).to_have_count(1)
    held: list[Route] = []
    page.route("**/api/new", lambda route: held.append(route))  # the server's answer waits until the test lets it go
    page.click("#ana-new")
    expect(page.locator("#boards")).to_have_class(_has("starting"))
    expect(page.locator("#boards .movable")).to_have_count(0)
    square(page, "A", "d7").click()
    expect(page.locator("#boards .selected")).to_have_count(0)  # the tap did nothing
    for _ in range(200):  # the request reaches the handler while the page waits
        if held:
            break
        page.wait_for_timeout(25)
    assert len(held) == 1
    held[0].continue_()
    expect(moves(page)).to_have_count(0)  # the new game came
    expect(page.locator("#boards")).not_to_have_class(_has("starting"))
    click_move(page, "A", "d2", "d4")  # and takes moves again
    expect(moves(page)).to_have_count(1)
    page.unroute("**/api/new")


def test_a_side_chosen_then_new_game_starts_the_game_on_that_side(page: Page, board: Board) -> None:
    """The page sends its requests one after the other: "New game" waits for the side chosen
    just before (sent together, a state arriving between them reset the side to the old one)."""
    page.click('#modes button[data-mode="play"]')
    page.select_option("#opp-strength", FAST)
    page.click('#side button[data-side="white"]')
    page.click("#new-game")
    expect(square(page, "A", "e2")).to_have_class(_has("movable"))
    held: list[Route] = []
    sent: list[str] = []
    page.on("request", lambda request: sent.append(request.url.rsplit("/", 1)[-1]))
    page.route("**/api/mode", lambda route: held.append(route))
    page.click('#side button[data-side="black"]')
    page.click("#new-game")
    for _ in range(200):
        if held:
            break
        page.wait_for_timeout(25)
    page.wait_for_timeout(300)
    assert "new" not in sent  # "New game" waits for the side's answer
    held[0].continue_()
    page.unroute("**/api/mode")
    expect(moves(page)).to_have_count(1)  # the engine, White, moved first
    assert board.state()["players"]["white"] is not None and board.state()["players"]["black"] is None
    expect(page.locator('#side button[data-side="black"]')).to_have_class(_has("active"))


def drag(page: Page, board: str, src: str, dst: str) -> None:
    expect(square(page, board, src)).to_have_class(_has("movable"))
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
    # The marker is drawn (issue 22 bug 1: the board colour rule used to reset its image).
    image = square(page, "A", "e8").evaluate("el => getComputedStyle(el).backgroundImage")
    assert "radial-gradient" in image, image
    color = square(page, "A", "e8").evaluate("el => getComputedStyle(el).backgroundColor")
    assert color == "rgb(240, 217, 181)", color  # the light square of board A keeps its colour under it


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


def box(locator: Locator) -> dict[str, float]:
    found = locator.bounding_box()
    assert found is not None
    return found  # type: ignore[return-value]


def assert_square_boards(page: Page) -> None:
    for name in "AB":
        b = box(page.locator(f"#board-{name}"))
        assert abs(b["width"] - b["height"]) <= 1, (name, b)
        cell = box(page.locator(f"#board-{name} .square").first)
        assert abs(cell["width"] - cell["height"]) <= 1, (name, cell)


@pytest.mark.parametrize("phone", [420, 360], indirect=True)
def test_a_phone_shows_the_whole_page_with_square_boards_and_the_bar(phone: Page, board: Board) -> None:
    page = phone
    width = page.viewport_size["width"] if page.viewport_size else 0
    page.click('#modes button[data-mode="analyse"]')
    page.click("#ana-new")
    expect(page.locator("#setup-analyse")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") == width  # nothing sticks out sideways
    assert_square_boards(page)
    for name in "AB":
        b = box(page.locator(f"#board-{name}"))
        assert b["x"] >= 0 and b["x"] + b["width"] <= width, (name, b)  # board B's h-file is on the screen
        assert b["width"] >= 8 * 30  # squares a finger can hit
    bar = box(page.locator("#evalbar"))
    assert bar["width"] >= 16 and bar["height"] >= 2 * box(page.locator("#board-A"))["height"]  # beside both boards
    # Tap-tap moves: tap the pawn, tap its square; then a knight.
    expect(square(page, "A", "e2")).to_have_class(_has("movable"))
    page.locator('#board-A .square[data-square="e2"]').tap()
    expect(square(page, "A", "e4")).to_have_class(_has("dest"))
    expect(square(page, "B", "e4")).to_have_class(_has("landing"))  # the Alice aids work by touch too
    page.locator('#board-A .square[data-square="e4"]').tap()
    expect(piece_on(page, "B", "e4")).to_have_attribute("alt", "P")
    expect(square(page, "A", "g8")).to_have_class(_has("movable"))
    page.locator('#board-A .square[data-square="g8"]').tap()
    page.locator('#board-A .square[data-square="f6"]').tap()
    expect(piece_on(page, "B", "f6")).to_have_attribute("alt", "n")
    assert board.state()["moves"] == ["e4/B", "Nf6/B"]
    assert page.evaluate("document.documentElement.scrollWidth") == width


def test_a_phone_in_play_keeps_your_clock_and_the_status_in_view(chromium: Browser, board: Board) -> None:
    """390 x 844 (a phone held upright), a clocked game in Play: both boards, your clock and the
    status line are all in the first screen, so nothing has to be scrolled while playing."""
    width, height = 390, 844
    context = chromium.new_context(viewport={"width": width, "height": height}, has_touch=True, is_mobile=True)
    try:
        page, errors = open_page(context, board)
        page.click('#modes button[data-mode="play"]')
        page.select_option("#opp-strength", FAST)
        page.select_option("#clock-choice", "300+3")
        page.click('#side button[data-side="white"]')
        page.click("#new-game")
        expect(square(page, "A", "e2")).to_have_class(_has("movable"))  # the new game has come
        page.locator('#board-A .square[data-square="e2"]').tap()
        page.locator('#board-A .square[data-square="e4"]').tap()
        expect(moves(page)).to_have_count(2)  # the engine answered: your move, your clock running
        page.evaluate("window.scrollTo(0, 0)")
        assert page.evaluate("document.documentElement.scrollWidth") == width
        own_clock = page.locator('#player-bottom .clock[data-color="white"]')
        expect(own_clock).to_have_class(_has("running"))
        for part in ("#board-A", "#board-B", "#player-bottom", '#player-bottom .clock[data-color="white"]', "#status"):
            found = box(page.locator(part))
            assert found["y"] >= 0 and found["y"] + found["height"] <= height, (part, found)  # in the first screen
            assert found["x"] >= 0 and found["x"] + found["width"] <= width, (part, found)
        assert_square_boards(page)
        assert box(page.locator("#board-A"))["width"] >= 8 * 30  # squares a finger can still hit
        page.screenshot(path=str(OUTPUT / "phone-play-390.png"))
        assert not errors, errors
    finally:
        context.close()


def test_the_move_list_stays_put_while_the_analysis_runs(page: Page) -> None:
    """The analysis sends states several times a second: the move list is redrawn only when it
    changes, so a move's button is not replaced between the press and the release of a click."""
    page.click('#modes button[data-mode="analyse"]')
    page.click("#ana-new")
    click_move(page, "A", "e2", "e4")
    click_move(page, "A", "d7", "d5")
    expect(moves(page)).to_have_count(2)
    first = moves(page).first.element_handle()
    scores = []
    page.click("#analyse-toggle")
    for _ in range(40):  # until the analysis has sent a few states
        scores.append(page.evaluate("document.getElementById('evaltext').textContent"))
        page.wait_for_timeout(50)
    page.click("#analyse-toggle")
    assert any(scores), "the analysis never showed a score"
    assert first.evaluate("button => button.isConnected")  # the same button all along
    first.click()
    expect(page.locator("#movelist .move.current")).to_have_attribute("data-ply", "1")


def test_the_bar_label_is_never_clipped(page: Page) -> None:
    page.click('#modes button[data-mode="analyse"]')
    page.click("#ana-new")
    page.click("#analyse-toggle")
    expect(page.locator("#evaltext")).not_to_have_text("")
    page.click("#analyse-toggle")
    expect(page.locator("#thinking")).to_have_text("")
    for text in ("+0.09", "-12.35", "#-12"):
        fits = page.evaluate(
            """text => {
                const label = document.getElementById("evaltext");
                label.textContent = text;
                const own = label.getBoundingClientRect();
                // Not cut by its own box, nor by any ancestor that clips.
                let clipped = label.scrollWidth > label.clientWidth + 1;
                for (let el = label.parentElement; el; el = el.parentElement) {
                    const style = getComputedStyle(el);
                    if (style.overflow !== "visible" || style.overflowX !== "visible") {
                        const r = el.getBoundingClientRect();
                        clipped ||= own.left < r.left || own.right > r.right;
                    }
                }
                return !clipped && own.left >= 0 && own.width > 0;
            }""",
            text,
        )
        assert fits, text


def load_pgn(page: Page, text: str) -> None:
    page.fill("#io-text", text)
    page.click("#load-pgn")


def test_the_graph_draws_unevaluated_plies_as_unknown(page: Page, board: Board) -> None:
    page.click('#modes button[data-mode="analyse"]')
    evals = ["0.10", "0.20", "-0.30", "0.40", "-1.50", "2.00"]
    moves = SAMPLE_GAME.split("\n\n", 1)[1].split()
    # Evaluations for plies 5..10 only (the comment after each of those moves).
    marked, ply = [], 0
    for token in moves:
        marked.append(token)
        if not token[0].isdigit() and token != "*":
            ply += 1
            if 5 <= ply <= 10:
                marked.append(f"{{[%eval {evals[ply - 5]}]}}")
    load_pgn(page, SAMPLE_GAME.split("\n\n", 1)[0] + "\n\n" + " ".join(marked))
    expect(moves_locator(page)).to_have_count(40)
    expect(page.locator("#graph-wrap")).to_be_visible()
    dark = page.locator("#graph .graph-dark")
    expect(dark).to_have_count(1)
    assert (dark.get_attribute("data-from"), dark.get_attribute("data-to")) == ("5", "10")
    step = 400 / 40
    x, width = float(dark.get_attribute("x") or 0), float(dark.get_attribute("width") or 0)
    assert abs(x - 4.5 * step) < 0.01 and abs(x + width - 10.5 * step) < 0.01  # nothing dark outside plies 5-10
    expect(page.locator("#graph .graph-unknown")).to_have_count(1)
    expect(page.locator("#graph-note")).to_contain_text("not evaluated")
    page.locator("#graph-wrap").screenshot(path=str(OUTPUT / "graph-partial.png"))


def moves_locator(page: Page) -> Locator:
    return page.locator("#movelist .move")


def test_moves_are_counted_as_players_count_them(page: Page, board: Board) -> None:
    page.click('#modes button[data-mode="analyse"]')
    load_pgn(page, SAMPLE_GAME)
    expect(moves_locator(page)).to_have_count(40)
    viewing = "Viewing the position after 8… Na4/A · the line goes on to 20… Kd8/B"
    for _ in range(5):  # under CI load a click can land while the list is redrawn after the load
        moves_locator(page).nth(15).click()  # ply 16: Black's 8th move
        if page.locator("#status").text_content(timeout=5000) == viewing:
            break
        page.wait_for_timeout(1000)
    expect(page.locator("#status")).to_have_text(viewing)
    expect(page.locator("#movelist li").nth(7).locator(".number")).to_have_text("8.")
    page.click("#nav-first")
    expect(page.locator("#status")).to_contain_text("Viewing the start position")


def test_error_messages_say_why(page: Page) -> None:
    page.click('#modes button[data-mode="analyse"]')
    page.click("#ana-new")
    page.fill("#move-input", "Nc3/A")
    page.press("#move-input", "Enter")
    expect(page.locator("#message")).to_have_text(
        "Nc3/A: the knight lands on board B (every move passes to the other board), so it is Nc3/B"
    )
    expect(page.locator("#move-input")).to_have_value("Nc3/A")  # given back to correct
    page.fill("#io-text", "4k3/8/8/8/8/8/P7/r3K3 w - - 0 1")
    page.click("#load-fen")
    expect(page.locator("#status")).to_contain_text("check")
    page.fill("#move-input", "a3")
    page.press("#move-input", "Enter")
    expect(page.locator("#message")).to_contain_text("your king is in check (on e1, board A)")
    expect(page.locator("#message")).not_to_contain_text("/8/")  # no raw FEN


def test_play_hides_the_engine_lines_until_asked_and_clears_them_on_take_back(page: Page, board: Board) -> None:
    start_play(page)
    expect(page.locator("#show-lines-toggle")).to_be_visible()
    expect(page.locator("#show-lines")).not_to_be_checked()
    click_move(page, "A", "e2", "e4")
    expect(moves_locator(page)).to_have_count(2)
    expect(page.locator("#lines tr")).to_have_count(0)
    expect(page.locator("#no-lines")).to_contain_text("Hidden while you play")
    expect(page.locator("#evaltext")).to_have_text("")  # no score either
    assert board.state()["lines"], "the engine did report lines"
    expect(page.locator("#evalbar")).to_have_class(_has("unknown"))  # the bar tells nothing either
    expect(page.locator("#evalbar-wrap")).to_have_class(_has("hidden-eval"))
    page.check("#show-lines")
    expect(page.locator("#lines tr")).to_have_count(1)
    expect(page.locator("#evalbar")).not_to_have_class(_has("unknown"))
    expect(page.locator("#thinking")).to_have_text("· after 1. e4/B")  # the position the engine searched
    expect(page.locator("#evaltext")).to_have_text(page.locator("#lines .score").first.inner_text())
    page.reload()
    expect(page.locator("#show-lines")).to_be_checked()  # the choice is kept
    page.click("#takeback")
    expect(moves_locator(page)).to_have_count(0)
    expect(page.locator("#lines tr")).to_have_count(0)  # panel and bar agree: nothing for this position
    expect(page.locator("#no-lines")).to_have_text("No engine lines for this position.")
    expect(page.locator("#evaltext")).to_have_text("")


@pytest.mark.parametrize("phone", [390], indirect=True)
def test_a_hidden_bar_leaves_no_empty_column(phone: Page, page: Page) -> None:
    """While the evaluation bar is hidden (Play, the engine's lines not shown) its column is gone:
    the boards, the players and the status line start where the bar was, and the boards are
    never smaller for it."""
    for current in (page, phone):
        start_play(current)
        wrap = current.locator("#evalbar-wrap")
        expect(wrap).to_be_hidden()  # hidden in Play: no column left for it
        hidden_board = box(current.locator("#board-A"))
        for follower in ("#player-bottom", "#status"):
            assert abs(box(current.locator(follower))["x"] - hidden_board["x"]) <= 1, follower  # flush with the board
        current.check("#show-lines")
        expect(wrap).to_be_visible()
        bar, shown_board = box(wrap), box(current.locator("#board-A"))
        assert shown_board["x"] >= bar["x"] + bar["width"]  # the bar beside the board again
        assert hidden_board["x"] <= bar["x"] + 1  # hidden, the board had taken the bar's place
        assert hidden_board["width"] >= shown_board["width"]
        assert_square_boards(current)
        current.uncheck("#show-lines")
        expect(wrap).to_be_hidden()


def test_resign_asks_first(page: Page, board: Board) -> None:
    start_play(page)
    click_move(page, "A", "d2", "d4")
    expect(moves_locator(page)).to_have_count(2)
    page.click("#resign")
    expect(page.locator("#resign-confirm")).to_be_visible()
    assert board.state()["result"] is None
    page.click("#resign-no")
    expect(page.locator("#resign-confirm")).to_be_hidden()
    expect(page.locator("#resign")).to_be_visible()
    assert board.state()["result"] is None
    page.click("#resign")
    page.click("#resign-yes")
    expect(page.locator("#status")).to_contain_text("0-1 · Black wins (White resigned)")
    text = board.get("/api/pgn")[1]["pgn"]
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None
    assert game.headers["Date"] == datetime.date.today().strftime("%Y.%m.%d")
    assert game.headers["Termination"] == "normal"
    assert re.fullmatch(r".+, (Level \d \(Elo \d+\)|[\d,]+ nodes per move)", game.headers["Black"]), game.headers["Black"]


def test_playing_black_shows_black_at_the_bottom_also_after_a_reload(page: Page) -> None:
    start_play(page, side="black")
    expect(page.locator("#board-A .square").first).to_have_attribute("data-square", "h1")
    page.reload()
    expect(page.locator("#board-A .square").first).to_have_attribute("data-square", "h1")
    expect(page.locator("#player-bottom")).to_contain_text("Black: You")


def test_watch_mode_has_no_move_box(page: Page, board: Board) -> None:
    page.click('#modes button[data-mode="watch"]')
    expect(page.locator("#setup-watch")).to_be_visible()
    expect(page.locator("#move-form")).to_be_hidden()
    expect(page.locator("#hint")).to_be_hidden()
    for select in ("#white-strength", "#black-strength"):
        page.select_option(select, FAST)
    page.click("#watch-new")
    expect(moves_locator(page).first).to_be_visible()  # the engines play
    expect(page.locator("#move-form")).to_be_hidden()
    page.click("#pause")
    expect(page.locator("#pause")).to_have_text("Resume")
    page.click('#modes button[data-mode="analyse"]')
    expect(page.locator("#move-form")).to_be_visible()
    expect(page.locator("#hint")).to_be_visible()


def main_moves(page: Page) -> Locator:
    """The main line's moves in the move list (variations are listed beside them)."""
    return page.locator("#movelist .move.main")


def list_move(page: Page, san: str) -> Locator:
    return page.locator(f'#movelist .move[data-san="{san}"]')


def exported_game(page: Page) -> chess.pgn.Game:
    """Export PGN on the page and read it back with python-chess."""
    page.fill("#io-text", "")
    page.click("#export-pgn")
    expect(page.locator("#io-text")).to_have_value(re.compile(r'\[Variant "Alice"\]'))
    game = chess.pgn.read_game(io.StringIO(page.locator("#io-text").input_value()))
    assert game is not None and not game.errors
    return game


def test_a_variation_is_created_promoted_deleted_and_exported(page: Page, board: Board) -> None:
    page.click('#modes button[data-mode="analyse"]')
    page.click("#ana-new")
    for src, dst in [("e2", "e4"), ("d7", "d5"), ("f1", "e2")]:
        click_move(page, "A", src, dst)
    list_move(page, "e4/B").click()  # back to 1. e4/B
    expect(list_move(page, "e4/B")).to_have_class(_has("current"))
    click_move(page, "A", "e7", "e5")  # a different reply: a variation, the game stays
    expect(main_moves(page)).to_have_count(3)
    variation = page.locator("#movelist li.variations .variation")
    expect(variation).to_have_text("(1… e5/B)")
    expect(list_move(page, "e5/B")).to_have_class(_has("current"))
    expect(page.locator("#line-note")).to_be_visible()
    expect(page.locator("#variation-tools")).to_be_visible()
    page.screenshot(path=str(OUTPUT / "variation.png"))
    game = exported_game(page)
    assert [v.move.uci() for v in game.next().variations] == ["d7d5", "e7e5"]
    # Promote it: 1... e5 becomes the main line, 1... d5 2. Be2 the variation.
    page.click("#promote")
    expect(main_moves(page)).to_have_count(2)
    expect(variation).to_have_text("(1… d5/B 2. Be2/B)")
    expect(page.locator("#variation-tools")).to_be_hidden()
    game = exported_game(page)
    assert [v.move.uci() for v in game.next().variations] == ["e7e5", "d7d5"]
    assert [m.uci() for m in game.next().variations[1].mainline_moves()] == ["f1e2"]
    # Delete the variation (from a move inside it): the game keeps 1. e4 e5.
    list_move(page, "Be2/B").click()
    expect(page.locator("#variation-tools")).to_be_visible()
    page.click("#delete-variation")
    expect(page.locator("#movelist li.variations")).to_have_count(0)
    expect(list_move(page, "e4/B")).to_have_class(_has("current"))  # the position before the variation
    game = exported_game(page)
    assert [m.uci() for m in game.mainline_moves()] == ["e2e4", "e7e5"] and len(game.next().variations) == 1


def test_figurine_notation_is_an_option(page: Page) -> None:
    page.click('#modes button[data-mode="analyse"]')
    load_pgn(page, "1. Nf3 Nf6 2. e4 *")
    expect(list_move(page, "Nf3/B")).to_have_text("Nf3/B")
    page.check("#opt-figurines")
    expect(list_move(page, "Nf3/B")).to_have_text("\u265ef3/B")  # ♞f3/B
    expect(list_move(page, "e4/B")).to_have_text("e4/B")
    page.reload()
    expect(page.locator("#opt-figurines")).to_be_checked()  # kept
    expect(list_move(page, "Nf6/B")).to_have_text("\u265ef6/B")
    page.uncheck("#opt-figurines")
    expect(list_move(page, "Nf6/B")).to_have_text("Nf6/B")


def test_a_lifted_piece_shows_its_landing_squares_and_what_blocks_it(page: Page, board: Board) -> None:
    page.click('#modes button[data-mode="analyse"]')
    page.fill("#io-text", "4k3/8/8/8/8/|p7/8/R3K3 w - - 0 1")  # a black pawn on a3 of board B
    page.click("#load-fen")
    expect(piece_on(page, "B", "a3")).to_have_attribute("alt", "p")
    expect(page.locator("#opt-aids")).to_be_checked()  # on by default
    square(page, "A", "a1").click()  # lift the rook
    for name in ("a2", "a4", "a8", "b1", "d1"):  # it would land on board B
        expect(square(page, "B", name)).to_have_class(_has("landing"))
        expect(square(page, "B", name).locator("img.landing-piece")).to_have_attribute("alt", "R")
    expect(square(page, "B", "a3")).to_have_class(_has("blocker"))  # Ra3 is missing: a3 of board B is taken
    expect(square(page, "A", "a3")).not_to_have_class(_has("dest"))
    expect(page.locator("#board-B .landing")).to_have_count(9)  # a2, a4-a8, b1-d1
    expect(page.locator("#board-B .blocker")).to_have_count(1)
    page.screenshot(path=str(OUTPUT / "alice-aids.png"))
    square(page, "A", "a1").click()  # put it down
    expect(page.locator("#board-B .landing")).to_have_count(0)
    # While dragging too.
    a1 = box(square(page, "A", "a1"))
    page.mouse.move(a1["x"] + a1["width"] / 2, a1["y"] + a1["height"] / 2)
    page.mouse.down()
    page.mouse.move(a1["x"] + a1["width"] / 2, a1["y"] - a1["height"] * 2, steps=5)
    expect(page.locator(".ghost")).to_have_count(1)
    expect(page.locator("#board-B .landing")).to_have_count(9)  # a2, a4-a8, b1-d1
    expect(square(page, "B", "a3")).to_have_class(_has("blocker"))
    page.mouse.up()  # dropped on a3 of board A: not a move
    expect(page.locator(".ghost")).to_have_count(0)
    expect(piece_on(page, "A", "a1")).to_have_attribute("alt", "R")
    # One toggle turns both off.
    page.uncheck("#opt-aids")
    square(page, "A", "a1").click()
    expect(square(page, "A", "a2")).to_have_class(_has("dest"))
    expect(page.locator("#board-B .landing")).to_have_count(0)
    expect(page.locator("#board-B .blocker")).to_have_count(0)


def test_arrows_and_circles_are_drawn_and_exported(page: Page, board: Board) -> None:
    page.click('#modes button[data-mode="analyse"]')
    page.click("#ana-new")

    def right_drag(board_name: str, src: str, dst: str, modifier: str | None = None) -> None:
        a, b = box(square(page, board_name, src)), box(square(page, board_name, dst))
        if modifier:
            page.keyboard.down(modifier)
        page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
        page.mouse.down(button="right")
        page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=4)
        page.mouse.up(button="right")
        if modifier:
            page.keyboard.up(modifier)

    right_drag("A", "e2", "e4")  # a green arrow
    expect(page.locator('#board-A svg.shapes line[data-shape="Ge2e4"]')).to_have_count(1)
    right_drag("B", "d5", "d5", "Shift")  # a red circle on board B
    expect(page.locator('#board-B svg.shapes circle[data-shape="Rl5"]')).to_have_count(1)
    board.wait_for(lambda s: s["shapes"] == ["Ge2e4", "Rl5"])
    assert not page.locator("#message").is_visible()
    page.screenshot(path=str(OUTPUT / "arrows.png"))
    game = exported_game(page)
    assert "[%cal Ge2e4]" in game.comment and "[%csl Rl5]" in game.comment
    assert [(a.tail, a.head, a.color) for a in game.arrows()] == [(chess.E2, chess.E4, "green")]
    right_drag("A", "e2", "e4")  # the same arrow again takes it away
    expect(page.locator('#board-A svg.shapes [data-shape]')).to_have_count(0)
    board.wait_for(lambda s: s["shapes"] == ["Rl5"])
    square(page, "A", "e5").click()  # a left click on an empty square clears the rest
    expect(page.locator("svg.shapes [data-shape]")).to_have_count(0)
    board.wait_for(lambda s: s["shapes"] == [])


def test_move_and_capture_sounds_are_off_until_asked(page: Page) -> None:
    page.click('#modes button[data-mode="analyse"]')
    page.click("#ana-new")
    expect(page.locator("#opt-sounds")).not_to_be_checked()
    click_move(page, "A", "e2", "e4")
    expect(moves(page)).to_have_count(1)
    assert page.evaluate("document.body.dataset.sound") is None  # off by default
    page.check("#opt-sounds")
    click_move(page, "A", "d7", "d5")
    expect(page.locator("body")).to_have_attribute("data-sound", "move")
    click_move(page, "B", "e4", "d5")  # exd5 on board B
    expect(page.locator("body")).to_have_attribute("data-sound", "capture")
    assert page.evaluate("Boolean(window.AudioContext)")


def test_engine_lines_preview_on_hover_and_play_on_click(page: Page, board: Board) -> None:
    page.click('#modes button[data-mode="analyse"]')
    page.click("#ana-new")
    click_move(page, "A", "e2", "e4")
    page.click("#analyse-toggle")
    expect(page.locator("#lines .pv-move").nth(2)).to_be_visible()
    board.ok("/api/stop")  # the lines stay as they are while we look at them
    expect(page.locator("#thinking")).to_have_text("")
    line = board.state()["lines"][0]["moves"]
    second = page.locator("#lines tr").first.locator(".pv-move").nth(1)
    second.hover()
    expect(page.locator("#boards")).to_have_class(_has("previewing"))
    expect(page.locator("#status")).to_contain_text(f"Preview of the engine's line: 1… {line[0]['san']} 2. {line[1]['san']}")
    expect(second).to_have_class(_has("previewed"))
    # The boards show the position after those two moves: the second move's piece has landed.
    node = board.state()["linesNode"]
    expected = board.get(f"/api/preview?node={node}&moves={line[0]['uci']},{line[1]['uci']}")[1]
    moved = expected["lastMove"]
    expect(piece_on(page, moved["toBoard"], moved["to"])).to_have_count(1)
    expect(piece_on(page, moved["fromBoard"], moved["from"])).to_have_count(0)
    expect(page.locator("#boards img.piece")).to_have_count(len(expected["pieces"]))
    assert board.state()["moves"] == ["e4/B"]  # nothing played
    page.mouse.move(5, 5)  # away from the lines: the game's position again
    expect(page.locator("#boards")).not_to_have_class(_has("previewing"))
    expect(page.locator("#status")).to_contain_text("Black to move")
    line = board.state()["lines"][0]["moves"]
    second.click()  # plays the line's first two moves into the game
    expect(main_moves(page)).to_have_count(3)
    assert board.state()["moves"][1:] == [line[0]["san"], line[1]["san"]]


def test_the_engine_accepts_and_declines_a_draw(browser: BrowserContext, board: Board) -> None:
    page, errors = open_page(browser, board)
    start_play(page)
    click_move(page, "A", "e2", "e4")
    expect(moves(page)).to_have_count(2)
    page.click("#offer-draw")
    expect(page.locator("#notice")).to_contain_text("the engine declines the draw: the game is still in the opening")
    expect(page.locator("#status")).not_to_contain_text("1/2-1/2")
    page.close()
    with running_board([scripted("first", "--score", "0")]) as level:  # it always says 0.00
        page, more = open_page(browser, level)
        start_play(page, strength="full")
        page.fill("#io-text", "4k3/8/3|p4/8/8/3|P4/8/4K3 w - - 0 30")  # move 30, level
        page.click("#load-fen")
        click_move(page, "A", "e1", "e2")
        expect(moves(page)).to_have_count(2)
        page.click("#offer-draw")
        expect(page.locator("#notice")).to_have_text("the engine accepts the draw")
        expect(page.locator("#status")).to_contain_text("1/2-1/2 · Draw (draw agreed)")
        expect(page.locator("#offer-draw")).to_be_disabled()
        page.close()
    assert not errors + more, errors + more


def test_a_clocked_game_the_engine_moves_on_its_clock_and_your_flag_falls(page: Page, board: Board) -> None:
    """6 s for the game: the engine (1,000 nodes a move, on its clock) answers at once, then your
    clock runs out. The flag is the server's: the page only shows it."""
    page.click('#modes button[data-mode="play"]')
    expect(page.locator(f'#opp-strength option[value="{FAST}"]')).to_have_count(1)
    page.select_option("#opp-strength", FAST)
    page.click('#side button[data-side="white"]')
    page.select_option("#clock-choice", "custom")
    page.fill("#clock-minutes", "0.1")
    page.fill("#clock-increment", "0")
    page.click("#new-game")
    white, black = page.locator('.clock[data-color="white"]'), page.locator('.clock[data-color="black"]')
    expect(white).to_have_text("0:06.0")
    expect(black).to_have_text("0:06.0")
    expect(white).not_to_have_class(_has("running"))  # the first move is free
    click_move(page, "A", "e2", "e4")
    expect(moves(page)).to_have_count(2)  # the engine answered, on its clock
    expect(white).to_have_class(_has("running"))
    expect(black).not_to_have_class(_has("running"))
    engine_left = float(black.get_attribute("data-seconds") or 0)
    assert 0 < engine_left < 6.0  # its time was charged
    first = float(white.get_attribute("data-seconds") or 0)
    expect(white).not_to_have_attribute("data-seconds", f"{first:.2f}")  # ticking
    page.screenshot(path=str(OUTPUT / "clock.png"))
    expect(page.locator("#status")).to_have_text("0-1 · Black wins (White lost on time)")
    expect(white).to_have_text("0:00.0")
    expect(white).not_to_have_class(_has("running"))
    expect(square(page, "A", "d2")).not_to_have_class(_has("movable"))
    game = exported_game(page)
    assert game.headers["TimeControl"] == "6" and game.headers["Termination"] == "time forfeit"
    assert game.headers["Result"] == "0-1"
    clocks = [node.clock() for node in game.mainline()]
    assert clocks[0] == 6 and clocks[1] is not None and clocks[1] <= engine_left + 0.01


@pytest.mark.parametrize(("width", "height"), [(1400, 900), (900, 900), (390, 844)])
def test_screenshots_at_three_widths(chromium: Browser, board: Board, width: int, height: int) -> None:
    """The analysis of a game with two lines and a variation, as a person sees it at each width."""
    board.ok("/api/mode", {"mode": "analyse"})
    board.ok("/api/analysis", {"on": False})
    if "evaluated" not in EVALUATED:  # the first width evaluates the game; the others load it with its [%eval]s
        board.ok("/api/pgn", {"pgn": SAMPLE_GAME})
        board.ok("/api/review")
        board.wait_for(lambda s: all(e is not None for e in s["evals"]) and not s["reviewing"], timeout=240)
        EVALUATED["evaluated"] = board.get("/api/pgn")[1]["pgn"]
    board.ok("/api/pgn", {"pgn": EVALUATED["evaluated"]})
    state = board.ok("/api/goto", {"ply": 16})
    state = board.ok("/api/move", {"move": "a1b1"})  # a variation at move 9: 9. Rb1/B
    # The arrows a player drew there: the knight's threat on board B, the rook's file on board A.
    board.ok("/api/shapes", {"node": state["node"], "shapes": ["Rl5j4", "Gm4m8", "Bj1"]})
    board.ok("/api/analysis", {"on": True, "multipv": 2})
    board.wait_for(lambda s: len(s["lines"]) == 2 and all(line.get("depth", 0) >= 4 for line in s["lines"]))
    context = chromium.new_context(viewport={"width": width, "height": height})
    try:
        page, errors = open_page(context, board)
        expect(page.locator("#lines tr")).to_have_count(2)
        expect(page.locator("#graph polyline")).to_have_count(1)
        assert page.evaluate("document.documentElement.scrollWidth") == width
        assert_square_boards(page)
        expect(page.locator("svg.shapes [data-shape]")).to_have_count(3)
        square(page, "A", "a4").click()  # the knight lifted: where it would land, and Nc3 blocked on board B
        expect(square(page, "B", "c3")).to_have_class(_has("blocker"))
        expect(square(page, "B", "b6")).to_have_class(_has("landing"))
        if width >= 900:  # the lines and the move list in view, not below the fold
            for card in ("#lines", "#movelist"):
                found = box(page.locator(card))
                assert found["y"] + found["height"] <= height, (card, found)
        page.screenshot(path=str(OUTPUT / f"gui-{width}.png"), full_page=width < 500)
        assert not errors, errors
    finally:
        board.ok("/api/analysis", {"on": False})
        context.close()


EVALUATED: dict[str, str] = {}  # the sample game with every position evaluated, as PGN


@pytest.fixture(scope="module", autouse=True)
def output_folder() -> Path:
    OUTPUT.mkdir(parents=True, exist_ok=True)
    return OUTPUT
