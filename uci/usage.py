"""The command line of ``alice-engine``: its modes, one line each, and which words it accepts.

``alice-engine --help`` prints ``usage()``; a command line ``check_args`` refuses gets its
complaint and the usage on stderr, exit code ``EXIT_USAGE``. A new mode adds its line to
``MODES`` and its word to ``MODE_WORDS`` (``uci.__main__`` dispatches on it).

>>> check_args(["bench", "3"]) is None
True
>>> check_args(["go", "perft", "4"]) is None
True
>>> check_args(["--frobnicate"])
"unknown option '--frobnicate'"
>>> check_args(["go", "depth", "5"])
"only 'go perft DEPTH' runs from the command line; send other go commands on stdin"
>>> check_args(["xboard", "now"])
"'xboard' takes no arguments"
"""

from __future__ import annotations

from typing import Final

PROGRAM: Final = "alice-engine"
EXIT_USAGE: Final = 2  # a command line that is refused, as argparse and alice-match exit

# What follows ``alice-engine`` and what it does, in the order --help lists them.
MODES: Final[tuple[tuple[str, str], ...]] = (
    ("", "speak UCI on stdin/stdout (the default)"),
    ("gui [OPTIONS]", "the web board in your browser ('gui --help')"),
    ("solve FILE", "solve the Alice problems of a Popeye input file ('solve --help': --fen, --json)"),
    ("xboard", "speak CECP, for XBoard and WinBoard"),
    ("tb generate [ENDINGS] --dir DIR", "endgame tablebases ('tb generate --help', docs/endgames.md)"),
    ("bench [DEPTH]", "the bench: node signature and speed"),
    ("go perft DEPTH", "perft of the start position, by move"),
    ("uci | d | eval", "that UCI command on the start position"),
    ("--version", "the version and the build (compiled or pure)"),
    ("-h, --help", "this help"),
)
# Words that start a mode of their own and take no UCI command after them.
MODE_WORDS: Final = frozenset({"xboard", "--version", "-h", "--help"})
# UCI commands that run once from the command line (then the engine exits); "go" only as "go perft".
ONE_SHOT_COMMANDS: Final = frozenset({"bench", "uci", "d", "eval", "go"})
HELP_WORDS: Final = ("-h", "--help")


def usage() -> str:
    """The help text: one line per mode, the commands aligned.

    >>> usage().splitlines()[0]
    'usage: alice-engine [MODE]'
    >>> any(line.strip().startswith("alice-engine bench [DEPTH]") for line in usage().splitlines())
    True
    """
    commands = [f"{PROGRAM} {words}".rstrip() for words, _ in MODES]
    width = max(len(command) for command in commands)
    lines = [f"usage: {PROGRAM} [MODE]", "", "modes:"]
    for command, (_, what) in zip(commands, MODES):
        lines.append(f"  {command.ljust(width)}  {what}")
    lines += ["", "In UCI mode a first line 'xboard' switches to CECP.", "UCI commands and options: docs/uci.md."]
    return "\n".join(lines)


def check_args(args: list[str]) -> str | None:
    """Why the command line ``args`` (after ``gui`` has been taken out) is refused, or ``None``
    when ``uci.__main__`` can run it."""
    if not args:
        return None
    word = args[0].lower()
    if word in MODE_WORDS:
        return None if len(args) == 1 else f"{args[0]!r} takes no arguments"
    if word == "go":
        if len(args) >= 2 and args[1].lower() == "perft":
            return None
        return "only 'go perft DEPTH' runs from the command line; send other go commands on stdin"
    if word in ONE_SHOT_COMMANDS:
        return None
    kind = "option" if word.startswith("-") else "command"
    return f"unknown {kind} {args[0]!r}"
