"""Nothing a client sends breaks the web board: property-based tests with hypothesis.

Generated requests, for every endpoint: bodies of any JSON shape (and raw bodies past the
JSON limits), PGN texts from a grammar of tags, moves, comments, variations and junk, FENs
from a grammar of fields, typed moves, clocks and evaluations in PGN comments (of any number
of digits), raw requests of any method, Host and Content-Length (issue 37). For each: the
server answers, never with a 5xx (a refusal: JSON with the security headers), and
a refused request leaves the state exactly as it was (every field of ``/api/state``, its
version included). The budget is fixed (``derandomize``: the same examples every run, a
few thousand in all, well under a minute). The soak test sends 10,000 more and then plays a
legal game through the API; it is marked ``soak`` and runs only with ``pytest -m soak`` (about
2 minutes, most of it hypothesis drawing the requests: CI runs the fixed budget above).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import engine.board  # noqa: F401 (registers the Alice variant for chess.pgn)
from engine.board import AliceBoard
from gui.jsonbody import MAX_DEPTH
from gui.server import POST_ROUTES, SECURITY_HEADERS
from support.gui_helpers import Board, raw_request, running_board, scripted

BUDGET = settings(
    derandomize=True,  # the same examples in every run: CI is repeatable
    database=None,
    deadline=None,  # a loaded 2-core machine
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture, HealthCheck.data_too_large],
)
SOAK_REQUESTS = 10_000  # requests of the soak alone (issue 23), on top of the 2,250 of the tests above

BASELINE_PGN = """[Event "baseline"]
[Variant "Alice"]

1. e4 (1. d4 d5) 1... d5 2. Nf3 {a comment} Nf6 *
"""


@pytest.fixture(scope="module")
def board() -> Iterator[Board]:
    with running_board([scripted("first"), scripted("first")]) as b:
        session = b.server.session
        b.wait_for(lambda s: all(engine.alive() for engine in session.engines))  # started: no late change
        yield b


class Baseline:
    """Puts the board in a known, quiet state (Analyse, no engine at work, a short game with a
    variation) when the last request may have changed it."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.dirty = True
        self.state: dict[str, Any] = {}  # the whole state while clean (a refused request keeps it)

    def ensure(self) -> None:
        if not self.dirty:
            return
        session = self.board.server.session  # in-process: quicker than four requests
        session.set_mode({"mode": "analyse"})
        session.set_analysis({"on": False, "engine": 0, "multipv": 1})
        session.load_pgn(BASELINE_PGN)
        session.goto({"ply": 2})
        with session.cond:
            assert session.cond.wait_for(lambda: session.task is None, timeout=60), "an engine is still busy"
        self.state = self.snapshot()
        self.dirty = False

    def snapshot(self) -> dict[str, Any]:
        session = self.board.server.session
        with session.cond:
            return session.state()


@pytest.fixture(scope="module")
def baseline(board: Board) -> Baseline:
    return Baseline(board)


def send(baseline: Baseline, method: str, path: str, body: bytes | None) -> int:
    """Send one request from the baseline state; check the answer and, if refused, the state."""
    baseline.ensure()
    before = baseline.state
    headers = {"Content-Type": "application/json"} if body is not None else {}
    status, _, raw = baseline.board.request(method, path, body, headers)
    assert status < 500, (method, path, body[:300] if body else None, raw[:300])
    if status >= 400:
        if method != "HEAD":
            assert json.loads(raw).get("error"), raw[:300]
        assert baseline.snapshot() == before, (path, body[:300] if body else None)
    else:
        baseline.dirty = True
    return status


