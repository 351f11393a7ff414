"""Our engine under pychess-external-engine, pychess.org's local analysis bridge (docs/pychess.md).

The bridge (PyPI, 0.2.0, Python >= 3.11; ``pip install '.[pychess]'``) starts a UCI engine,
reads its options (``UCI_Variant`` must offer ``alice``; ``Threads``, ``Hash`` and ``MultiPV``
bounds cap what a browser may ask), qualifies it for Alice with a depth-1 search from the start
that must return a legal best move, and then serves the site's analysis board on 127.0.0.1:
requests must come from the site's Origin with the pairing token, and every PV and best move
it streams back is checked with pyffish-alice first (an illegal best move is an error event).

Here the package's own app (``pychess_external_engine.app.create_app``) runs with our engine
on a free loopback port and gets the requests the site sends. Skipped where the package is
not installed; CI installs it (.ci/run).
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
from typing import Any

import pyffish_alice as ff
import pytest

from support.installed import engine_command

pytest.importorskip("pychess_external_engine", reason="pychess-external-engine not installed (pip install '.[pychess]')")
aiohttp = pytest.importorskip("aiohttp")
from aiohttp import web  # noqa: E402  (after the skip: the extra brings aiohttp)
from pychess_external_engine.app import create_app  # noqa: E402
from pychess_external_engine.config import EngineConfig  # noqa: E402

V = "alice"
ORIGIN = "https://www.pychess.org"  # the site, an origin the bridge admits by default
TOKEN = "alice-engine-test-pairing-token-0123456789"  # pairing tokens: >= 32 ASCII characters
START = ff.start_fen(V)
# Middle games with pieces on both boards: a history from the start, and a FEN of its own
MIDDLE_MOVES = ["e2e4", "d7d5", "g1f3", "g8f6", "f1c4", "e7e6", "e1g1", "f8e7", "d2d3", "b8c6"]
MIDDLE_FEN = "r1b1k2r/pppp1ppp/2|n2|n2/4|p3/1|b1|P1|B1|q/2|N2|N2/PPP|QPPPP/2|K|R1B1R b kq - 9 6"  # 1.d4 e5 2.Bf4 Nc6 3.Nc3 Qh4 4.Qd2 Bb4 5.O-O-O Nf6 6.Nf3
MATE_IN_ONE = ["e2e4", "d7d5", "f1e2", "d5e4"]  # then e2b5 mates (the rules document's early mate)
MATED = [*MATE_IN_ONE, "e2b5"]
DEPTH = 6  # enough for a few evaluations, short on a loaded machine
MULTI_PV = 3
HANDSHAKE_SECONDS = 60.0  # the bridge's limit for the engine's start and each readiness check


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def our_options() -> dict[str, tuple[str, int, int]]:
    """Our engine's spin options: name -> (type, min, max), as its ``uci`` answer gives them."""
    proc = subprocess.run(engine_command(), input="uci\nquit\n", capture_output=True, text=True, timeout=60)
    options = {}
    for line in proc.stdout.splitlines():
        if line.startswith("option name ") and " type spin " in line:
            name, _, rest = line.removeprefix("option name ").partition(" type spin ")
            words = rest.split()
            options[name] = ("spin", int(words[words.index("min") + 1]), int(words[words.index("max") + 1]))
    return options


def request(initial_fen: str, moves: list[str], search: dict[str, int], multi_pv: int = 1) -> dict[str, Any]:
    """An analysis request as the site's analysis board sends it."""
    return {
        "protocolVersion": 1, "sessionId": "tab-1", "searchId": f"s{len(moves)}-{multi_pv}", "variant": V,
        "engineVariant": V, "chess960": False, "initialFen": initial_fen, "moves": moves,
        "currentFen": ff.get_fen(V, initial_fen, moves), "threads": 1, "hash": 16, "multiPv": multi_pv,
        "search": search,
    }


class Bridge:
    """The bridge's app with our engine, served on a loopback port for the test's requests."""

    def __init__(self) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        # handshake_timeout: the CLI's 10 s covers the engine's start and its Alice qualification on a
        # quiet machine; CI's loaded cores get more, so a slow start is not taken for a broken engine
        config = EngineConfig(command=tuple(engine_command()), max_threads=os.cpu_count() or 1,
                              handshake_timeout=HANDSHAKE_SECONDS)
        self.app = create_app(config, token=TOKEN, authority=f"127.0.0.1:{self.port}")
        self.runner = web.AppRunner(self.app)

    async def __aenter__(self) -> Bridge:
        await self.runner.setup()  # the lifecycle: engine start, discovery, Alice qualification
        await web.TCPSite(self.runner, "127.0.0.1", self.port).start()
        self.session = aiohttp.ClientSession(headers={"Origin": ORIGIN, "Authorization": f"Bearer {TOKEN}"})
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.session.close()
        await self.runner.cleanup()

    async def analyse(self, body: dict[str, Any]) -> list[dict[str, Any]]:
        async with self.session.post(f"{self.base}/v1/analyse", json=body) as response:
            assert response.status == 200, await response.text()
            assert response.headers["Access-Control-Allow-Origin"] == ORIGIN
            return [json.loads(line) for line in (await response.text()).splitlines() if line]


