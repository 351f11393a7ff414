"""Helpers the test modules share (not tests themselves): which engine build the tests run
(``installed``), seeded random games (``walks``), FEN building (``fenbuild``), the brute-force
mate solver (``mate_solver``), match-runner arguments and runs (``matchargs``, ``matchrun``),
the web board's test server (``gui_helpers``) and the skip-or-fail rule for system programs
(``system_tools``). The scripted UCI engines the tests start are programs, in ``tests/engines``.
"""