# ---------------------------------------------------------------- JSON shapes
json_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**20), max_value=10**20),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=30),
    st.sampled_from(["e4", "e2e4/B", "Nf3", "white", "black", "play", "analyse", "watch", "full", "level:4", "nodes:1000"]),
)
json_value = st.recursive(json_leaf, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)
FIELDS = [
    "move", "ply", "node", "fen", "pgn", "mode", "side", "opponent", "white", "black", "on", "engine", "multipv",
    "strength", "clock", "base", "increment", "main", "moves", "shapes",
]
player_like = st.fixed_dictionaries({}, optional={"engine": json_value, "strength": json_value})
clock_like = st.fixed_dictionaries({}, optional={"base": json_value | st.floats(0, 20_000), "increment": json_value})
shapes_like = st.lists(
    st.sampled_from(["Ge2e4", "Rm4", "Bj1j8", "Ye5", "Ge2m4", "Xe4", "Ga9", ""]) | st.text(max_size=6), max_size=6
)
uci_list = st.lists(st.sampled_from(["e2e4", "e7e5", "g1f3", "b8c6", "e2e5", "0000", "P@e4", "zz"]), max_size=5)
body_object = st.dictionaries(
    st.sampled_from(FIELDS) | st.text(max_size=6), json_value | player_like | clock_like | shapes_like | uci_list, max_size=5
)


def deep(depth: int, open_: str, close: str) -> bytes:
    return b'{"x": ' + open_.encode() * depth + close.encode() * depth + b"}"


raw_body = st.one_of(
    st.integers(min_value=MAX_DEPTH - 2, max_value=20_000).flatmap(
        lambda n: st.sampled_from([deep(n, "[", "]"), deep(n, '{"a":', "}").replace(b'}}', b'1}}', 1), b"[" * n + b"]" * n])
    ),
    st.integers(min_value=1, max_value=6000).map(lambda n: b'{"ply": ' + b"9" * n + b"}"),
    st.integers(min_value=1, max_value=6000).map(lambda n: b'{"engine": -' + b"1" * n + b", \"on\": true}"),
    st.sampled_from([b'{"ply": 1e999}', b'{"ply": NaN}', b'{"multipv": Infinity}', b'{"ply": -0.0}', b'{"move": "\\ud800"}']),
    st.binary(max_size=200),
)
endpoint = st.sampled_from(sorted(POST_ROUTES))


@settings(BUDGET, max_examples=600)
@given(path=endpoint, body=body_object)
def test_any_json_shape_on_every_endpoint(baseline: Baseline, path: str, body: dict[str, Any]) -> None:
    send(baseline, "POST", f"/api/{path}", json.dumps(body).encode())


@settings(BUDGET, max_examples=300)
@given(path=endpoint, body=raw_body)
def test_raw_bodies_past_the_limits(baseline: Baseline, path: str, body: bytes) -> None:
    send(baseline, "POST", f"/api/{path}", body)


@settings(BUDGET, max_examples=150)
@given(
    method=st.sampled_from(["GET", "HEAD", "DELETE", "PUT"]),
    path=st.sampled_from(["/api/state?after=", "/api/pgn", "/api/", "/api/move", "/", "/api/preview?node=", "/api/preview?moves=e2e4&node="]).flatmap(
        lambda p: st.text(alphabet="0123456789-x%,e", max_size=40).map(lambda q: p + q if p.endswith("=") else p)
    ),
)
def test_any_query(baseline: Baseline, method: str, path: str) -> None:
    if path.startswith("/api/state?after=") and method in ("GET", "HEAD"):
        after = path.rsplit("=", 1)[1]
        if re.fullmatch(r"-?[0-9]{1,19}", after):
            path = "/api/state"  # a real version number would wait for a change (long poll)
    send(baseline, method, path, None)


