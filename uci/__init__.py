"""The UCI front end: text in, text out over the engine and search packages.

``uci.protocol.UciEngine`` holds the state and one handler per command;
``uci.__main__.main`` is the ``alice-engine`` / ``python -m uci`` entry point.
"""
