"""The HTTP server of the web board: static files, a small JSON API, and the guards.

Standard library only (``http.server``'s ``ThreadingHTTPServer``): the engine installs
with no dependency besides python-chess, and request parsing is the standard library's.
Each request runs on its own thread; the page long-polls ``GET /api/state?after=V``
(answered when the state's version differs from ``V``), so live engine output needs
no WebSocket.

Guards, checked on every request before anything else:

* ``Host`` must name this server: ``127.0.0.1:PORT``, ``localhost:PORT``, the ``--host``
  given, a name given with ``--allow-host``, or any IP address with this port (a DNS
  rebinding page sends its own name, never an address: with ``--host 0.0.0.0`` the board
  answers other machines that use this one's address); ``Origin``, when present, must be
  ``http://`` + one of the names, or the ``Host`` of the request itself (same origin):
  another web site cannot drive the board (DNS rebinding, cross-site requests) -> 403;
* only ``GET``, ``HEAD`` and ``POST``: any other method (``TRACE``, ``CONNECT``, ``PUT``,
  made-up ones) is refused after the ``Host`` check -> 405;
* only the files in ``STATIC`` (read once at start) and the piece images are served:
  no path ever reaches the file system -> 404 for anything else;
* ``POST`` bodies must be JSON objects (``Content-Type: application/json``) of at most
  ``MAX_BODY`` bytes, nested at most ``gui.jsonbody.MAX_DEPTH`` deep, with numbers of at
  most ``MAX_NUMBER_CHARS`` characters -> 413/415/400 with ``{"error": message}``.

Every request is answered in one place (``Handler._answer``, through ``Handler._send``, with
the security headers): bad input is a 4xx with a message for the page and changes nothing
(``Session`` restores every field if a request fails half-way); any other exception is a
500 with a generic message, its traceback on stderr only. Requests the standard library
refuses before they reach a route (a malformed request line, headers too long) get the same
JSON answer and headers (``Handler.send_error``). A body that stops arriving is answered
408 after ``BODY_TIMEOUT`` (not the idle limit), a ``Content-Length`` that is not ASCII
digits 400. The listen queue holds ``LISTEN_QUEUE`` connections: a burst of requests from
the page's tabs is answered, none dropped.

API (all JSON; errors are ``{"error": "..."}``):

====================  =============================================================
GET  /api/state       the board, moves, players, engine lines (``?after=V`` waits)
GET  /api/pgn         ``{"pgn": text}``: the game as PGN
POST /api/new         ``{mode, side, opponent, clock | white, black}``: a new game
POST /api/mode        the same fields: change mode/players, keep the game
POST /api/move        ``{"move": "e2e4" | "Nf3/B"}``
POST /api/takeback    take back the last move (your last move and the engine's, in play)
POST /api/resign      you resign (play mode)
POST /api/goto        ``{"ply": n}`` (along the line on view) or ``{"node": id}`` (any position)
POST /api/draw        offer the engine a draw (play mode): ``{"accepted": bool, "message": text}``
POST /api/promote     ``{"node": id, "main": bool}``: a variation moves up (Analyse)
POST /api/delete      ``{"node": id}``: delete a move and what follows it (Analyse)
POST /api/line        ``{"node": id, "moves": [uci, ...]}``: an engine line played in (Analyse)
POST /api/shapes      ``{"node": id, "shapes": ["Ge2e4", "Rm4"]}``: arrows and circles
GET  /api/preview     ``?node=id&moves=e2e4,e7e5``: a position after a line's moves, not played
POST /api/fen         ``{"fen": text}``: set up a position (compact or 16-wide FEN)
POST /api/pgn         ``{"pgn": text}``: load a game
POST /api/analysis    ``{on, engine, multipv}``: live analysis (Analyse mode)
POST /api/review      evaluate every position of the game (the graph)
POST /api/stop        the engine moves now / watching pauses / analysis stops
POST /api/go          resume (watching, analysis, or a failed engine's move)
====================  =============================================================
"""

from __future__ import annotations

import ipaddress
import json
import re
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any
from urllib.parse import parse_qs, urlsplit

