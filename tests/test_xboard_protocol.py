"""CECP (XBoard protocol 2) black-box tests: start ``alice-engine xboard`` and speak CECP to it.

What XBoard would send, and what it must get back: the feature handshake, the variant
set-up, highlights for lifted pieces, games in force mode, time controls, analysis,
result claims, and bad input answered without a change (the position is read back with
the ``d`` extra). Every read has a timeout. The whole file runs in about 25 seconds.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import Position, parse_uci
from support.engine_process import EngineProcess
from support.installed import ROOT
from uci.xboard_board import fen_from_xboard, move_text, wide_fen

START_WIDE = "rnbqkbnr8/pppppppp8/16/16/16/16/PPPPPPPP8/RNBQKBNR8 w EHAeha - 0 1"
THINKING = re.compile(r"^(\d+) (-?\d+) (\d+) (\d+)(?: (.*))?$")
MOVE = re.compile(r"^move (\S+)$")
# 1.e4 d5 2.Be2 dxe4: white mates with Bb5 (the bishop on B e2 goes to b5 and lands on A).
BEFORE_MATE = ["e2m4", "d7l5", "f1m2", "l5m4,m4e4"]


class Cecp(EngineProcess):
    """A running engine speaking CECP (``send``, ``expect`` with a timeout; see ``EngineProcess``)."""

    def __init__(self, args: tuple[str, ...] = ("xboard",)) -> None:
        super().__init__(args=args)

    def expect(self, pattern: str, timeout: float = 5.0) -> tuple[str, list[str]]:
        """Read until a line matches ``pattern``: (that line, the lines before it)."""
        return self.expect_at(pattern, timeout)[:2]

    def sync(self, timeout: float = 5.0) -> list[str]:
        """``ping``; the lines printed before its ``pong``."""
        self.number = getattr(self, "number", 0) + 1
        self.send(f"ping {self.number}")
        return self.expect(f"^pong {self.number}$", timeout)[1]

    def fen(self) -> str:
        """The engine's position as a 16-wide FEN (the ``d`` extra)."""
        self.send("d")
        return self.expect("^# XBoard FEN: ")[0][len("# XBoard FEN: ") :]

    def start(self) -> None:
        self.send("xboard", "protover 2")
        self.expect("^feature done=1$")
        self.send("new", "variant alice")
        self.expect("^setup ")


@pytest.fixture
def xb() -> Iterator[Cecp]:
    engine = Cecp()
    engine.start()
    yield engine
    assert engine.close() == 0
    assert b"Traceback" not in engine.stderr, engine.stderr.decode()


@pytest.fixture(scope="module")
def shared() -> Iterator[Cecp]:
    engine = Cecp()
    engine.start()
    yield engine
    engine.close()
    assert b"Traceback" not in engine.stderr, engine.stderr.decode()


def wide_after(fen: str | None, moves: list[str]) -> str:
    """The 16-wide FEN after ``moves`` (XBoard notation), computed here with the rules."""
    from uci.xboard_board import parse_move

    pos = Position(fen_from_xboard(fen)) if fen else Position()
    for text in moves:
        pos.push(parse_move(pos, text))
    return wide_fen(pos)


# ---------------------------------------------------------------- handshake and set-up
def test_handshake_lists_the_features() -> None:
    engine = Cecp()
    try:
        engine.send("xboard", "protover 2")
        _, before = engine.expect("^feature done=1$")
        features = " ".join(before)
        assert before and all(line.startswith("feature ") for line in before)
        assert re.search(r'myname="Alice Engine [^"]+"', features)
        for feature in (
            'variants="alice"',
            "usermove=1",
            "setboard=1",
            "ping=1",
            "playother=1",
            "highlight=1",
            "sigint=0",
            "sigterm=0",
            "colors=0",
            "analyze=1",
        ):
            assert feature in features.split(), feature
        engine.send("accepted usermove", "rejected nps")
        assert engine.sync() == []
    finally:
        engine.close()


