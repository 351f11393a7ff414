"""``python -m uci`` and the ``alice-engine`` console script.

With no arguments: speak UCI on stdin/stdout until ``quit`` or end of input.
With arguments: run them as one command, then exit (``alice-engine bench 3``).
``alice-engine --version``: the version and the build (compiled or pure Python).
``alice-engine gui ...`` starts the web board instead (see ``gui.cli``).
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args == ["--version"]:
        from engine.build import version_line

        print(f"alice-engine {version_line()}")
        return 0
    if args and args[0] == "gui":
        from gui.cli import main as gui_main

        return gui_main(args[1:])
    try:
        from uci.protocol import Output, UciEngine, serve

        engine = UciEngine(Output(sys.stdout))
        if args:
            engine.execute(" ".join(args))
            engine.shutdown()
            return 0
        return serve(engine)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
