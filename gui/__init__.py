"""The local web board: play and analyse Alice chess in the browser (``alice-engine gui``).

``gui.cli`` starts it; ``gui.server`` is the HTTP layer (``gui.jsonbody`` reads bodies);
``gui.session`` what each request does to the board, ``gui.requests`` the checks of each
request's input, ``gui.state`` the board's state shared by them, ``gui.view`` its JSON for
the page, ``gui.scheduler`` the engine search it calls for; ``gui.engines`` the UCI engines
(through ``chess.engine``); ``gui.game`` one game as a move tree (through ``AliceBoard``),
``gui.pgn`` its PGN in and out, ``gui.notation`` typed moves; ``gui/static`` holds the page
(plain HTML, CSS and JavaScript modules, no build step).
"""
