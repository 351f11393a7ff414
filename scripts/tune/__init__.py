"""The evaluation fitter: make or read a data set of scored quiet positions, then refit the
evaluation's weights (``search/evaluate.py``, ``PIECE_VALUE`` in ``search/score.py``) to it.

    python scripts/tune data --out data.csv --positions 2000            # labelled by our search
    python scripts/tune data --out data.csv --engine fairy-stockfish --depth 10
    python scripts/tune fit data.csv                                    # prints the new constants

``tune.data`` makes the data set (random and self-play walks from the bundled openings,
quiet positions only, each labelled by a search) and reads one back; ``tune.fit`` fits the
weights Texel-style (see its docstring). ``docs/tuning.md`` has the commands and the figures
of a run.
"""