def test_first_line_xboard_switches_the_plain_engine_to_cecp() -> None:
    engine = Cecp(args=())
    try:
        engine.send("xboard", "protover 2")
        engine.expect("^feature done=1$")
        engine.send("new", "variant alice", "st 0.3", "usermove e2m4")
        setup, _ = engine.expect("^setup ")
        engine.expect(r"^move \S+$", timeout=30)  # it plays black after "new"
        assert setup.endswith(START_WIDE)
    finally:
        engine.close()


def test_plain_engine_still_speaks_uci() -> None:
    engine = Cecp(args=())
    try:
        engine.send("uci")
        engine.expect("^uciok$")
        engine.send("xboard")  # only a first line switches
        engine.expect("^info string error: unknown command 'xboard'$")
    finally:
        engine.close()


def test_variant_alice_sends_the_board_setup(xb: Cecp) -> None:
    xb.send("variant alice")
    setup, before = xb.expect("^setup ")
    assert before == ["piece K& KiK", "piece R& RiO"]
    assert setup == f"setup (PNBRQKpnbrqk) 16x8+0_berolina {START_WIDE}"
    xb.send("variant normal")
    assert xb.expect("^Error")[0] == "Error (unsupported variant, only alice): variant normal"


# ---------------------------------------------------------------- highlights
def highlight(xb: Cecp, square: str) -> str:
    xb.send(f"lift {square}")
    return xb.expect("^highlight ")[0].split()[1]


def marks(colors: str) -> dict[str, str]:
    """A colour FEN as {16x8 square: colour}."""
    out = {}
    for row, text in enumerate(colors.split("/")):
        column = 0
        for number, letter in re.findall(r"(\d+)|([A-Za-z])", text):
            if number:
                column += int(number)
            else:
                out["abcdefghijklmnop"[column] + str(8 - row)] = letter
                column += 1
        assert column == 16, colors
    return out


def test_lift_marks_where_each_move_lands(xb: Cecp) -> None:
    assert marks(highlight(xb, "e2")) == {"m3": "Y", "m4": "Y"}  # pawn on A lands on B
    assert marks(highlight(xb, "g1")) == {"n3": "Y", "p3": "Y"}
    assert marks(highlight(xb, "e7")) == {}  # not black's turn
    assert marks(highlight(xb, "e4")) == {}  # empty square
    assert marks(highlight(xb, "z9")) == {}
    xb.send("force", "usermove e2m4", "usermove d7l5")
    # The pawn on B e4: push to e5 lands on A, capture on B d5 first (cyan), then A d5.
    assert marks(highlight(xb, "m4")) == {"e5": "Y", "l5": "C"}
    xb.send("put l5")
    assert marks(highlight(xb, "l5")) == {"d5": "Y"}
    xb.send("put d5")
    assert marks(highlight(xb, "m4")) == {"e5": "Y", "l5": "C"}  # a new lift starts afresh
    assert xb.sync() == []


def test_lift_a_rook_to_castle_and_a_king_does_not(xb: Cecp) -> None:
    xb.send("setboard r3k2r8/16/16/16/16/16/16/R3K2R8 w EHAeha - 0 1")
    rook = marks(highlight(xb, "h1"))
    assert rook["e1"] == "C" and rook["h8"] == "C"  # castling's leg onto the king; the rook capture
    assert {square for square, color in rook.items() if color == "Y"} == {f"p{r}" for r in range(2, 8)} | {"n1", "o1"}
    xb.send("put e1")
    assert marks(highlight(xb, "e1")) == {"n1": "Y"}  # the rook lands on B f1, the king beside it
    assert marks(highlight(xb, "a1"))["e1"] == "C"
    xb.send("put e1")
    assert marks(highlight(xb, "e1")) == {"l1": "Y"}
    assert marks(highlight(xb, "e1")) == {"l1": "Y", "l2": "Y", "m2": "Y", "n2": "Y", "n1": "Y"}
    # The forms XBoard would apply wrongly are refused, the right ones accepted.
    xb.send("force", "usermove e1o1", "usermove h1p8", "usermove h1e1,e1n1")
    assert xb.sync() == [
        "Illegal move (castling is the rook's move onto its king, e.g. h1e1,e1n1): e1o1",
        "Illegal move (a capture is two legs: h1h8,h8p8): h1p8",
    ]
    assert xb.fen() == "r3k2r8/16/16/16/16/16/16/R12RK1 b eha - 1 1"


