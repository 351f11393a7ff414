"""Argument builders for the alice-match tests: ``-engine`` groups for the scripted test
engines, the reference players and our engine, and ``-each``.

>>> engine("prog", "x", name="p", nodes=5, option_Hash=4, ponder=True)
['-engine', 'cmd=prog', 'arg=x', 'name=p', 'nodes=5', 'option.Hash=4', 'ponder']
"""

from __future__ import annotations

import sys
from pathlib import Path

from support.installed import CHILD_CWD

ROOT = Path(__file__).resolve().parents[2]
SCRIPTED = ROOT / "tests" / "engines" / "scripted.py"


def _keys(keys: dict[str, str | float | bool]) -> list[str]:
    """``KEY=VALUE`` words; ``option_X`` is ``option.X``; ``True`` gives the bare key (``ponder``)."""
    words = []
    for key, value in keys.items():
        key = key.replace("option_", "option.", 1) if key.startswith("option_") else key
        if value is True:
            words.append(key)
        elif value is not False:
            words.append(f"{key}={value}")
    return words


def engine(cmd: str, *args: str, name: str | None = None, **keys: str | float | bool) -> list[str]:
    """One ``-engine`` group: ``cmd=``, an ``arg=`` per argument, ``name=``, then the keys."""
    group = ["-engine", f"cmd={cmd}", *(f"arg={a}" for a in args)]
    if name:
        group.append(f"name={name}")
    return group + _keys(keys)


def scripted(*args: str, name: str | None = None, **keys: str | float | bool) -> list[str]:
    """tests/engines/scripted.py with ``args`` (``first``, ``random 5``, ``crash 2``, ...)."""
    return engine(sys.executable, str(SCRIPTED), *args, name=name, **keys)


def player(kind: str, name: str | None = None, **keys: str | float | bool) -> list[str]:
    """A reference player (``random`` or ``greedy``): ``python -m alice_match.players KIND``."""
    return engine(sys.executable, "-m", "alice_match.players", kind, name=name, dir=str(ROOT / "scripts"), **keys)


def our_engine(name: str = "alice", **keys: str | float | bool) -> list[str]:
    """This project's engine: ``python -m uci``, the installed build if any (``tests/support/installed.py``)."""
    return engine(sys.executable, "-m", "uci", name=name, dir=CHILD_CWD, **keys)


def each(**keys: str | float | bool) -> list[str]:
    """``-each KEY=VALUE ...``."""
    return ["-each", *_keys(keys)]
