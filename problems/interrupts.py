"""A no-op that the compiled solver calls every few thousand nodes.

This module stays interpreted (``setup.py`` compiles ``problems/solver.py`` only). Entering
interpreted code lets CPython run what it has pending: a Ctrl-C's ``KeyboardInterrupt``
(``alice-engine solve`` stops at once) and a hand-over of the GIL to other threads (the web
board answers while it solves). A loop compiled by mypyc never does either by itself.
"""


def let_python_run() -> None:
    """Return at once; being called is the point (see the module's docstring)."""
