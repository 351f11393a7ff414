"""``alice-engine gui [--host H] [--port N] [--engine CMD]... [--allow-host NAME]... [--no-browser]``.

Starts the web board, prints its URL as the first line on stdout, opens the browser
(unless ``--no-browser``) and serves until Ctrl-C (or SIGTERM, SIGHUP). On an address other machines can reach
(``--host 0.0.0.0``) it answers them at this machine's IP address, and at the names given
with ``--allow-host`` (a name of this machine, as the other machines type it); stderr says so.
"""

from __future__ import annotations

import argparse
import dataclasses
import re
import signal
import sys
import threading
import webbrowser
from typing import Final

from gui.engines import EngineLoop, EngineSpec, default_engine
from gui.server import BoardServer
from gui.session import Session
from tablebase.fileformat import TableFileError
from tablebase.probe import Tablebases

DEFAULT_HOST = "127.0.0.1"
MAX_GUI_THREADS: Final = 1024  # --threads' bound (an engine with a lower maximum answers with an error line)
STOP_SIGNALS = ("SIGTERM", "SIGHUP")  # stop as Ctrl-C does: the engines are ended (a closed terminal sends SIGHUP)
HOST_NAME = re.compile(r"[A-Za-z0-9]([A-Za-z0-9.-]{0,252})")  # a DNS name as a Host header carries it


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="alice-engine gui",
        description="Play and analyse Alice chess in the browser, against this engine or any Alice UCI engine.",
    )
    parser.add_argument(
        "--host", default=DEFAULT_HOST, help="address to listen on (default %(default)s: this machine only)"
    )
    parser.add_argument("--port", type=int, default=0, help="port (default 0: any free port)")
    parser.add_argument(
        "--engine",
        action="append",
        metavar="CMD",
        help="a UCI engine command line to play (default: this engine); give it again to offer a second engine",
    )
    parser.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a name of this machine other machines may use to reach the board (with --host 0.0.0.0); "
        "its IP addresses are always accepted",
    )
    parser.add_argument("--no-browser", action="store_true", help="do not open a browser")
    parser.add_argument("--tb", metavar="DIR", help="endgame tables (alice-engine tb generate): the status line tells mate in N")
    parser.add_argument(
        "--threads", type=int, default=None, metavar="N",
        help="set the UCI option Threads to N in every engine that has it (default: the engine's own)",
    )
    args = parser.parse_args(argv)
    if not 0 <= args.port <= 65535:
        parser.error("--port must be 0 to 65535")
    if args.threads is not None and not 1 <= args.threads <= MAX_GUI_THREADS:
        parser.error(f"--threads must be 1 to {MAX_GUI_THREADS}")
    for name in args.allow_host:
        if not HOST_NAME.fullmatch(name):
            parser.error(f"--allow-host {name!r}: expected a host name such as mybox.local (no port, no scheme)")
    try:
        args.specs = [EngineSpec.parse(text) for text in args.engine] if args.engine else [default_engine()]
    except ValueError as error:
        parser.error(str(error))
    if args.threads is not None:
        args.specs = [dataclasses.replace(spec, options={"Threads": args.threads}) for spec in args.specs]
    return args


def _terminate(signum: int, frame: object) -> None:
    """SIGTERM, SIGHUP: unwind ``serve_forever`` so the engines are told to quit (and killed if
    deaf); another one while stopping is ignored, so the stop completes."""
    for name in STOP_SIGNALS:
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_IGN)
    raise SystemExit(0)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    loop = EngineLoop()
    session = Session(args.specs, loop)
    if args.tb:
        try:
            session.tablebases = Tablebases(args.tb, lambda message: print(f"alice-engine gui: {message}", file=sys.stderr))
        except TableFileError as error:
            print(f"alice-engine gui: --tb: {error}", file=sys.stderr)
            loop.close()
            return 2
    try:
        server = BoardServer(args.host, args.port, session, tuple(args.allow_host))
    except OSError as error:
        print(f"alice-engine gui: cannot listen on {args.host}:{args.port}: {error.strerror or error}", file=sys.stderr)
        loop.close()
        return 1
    for name in STOP_SIGNALS:  # before the URL is out: whoever reads it may stop us at once
        if hasattr(signal, name):  # no SIGHUP on Windows
            signal.signal(getattr(signal, name), _terminate)
    try:
        if not server.local_only:  # said before the URL is out, so whoever reads the URL has it
            names = ", ".join(args.allow_host) or "none (add them with --allow-host NAME)"
            print(
                f"alice-engine gui: listening on {args.host}: any machine that can reach this one can use the board, "
                f"at http://ADDRESS:{server.port}/ with this machine's IP address; names accepted: {names}",
                file=sys.stderr,
                flush=True,
            )
        print(server.url, flush=True)
        session.start()
        if not args.no_browser:
            threading.Thread(target=webbrowser.open, args=(server.url,), daemon=True).start()
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        session.close()
        loop.close()
    return 0
