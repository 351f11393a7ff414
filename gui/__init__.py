"""The local web board: play and analyse Alice chess in the browser (``alice-engine gui``).

``gui.cli`` starts it; ``gui.server`` is the HTTP layer, ``gui.session`` the state of the
board and the engine work, ``gui.engines`` the UCI engines (through ``chess.engine``),
``gui.game`` one game (through ``AliceBoard`` and ``chess.pgn``); ``gui/static`` holds
the page (plain HTML, CSS and JavaScript, no build step).
"""