def test_lift_a_pawn_that_promotes(xb: Cecp) -> None:
    xb.send("setboard k2r12/4P11/16/16/16/16/16/K15 w - - 0 1")
    assert marks(highlight(xb, "e7")) == {"m8": "M", "d8": "C"}
    xb.send("put d8")
    assert marks(highlight(xb, "d8")) == {"l8": "M"}


# ---------------------------------------------------------------- a game in force mode
# 80 plies with both castlings, king moves, captures on both boards and a promotion
# (the game of the XBoard test, tests/test_xboard_gui.py, which says what it holds).
GAME = (Path(ROOT) / "tests" / "data" / "xboard_game.txt").read_text().split()


def game_in_xboard_notation() -> tuple[list[str], list[str]]:
    """The game's moves as the engine writes them and as XBoard relays them (castling)."""
    pos = Position()
    ours, relayed = [], []
    for uci in GAME:
        move = parse_uci(pos, uci)
        text = move_text(pos, move)
        ours.append(text)
        legs = text.split(",")
        assert len(legs) == 1 or legs[0][2:4] == legs[1][:2], text
        if pos.piece_at(move & 63) == (6, True, 0) or pos.piece_at(move & 63) == (6, False, 0):
            castling = abs(((move >> 6) & 63) - (move & 63)) == 2
        else:
            castling = False
        if castling:
            # XBoard relays castling h1e1,e1n1 as the rook's move then the king's: h1n1,e1o1.
            rook_from, king, rook_to = legs[0][:2], legs[0][2:], legs[1][2:]
            files = "abcdefghijklmnop"
            king_to = files[files.index(rook_to[0]) + (1 if rook_from[0] > king[0] else -1)]
            relayed.append(f"{rook_from}{rook_to},{king}{king_to}{rook_to[1]}")
        else:
            relayed.append(text)
        pos.push(move)
    return ours, relayed


@pytest.mark.parametrize("form", ["ours", "relayed"])
def test_force_mode_game_with_captures_castlings_and_promotion(xb: Cecp, form: str) -> None:
    ours, relayed = game_in_xboard_notation()
    moves = ours if form == "ours" else relayed
    assert any(text.startswith("h1e1") for text in ours) and "h1n1,e1o1" in relayed
    xb.send("force", *[f"usermove {text}" for text in moves])
    assert xb.sync() == []  # every move accepted, nothing said
    assert xb.fen() == wide_after(None, ours)


def test_undo_and_remove(xb: Cecp) -> None:
    xb.send("force", "usermove e2m4", "usermove d7l5", "usermove g1n3")
    xb.send("undo")
    assert xb.fen() == wide_after(None, ["e2m4", "d7l5"])
    xb.send("remove")
    assert xb.fen() == START_WIDE
    xb.send("undo")
    assert xb.expect("^Error")[0] == "Error (command not legal now): undo"
    xb.send("usermove e2m4", "remove")
    assert xb.expect("^Error")[0] == "Error (command not legal now): remove"
    assert xb.fen() == wide_after(None, ["e2m4"])


# ---------------------------------------------------------------- setboard
def test_setboard_reads_16_wide_fens(xb: Cecp) -> None:
    # XBoard's own form: unmoved kings and rooks by file, and an en-passant square it may write.
    xb.send("setboard r3k2r8/16/16/16/16/16/16/R3K2R8 b EAeh i3 3 20")
    assert xb.fen() == "r3k2r8/16/16/16/16/16/16/R3K2R8 b EAeh - 3 20"
    xb.send("setboard 4k11/16/16/16/12P3/16/16/4K11 b - - 0 1")
    assert xb.fen() == "4k11/16/16/16/12P3/16/16/4K11 b - - 0 1"
    xb.send("setboard rnbqkbnr8/pppppppp8/16/16/16/16/PPPPPPPP8/RNBQKBNR8 w KQkq - 0 1")  # orthodox rights
    assert xb.fen() == START_WIDE
    xb.send("usermove e1n1")
    assert xb.expect("^Illegal move")[0].startswith("Illegal move (")