import chess
import chess.svg

from gui.jsonbody import BodyError, parse_object
from gui.session import LONG_POLL, ApiError, Session

MAX_BODY = 256 * 1024  # bytes: a long PGN fits many times over
REQUEST_TIMEOUT = 15.0  # seconds a connection may sit idle
BODY_TIMEOUT = 2.0  # seconds a body may pause before it counts as cut short (408)
LISTEN_QUEUE = 128  # connections waiting to be accepted (the standard library's 5 dropped bursts)
SERVED_METHODS = ("GET", "HEAD", "POST")
_WHOLE_NUMBER = re.compile(r"-?[0-9]{1,19}")
_LENGTH = re.compile(r"[0-9]{1,12}")
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
}
SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "frame-ancestors 'none'",
}
STATIC_FILES = (
    "index.html",
    "style.css",
    "app.js",  # the page's entry module; the others, one concern each:
    "api.js",
    "boards.js",
    "clocks.js",
    "controls.js",
    "engine.js",
    "graph.js",
    "moves.js",
    "notation.js",
    "prefs.js",
    "shapes.js",
    "sounds.js",
    "view.js",
)
INTERNAL_ERROR = "internal error: the server could not answer this request (the details are in its log)"


def _piece_svg(symbol: str) -> bytes:
    """One piece of python-chess's set, as a standalone SVG document."""
    body = chess.svg.piece(chess.Piece.from_symbol(symbol))
    return body.encode()


def load_static() -> dict[str, tuple[bytes, str]]:
    """URL path -> (content, content type): the page's files and the twelve pieces."""
    files: dict[str, tuple[bytes, str]] = {}
    folder = resources.files("gui") / "static"
    for name in STATIC_FILES:
        content = (folder / name).read_bytes()
        files["/" + name] = (content, CONTENT_TYPES["." + name.rsplit(".", 1)[1]])
    files["/"] = files["/index.html"]
    for symbol in "PNBRQKpnbrqk":
        color = "w" if symbol.isupper() else "b"
        files[f"/pieces/{color}{symbol.upper()}.svg"] = (_piece_svg(symbol), CONTENT_TYPES[".svg"])
    return files


