"""Search and evaluation constants set at start-up for tuning: ``ALICE_TUNE='NAME=VALUE,...'``.

    ALICE_TUNE='RFP_MARGIN=110,LMR_BASE=0.8,MOB_FREE[2]=11' alice-engine

The SPSA tuner (``python scripts/tune spsa``, docs/tuning.md) plays games between engines
started with different values of the named ``Final`` constants, without a rebuild per step.
``alice-engine`` reads the variable once, before anything else (``uci.__main__``), and only
when it is set: without it this module is not even imported, so a normal engine runs
exactly as before (same code, same ``bench``).

What can be set: every ``int`` or ``float`` constant annotated ``Final`` in one of
``TUNABLE_MODULES`` (``NAME``) but the structure ones (``FIXED``), and each entry of such a
tuple of numbers (``NAME[i]``). A float value for an int constant (or entry) is rounded (as
fishtest's worker rounds an SPSA value). The new value goes to the module that defines the
constant and to every loaded ``search`` module that imported it by name; the tables derived
from the constants at import (the evaluation's, the LMR table, the SEE and delta-pruning
piece values, SEE's promotion gain) are then rebuilt.

It works in the pure Python build (a checkout, ``pip install -e``, or ``ALICE_ENGINE_PURE=1
pip install .``) and in the compiled tuning build (``ALICE_ENGINE_TUNE=1 pip install .``:
``setup.py`` compiles the tuned modules with these constants as module variables, about 0.7
times the normal speed). The normal compiled build has ``Final`` constants built into its
code, where setting the module attribute would change nothing: it refuses the variable
(``TuneError``) rather than play silently with the defaults. At a fixed node count every
build plays the very same games, only faster or slower, so an SPSA run at ``nodes=N`` on
the pure build tunes the compiled engine too.
"""

from __future__ import annotations

import ast
import functools
import importlib
import math
import os
import re
import sys
from collections.abc import Mapping
from types import ModuleType
from typing import Final

TUNE_ENV: Final = "ALICE_TUNE"  # the environment variable: NAME=VALUE pairs, comma-separated
# The modules whose Final numbers can be set (their own constants, not the ones they import).
TUNABLE_MODULES: Final = (
    "search.tree",
    "search.evaluate",
    "search.score",
    "search.search",
    "search.timeman",
    "search.movepick",
    "search.history",
    "search.see",
)
# Structure, not tuning: sizes, encodings, move-picker stages and ordering bands, the score
# scale, bounds of the i16 history tables, values derived from others (changing one breaks the
# engine, or is undone, rather than weakening it).
FIXED: Final = frozenset(
    ("MATE", "MATE_BOUND", "INF", "DRAW", "MAX_DEPTH", "MAX_PLY", "PIECE_TO_SIZE", "LMR_TABLE_SIZE",
     "LMR_LAST", "NO_CUTOFF", "SINGULAR", "KEY_MOVE", "MAX_EXCHANGE", "CONT_NEUTRAL", "CONT_SIZE",
     "CAPTURE_HISTORY_SIZE", "HISTORY_MAX", "CONT_HISTORY_MAX", "HISTORY_HALVE_AT", "TT_MOVE_SCORE",
     "CAPTURE_BASE", "KILLER_SCORE", "COUNTER_SCORE", "BAD_CAPTURE_BASE", "PROMOTION_GAIN", "PHASE_MAX")
)
_ITEM: Final = re.compile(r"^([A-Z][A-Z0-9_]*)(?:\[(\d+)\])?$")  # NAME or NAME[i]


class TuneError(ValueError):
    """A bad ``ALICE_TUNE``: an unknown name, a value that is no number, or a compiled build."""


def parse_assignments(text: str) -> dict[str, float]:
    """``"A=1,B[2]=3.5"`` -> ``{"A": 1.0, "B[2]": 3.5}`` (spaces around items allowed).

    >>> parse_assignments(" RFP_MARGIN=110, MOB_FREE[2]=11.5 ")
    {'RFP_MARGIN': 110.0, 'MOB_FREE[2]': 11.5}
    """
    values: dict[str, float] = {}
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        name, sep, raw = item.partition("=")
        name = name.strip()
        if not sep or not _ITEM.match(name):
            raise TuneError(f"{TUNE_ENV}: expected NAME=VALUE or NAME[i]=VALUE, got {item[:60]!r}")
        try:
            value = float(raw)
        except ValueError:
            raise TuneError(f"{TUNE_ENV}: {name}: not a number: {raw.strip()[:40]!r}") from None
        if not math.isfinite(value):
            raise TuneError(f"{TUNE_ENV}: {name}: not a finite number: {raw.strip()[:40]!r}")
        values[name] = value
    return values


@functools.cache
def tunable_constants() -> dict[str, ModuleType]:
    """Every settable constant's name and the module that defines it."""
    homes: dict[str, ModuleType] = {}
    for module_name in TUNABLE_MODULES:
        module = importlib.import_module(module_name)
        for name in final_names(module):
            fixed = name in FIXED or name.startswith("STAGE_")
            if _settable(getattr(module, name, None)) and not fixed:
                homes[name] = module
    return homes