def test_bad_setboard_is_refused_until_a_good_one(xb: Cecp) -> None:
    xb.send("force", "usermove e2m4")
    before = xb.fen()
    xb.send("setboard 4k11/16/16/16/16/16/16/4K4K6 w - - 0 1")  # two white kings
    line, _ = xb.expect("^tellusererror ")
    assert line.startswith("tellusererror Illegal position: ")
    xb.send("usermove d7l5")
    assert xb.expect("^Illegal move")[0].startswith("Illegal move (no valid position")
    xb.send("go")
    assert xb.expect("^Error")[0].startswith("Error (no valid position")
    assert xb.fen() == before  # the old position is kept, unused
    xb.send("setboard 4k11/16/16/16/16/16/16/4K11 w - - 0 1")
    xb.send("usermove e1m2")
    assert xb.sync() == []
    assert xb.fen() == "4k11/16/16/16/16/16/12K3/16 b - - 1 1"


# ---------------------------------------------------------------- playing: time controls
def play_one(xb: Cecp, *setup: str, timeout: float = 20.0) -> tuple[str, list[str], float]:
    started = time.monotonic()
    xb.send(*setup)
    line, before = xb.expect(r"^move ", timeout)
    return line.split()[1], before, time.monotonic() - started


@pytest.mark.parametrize(
    "controls",
    [("level 40 0:05 0", "time 500", "otim 500"), ("level 0 1 2", "time 300", "otim 9000"), ("st 0.3",)],
)
def test_time_controls_give_a_quick_legal_move(xb: Cecp, controls: tuple[str, ...]) -> None:
    move, before, seconds = play_one(xb, *controls, "usermove e2m4")
    assert seconds < 3.0, seconds
    assert not any(line.startswith(("Error", "Illegal")) for line in before), before
    pos = Position()
    from uci.xboard_board import parse_move

    pos.push(parse_move(pos, "e2m4"))
    parse_move(pos, move)  # legal for black, in this board's notation


HUGE = str(2**63)  # one more than a signed 64-bit count holds (UCI's go nodes 2^63 once failed)


@pytest.mark.parametrize(
    "controls",
    [
        (f"sd {HUGE}", "st 30"),
        (f"sd {10**30}", "level 0 5 0"),
        ("level 999999 999999 0", f"time {HUGE}", f"otim {10**30}"),
        ("level 0 999999:59 999999", f"time {10**30}", f"otim {10**30}"),
        ("st 999999",),
    ],
)
def test_huge_limits_search_and_answer_a_move(xb: Cecp, controls: tuple[str, ...]) -> None:
    """CECP's equivalents of UCI's huge limits (issue 37): a real search that ``?`` (move now)
    ends with a legal move, and no error."""
    xb.send("post", *controls, "usermove e2m4")
    time.sleep(0.5)
    xb.send("?")
    line, before = xb.expect(r"^move ", 20)
    assert not any(text.startswith(("Error", "Illegal", "tellusererror")) for text in before), before
    assert any(THINKING.match(text) for text in before), before  # a move from a search
    pos = Position()
    from uci.xboard_board import parse_move

    pos.push(parse_move(pos, "e2m4"))
    parse_move(pos, line.split()[1])


def test_sd_limits_the_depth_and_post_shows_thinking(xb: Cecp) -> None:
    _, before, _ = play_one(xb, "post", "sd 2", "level 0 5 0", "usermove e2m4")
    thinking = [THINKING.match(line) for line in before]
    assert thinking and all(thinking), before
    depths = [int(m.group(1)) for m in thinking if m]
    assert max(depths) == 2
    xb.send("nopost", "undo", "undo", "usermove e2m4")
    _, before = xb.expect("^move ", 20)
    assert before == []


def test_move_now_and_ping_after_the_move(xb: Cecp) -> None:
    xb.send("st 30", "usermove e2m4", "ping 41")
    time.sleep(0.5)
    xb.send("?")
    started = time.monotonic()
    _, before = xb.expect("^move ", 5)
    assert time.monotonic() - started < 2.0
    assert "pong 41" not in before  # the pong waits for the move
    xb.expect("^pong 41$", 2)


