"""Which build of the engine runs: the mypyc-compiled modules or the pure Python sources.

``pip install .`` compiles the hot modules with mypyc when it can (see ``setup.py``);
``alice-engine --version`` and the UCI ``id name`` line say which build a user runs::

    >>> build_name() in (COMPILED, PURE)
    True
    >>> version_line().startswith(version())
    True

This module itself always stays interpreted.
"""

from __future__ import annotations

from importlib.machinery import EXTENSION_SUFFIXES

import engine.position

COMPILED = "compiled: mypyc"
PURE = "pure Python"
DISTRIBUTION = "alice-engine"  # the name pip installs the project under


def build_name() -> str:
    """``"compiled: mypyc"`` when the rules core is an extension module, else ``"pure Python"``.

    All compiled modules are built as one mypyc group, so ``engine.position`` stands for all.
    """
    path = getattr(engine.position, "__file__", None) or ""
    return COMPILED if path.endswith(tuple(EXTENSION_SUFFIXES)) else PURE


def version() -> str:
    """The installed distribution's version, or ``"dev"`` in a checkout that is not installed."""
    try:
        from importlib.metadata import version as distribution_version

        return distribution_version(DISTRIBUTION)
    except Exception:
        return "dev"


def version_line() -> str:
    """``"0.2.0 (compiled: mypyc)"`` or ``"0.2.0 (pure Python)"``."""
    return f"{version()} ({build_name()})"
