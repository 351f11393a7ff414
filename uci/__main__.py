"""``python -m uci`` and the ``alice-engine`` console script.

With no arguments: speak UCI on stdin/stdout until ``quit`` or end of input, or CECP
(XBoard/WinBoard) when the first line is ``xboard``; ``alice-engine xboard`` speaks CECP.
``alice-engine bench 3``, ``go perft 5``, ``uci``, ``d``, ``eval``: that one UCI command, then
exit (2 if it was refused). ``alice-engine --version``: the version and the build.
``alice-engine gui ...`` starts the web board instead (see ``gui.cli``), ``alice-engine solve ...``
solves chess problems (``problems.cli``), ``alice-engine tb ...`` generates endgame tablebases
(``tablebase.cli``). ``-h``/``--help``
prints the modes (``uci.usage``); any other command line prints them on stderr, exit 2.
With ``ALICE_TUNE`` set, the named search and evaluation constants take the values given
first (``search.tuning``: the pure build or a tuning build); a bad value is one error line, exit 2.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from search.thinker import Thinker
    from uci.shared import Output


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] == "gui":
        from gui.cli import main as gui_main

        return gui_main(args[1:])
    if args and args[0] == "solve":
        from problems.cli import main as solve_main

        try:
            return solve_main(args[1:])
        except KeyboardInterrupt:  # Ctrl-C during a long solve: no traceback
            return 130
    if args and args[0] == "tb":
        from tablebase.cli import main as tb_main

        return tb_main(args[1:])
    from uci.usage import EXIT_USAGE, HELP_WORDS, PROGRAM, check_args, usage

    refused = check_args(args)
    if refused is not None:
        print(f"{PROGRAM}: {refused}\n\n{usage()}", file=sys.stderr)
        return EXIT_USAGE
    word = args[0].lower() if args else ""
    if word in HELP_WORDS:
        print(usage())
        return 0
    if word == "--version":
        from engine.build import version_line

        print(f"{PROGRAM} {version_line()}")
        return 0
    if os.environ.get("ALICE_TUNE"):  # tuning (SPSA): the module is not even imported without it
        from search.tuning import TuneError, apply_environment

        try:
            apply_environment()
        except TuneError as error:
            print(f"{PROGRAM}: {error}", file=sys.stderr)
            return EXIT_USAGE
    try:
        from uci.shared import Output

        if word == "xboard":
            return _serve_cecp(Output(sys.stdout))
        from uci.protocol import UciEngine, serve
        from uci.shared import read_line

        engine = UciEngine(Output(sys.stdout))  # built before input arrives: the first answer is quick
        if args:  # one UCI command from the command line (check_args let only those through)
            engine.execute(" ".join(args))
            engine.shutdown()
            return EXIT_USAGE if engine.errors else 0
        first = read_line(sys.stdin) if sys.stdin is not None else None
        if first is not None and first.split()[:1] == ["xboard"]:
            return _serve_cecp(engine.out, engine.thinker)  # XBoard's first line: the rest is CECP
        if first is not None and not engine.execute(first):
            engine.shutdown()
            return 0
        return serve(engine)
    except KeyboardInterrupt:
        return 130


def _serve_cecp(out: Output, thinker: Thinker | None = None) -> int:
    from uci.cecp import CecpEngine, serve_cecp

    return serve_cecp(CecpEngine(out, thinker))


if __name__ == "__main__":
    sys.exit(main())