def test_force_and_go_and_playother(xb: Cecp) -> None:
    xb.send("st 0.2", "force", "usermove e2m4", "usermove d7l5")
    assert xb.nothing_within(0.3) == []  # force mode: no thinking
    play_one(xb, "go")  # the engine plays white's second move
    xb.send("force", "undo", "playother")  # white to move again; the engine now plays black
    assert xb.nothing_within(0.3) == []
    play_one(xb, "usermove d2l3")


def test_pondering_goes_on_when_the_expected_move_comes(xb: Cecp) -> None:
    xb.send("post", "hard", "level 0 0:30 0", "time 3000", "otim 3000", "usermove e2m4")
    xb.expect("^move ", 20)
    line, _ = xb.expect(r"^\d+ -?\d+ \d+ \d+ \(\S+\)", 20)  # pondering: the expected reply first
    expected = re.search(r"\((\S+)\)", line).group(1)  # type: ignore[union-attr]
    legs = expected.split("-")
    xb.send(f"usermove {legs[0][:2]}{legs[0][2:4]}" + (f",{legs[0][2:4]}{legs[1]}" if len(legs) > 1 else legs[0][4:]))
    xb.expect("^move ", 20)
    xb.send("easy", "force")
    assert not [line for line in xb.nothing_within(0.5) if line.startswith(("move", "Error", "Illegal"))]


# ---------------------------------------------------------------- analysis
def test_analyze_mode(xb: Cecp) -> None:
    xb.send("post", "analyze")
    xb.expect(r"^\d+ -?\d+ \d+ \d+ ", 10)
    xb.send(".")
    status, _ = xb.expect("^stat01: ")
    assert re.match(r"^stat01: \d+ \d+ \d+ 0 20$", status), status
    xb.send("usermove e2m4")
    xb.expect(r"^\d+ -?\d+ \d+ \d+ ", 10)
    xb.send("undo", "usermove d2l4")
    xb.expect(r"^\d+ -?\d+ \d+ \d+ ", 10)
    xb.send("exit")
    assert xb.sync() is not None
    assert not [line for line in xb.nothing_within(0.5) if THINKING.match(line) or line.startswith("move")]
    assert xb.fen() == wide_after(None, ["d2l4"])


def test_analysis_claims_nothing(xb: Cecp) -> None:
    xb.send("force", *[f"usermove {m}" for m in BEFORE_MATE], "analyze", "usermove m2b5")
    assert not [line for line in xb.nothing_within(0.5) if "{" in line]
    xb.send("exit")


# ---------------------------------------------------------------- the game's end
def claim_after(xb: Cecp, *lines: str) -> str:
    xb.send(*lines)
    return xb.expect(r"^(1-0|0-1|1/2-1/2) \{", 20)[0]


def test_engine_mates_and_claims(xb: Cecp) -> None:
    xb.send("post", "force", *[f"usermove {m}" for m in BEFORE_MATE], "st 1", "go")
    line, before = xb.expect("^move ", 20)
    assert line == "move m2b5"
    assert any(THINKING.match(b) and THINKING.match(b).group(2) == "100001" for b in before), before  # type: ignore[union-attr]
    assert xb.expect(r"^\S+ \{")[0] == "1-0 {White mates}"


def test_claims_when_the_opponent_ends_the_game(xb: Cecp) -> None:
    assert claim_after(xb, "force", *[f"usermove {m}" for m in BEFORE_MATE], "playother", "usermove m2b5") == (
        "1-0 {White mates}"
    )
    xb.send("go")  # a finished game: the claim again instead of a move
    assert xb.expect(r"^(move|1-0)")[0] == "1-0 {White mates}"