def check_events(events: list[dict[str, Any]], body: dict[str, Any]) -> dict[str, Any]:
    """Every streamed event well formed, every PV legal under pyffish-alice; returns ``completed``."""
    fen, moves = body["initialFen"], body["moves"]
    assert events[0]["type"] == "started" and events[-1]["type"] == "completed", events
    assert all(event["searchId"] == body["searchId"] for event in events)
    evaluations = [event for event in events if event["type"] == "evaluation"]
    assert evaluations, events
    for event in evaluations:
        assert 1 <= event["depth"] <= body["search"].get("depth", 128) and event["nodes"] > 0, event
        for pv in event["pvs"]:
            assert 1 <= pv["multiPv"] <= body["multiPv"] and ("cp" in pv or "mate" in pv), pv
            line = list(moves)
            for move in pv["moves"]:  # the bridge cuts a PV at its first illegal move: none is cut
                assert move in ff.legal_moves(V, fen, line), (pv, line)
                line.append(move)
    last = evaluations[-1]
    assert len(last["pvs"]) == body["multiPv"], last
    assert len({pv["moves"][0] for pv in last["pvs"]}) == body["multiPv"], last  # distinct first moves
    completed = events[-1]
    assert completed["reason"] == "limit" and completed["bestmove"] in ff.legal_moves(V, fen, moves), completed
    return last


async def analysis_session() -> dict[str, Any]:
    options = our_options()
    async with Bridge() as bridge:
        seen: dict[str, Any] = {}
        async with bridge.session.get(f"{bridge.base}/v1/capabilities") as response:
            assert response.status == 200
            seen["capabilities"] = await response.json()
        for headers, status, code in (
            ({"Origin": "https://evil.example"}, 403, "origin_not_allowed"),  # another site
            ({"Authorization": "Bearer not-the-pairing-token"}, 401, "pairing_required"),  # not paired
        ):
            async with bridge.session.get(f"{bridge.base}/v1/capabilities", headers=headers) as response:
                assert response.status == status and (await response.json())["error"]["code"] == code
        seen["options"] = options
        seen["start"] = await bridge.analyse(request(START, [], {"depth": DEPTH}, MULTI_PV))
        seen["history"] = await bridge.analyse(request(START, MIDDLE_MOVES, {"depth": DEPTH}))
        seen["middle"] = await bridge.analyse(request(MIDDLE_FEN, [], {"depth": DEPTH}, MULTI_PV))
        seen["mate_in_one"] = await bridge.analyse(request(START, MATE_IN_ONE, {"depth": DEPTH}))
        seen["mated"] = await bridge.analyse(request(START, MATED, {"depth": DEPTH}))
        return seen


@pytest.fixture(scope="module")
def session() -> dict[str, Any]:
    return asyncio.run(analysis_session())


def test_bridge_qualifies_our_engine_for_alice(session: dict[str, Any]) -> None:
    """Alice qualified; the resource bounds are ours, capped by the bridge's local limits."""
    capabilities, options = session["capabilities"], session["options"]
    engine = capabilities["engine"]
    assert engine["name"].startswith("Alice Engine") and engine["variants"] == [V]
    assert engine["variantRestrictions"] == {V: {"chess960": False, "customRules": False}}
    assert capabilities["rules"]["aliceVersion"] == list(ff.version())
    assert engine["maxHash"] == min(512, options["Hash"][2])  # the bridge's default --max-hash: 512
    assert engine["maxMultiPv"] == min(20, options["MultiPV"][2])  # the bridge allows 20 at most
    # Threads: without the option the bridge offers 1; with it, up to min(cores, our maximum)
    threads = options.get("Threads")
    assert engine["maxThreads"] == (min(os.cpu_count() or 1, threads[2]) if threads else 1)


def test_start_position_with_multipv(session: dict[str, Any]) -> None:
    body = request(START, [], {"depth": DEPTH}, MULTI_PV)
    last = check_events(session["start"], body)
    assert all(abs(pv["cp"]) < 200 for pv in last["pvs"]), last


def test_middle_game_from_history(session: dict[str, Any]) -> None:
    body = request(START, MIDDLE_MOVES, {"depth": DEPTH})
    assert "|" in body["currentFen"]  # pieces on both boards
    check_events(session["history"], body)


def test_middle_game_from_a_fen_with_both_boards(session: dict[str, Any]) -> None:
    check_events(session["middle"], request(MIDDLE_FEN, [], {"depth": DEPTH}, MULTI_PV))


def test_mate_in_one(session: dict[str, Any]) -> None:
    body = request(START, MATE_IN_ONE, {"depth": DEPTH})
    last = check_events(session["mate_in_one"], body)
    assert last["pvs"][0]["mate"] == 1, last
    best = session["mate_in_one"][-1]["bestmove"]
    after = [*MATE_IN_ONE, best]
    assert not ff.legal_moves(V, START, after) and ff.gives_check(V, START, after), best  # it mates


def test_checkmated_position_completes_without_a_search(session: dict[str, Any]) -> None:
    events = session["mated"]
    assert [event["type"] for event in events] == ["started", "completed"], events
    assert events[-1]["reason"] == "terminal" and "bestmove" not in events[-1]


def test_check_engine_reports_our_capabilities() -> None:
    """``pychess-external-engine --engine alice-engine --check-engine``: what a user runs first."""
    command = [sys.executable, "-m", "pychess_external_engine.cli", "--check-engine", "--engine", engine_command()[0]]
    for word in engine_command()[1:]:
        command += ["--engine-arg", word]
    run = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    capabilities = json.loads(run.stdout)
    assert capabilities["variants"] == [V] and capabilities["maxHash"] == min(512, our_options()["Hash"][2])