@functools.cache
def final_names(module: ModuleType) -> list[str]:
    """The names a module annotates ``Final`` at its top level, read from its source (a compiled
    module keeps its ``.py`` beside it but has no ``__annotations__``)."""
    path = os.path.join(os.path.dirname(module.__file__ or ""), module.__name__.rsplit(".", 1)[-1] + ".py")
    try:
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read())
    except OSError:  # no source: the annotations then (the pure build always has both)
        return [n for n, a in getattr(module, "__annotations__", {}).items() if "Final" in str(a)]
    return [
        node.target.id
        for node in tree.body
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and "Final" in ast.unparse(node.annotation)
    ]


def _settable(value: object) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float)):
        return True
    return isinstance(value, tuple) and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)


def current_value(name: str) -> float:
    """The value a constant (``NAME`` or ``NAME[i]``) has now."""
    base, index = _split(name)
    value = getattr(_home(base), base)
    return float(value[index] if index is not None else value)


def planned(values: Mapping[str, float]) -> dict[str, object]:
    """The constants' new values (a table with its entries replaced), by name; nothing is set.

    >>> planned({"RFP_MARGIN": 104.6, "MOB_FREE[2]": 11.2})
    {'RFP_MARGIN': 105, 'MOB_FREE': (0, 0, 11, 15, 8, 3, 0)}
    """
    changes: dict[str, object] = {}
    for name, value in values.items():
        base, index = _split(name)
        old = changes.get(base, getattr(_home(base), base))
        changes[base] = _replace(base, old, index, value)
    return changes


def source_path(base: str) -> str:
    """The source file that defines a settable constant."""
    home = _home(base)
    return os.path.join(os.path.dirname(home.__file__ or ""), home.__name__.rsplit(".", 1)[-1] + ".py")


def apply(values: Mapping[str, float]) -> None:
    """Set the constants (all checked first: a bad name changes nothing), then rebuild the tables."""
    changes = planned(values)
    if changes:
        _require_pure_build()
    for base, new in changes.items():
        _set_everywhere(_home(base), base, new)
    if changes:
        _rebuild_tables()


def apply_environment(environ: Mapping[str, str] | None = None) -> dict[str, float]:
    """Apply ``ALICE_TUNE`` from the environment (nothing when it is unset or empty); the values set."""
    text = (os.environ if environ is None else environ).get(TUNE_ENV, "")
    values = parse_assignments(text)
    apply(values)
    return values


def _split(name: str) -> tuple[str, int | None]:
    match = _ITEM.match(name)
    if not match:
        raise TuneError(f"{TUNE_ENV}: expected NAME or NAME[i], got {name[:60]!r}")
    return match.group(1), (int(match.group(2)) if match.group(2) is not None else None)


def _home(base: str) -> ModuleType:
    home = tunable_constants().get(base)
    if home is None:
        raise TuneError(f"{TUNE_ENV}: {base} is no number constant of {', '.join(TUNABLE_MODULES)}")
    return home


def _replace(base: str, old: object, index: int | None, value: float) -> object:
    """The constant's new value: a number of the old one's type, or the tuple with one entry replaced."""
    if isinstance(old, tuple):
        if index is None or not 0 <= index < len(old):
            raise TuneError(f"{TUNE_ENV}: {base} is a table of {len(old)} entries: give {base}[0..{len(old) - 1}]")
        entry = round(value) if isinstance(old[index], int) else value
        return (*old[:index], entry, *old[index + 1:])
    if index is not None:
        raise TuneError(f"{TUNE_ENV}: {base} is a single number, not a table")
    return round(value) if isinstance(old, int) else value


def _set_everywhere(home: ModuleType, base: str, new: object) -> None:
    """Set the constant in its module and in every loaded ``search`` module that imported it."""
    setattr(home, base, new)
    for module_name, module in list(sys.modules.items()):
        if module is home or not module_name.startswith("search.") or not hasattr(module, base):
            continue
        if base not in final_names(module):  # imported, not its own constant
            setattr(module, base, new)


def _rebuild_tables() -> None:
    """The tables computed from the constants at import, computed again."""
    import search.evaluate as evaluate
    import search.score as score
    import search.see as see
    import search.tree as tree
    from engine.bits import i64_table
    from engine.tables import PAWN, QUEEN

    evaluate.rebuild_tables()
    tree.LMR = i64_table(tree._lmr_table())  # type: ignore[misc]
    tree.CAPTURE_GAIN = i64_table(score.PIECE_VALUE)  # type: ignore[misc]
    see.SEE_VALUE = i64_table(score.PIECE_VALUE)  # type: ignore[misc]
    see.PROMOTION_GAIN = score.PIECE_VALUE[QUEEN] - score.PIECE_VALUE[PAWN]  # type: ignore[misc]


def settable_build() -> bool:
    """The pure build, or a compiled tuning build (``ALICE_ENGINE_TUNE=1 pip install .``, whose
    ``search.tree`` carries ``TUNABLE_BUILD``): the constants are variables there."""
    import search.tree as tree
    from engine.build import COMPILED, build_name

    return build_name() != COMPILED or getattr(tree, "TUNABLE_BUILD", 0) == 1


def _require_pure_build() -> None:
    if not settable_build():
        raise TuneError(
            f"{TUNE_ENV} needs the pure Python build or a tuning build: the compiled build has the constants "
            "built into its code (install with ALICE_ENGINE_PURE=1 or ALICE_ENGINE_TUNE=1, or run python -m uci "
            "from a checkout)"
        )