@pytest.mark.parametrize(
    ("fen", "moves", "claim"),
    [
        ("7k8/5K10/16/14Q1/16/16/16/16 w - - 0 1", ["o5g6"], "1/2-1/2 {Stalemate}"),
        (START_WIDE, "g1n3 g8n6 n3g1 n6g8 g1n3 g8n6 n3g1 n6g8".split(), "1/2-1/2 {Draw by repetition}"),
        ("4k11/16/16/16/16/16/16/R3K11 w - - 99 60", ["a1i2"], "1/2-1/2 {Draw by fifty-move rule}"),
        ("4k11/16/16/16/16/16/4n11/4K11 w - - 0 1", ["e1e2,e2m2"], "1/2-1/2 {Draw by bare kings}"),
    ],
)
def test_draw_claims(xb: Cecp, fen: str, moves: list[str], claim: str) -> None:
    *first, last = moves
    xb.send("force", f"setboard {fen}", *[f"usermove {m}" for m in first], "playother")
    assert claim_after(xb, f"usermove {last}") == claim


def test_no_claim_in_force_mode(xb: Cecp) -> None:
    xb.send("force", *[f"usermove {m}" for m in BEFORE_MATE], "usermove m2b5")
    assert xb.sync() == []
    xb.send("result 1-0 {White mates}", "new", "variant alice")
    xb.expect("^setup ")
    assert xb.fen() == START_WIDE


# ---------------------------------------------------------------- bad input changes nothing
BAD_INPUT = [
    ("foo", "Error (unknown command): foo"),
    ("usermove", "Error (bad argument, expected usermove MOVE): usermove"),
    ("usermove e2e4", "Illegal move (the piece passes to the other board: m4): e2e4"),
    ("usermove e2m5", "Illegal move (not legal in this position): e2m5"),
    ("usermove e7m5", "Illegal move (not that side's turn): e7m5"),
    ("usermove e4m5", "Illegal move (no piece on e4): e4m5"),
    ("usermove e1n1", "Illegal move (not legal in this position): e1n1"),
    ("usermove b1k3,k3l4", "Illegal move (the first leg of a capture ends on the captured piece): b1k3,k3l4"),
    ("usermove e2m4q", "Illegal move (not legal in this position): e2m4q"),
    ("usermove e2m4,", "Illegal move (not a move of this board, e.g. e2m4 or e4d5,d5l5): e2m4,"),
    ("e2m5", "Illegal move (not legal in this position): e2m5"),
    ("level 40 x 0", "Error (bad argument, expected level MPS BASE INC): level 40 x 0"),
    ("level 40 5", "Error (bad argument, expected level MPS BASE INC): level 40 5"),
    ("st abc", "Error (st needs seconds per move): st abc"),
    ("st -1", "Error (st needs seconds per move): st -1"),
    ("sd 0", "Error (sd needs a depth of at least 1): sd 0"),
    ("time soon", "Error (bad argument, centiseconds expected): time soon"),
    ("otim", "Error (bad argument, centiseconds expected): otim"),
    ("memory lots", "Error (memory needs a size in MB): memory lots"),
    ("variant chess", "Error (unsupported variant, only alice): variant chess"),
    ("undo", "Error (command not legal now): undo"),
]


@pytest.mark.parametrize(("line", "answer"), BAD_INPUT)
def test_bad_input_gets_one_answer_and_changes_nothing(shared: Cecp, line: str, answer: str) -> None:
    shared.send("new", "force", "variant alice")
    shared.expect("^setup ")
    before = shared.fen()
    shared.send(line)
    assert shared.sync() == [answer]
    assert shared.fen() == before == START_WIDE


def test_huge_input_is_quoted_back_short(shared: Cecp) -> None:
    shared.send("new", "force")
    for line in ["x" * 1_000_000, "usermove " + "e" * 1_000_000, "level 40 " + "9" * 500_000 + " 0"]:
        shared.send(line)
        out = shared.sync(timeout=20)
        assert len(out) == 1 and out[0].startswith(("Error (", "Illegal move (")), out
        assert len(out[0]) < 200 and out[0].endswith("..."), out[0][:300]
    shared.send(b"\xff\xfe\x00junk\n", b"usermove e2m4\r\n")
    out = shared.sync()
    assert len(out) == 1 and out[0].startswith("Error (unknown command)"), out
    assert shared.fen() == wide_after(None, ["e2m4"])


def test_no_error_line_says_illegal(shared: Cecp) -> None:
    """XBoard takes the last move back on any engine line containing "llegal"."""
    shared.send("illegal")
    out = shared.sync()
    assert out == ["Error (unknown command): il-legal"], out
