"""Helpers the test modules share (not tests themselves): which engine build the tests run
(``installed``), seeded random games (``walks``), match-runner arguments and runs
(``matchargs``, ``matchrun``),
the web board's test server (``gui_helpers``) and the skip-or-fail rule for system programs
(``system_tools``). The scripted UCI engines the tests start are programs, in ``tests/engines``.
FEN building and the brute-force mate solver are in ``scripts/`` (``fenbuild``, ``mate_solver``):
``scripts/find_mates.py`` uses them too, and scripts import nothing from ``tests/``.
"""