class BoardServer(ThreadingHTTPServer):
    """The server: its session, its static files and the names it answers to."""

    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = LISTEN_QUEUE

    def __init__(self, host: str, port: int, session: Session, allowed: tuple[str, ...] = ()) -> None:
        super().__init__((host, port), Handler)
        self.session = session
        self.static = load_static()
        self.port = self.server_address[1]
        names = {host, "127.0.0.1", "localhost", "[::1]", *allowed}
        self.allowed_hosts = {f"{name.lower()}:{self.port}" for name in names}
        self.allowed_origins = {f"http://{h}" for h in self.allowed_hosts}

    def answers_to(self, host: str) -> bool:
        """``host`` (a ``Host`` header, lower case) names this server: one of its names, or an IP
        address, with its port.

        DNS rebinding makes a browser send the attacker's name, so an address is safe to accept.
        """
        if host in self.allowed_hosts:
            return True
        address, _, port = host.rpartition(":")
        if port != str(self.port):
            return False
        if address.startswith("[") and address.endswith("]"):
            address = address[1:-1]
        try:
            ipaddress.ip_address(address)
        except ValueError:
            return False
        return True

    @property
    def local_only(self) -> bool:
        """Listening on a loopback address only: no other machine can reach the board."""
        try:
            return ipaddress.ip_address(str(self.server_address[0])).is_loopback
        except ValueError:
            return False

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that hangs up mid-answer is no error of ours; anything else is logged."""
        error = sys.exc_info()[1]
        if not isinstance(error, (ConnectionError, TimeoutError)):
            super().handle_error(request, client_address)

    @property
    def url(self) -> str:
        host = str(self.server_address[0])
        if host in ("0.0.0.0", "::", ""):
            host = "127.0.0.1"
        return f"http://{host}:{self.port}/"


@dataclass(frozen=True)
class Answer:
    """A response, built completely before any byte of it is sent."""

    status: int
    body: bytes
    content_type: str

    @classmethod
    def json(cls, status: int, data: Any) -> Answer:
        return cls(status, json.dumps(data).encode(), "application/json; charset=utf-8")


class Handler(BaseHTTPRequestHandler):
    """One request: guards, then its route; every request is answered in ``_answer``."""

    server: BoardServer
    protocol_version = "HTTP/1.1"
    timeout = REQUEST_TIMEOUT
    server_version = "alice-engine-gui"
    sys_version = ""

    # ------------------------------------------------------------ plumbing
    def log_message(self, format: str, *args: Any) -> None:
        pass  # quiet: the terminal shows only the URL and errors

    def log_error(self, format: str, *args: Any) -> None:
        if not format.startswith(("code %d", "Request timed out")):  # a bad request is the client's problem
            sys.stderr.write("gui: " + (format % args) + "\n")

    def _send(self, answer: Answer) -> None:
        self.send_response(answer.status)
        self.send_header("Content-Type", answer.content_type)
        self.send_header("Content-Length", str(len(answer.body)))
        self.send_header("Cache-Control", "no-store")
        for key, value in SECURITY_HEADERS.items():
            self.send_header(key, value)
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(answer.body)

    def _answer(self, route: Callable[[], Answer]) -> None:
        """The one place every request is answered: the route's answer; ``ApiError`` as its
        4xx and message; anything else as a 500 with a generic message (the details go to
        stderr, never to the client)."""
        self.body_read = self.command != "POST"
        try:
            answer = route()
        except ApiError as error:
            answer = Answer.json(error.status, {"error": str(error)})
        except Exception:
            sys.stderr.write(f"gui: internal error on {self.command} {self.path[:200]}:\n{traceback.format_exc()}")
            self.close_connection = True
            answer = Answer.json(500, {"error": INTERNAL_ERROR})
        if not self.body_read:
            self.close_connection = True  # a body left unread would be taken for the next request
        self._send(answer)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """The standard library's refusals (a malformed request line, headers too long, an
        unsupported HTTP version) as JSON with the security headers, like every answer."""
        self.close_connection = True
        if self.request_version == "HTTP/0.9":
            self.request_version = "HTTP/1.0"  # unparsed: answer with a status line and headers all the same
        text = message or self.responses.get(code, ("error",))[0]
        self._send(Answer.json(code, {"error": f"bad request: {text}"}))

    def parse_request(self) -> bool:
        """The standard library's parsing, then any method but ``SERVED_METHODS`` is refused
        here (it would answer 501 in HTML, before the ``Host`` check)."""
        if not super().parse_request():
            return False
        if self.command in SERVED_METHODS:
            return True
        self._answer(self._refuse_method)
        return False

    def _refuse_method(self) -> Answer:
        """405 for any method but ``SERVED_METHODS`` (not 501 for made-up ones: a 5xx is kept
        for the server's own failures)."""
        self._check_trusted()
        self.close_connection = True
        raise ApiError(405, f"method {self.command[:20]!r} not allowed (GET, HEAD and POST are)")

    def _check_trusted(self) -> None:
        """The Host (and Origin, if any) name this server; else 403."""
        host = self.headers.get("Host", "").lower()
        origin = self.headers.get("Origin")
        if not self.server.answers_to(host):
            raise ApiError(403, "forbidden: this server answers only to its own address")
        if origin is not None and origin.lower() not in (*self.server.allowed_origins, f"http://{host}"):
            raise ApiError(403, "forbidden: requests from other sites are refused")

    def _body(self) -> dict[str, Any]:
        """The JSON object in the request body (``ApiError`` if there is none within the limits)."""
        content_type = self.headers.get("Content-Type", "").split(";")[0].strip().lower()
        length_text = self.headers.get("Content-Length")
        if self.headers.get("Transfer-Encoding"):
            raise ApiError(411, "send the body with a Content-Length")
        length = -1
        if length_text is None:
            length = 0
        elif _LENGTH.fullmatch(length_text.strip()):
            length = int(length_text)
        if length < 0:
            raise ApiError(400, "bad Content-Length: expected a number of bytes")
        if length > MAX_BODY:
            raise ApiError(413, f"request too large (at most {MAX_BODY} bytes)")
        raw = self._read_body(length)
        if content_type != "application/json":
            raise ApiError(415, "send JSON (Content-Type: application/json)")
        try:
            return parse_object(raw)
        except BodyError as error:
            raise ApiError(400, str(error)) from None

    def _read_body(self, length: int) -> bytes:
        """``length`` bytes of body: 400 if the client ends it short, 408 if it stops sending
        for ``BODY_TIMEOUT`` seconds (the connection is closed either way)."""
        if not length:
            self.body_read = True
            return b""
        self.connection.settimeout(BODY_TIMEOUT)
        try:
            raw = self.rfile.read(length)
        except TimeoutError:
            raise ApiError(408, f"the body stopped arriving: {length} bytes were announced") from None
        finally:
            self.connection.settimeout(REQUEST_TIMEOUT)
        if len(raw) != length:
            raise ApiError(400, f"the body is shorter than its Content-Length ({len(raw)} of {length} bytes)")
        self.body_read = True
        return raw

    # ------------------------------------------------------------ methods
    def do_GET(self) -> None:
        self._answer(self._get)

    def do_HEAD(self) -> None:
        self._answer(self._get)

    def do_POST(self) -> None:
        self._answer(self._post)

    def _get(self) -> Answer:
        self._check_trusted()
        url = urlsplit(self.path)
        path = url.path
        session = self.server.session
        if path == "/api/state":
            after = parse_qs(url.query).get("after", [None])[0]
            version = None
            if after is not None:
                if not _WHOLE_NUMBER.fullmatch(after):
                    raise ApiError(400, "after must be a whole number")
                version = int(after)
            return Answer.json(200, session.wait_state(version, LONG_POLL))
        if path == "/api/pgn":
            return Answer.json(200, {"pgn": session.export_pgn()})
        if path == "/api/preview":
            query = parse_qs(url.query)
            node = query.get("node", [""])[0]
            if not (node.isascii() and node.isdigit() and len(node) <= 12):
                raise ApiError(400, "node must be a whole number")
            moves = [m for m in query.get("moves", [""])[0].split(",") if m]
            return Answer.json(200, session.preview(int(node), moves))
        if path in self.server.static:
            content, content_type = self.server.static[path]
            return Answer(200, content, content_type)
        if path.startswith("/api/"):
            raise ApiError(405 if path[5:] in POST_ROUTES else 404, f"no such request: GET {path[:100]}")
        raise ApiError(404, "not found")

    def _post(self) -> Answer:
        self._check_trusted()
        path = urlsplit(self.path).path
        route = POST_ROUTES.get(path[5:]) if path.startswith("/api/") else None
        if route is None:
            raise ApiError(404, f"no such request: POST {path[:100]}")
        session = self.server.session
        answer = route(session, self._body())
        return Answer.json(200, {"ok": True, **(answer or {}), "state": session.wait_state(None)})


Route = Callable[[Session, dict[str, Any]], dict[str, Any] | None]

POST_ROUTES: dict[str, Route] = {
    "new": lambda s, d: s.new_game(d),
    "mode": lambda s, d: s.set_mode(d),
    "move": lambda s, d: {"san": s.move(d.get("move"))},
    "takeback": lambda s, d: s.take_back(),
    "resign": lambda s, d: s.resign(),
    "goto": lambda s, d: s.goto(d),
    "draw": lambda s, d: s.offer_draw(),
    "promote": lambda s, d: s.promote(d),
    "delete": lambda s, d: s.delete(d),
    "line": lambda s, d: {"san": s.play_line(d)},
    "shapes": lambda s, d: s.set_shapes(d),
    "fen": lambda s, d: s.load_fen(d.get("fen")),
    "pgn": lambda s, d: s.load_pgn(d.get("pgn")),
    "analysis": lambda s, d: s.set_analysis(d),
    "review": lambda s, d: s.review(),
    "stop": lambda s, d: s.stop(),
    "go": lambda s, d: s.go(),
}

__all__ = ["MAX_BODY", "POST_ROUTES", "BoardServer"]