# ---------------------------------------------------------------- FEN grammar
piece_letters = st.sampled_from(list("pnbrqkPNBRQK"))
rank_cell = st.one_of(
    piece_letters,
    piece_letters.map(lambda p: "|" + p),
    st.integers(min_value=0, max_value=17).map(str),
    st.sampled_from(["x", "/", "||", " ", "9", "-"]),
)
fen_rank = st.lists(rank_cell, min_size=0, max_size=10).map("".join)
fen_board = st.one_of(
    st.lists(fen_rank, min_size=6, max_size=9).map("/".join),
    st.sampled_from(["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "4k3/8/8/8/8/8/8/4K3", "4k11/16/16/16/12P3/16/16/4K11"]),
)
number_field = st.one_of(
    st.integers(min_value=-5, max_value=200).map(str),
    st.integers(min_value=0, max_value=10**40).map(str),
    st.text(alphabet="0123456789-+x. ", min_size=0, max_size=8),
    st.integers(min_value=4300, max_value=6000).map(lambda n: "9" * n),
)
fen_text = st.tuples(
    fen_board,
    st.sampled_from(["w", "b", "x", "W", ""]),
    st.sampled_from(["KQkq", "-", "Kq", "KK", "abc", ""]),
    st.sampled_from(["-", "e3", "e6", "z9"]),
    number_field,
    number_field,
    st.integers(min_value=1, max_value=7),
).map(lambda t: " ".join(t[: min(t[6], 6)]))


@settings(BUDGET, max_examples=500)
@given(fen=fen_text)
def test_any_fen(baseline: Baseline, fen: str) -> None:
    send(baseline, "POST", "/api/fen", json.dumps({"fen": fen}).encode())


# ---------------------------------------------------------------- PGN grammar
san_move = st.one_of(
    st.sampled_from(["e4", "d5", "Nf3", "Nf6", "e4/B", "Nc3/A", "O-O", "O-O-O", "Qxf7", "a8=Q", "exd5", "Bb5/A#", "--", "Z0", "e5+", "Kd8/B"]),
    st.tuples(st.sampled_from(["", "N", "B", "R", "Q", "K"]), st.sampled_from("abcdefgh"), st.sampled_from("12345678"), st.sampled_from(["", "/A", "/B", "+", "#"])).map("".join),
)
comment = st.text(alphabet=st.characters(blacklist_characters="}", blacklist_categories=("Cs",)), max_size=20).map(lambda t: "{" + t + "}")
junk = st.sampled_from(["$1", "!?", "*", "1-0", "0-1", "1/2-1/2", ")", "(", "}", "{", "[", "]", "%x\n", ";rest\n", "\n\n", "...", "1.", "12...", "\u2603", "\x00"])


def movetext(depth: int) -> st.SearchStrategy[str]:
    token = san_move | comment | junk | st.integers(min_value=1, max_value=99).map(lambda n: f"{n}.")
    if depth > 0:
        token = token | st.deferred(lambda: movetext(depth - 1)).map(lambda v: f"( {v} )")
    return st.lists(token, max_size=14).map(" ".join)


tag_name = st.sampled_from(
    ["Event", "White", "Black", "Result", "Variant", "FEN", "SetUp", "Date", "Termination", "TimeControl", "X"]
)
time_control_text = st.one_of(  # read back by the board for a loaded game's clocks
    st.sampled_from(["300+3", "nan", "inf", "1e999", "-5+1", "40/7200:3600", "300+nan", "1e308+1e308"]),
    st.tuples(st.integers(min_value=1, max_value=5000), st.sampled_from(["", "+1", "+" + "9" * 400])).map(
        lambda t: "9" * t[0] + t[1]
    ),
)
tag_value = st.one_of(
    st.sampled_from(["Alice", "alice", "Alice chess", "Chess960", "Crazyhouse", "Standard", "1-0", "*", "1", "?", ""]),
    fen_text,
    time_control_text,
    st.text(alphabet=st.characters(blacklist_characters='"\n', blacklist_categories=("Cs",)), max_size=15),
)
tag = st.tuples(tag_name, tag_value).map(lambda t: f'[{t[0]} "{t[1]}"]')
pgn_game = st.tuples(st.lists(tag, max_size=5), movetext(3), st.sampled_from(["*", "1-0", "0-1", "1/2-1/2", ""])).map(
    lambda t: "\n".join(t[0]) + "\n\n" + t[1] + " " + t[2]
)
pgn_text = st.lists(pgn_game, min_size=1, max_size=3).map("\n\n".join)


@settings(BUDGET, max_examples=400)
@given(pgn=pgn_text)
def test_any_pgn(baseline: Baseline, pgn: str) -> None:
    send(baseline, "POST", "/api/pgn", json.dumps({"pgn": pgn}).encode())


# ---------------------------------------------------------------- clocks and evaluations in comments
digits = st.one_of(
    st.integers(min_value=0, max_value=99).map(str),
    st.integers(min_value=0, max_value=10**12).map(str),
    st.integers(min_value=20, max_value=5000).map(lambda n: "9" * n),  # issue 37: 400-digit clocks
)
clock_annotation = st.tuples(digits, digits, digits, st.sampled_from(["", ".5", "." + "9" * 400])).map(
    lambda t: f"[%clk {t[0]}:{t[1]}:{t[2]}{t[3]}]"
)
eval_annotation = st.one_of(
    st.tuples(st.sampled_from(["", "-", "+"]), digits).map(lambda t: f"[%eval #{t[0]}{t[1]}]"),
    st.tuples(st.sampled_from(["", "-"]), digits, st.sampled_from(["", ".5", ".25"])).map(
        lambda t: f"[%eval {t[0]}{t[1]}{t[2]}]"
    ),
)
annotated_moves = st.lists(
    st.tuples(st.sampled_from(["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]), st.lists(clock_annotation | eval_annotation, max_size=2)),
    min_size=1,
    max_size=6,
)


def strict_json(raw: bytes) -> object:
    """JSON as a browser reads it: ``NaN``/``Infinity`` are not JSON (the page would go blank)."""

    def refuse(constant: str) -> object:
        raise AssertionError(f"{constant} in the JSON")

    return json.loads(raw, parse_constant=refuse)


@settings(BUDGET, max_examples=200)
@given(moves=annotated_moves)
@example(moves=[("e4", ["[%clk 0:00:" + "9" * 400 + "]"])])  # the cases, always tried
@example(moves=[("e4", ["[%clk " + "9" * 400 + ":00:00]"])])
def test_any_clock_and_eval_in_a_pgn(baseline: Baseline, moves: list[tuple[str, list[str]]]) -> None:
    """Issue 37: a [%clk] of 400 digits was loaded as Infinity (the state was no JSON, every
    PGN export a 500); 400-digit hours gave a 500. Any annotation: the game loads or is
    refused, and the state and the PGN stay readable."""
    sans = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]
    text = " ".join(
        f"{i // 2 + 1}. " * (i % 2 == 0) + f"{sans[i]} {{{' '.join(notes)}}}" for i, (_, notes) in enumerate(moves)
    )
    status = send(baseline, "POST", "/api/pgn", json.dumps({"pgn": f'[Variant "Alice"]\n\n{text} *'}).encode())
    board = baseline.board
    for path in ("/api/state", "/api/pgn"):
        code, _, raw = board.request("GET", path)
        assert code == 200, (path, raw[:300])
        strict_json(raw)
    if status == 200:
        state = strict_json(board.request("GET", "/api/state")[2])
        assert isinstance(state, dict)


# ---------------------------------------------------------------- request lines and headers
METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "TRACE", "CONNECT", "OPTIONS", "PATCH", "BREW", "get", "X-Y"]
length_value = st.one_of(
    st.integers(min_value=0, max_value=40).map(str),
    st.sampled_from(["\xb2", "\xb9", "1\xb2", "+4", "-4", "0x10", "4.0", "", " ", "9" * 30, "\u0663", "4, 4"]),
    st.text(alphabet="0123456789+-. \xb2\xb3", max_size=6),
)
host_value = st.sampled_from(["ours", "ours-upper", "evil.example", "evil.example:PORT", "192.0.2.7:PORT", "127.0.0.1:1", ""])
target = st.sampled_from(["/", "/api/state", "/api/pgn", "/api/move", "/api/goto", "/api/state?after=--1", "*",
                          "/api/state?after=\xb2", "/api/preview?node=\xb2&moves=e2e4"])  # fmt: skip


@settings(BUDGET, max_examples=250)
@given(method=st.sampled_from(METHODS) | st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ-_!", min_size=1, max_size=12),
       path=target, host=host_value, length=st.none() | length_value, body=st.binary(max_size=40))  # fmt: skip
def test_any_method_host_and_content_length(
    baseline: Baseline, method: str, path: str, host: str, length: str | None, body: bytes
) -> None:
    """Raw requests (the client ends its side after sending): every one is answered, never
    with a 5xx; every refusal is JSON with the security headers; a foreign Host is refused
    whatever the method; a refused request changes nothing."""
    baseline.ensure()
    before = baseline.state
    port = baseline.board.port
    host_line = {"ours": f"127.0.0.1:{port}", "ours-upper": f"LOCALHOST:{port}"}.get(host, host.replace("PORT", str(port)))
    head = f"{method} {path} HTTP/1.1\r\nHost: {host_line}\r\nContent-Type: application/json\r\n"
    if length is not None:
        head += f"Content-Length: {length}\r\n"
    status, headers, raw = raw_request(port, head.encode("latin-1", "replace") + b"\r\n" + body)
    assert status < 500, (method, path, host, length, raw[:300])
    if host in ("evil.example", "evil.example:PORT", "127.0.0.1:1", ""):
        assert status in (403, 400), (method, path, host, status)  # 400: refused before its Host is read
    if status >= 400:
        for name, value in SECURITY_HEADERS.items():
            assert headers.get(name.lower()) == value, (method, path, status, headers)
        if method != "HEAD":
            assert json.loads(raw).get("error"), raw[:300]
        assert baseline.snapshot() == before
    else:
        baseline.dirty = True


move_text = st.one_of(
    san_move,
    st.tuples(st.sampled_from("abcdefghz"), st.sampled_from("1234567890"), st.sampled_from("abcdefgh"), st.sampled_from("12345678"), st.sampled_from(["", "q", "n", "/A", "/B", "/C", "x"])).map("".join),
    st.text(max_size=25),
)


@settings(BUDGET, max_examples=300)
@given(move=move_text)
def test_any_typed_move(baseline: Baseline, move: str) -> None:
    send(baseline, "POST", "/api/move", json.dumps({"move": move}).encode())


# ---------------------------------------------------------------- soak
any_request = st.one_of(
    st.tuples(endpoint.map(lambda p: f"/api/{p}"), body_object.map(lambda b: json.dumps(b).encode())),
    st.tuples(endpoint.map(lambda p: f"/api/{p}"), raw_body),
    st.tuples(st.just("/api/fen"), fen_text.map(lambda f: json.dumps({"fen": f}).encode())),
    st.tuples(st.just("/api/pgn"), pgn_text.map(lambda p: json.dumps({"pgn": p}).encode())),
    st.tuples(st.just("/api/move"), move_text.map(lambda m: json.dumps({"move": m}).encode())),
)


@pytest.mark.slow
@pytest.mark.soak
def test_soak_then_a_legal_game(baseline: Baseline, board: Board) -> None:
    """SOAK_REQUESTS generated requests, then a whole game played through the API, every move legal."""
    counts = {"sent": 0, "refused": 0}
    started = time.monotonic()

    @settings(BUDGET, max_examples=SOAK_REQUESTS)
    @given(request=any_request)
    def soak(request: tuple[str, bytes]) -> None:
        counts["sent"] += 1
        if send(baseline, "POST", *request) >= 400:
            counts["refused"] += 1

    soak()
    assert counts["sent"] >= SOAK_REQUESTS * 0.9, counts  # hypothesis may stop early only on exhausted inputs
    elapsed = time.monotonic() - started
    print(f"soak: {counts['sent']} requests ({counts['refused']} refused) in {elapsed:.1f} s")
    play_a_legal_game(board)


def play_a_legal_game(board: Board, plies: int = 120) -> None:
    """Play the first engine with the page's moves (the first legal one each time) until the
    game ends or ``plies`` moves are made; every move the server plays is legal on an AliceBoard."""
    state = board.ok("/api/new", {"mode": "play", "side": "white", "opponent": {"engine": 0, "strength": "full"}})
    replay = AliceBoard(state["rootFen"])
    while state["result"] is None and len(state["moves"]) < plies:
        assert state["legal"], state
        board.ok("/api/move", {"move": state["legal"][len(state["moves"]) % len(state["legal"])]})
        count = len(state["moves"]) + 2
        state = board.wait_for(lambda s: len(s["moves"]) >= count or s["result"] is not None)
    for san in state["moves"]:
        replay.push_san(san)  # raises on an illegal move
    assert replay.fen() == board.state()["fen"]
    assert len(state["moves"]) >= 20 or state["result"] is not None
