"""Alice endgame tablebases: distance to mate for every position of a few-piece ending.

    ending.py   endings by name (``KQK``, ``KRKN``), the symmetries Alice keeps, and the index
                of a position in an ending's table (and back)
    generate.py retrograde analysis of one ending: its geometry and exits (captures and
                promotions, read in smaller tables) set up for ``retro``
    retro.py    the compiled passes: moves and un-moves on two bitboards (no ``Position``),
                values propagated back from mates and exits ply by ply, three bytes per index
    fileformat.py  the ``.atb`` file: one header line (ending, version, checksum) and the
                compressed values; written atomically, read with every check
    probe.py    ``Tablebases``: a directory of tables, a position's value, the best root moves
    cli.py      ``alice-engine tb generate``: which endings, resumable, a progress bar, Dask

One value per position (a byte): ``ILLEGAL`` (the side not to move is in check, pieces clash),
``DRAWN``, or ``DECIDED + plies``: the side to move mates in that many plies when it is odd,
is mated in that many when it is even (0: checkmated now). The fifty-move rule is ignored.
"""
