"""A web board server for the tests: started in this process on a free port, spoken to over HTTP.

``running_board(engines)`` yields a ``Board`` client; the server runs on a thread, its
engines are real UCI processes (this engine, or the scripted ones in ``tests/engines``).
"""

from __future__ import annotations

import http.client
import json
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from gui.engines import EngineLoop, EngineSpec
from gui.server import BoardServer
from gui.session import Session
from support.installed import engine_command

ROOT = Path(__file__).resolve().parents[2]
SCRIPTED = ROOT / "tests" / "engines" / "scripted.py"
WAIT = 60.0  # seconds a test waits for the board to reach a state (a loaded 2-core machine)


def scripted(*args: str) -> EngineSpec:
    """A scripted test engine (``first``, ``random 1``, ``crash 2``, ``hang 2`` ...)."""
    return EngineSpec((sys.executable, str(SCRIPTED), *args), f"scripted-{args[0]}")


def alice() -> EngineSpec:
    """This engine: the installed build if any, else the checkout (``tests/support/installed.py``)."""
    return EngineSpec(tuple(engine_command()), "alice-engine")


class Board:
    """An HTTP client of one running board."""

    def __init__(self, server: BoardServer) -> None:
        self.server = server
        self.port = server.port
        self.url = server.url

    @classmethod
    def remote(cls, port: int) -> Board:
        """A client of a board running in another process (it has no ``server`` here)."""
        board = cls.__new__(cls)
        board.port = port
        board.url = f"http://127.0.0.1:{port}/"
        return board

    def request(
        self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
    ) -> tuple[int, dict[str, str], bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=WAIT)
        try:
            conn.request(method, path, body=body, headers=headers or {})
            response = conn.getresponse()
            return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
        finally:
            conn.close()

    def get(self, path: str) -> tuple[int, Any]:
        status, _, body = self.request("GET", path)
        return status, json.loads(body)

    def post(self, path: str, data: Any = None) -> tuple[int, Any]:
        body = json.dumps({} if data is None else data).encode()
        status, _, raw = self.request("POST", path, body, {"Content-Type": "application/json"})
        return status, json.loads(raw)

    def ok(self, path: str, data: Any = None) -> dict[str, Any]:
        """POST that must succeed; the state it returns."""
        status, answer = self.post(path, data)
        assert status == 200, answer
        return answer["state"]  # type: ignore[no-any-return]

    def state(self) -> dict[str, Any]:
        status, state = self.get("/api/state")
        assert status == 200
        return state  # type: ignore[no-any-return]

    def wait_for(self, check: Callable[[dict[str, Any]], bool], timeout: float = WAIT) -> dict[str, Any]:
        """Long-poll until ``check(state)`` holds; the state (AssertionError on timeout)."""
        deadline = time.monotonic() + timeout
        state = self.state()
        while not check(state):
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"timed out waiting; last state: { {k: state[k] for k in ('moves', 'thinking', 'engineError', 'result')} }"
                )
            status, state = self.get(f"/api/state?after={state['version']}")
            assert status == 200
        return state


def raw_request(port: int, data: bytes, half_close: bool = True, timeout: float = WAIT) -> tuple[int, dict[str, str], bytes]:
    """Send ``data`` as it is on a new connection (then end our side, unless ``half_close`` is
    false), read until the server closes; the first answer: (status, headers, body)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(data)
        if half_close:
            sock.shutdown(socket.SHUT_WR)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    head, _, body = b"".join(chunks).partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {key.strip().lower(): value.strip() for key, _, value in (line.partition(":") for line in lines[1:])}
    if "content-length" in headers:
        body = body[: int(headers["content-length"])]  # the first answer (bytes after a GET are a next request)
    return int(lines[0].split()[1]), headers, body


@contextmanager
def running_board(engines: list[EngineSpec], host: str = "127.0.0.1", allowed: tuple[str, ...] = ()) -> Iterator[Board]:
    loop = EngineLoop()
    session = Session(engines, loop)
    server = BoardServer(host, 0, session, allowed)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    session.start()
    try:
        yield Board(server)
    finally:
        server.shutdown()
        server.server_close()
        session.close()
        loop.close()
